"""Gradient rule of tridiagonal_ops' TridiagonalSolve; it works on raw arrays and on Tensors
alike. For x = A^-1 rhs: grad_rhs = A^-H g, and grad_A = -grad_rhs x^H, of which only the
three diagonals are read (in compact form: row i's entries at columns i + 1, i and i - 1)."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .array_ops import ConcatV2, Pack, SplitV
from .creation_ops import zero_gradient
from .math_grad import conj
from .math_ops import Sum
from .op_util import shape_of
from .tridiagonal_ops import TridiagonalSolve


def _shift(x, up: bool, axis: int):
    """x moved one place along `axis`: up (entry i holds entry i + 1) or down, zero filled."""
    n = shape_of(x)[axis]
    first, rest = SplitV(x, indices=(1,) if up else (n - 1,), axis=axis)
    if up:
        return ConcatV2(rest, zero_gradient(first), axis=axis)
    return ConcatV2(zero_gradient(rest), first, axis=axis)


def _adjoint_diagonals(diagonals):
    """The compact diagonals of A^H from those of A."""
    rank = len(shape_of(diagonals))
    upper, main, lower = SplitV(conj(diagonals), indices=(1, 2), axis=rank - 2)
    return ConcatV2(_shift(lower, True, rank - 1), main, _shift(upper, False, rank - 1),
                    axis=rank - 2)


@RegisterGradient("TridiagonalSolve")
def _tridiagonal_solve_grad(op, g):
    diagonals, x = op.inputs[0], op.outputs[0]
    grad_rhs = TridiagonalSolve(_adjoint_diagonals(diagonals), g, **op.attrs)
    rank = len(shape_of(x))
    x_conj = conj(x)
    parts = [-Sum(grad_rhs * part, axis=(rank - 1,), keepdims=False)
             for part in (_shift(x_conj, True, rank - 2), x_conj, _shift(x_conj, False, rank - 2))]
    return Pack(*parts, axis=rank - 2), grad_rhs
