"""Gradient-check rows for the matrix functions, general eigen-decompositions, LU, least
squares, tridiagonal and banded solves, and LinearOperator methods (well-conditioned inputs,
distinct spectra). Rows are written to be independent of what the decompositions leave free
(eigenvalue order, eigenvector phase), so they compare with TF's as they are."""
import numpy as np

import tapeflow as tf

from ._table import EXEMPT, case, normal, uniform
from .math_cases import complex_row, pair

_I3 = np.eye(3)


def _spd(x):
    return tf.matmul(x, x, transpose_b=True) + 3.0 * _I3


# -- matrix functions -----------------------------------------------------------------------
case("MatrixExponential", tf.linalg.expm, normal(3, 3))
case("MatrixExponential", lambda x: tf.linalg.expm(2.0 * x), normal(2, 3, 3),
     label="batch,squared")
case("MatrixExponential", complex_row(tf.linalg.expm), *pair(3, 3), label="complex")
case("MatrixSquareRoot", lambda x: tf.linalg.sqrtm(_spd(x)), normal(3, 3))
case("MatrixSquareRoot", lambda x: tf.linalg.sqrtm(_spd(x)), normal(2, 3, 3), label="batch")
case("MatrixSquareRoot", complex_row(lambda z: tf.linalg.sqrtm(z + 3.0 * _I3)), *pair(3, 3),
     label="complex")
case("MatrixSquareRoot", lambda x: tf.matrix_square_root(_spd(x)), normal(3, 3),
     label="matrix_square_root")
case("MatrixLogarithm", complex_row(lambda z: tf.linalg.logm(z + 3.0 * _I3)), *pair(3, 3),
     label="complex")
case("MatrixLogarithm", complex_row(lambda z: tf.linalg.logm(z + 3.0 * _I3)), *pair(2, 3, 3),
     label="complex,batch")


# -- general eigen-decomposition ------------------------------------------------------------
def _weighted_norms(e, v):
    """sum_j |v[i, j]|^2 e[j]: the same for any order of the eigenpairs and phase of v."""
    return tf.reduce_sum(v * tf.math.conj(v) * e[..., None, :], axis=-1)


def _seen(y):
    return tf.math.real(y) + 0.5 * tf.math.imag(y)


case("Eig", lambda x: _seen(_weighted_norms(*tf.linalg.eig(x))), normal(3, 3), label="e,v")
case("Eig", lambda x: _seen(_weighted_norms(*tf.linalg.eig(x))), normal(2, 3, 3),
     label="e,v,batch")
case("Eig", lambda x: _seen(tf.reduce_prod(tf.linalg.eigvals(x) + 2.0, axis=-1)),
     normal(2, 3, 3), label="eigvals")
case("Eig", lambda x: _seen(tf.reduce_sum(tf.eigvals(x) ** 3)), normal(3, 3),
     label="tf.eigvals")
case("Eig", complex_row(lambda z: _weighted_norms(*tf.linalg.eig(z))), *pair(3, 3),
     label="complex")

# -- LU -------------------------------------------------------------------------------------
case("Lu", lambda x: tf.linalg.lu(x).lu, normal(3, 3))
case("Lu", lambda x: tf.linalg.lu(x).lu, normal(2, 4, 4), label="batch")
case("Lu", lambda x: tf.linalg.lu_reconstruct(*tf.linalg.lu(x)), normal(3, 3),
     label="lu_reconstruct")
case("Lu", complex_row(lambda z: tf.linalg.lu(z).lu), *pair(3, 3), label="complex")
case("Lu", lambda x: tf.linalg.lu_matrix_inverse(*tf.linalg.lu(x + 3.0 * _I3)), normal(3, 3),
     label="lu_matrix_inverse")
case("MatrixTriangularSolve",
     lambda a, b: tf.linalg.lu_solve(*tf.linalg.lu(a + 3.0 * _I3), b),
     normal(3, 3), normal(2, 3, 2), label="lu_solve")
case("MatrixTriangularSolve",
     lambda lu, b: tf.linalg.lu_solve(lu + 3.0 * _I3, tf.constant([2, 0, 1]), b),
     normal(3, 3), normal(3, 2), label="lu_solve of given factors")
