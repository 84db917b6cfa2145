"""Gradient rules of linalg_ops. Each works on raw arrays and on Tensors alike (see registry).

Matrices multiplied by a diagonal use broadcasting (X @ diag(s) is X * s as a row), and
masks (triangles, identities) are constants of the input's dtype.
"""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient
from .array_ops import ConcatV2, Reshape, SplitV, Transpose
from .diag_ops import MatrixBandPart
from .linalg_ops import (MatrixInverse, MatrixSolve, MatrixTriangularSolve, SelfAdjointEigV2,
                         Svd)
from .math_grad import conj
from .math_ops import MatMul
from .op_util import dtype_of, shape_of


def _swap(x):
    """The transpose of the last two axes."""
    ndim = len(shape_of(x))
    return Transpose(x, perm=tuple(range(ndim - 2)) + (ndim - 1, ndim - 2))


def _adjoint(x):
    return conj(_swap(x))


def _col(v):
    """[..., n] as [..., n, 1]."""
    return Reshape(v, shape_of(v) + (1,))


def _row(v):
    """[..., n] as [..., 1, n]."""
    shape = shape_of(v)
    return Reshape(v, shape[:-1] + (1, shape[-1]))


def _eye(x, n: int) -> np.ndarray:
    return np.eye(n, dtype=dtype_of(x))


def _off_diagonal_reciprocal(values):
    """F[..., i, j] = 1 / (values[j] - values[i]) off the diagonal, 0 on it."""
    eye = _eye(values, shape_of(values)[-1])
    return (1 - eye) / (_row(values) - _col(values) + eye)


def _split_last(x, at: int) -> tuple:
    return SplitV(x, indices=(at,), axis=len(shape_of(x)) - 1)


def _real_only(op, what: str) -> None:
    if dtype_of(op.inputs[0]).kind == "c":
        raise NotImplementedError(f"The gradient of {op.op.name} ({what}) is not implemented "
                                  f"for complex inputs.")


@RegisterGradient("MatrixInverse")
def _inverse_grad(op, g):
    ainv = op.outputs[0]
    adj = op.attrs["adjoint"]
    return -MatMul(ainv, MatMul(g, ainv, adjoint_a=adj, adjoint_b=not adj), adjoint_a=not adj)


@RegisterGradient("MatrixDeterminant")
def _determinant_grad(op, g):
    a, c = op.inputs[0], op.outputs[0]
    return _col(_col(g * conj(c))) * MatrixInverse(a, adjoint=True)


@RegisterGradient("LogMatrixDeterminant")
def _log_determinant_grad(op, g_sign, g_log):
    # The sign is piecewise constant: only log|det| carries a gradient.
    return _col(_col(g_log)) * MatrixInverse(op.inputs[0], adjoint=True)


def _solve_matrix_grad(c, grad_rhs, adjoint: bool):
    if adjoint:
        return -MatMul(c, grad_rhs, adjoint_b=True)
    return -MatMul(grad_rhs, c, adjoint_b=True)


@RegisterGradient("MatrixSolve")
def _solve_grad(op, g):
    adj = op.attrs["adjoint"]
    grad_rhs = MatrixSolve(op.inputs[0], g, adjoint=not adj)
    return _solve_matrix_grad(op.outputs[0], grad_rhs, adj), grad_rhs


@RegisterGradient("MatrixTriangularSolve")
def _triangular_solve_grad(op, g):
    lower, adj = op.attrs["lower"], op.attrs["adjoint"]
    grad_rhs = MatrixTriangularSolve(op.inputs[0], g, lower=lower, adjoint=not adj)
    grad_matrix = _solve_matrix_grad(op.outputs[0], grad_rhs, adj)
    band = (-1, 0) if lower else (0, -1)
    return MatrixBandPart(grad_matrix, num_lower=band[0], num_upper=band[1]), grad_rhs


@RegisterGradient("Cholesky")
def _cholesky_grad(op, g):
    # A = L L^H: grad = sym(L^-H Phi(L^H g) L^-1), Phi = lower triangle with half diagonal.
    l = op.outputs[0]
    n = shape_of(l)[-1]
    phi = np.tril(np.ones((n, n), dtype_of(l))) - 0.5 * _eye(l, n)
    middle = MatMul(l, g, adjoint_a=True) * phi
    left = MatrixTriangularSolve(l, middle, lower=True, adjoint=True)
    grad = _adjoint(MatrixTriangularSolve(l, _adjoint(left), lower=True, adjoint=True))
    return 0.5 * (grad + _adjoint(grad))


