"""`tensorflow.compiler.tf2xla.python`: the module `xla`."""