case("MatrixTriangularSolve", lambda a, b: tf.linalg.cholesky_solve(tf.linalg.cholesky(_spd(a)), b),
     normal(3, 3), normal(3, 2), label="cholesky_solve")

# -- least squares, pseudo-inverse ----------------------------------------------------------
case("Cholesky", lambda a, b: tf.linalg.lstsq(a, b), normal(4, 3), normal(4, 2),
     label="lstsq tall")
case("Cholesky", lambda a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.5), normal(2, 3, 4),
     normal(2, 3, 1), label="lstsq wide,l2")
case("Svd", tf.linalg.pinv, normal(4, 3), label="pinv")
case("Svd", tf.linalg.pinv, normal(2, 3, 4), label="pinv,wide batch")
EXEMPT["MatrixSolveLs"] = ("tests/ops/test_linalg_extra_ops.py (lstsq fast=False: no gradient, "
                           "a ValueError, as TF)")

# -- small composites -----------------------------------------------------------------------
case("Cross", tf.linalg.cross, normal(2, 3), normal(2, 3))
case("SelectV2", lambda x, d: tf.linalg.set_diag(x, d, k=1), normal(2, 3, 4), normal(2, 3),
     label="set_diag k=1")
case("Sqrt", lambda x: tf.linalg.normalize(x)[0], normal(2, 3), label="normalize")
case("Sqrt", lambda x: tf.linalg.normalize(x, axis=-1)[1], normal(2, 3), label="normalize,axis")


# -- tridiagonal and banded -----------------------------------------------------------------
def _dominant(d):
    """Compact diagonals with a dominant main diagonal."""
    return d + np.array([[0.0], [4.0], [0.0]])


case("TridiagonalSolve", lambda d, b: tf.linalg.tridiagonal_solve(_dominant(d), b),
     normal(3, 4), normal(4, 2))
case("TridiagonalSolve", lambda d, b: tf.linalg.tridiagonal_solve(d, b), normal(2, 3, 4),
     normal(2, 4, 1), label="pivoting,batch")
case("TridiagonalSolve", lambda d, b: tf.linalg.tridiagonal_solve(_dominant(d), b,
                                                                  partial_pivoting=False),
     normal(3, 4), normal(4, 2), label="no pivoting")
case("TridiagonalSolve", lambda a, b: tf.linalg.tridiagonal_solve(
    a + 4.0 * np.eye(4), b, diagonals_format="matrix"), normal(4, 4), normal(4, 1),
    label="matrix")
case("TridiagonalSolve", lambda u, m, l, b: tf.linalg.tridiagonal_solve(
    (u, m + 4.0, l), b, diagonals_format="sequence", transpose_rhs=True), normal(4), normal(4),
    normal(4), normal(2, 4), label="sequence,transpose_rhs")
case("TridiagonalSolve", complex_row(lambda d, b: tf.linalg.tridiagonal_solve(
    d + np.array([[0.0], [4.0], [0.0]]), b, conjugate_rhs=True)), *pair(3, 4), *pair(4, 2),
    label="complex,conjugate_rhs")
case("Mul", lambda d, b: tf.linalg.tridiagonal_matmul(d, b), normal(2, 3, 4), normal(2, 4, 2),
     label="tridiagonal_matmul")
case("Mul", lambda a, b: tf.linalg.tridiagonal_matmul(a, b, diagonals_format="matrix"),
     normal(4, 4), normal(4, 2), label="tridiagonal_matmul matrix")
for _lower in (True, False):
    for _adjoint in (False, True):
        case("MatrixTriangularSolve", lambda bands, b, lo=_lower, ad=_adjoint:
             tf.linalg.banded_triangular_solve(bands + np.array([[0.0], [0.0], [3.0]])
                                               if not lo else bands + np.array([[3.0], [0.0],
                                                                                [0.0]]),
                                               b, lower=lo, adjoint=ad),
             normal(3, 4), normal(4, 2), label=f"banded lower={_lower},adjoint={_adjoint}")
case("SelfAdjointEigV2", lambda a, b: tf.linalg.eigh_tridiagonal(a, b), normal(4), normal(3),
     label="eigh_tridiagonal")