def _times_inverse_adjoint(x, r):
    """x @ inverse(r)^H for upper-triangular r."""
    return _adjoint(MatrixTriangularSolve(r, _adjoint(x), lower=False, adjoint=False))


def _qr_grad_tall(q, r, dq, dr):
    qdq = MatMul(q, dq, adjoint_a=True)
    rdr = MatMul(r, dr, adjoint_b=True)
    tril = MatrixBandPart(qdq - _adjoint(qdq) + rdr - _adjoint(rdr), num_lower=-1, num_upper=0)
    grad_a = MatMul(q, dr + _times_inverse_adjoint(tril, r))
    return grad_a + _times_inverse_adjoint(dq - MatMul(q, qdq), r)


@RegisterGradient("Qr")
def _qr_grad(op, dq, dr):
    _real_only(op, "qr")
    a = op.inputs[0]
    q, r = op.outputs
    m, n = shape_of(a)[-2:]
    if m > n and op.attrs["full_matrices"]:
        raise NotImplementedError(f"The gradient of Qr is not implemented when rows > columns "
                                  f"and full_matrices is True (input shape {list(shape_of(a))}).")
    if m >= n:
        return _qr_grad_tall(q, r, dq, dr)
    # Wide: a = [x, y] with x square; r = [u, v] likewise.
    _, y = _split_last(a, m)
    u, _ = _split_last(r, m)
    du, dv = _split_last(dr, m)
    dx = _qr_grad_tall(q, u, dq + MatMul(y, dv, adjoint_b=True), du)
    return ConcatV2(dx, MatMul(q, dv), axis=len(shape_of(a)) - 1)


def _lower_triangle_of_symmetric(grad):
    """The gradient with respect to the lower triangle an op reads of a self-adjoint input."""
    n = shape_of(grad)[-1]
    mask = np.tril(np.ones((n, n), dtype_of(grad))) - 0.5 * _eye(grad, n)
    return (grad + _adjoint(grad)) * mask


@RegisterGradient("SelfAdjointEigV2")
def _eigh_grad(op, grad_e, grad_v):
    e = op.outputs[0]
    eye = _eye(e, shape_of(e)[-1])
    if op.attrs["compute_v"]:
        v = op.outputs[1]
        inner = eye * _row(grad_e) + (_off_diagonal_reciprocal(e) *
                                      MatMul(v, grad_v, adjoint_a=True))
        grad = MatMul(v, MatMul(inner, v, adjoint_b=True))
    else:
        _, v = SelfAdjointEigV2(op.inputs[0], compute_v=True)
        grad = MatMul(v * _row(grad_e), v, adjoint_b=True)
    return _lower_triangle_of_symmetric(grad)


@RegisterGradient("Svd")
def _svd_grad(op, grad_s, grad_u, grad_v):
    _real_only(op, "svd")
    a = op.inputs[0]
    if not op.attrs["compute_uv"]:
        _, u, v = Svd(a, compute_uv=True, full_matrices=False)
        return MatMul(u * _row(grad_s), v, adjoint_b=True)
    m, n = shape_of(a)[-2:]
    full = op.attrs["full_matrices"]
    if full and abs(m - n) > 1:
        raise NotImplementedError(f"The gradient of Svd is not implemented for |rows - columns| "
                                  f"> 1 when full_matrices is True (input shape "
                                  f"{list(shape_of(a))}).")
    s, u, v = op.outputs
    use_adjoint = m > n
    if use_adjoint:  # work on the adjoint so that m <= n
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    v1, grad_v1 = v, grad_v
    if full and m < n:
        v1, v2 = _split_last(v, m)
        grad_v1, grad_v2 = _split_last(grad_v, m)
    f = _off_diagonal_reciprocal(s * s)
    f_u = f * MatMul(u, grad_u, adjoint_a=True)
    f_v = f * MatMul(v1, grad_v1, adjoint_a=True)
    core = (_eye(s, m) * _row(grad_s) + (f_u + _swap(f_u)) * _row(s) +
            _col(s) * (f_v + _swap(f_v)))
    grad = MatMul(u, MatMul(core, v1, adjoint_b=True))
    if m < n:
        gv1t = _swap(grad_v1)
        rest = gv1t - MatMul(MatMul(gv1t, v1), v1, adjoint_b=True)
        if full:
            rest = rest - MatMul(MatMul(v1, grad_v2, adjoint_a=True), v2, adjoint_b=True)
        grad = grad + MatMul(u / _row(s), rest)
    return _swap(grad) if use_adjoint else grad
