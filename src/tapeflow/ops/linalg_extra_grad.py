"""Gradient rules of linalg_extra_ops. Each works on raw arrays and on Tensors alike."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient
from .complex_ops import Real
from .creation_ops import OneHot
from .diag_ops import MatrixBandPart
from .linalg_extra_ops import Cross, Eig
from .linalg_grad import _adjoint, _eye, _off_diagonal_reciprocal, _row, _times_inverse_adjoint
from .linalg_ops import MatrixSolve, MatrixTriangularSolve
from .math_grad import conj
from .math_ops import MatMul
from .op_util import dtype_of, shape_of


@RegisterGradient("Eig")
def _eig_grad(op, grad_e, grad_v):
    # A = V diag(e) V^-1 with unit-norm columns of V: the gradient is
    # V^-H (diag(grad_e) + conj(F) * (V^H grad_v - V^H V diag(re(diag(V^H grad_v))))) V^H,
    # F[i, j] = 1 / (e[j] - e[i]) off the diagonal; the last term keeps the norms fixed.
    a, e = op.inputs[0], op.outputs[0]
    eye = _eye(e, shape_of(e)[-1])
    middle = eye * _row(grad_e)
    if op.attrs["compute_v"]:
        v = op.outputs[1]
        vgv = MatMul(v, grad_v, adjoint_a=True)
        real_diagonal = eye * (vgv + conj(vgv)) * 0.5
        middle = middle + conj(_off_diagonal_reciprocal(e)) * (
            vgv - MatMul(MatMul(v, v, adjoint_a=True), real_diagonal))
    else:
        v = Eig(a, compute_v=True)[1]
    vh = _adjoint(v)
    grad = MatrixSolve(vh, MatMul(middle, vh), adjoint=False)
    return grad if dtype_of(a).kind == "c" else Real(grad)


def _strictly_lower(x):
    return MatrixBandPart(x, num_lower=-1, num_upper=0) - MatrixBandPart(x, num_lower=0,
                                                                         num_upper=0)


@RegisterGradient("Lu")
def _lu_grad(op, grad_lu, grad_p):
    # P A = L U; with X = L^-1 d(PA) U^-1, dL = L strict_lower(X) and dU = upper(X) U, so
    # grad(PA) = L^-H (strict_lower(L^H gL) + upper(gU U^H)) U^-H, gL and gU the parts of
    # grad_lu on L's and U's entries.
    packed, perm = op.outputs
    n = shape_of(packed)[-1]
    eye = _eye(packed, n)
    lower = _strictly_lower(packed) + eye
    upper = MatrixBandPart(packed, num_lower=0, num_upper=-1)
    middle = (_strictly_lower(MatMul(lower, _strictly_lower(grad_lu), adjoint_a=True)) +
              MatrixBandPart(MatMul(MatrixBandPart(grad_lu, num_lower=0, num_upper=-1), upper,
                                    adjoint_b=True), num_lower=0, num_upper=-1))
    grad_permuted = _times_inverse_adjoint(
        MatrixTriangularSolve(lower, middle, lower=True, adjoint=True), upper)
    dtype = dtype_of(packed)
    permutation = OneHot(perm, np.ones((), dtype), np.zeros((), dtype), depth=n, axis=-1)
    return MatMul(permutation, grad_permuted, transpose_a=True)


@RegisterGradient("Cross")
def _cross_grad(op, g):
    a, b = op.inputs
    return Cross(b, g), Cross(g, a)


@RegisterGradient("MatrixSolveLs")
def _solve_ls_grad(op, g):
    raise ValueError("Gradient not defined for lstsq(fast=False) (MatrixSolveLs), as in TF: use "
                     "fast=True, whose normal equations are differentiable.")
