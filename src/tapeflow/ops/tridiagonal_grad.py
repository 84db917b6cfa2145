"""Gradient rule of tridiagonal_ops' TridiagonalSolve; it works on raw arrays and on Tensors
alike. For x = A^-1 rhs: grad_rhs = A^-H g, and grad_A = -grad_rhs x^H, of which only the
three diagonals are read (in compact form: row i's entries at columns i + 1, i and i - 1)."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .array_ops import Pack
from .math_grad import conj
from .math_ops import Sum
from .op_util import shape_of
from .tridiagonal_ops import TridiagonalSolve, adjoint_diagonals, shift


@RegisterGradient("TridiagonalSolve")
def _tridiagonal_solve_grad(op, g):
    diagonals, x = op.inputs[0], op.outputs[0]
    grad_rhs = TridiagonalSolve(adjoint_diagonals(diagonals), g, **op.attrs)
    rank = len(shape_of(x))
    x_conj = conj(x)
    parts = [-Sum(grad_rhs * part, axis=(rank - 1,), keepdims=False)
             for part in (shift(x_conj, True, rank - 2), x_conj, shift(x_conj, False, rank - 2))]
    return Pack(*parts, axis=rank - 2), grad_rhs
