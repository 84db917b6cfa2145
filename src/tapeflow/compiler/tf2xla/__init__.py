"""`tensorflow.compiler.tf2xla`: XLA's TF ops (`python.xla`)."""
