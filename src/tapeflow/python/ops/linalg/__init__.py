"""`tensorflow.python.ops.linalg`: the sparse-matrix module `sparse`."""
