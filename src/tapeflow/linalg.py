"""tf.linalg: batched linear algebra."""
from .ops.linalg_ops import (adjoint, band_part, cholesky, det, diag, diag_part, eigh, eigvalsh,
                             inv, matrix_transpose, matvec, qr, slogdet, solve, svd, tensor_diag,
                             tensor_diag_part, trace, triangular_solve)
from .ops.math_ops import matmul
from .ops.norm_ops import norm

__all__ = ["adjoint", "band_part", "cholesky", "det", "diag", "diag_part", "eigh", "eigvalsh",
           "inv", "matmul", "matrix_transpose", "matvec", "norm", "qr", "slogdet", "solve", "svd",
           "tensor_diag", "tensor_diag_part", "trace", "triangular_solve"]
