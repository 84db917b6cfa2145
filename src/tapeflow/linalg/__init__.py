"""tf.linalg: batched linear algebra, and LinearOperator with its subclasses."""
from ..ops.clip_ops import global_norm
from ..ops.creation_ops import eye
from ..ops.diag_ops import (band_part, diag, diag_part, set_diag, tensor_diag, tensor_diag_part,
                            trace)
from ..ops.linalg_extra_ops import (cholesky_solve, cross, eig, eigvals, lstsq, lu,
                                    lu_matrix_inverse, lu_reconstruct, lu_solve, matrix_rank,
                                    pinv)
from ..ops.linalg_ops import (adjoint, cholesky, det, eigh, eigvalsh, inv, logdet,
                              matrix_transpose, matvec, qr, slogdet, solve, svd, triangular_solve)
from ..ops.math_ops import matmul
from ..ops.matrix_function_ops import expm, logm, sqrtm
from ..ops.norm_ops import l2_normalize, norm, normalize
from ..ops.special_math_ops import einsum, tensordot
from ..ops.tridiagonal_ops import (banded_triangular_solve, eigh_tridiagonal, tridiagonal_matmul,
                                   tridiagonal_solve)
from .linear_operator import (LinearOperator, LinearOperatorAdjoint, LinearOperatorComposition,
                              LinearOperatorInversion)
from .linear_operator_block import (LinearOperatorBlockDiag, LinearOperatorBlockLowerTriangular,
                                    LinearOperatorKronecker, LinearOperatorLowRankUpdate)
from .linear_operator_circulant import (LinearOperatorCirculant, LinearOperatorCirculant2D,
                                        LinearOperatorCirculant3D)
from .linear_operator_patterned import (LinearOperatorHouseholder, LinearOperatorPermutation,
                                        LinearOperatorToeplitz, LinearOperatorTridiag)
from .linear_operator_structured import (LinearOperatorDiag, LinearOperatorFullMatrix,
                                         LinearOperatorIdentity, LinearOperatorLowerTriangular,
                                         LinearOperatorScaledIdentity, LinearOperatorZeros)
from . import experimental

__all__ = ["LinearOperator", "LinearOperatorAdjoint", "LinearOperatorBlockDiag",
           "LinearOperatorBlockLowerTriangular", "LinearOperatorCirculant",
           "LinearOperatorCirculant2D", "LinearOperatorCirculant3D", "LinearOperatorComposition",
           "LinearOperatorDiag", "LinearOperatorFullMatrix", "LinearOperatorHouseholder",
           "LinearOperatorIdentity", "LinearOperatorInversion", "LinearOperatorKronecker",
           "LinearOperatorLowRankUpdate", "LinearOperatorLowerTriangular",
           "LinearOperatorPermutation", "LinearOperatorScaledIdentity", "LinearOperatorToeplitz",
           "LinearOperatorTridiag", "LinearOperatorZeros", "adjoint", "band_part",
           "banded_triangular_solve", "cholesky", "cholesky_solve", "cross", "det", "diag",
           "diag_part", "eig", "eigh", "eigh_tridiagonal", "eigvals", "eigvalsh", "einsum",
           "experimental", "expm", "eye", "global_norm", "inv", "l2_normalize", "logdet", "logm",
           "lstsq", "lu", "lu_matrix_inverse", "lu_reconstruct", "lu_solve", "matmul",
           "matrix_rank", "matrix_transpose", "matvec", "norm", "normalize", "pinv", "qr",
           "set_diag", "slogdet", "solve", "sqrtm", "svd", "tensor_diag", "tensor_diag_part",
           "tensordot", "trace", "triangular_solve", "tridiagonal_matmul", "tridiagonal_solve"]
