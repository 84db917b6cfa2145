"""Gradient-check rows for linear algebra ops (well-conditioned inputs, distinct spectra)."""
import numpy as np

import tapeflow as tf

from ._table import case, normal

_I3 = np.eye(3)


def _spd(x):
    """A well-conditioned symmetric positive definite matrix made from x."""
    return tf.matmul(x, x, transpose_b=True) + 3.0 * _I3


def _conditioned(x):
    return x + 3.0 * _I3


case("MatrixInverse", lambda x: tf.linalg.inv(_conditioned(x)), normal(3, 3))
case("MatrixInverse", lambda x: tf.linalg.inv(_conditioned(x), adjoint=True), normal(2, 3, 3),
     label="batch,adjoint")
case("MatrixDeterminant", tf.linalg.det, normal(3, 3))
case("MatrixDeterminant", tf.linalg.det, normal(2, 3, 3), label="batch")
case("LogMatrixDeterminant", lambda x: tf.linalg.slogdet(x)[1], normal(2, 3, 3), label="batch")

case("MatrixSolve", lambda a, b: tf.linalg.solve(_conditioned(a), b), normal(3, 3), normal(3, 2))
case("MatrixSolve", lambda a, b: tf.linalg.solve(_conditioned(a), b, adjoint=True),
     normal(2, 3, 3), normal(2, 3, 1), label="batch,adjoint")
for _lower in (True, False):
    for _adjoint in (False, True):
        case("MatrixTriangularSolve",
             lambda a, b, lo=_lower, ad=_adjoint: tf.linalg.triangular_solve(
                 _conditioned(a), b, lower=lo, adjoint=ad),
             normal(3, 3), normal(3, 2), label=f"lower={_lower},adjoint={_adjoint}")
case("MatrixTriangularSolve", lambda a, b: tf.linalg.triangular_solve(_conditioned(a), b),
     normal(2, 3, 3), normal(3, 1), label="broadcast batch")

case("Cholesky", lambda x: tf.linalg.cholesky(_spd(x)), normal(3, 3))
case("Cholesky", lambda x: tf.linalg.cholesky(_spd(x)), normal(2, 3, 3), label="batch")
case("Cholesky", lambda x: tf.linalg.logdet(_spd(x)), normal(2, 3, 3), label="logdet")

for _shape, _full, _label in [((4, 3), False, "tall"), ((3, 3), True, "square,full"),
                              ((3, 5), False, "wide"), ((2, 4, 3), False, "batch")]:
    case("Qr", lambda x, f=_full: tf.linalg.qr(x, full_matrices=f).q, normal(*_shape),
         label=f"q,{_label}")
    case("Qr", lambda x, f=_full: tf.linalg.qr(x, full_matrices=f).r, normal(*_shape),
         label=f"r,{_label}")

# Eigenvectors are defined up to sign: rows use v * v. Inputs need not be symmetric: the op
# reads the lower triangle, and the rule differentiates with respect to it.
case("SelfAdjointEigV2", lambda x: tf.linalg.eigh(x)[0], normal(3, 3), label="e")
case("SelfAdjointEigV2", lambda x: tf.linalg.eigh(x)[1] * tf.linalg.eigh(x)[1], normal(2, 3, 3),
     label="v,batch")
case("SelfAdjointEigV2", tf.linalg.eigvalsh, normal(3, 3), label="eigvalsh")


def _svd_parts(x, full_matrices=False):
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return s, u * u, v * v


case("Svd", lambda x: tf.linalg.svd(x, compute_uv=False), normal(3, 4), label="s only")
for _shape, _full, _label in [((3, 3), False, "square"), ((4, 3), False, "tall"),
                              ((3, 4), False, "wide"), ((2, 4, 3), False, "batch"),
                              ((4, 3), True, "tall,full"), ((3, 4), True, "wide,full")]:
    for _part, _name in enumerate("suv"):
        case("Svd", lambda x, f=_full, p=_part: _svd_parts(x, f)[p], normal(*_shape),
             label=f"{_name},{_label}")

case("BatchMatMulV2", tf.linalg.matvec, normal(2, 3, 4), normal(4), label="matvec")
case("BatchMatMulV2", lambda a, b: tf.linalg.matvec(a, b, adjoint_a=True), normal(4, 3),
     normal(2, 4), label="matvec,adjoint_a")
case("BatchMatMulV2", lambda a, b: tf.matmul(a, b, adjoint_a=True, adjoint_b=True),
     normal(3, 2), normal(4, 3), label="adjoint_both")
