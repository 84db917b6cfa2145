"""`tensorflow.python.ops.linalg.sparse`: CSR sparse matrices (`sparse_csr_matrix_ops`)."""
