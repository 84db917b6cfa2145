"""Forward-mode (JVP) rules of math_ops, where they are cheaper than the generic rule.

A rule takes `(op, *tangents)`, with None for an input without a tangent, and returns one
tangent per output. Like gradient rules, each works on raw arrays and on Tensors alike; the
engine broadcasts a tangent to its output's shape.
"""
from __future__ import annotations

from ..framework.registry import RegisterJVP
from .math_grad import _where_positive
from .math_ops import Cast, Log, MatMul, Mean, Pow, Sum


def plus(a, b):
    """a + b where None stands for a zero tangent."""
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def times(t, factor):
    """t * factor, None for a None tangent."""
    return None if t is None else t * factor


@RegisterJVP("AddV2")
def _add_jvp(op, tx, ty):
    return plus(tx, ty)


@RegisterJVP("Sub")
def _sub_jvp(op, tx, ty):
    return plus(tx, None if ty is None else -ty)


@RegisterJVP("Mul")
def _mul_jvp(op, tx, ty):
    x, y = op.inputs
    return plus(times(tx, y), times(ty, x))


@RegisterJVP("RealDiv")
def _div_jvp(op, tx, ty):
    y = op.inputs[1]
    z = op.outputs[0]
    return plus(tx, times(ty, -z)) / y


@RegisterJVP("Pow")
def _pow_jvp(op, tx, ty):
    x, y = op.inputs
    z = op.outputs[0]
    # As for the gradient, the exponent's slope is taken as 0 where the base is <= 0.
    return plus(times(tx, y * Pow(x, y - 1)), times(ty, z * Log(_where_positive(x))))


@RegisterJVP("Neg")
def _neg_jvp(op, t):
    return -t


@RegisterJVP("Square")
def _square_jvp(op, t):
    return t * (2 * op.inputs[0])


@RegisterJVP("Sqrt")
def _sqrt_jvp(op, t):
    return t / (2 * op.outputs[0])


@RegisterJVP("Exp")
def _exp_jvp(op, t):
    return t * op.outputs[0]


@RegisterJVP("Log")
def _log_jvp(op, t):
    return t / op.inputs[0]


@RegisterJVP("Tanh")
def _tanh_jvp(op, t):
    y = op.outputs[0]
    return t * (1 - y * y)


@RegisterJVP("Sigmoid")
def _sigmoid_jvp(op, t):
    y = op.outputs[0]
    return t * (y * (1 - y))


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
