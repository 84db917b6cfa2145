"""Forward-mode (JVP) rules of math_ops, where they are cheaper than the generic rule.

A rule takes `(op, *tangents)`, with None for an input without a tangent, and returns one
tangent per output. Like gradient rules, each works on raw arrays and on Tensors alike; the
engine broadcasts a tangent to its output's shape.
"""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterJVP, get_op
from .math_ops import Cast, MatMul, Mean, Sum
from .op_util import dtype_of, value_of


def elementwise_jvp(op, *tangents):
    """The JVP of an elementwise op from its gradient rule.

    An elementwise op's Jacobian with respect to each input is diagonal: its gradient rule
    multiplies the upstream gradient by conj(df/dx_i). With one input the rule applied to
    the tangent is the JVP; with several, the rule applied to ones gives each slope, to be
    multiplied by that input's tangent. Complex values are conjugated accordingly.
    """
    rule = op.op.grad
    if len(tangents) == 1:
        t = tangents[0]
        if dtype_of(t).kind == "c":
            conj = get_op("Conj")
            return conj(rule(op, conj(t)))
        return rule(op, t)
    op._needed = {x._id for x, t in zip(op._tensors, tangents) if t is not None}
    out = value_of(op.outputs[0])
    slopes = rule(op, np.ones(out.shape, out.dtype))
    total = None
    for slope, t in zip(slopes, tangents):
        if t is None or slope is None:
            continue
        if out.dtype.kind == "c":
            slope = get_op("Conj")(slope)
        total = slope * t if total is None else total + slope * t
    return total


def register_elementwise_jvp(*op_types: str) -> None:
    """Gives each of `op_types` (elementwise ops) `elementwise_jvp` as their JVP rule."""
    for op_type in op_types:
        RegisterJVP(op_type)(elementwise_jvp)


register_elementwise_jvp("Neg", "Square", "Sqrt", "Exp", "Log", "Tanh", "Sigmoid", "Pow")


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
