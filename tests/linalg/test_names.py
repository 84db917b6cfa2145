"""tf.linalg's names: every TF 2.21 name resolves, the namespace exports nothing TF lacks, and
the top-level aliases are the same functions."""
import pytest

import tapeflow as tf

# TF 2.21's public tf.linalg names.
TF_LINALG = """LinearOperator LinearOperatorAdjoint LinearOperatorBlockDiag
LinearOperatorBlockLowerTriangular LinearOperatorCirculant LinearOperatorCirculant2D
LinearOperatorCirculant3D LinearOperatorComposition LinearOperatorDiag LinearOperatorFullMatrix
LinearOperatorHouseholder LinearOperatorIdentity LinearOperatorInversion LinearOperatorKronecker
LinearOperatorLowRankUpdate LinearOperatorLowerTriangular LinearOperatorPermutation
LinearOperatorScaledIdentity LinearOperatorToeplitz LinearOperatorTridiag LinearOperatorZeros
adjoint band_part banded_triangular_solve cholesky cholesky_solve cross det diag diag_part eig
eigh eigh_tridiagonal eigvals eigvalsh einsum experimental expm eye global_norm inv l2_normalize
logdet logm lstsq lu lu_matrix_inverse lu_reconstruct lu_solve matmul matrix_rank
matrix_transpose matvec norm normalize pinv qr set_diag slogdet solve sqrtm svd tensor_diag
tensor_diag_part tensordot trace triangular_solve tridiagonal_matmul tridiagonal_solve""".split()
@pytest.mark.parametrize("name", TF_LINALG)
def test_every_tf_name_resolves(name):
    assert name in tf.linalg.__all__ and hasattr(tf.linalg, name)


def test_the_namespace_exports_only_tf_names():
    assert sorted(tf.linalg.__all__) == sorted(TF_LINALG)
    assert tf.linalg.experimental.__all__ == ["conjugate_gradient"]


def test_top_level_aliases():
    assert tf.eig is tf.linalg.eig and tf.eigvals is tf.linalg.eigvals
    assert tf.matrix_square_root is tf.linalg.sqrtm
    assert tf.linalg.LinearOperatorFullMatrix.__mro__[1] is tf.linalg.LinearOperator
