"""Forward-mode (JVP) rules of math_ops, where they are cheaper than the generic rule.

A rule takes `(op, *tangents)`, with None for an input without a tangent, and returns one
tangent per output. Like gradient rules, each works on raw arrays and on Tensors alike; the
engine broadcasts a tangent to its output's shape.
"""
from __future__ import annotations

from ..framework.registry import RegisterJVP, get_op
from .math_grad import _where_positive
from .math_ops import Cast, Log, MatMul, Mean, Pow, Sum
from .op_util import dtype_of


def elementwise_jvp(op, t):
    """The JVP of a one-input elementwise op: its Jacobian is diagonal, hence symmetric, so
    its gradient rule applied to the tangent gives it. That rule multiplies by conj(f'),
    so a complex tangent is conjugated on the way in and out.
    """
    rule = op.op.grad
    if dtype_of(t).kind == "c":
        conj = get_op("Conj")
        return conj(rule(op, conj(t)))
    return rule(op, t)


def register_elementwise_jvp(*op_types: str) -> None:
    """Gives each of `op_types` (one input, elementwise) `elementwise_jvp` as its JVP rule."""
    for op_type in op_types:
        RegisterJVP(op_type)(elementwise_jvp)


register_elementwise_jvp("Neg", "Square", "Sqrt", "Exp", "Log", "Tanh", "Sigmoid")


def plus(a, b):
    """a + b where None stands for a zero tangent."""
    if a is None:
        return b
    if b is None:
        return a
    return a + b


@RegisterJVP("AddV2")
def _add_jvp(op, tx, ty):
    return plus(tx, ty)


@RegisterJVP("Sub")
def _sub_jvp(op, tx, ty):
    return plus(tx, None if ty is None else -ty)


@RegisterJVP("Mul")
def _mul_jvp(op, tx, ty):
    x, y = op.inputs
    return plus(None if tx is None else tx * y, None if ty is None else ty * x)


@RegisterJVP("RealDiv")
def _div_jvp(op, tx, ty):
    y = op.inputs[1]
    return plus(tx, None if ty is None else -ty * op.outputs[0]) / y


@RegisterJVP("Pow")
def _pow_jvp(op, tx, ty):
    x, y = op.inputs
    z = op.outputs[0]
    by_base = None if tx is None else tx * (y * Pow(x, y - 1))
    if ty is None:
        return by_base
    # As for the gradient, the exponent's slope is taken as 0 where the base is <= 0.
    return plus(by_base, ty * (z * Log(_where_positive(x))))


@RegisterJVP("BatchMatMulV2")
def _matmul_jvp(op, ta, tb):
    a, b = op.inputs
    return plus(None if ta is None else MatMul(ta, b, **op.attrs),
                None if tb is None else MatMul(a, tb, **op.attrs))


@RegisterJVP("Sum")
def _sum_jvp(op, t):
    return Sum(t, **op.attrs)


@RegisterJVP("Mean")
def _mean_jvp(op, t):
    return Mean(t, **op.attrs)


@RegisterJVP("Cast")
def _cast_jvp(op, t):
    return Cast(t, **op.attrs)
