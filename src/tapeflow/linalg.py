"""tf.linalg: batched linear algebra."""
from .ops.clip_ops import global_norm
from .ops.creation_ops import eye
from .ops.diag_ops import band_part, diag, diag_part, tensor_diag, tensor_diag_part, trace
from .ops.linalg_ops import (adjoint, cholesky, det, eigh, eigvalsh, inv, logdet, matrix_transpose,
                             matvec, qr, slogdet, solve, svd, triangular_solve)
from .ops.math_ops import matmul
from .ops.norm_ops import l2_normalize, norm
from .ops.special_math_ops import einsum, tensordot

__all__ = ["adjoint", "band_part", "cholesky", "det", "diag", "diag_part", "eigh", "eigvalsh",
           "einsum", "eye", "global_norm", "inv", "l2_normalize", "logdet", "matmul",
           "matrix_transpose", "matvec", "norm", "qr", "slogdet", "solve", "svd", "tensor_diag",
           "tensor_diag_part", "tensordot", "trace", "triangular_solve"]
