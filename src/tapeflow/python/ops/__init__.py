"""`tensorflow.python.ops`: TF's op modules as libraries import them (`math_ops`)."""