# -- LinearOperator: gradients reach the tensors an operator holds --------------------------
def _operator_methods(operator, x):
    """matmul, solve, log|det| and trace, flattened into one vector."""
    results = [operator.matmul(x), operator.solve(x, adjoint=True),
               operator.log_abs_determinant(), operator.trace()]
    return tf.concat([tf.reshape(r, [-1]) for r in results], axis=0)


case("MatrixSolve", lambda a, x: _operator_methods(
    tf.linalg.LinearOperatorFullMatrix(a + 3.0 * _I3), x), normal(2, 3, 3), normal(3, 2),
    label="LinearOperatorFullMatrix")
case("RealDiv", lambda d, x: _operator_methods(tf.linalg.LinearOperatorDiag(d), x),
     uniform(0.5, 2.0, 3), normal(3, 2), label="LinearOperatorDiag")
case("MatrixTriangularSolve", lambda a, x: _operator_methods(
    tf.linalg.LinearOperatorLowerTriangular(a + 3.0 * _I3), x), normal(3, 3), normal(3, 2),
    label="LinearOperatorLowerTriangular")
case("MatrixSolve", lambda a, d, x: _operator_methods(tf.linalg.LinearOperatorComposition(
    [tf.linalg.LinearOperatorFullMatrix(a + 3.0 * _I3),
     tf.linalg.LinearOperatorInversion(tf.linalg.LinearOperatorDiag(d))]), x),
    normal(3, 3), uniform(0.5, 2.0, 3), normal(3, 2), label="LinearOperatorComposition")
case("MatrixSolve", lambda a, x: _operator_methods(tf.linalg.LinearOperatorBlockDiag(
    [tf.linalg.LinearOperatorFullMatrix(a + 3.0 * _I3),
     tf.linalg.LinearOperatorScaledIdentity(2, a[0, 0] + 3.0)]), x), normal(3, 3), normal(5, 2),
    label="LinearOperatorBlockDiag")
case("Mul", lambda a, b: tf.linalg.LinearOperatorKronecker(
    [tf.linalg.LinearOperatorFullMatrix(a), tf.linalg.LinearOperatorFullMatrix(b)]).to_dense(),
    normal(2, 3), normal(3, 2), label="LinearOperatorKronecker")
case("FFT", complex_row(lambda s, x: _operator_methods(tf.linalg.LinearOperatorCirculant(
    s + 2.0, input_output_dtype=tf.complex128), x)), *pair(4), *pair(4, 2),
    label="LinearOperatorCirculant")
case("FFT2D", lambda s, x: _operator_methods(tf.linalg.LinearOperatorCirculant2D(
    s, input_output_dtype=tf.float64), x), uniform(1.0, 2.0, 2, 2), normal(4, 2),
    label="LinearOperatorCirculant2D real")
case("MatrixSolve", lambda a, u, v, d, x: _operator_methods(
    tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorFullMatrix(a + 3.0 * _I3), u,
                                          d, v), x),
    normal(3, 3), normal(3, 2), normal(3, 2), uniform(0.5, 2.0, 2), normal(3, 2),
    label="LinearOperatorLowRankUpdate")
case("GatherV2", lambda c, r, x: _operator_methods(tf.linalg.LinearOperatorToeplitz(
    c + np.array([3.0, 0.0, 0.0]), r), x), normal(3), normal(3), normal(3, 2),
    label="LinearOperatorToeplitz")
case("TridiagonalSolve", lambda d, x: _operator_methods(
    tf.linalg.LinearOperatorTridiag(_dominant(d)), x), normal(3, 3), normal(3, 2),
    label="LinearOperatorTridiag")
case("BatchMatMulV2", lambda v, x: _operator_methods(tf.linalg.LinearOperatorHouseholder(v), x),
     uniform(0.5, 2.0, 3), normal(3, 2), label="LinearOperatorHouseholder")
case("MatrixSolve", lambda a, b, d, x: _operator_methods(
    tf.linalg.LinearOperatorBlockLowerTriangular(
        [[tf.linalg.LinearOperatorFullMatrix(a + 3.0 * _I3)],
         [tf.linalg.LinearOperatorFullMatrix(b), tf.linalg.LinearOperatorDiag(d)]]), x),
    normal(3, 3), normal(2, 3), uniform(0.5, 2.0, 2), normal(5, 2),
    label="LinearOperatorBlockLowerTriangular")
