"""Gradient and JVP rules of matrix_function_ops, from one identity of primary matrix
functions: f([[A, E], [0, A]]) = [[f(A), L(A, E)], [0, f(A)]], where L(A, E) is the Fréchet
derivative of f at A in direction E. The JVP is L(A, dA); the gradient is its adjoint,
L(A^H, G), since exp, log and sqrt map conjugates to conjugates. Higher orders follow: the
rules call the op itself."""
from __future__ import annotations

from ..framework.registry import RegisterGradient, RegisterJVP
from .array_ops import ConcatV2, SplitV
from .creation_ops import zero_gradient
from .linalg_grad import _adjoint
from .matrix_function_ops import MatrixExponential, MatrixLogarithm, MatrixSquareRoot
from .op_util import shape_of


def frechet_derivative(function, a, direction):
    """L(a, direction) of the matrix function op `function`, read off the upper-right block
    of `function` applied to [[a, direction], [0, a]]."""
    rank, n = len(shape_of(a)), shape_of(a)[-1]
    top = ConcatV2(a, direction, axis=rank - 1)
    bottom = ConcatV2(zero_gradient(a), a, axis=rank - 1)
    out = function(ConcatV2(top, bottom, axis=rank - 2))
    upper, _ = SplitV(out, indices=(n,), axis=rank - 2)
    return SplitV(upper, indices=(n,), axis=rank - 1)[1]


for _name, _op in (("MatrixExponential", MatrixExponential), ("MatrixLogarithm", MatrixLogarithm),
                   ("MatrixSquareRoot", MatrixSquareRoot)):
    RegisterGradient(_name)(
        lambda op, g, f=_op: frechet_derivative(f, _adjoint(op.inputs[0]), g))
    RegisterJVP(_name)(
        lambda op, t, f=_op: frechet_derivative(f, op.inputs[0], t))
