"""Forward-mode (JVP) rules shared by whole families of ops (see Family in
framework/registry.py), each following from what the family is, so that an op gets its rule
from the family it declares at `define_op`:
- linear ops (reshapes, slices, gathers, concatenations, sums) and identities: the op maps
  tangents itself;
- multilinear ops (products: mul, matmul, einsum): one term per input with a tangent;
- elementwise ops: the Jacobian is diagonal, so the gradient rule gives the slopes.

A JVP rule takes `(op, *tangents)`, None for an input without a tangent, and returns one
tangent per output; like gradient rules, it works on raw arrays and on Tensors alike, and
the engine broadcasts a tangent to its output's shape.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..framework.registry import (ELEMENTWISE, IDENTITY, LINEAR, MULTILINEAR, get_op,
                                  register_family_jvp)
from .op_util import dtype_of, shape_of

__all__ = ["elementwise_jvp", "linear_jvp", "multilinear_jvp", "plus"]


def plus(a, b):
    """a + b where None stands for a zero tangent."""
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def linear_jvp(op, *tangents):
    """The JVP of an op linear in its floating inputs jointly: the op applied to their
    tangents (zeros where none), other inputs (indices, shapes, conditions) as they are."""
    args = [t if t is not None else
            np.zeros(shape_of(x), dtype_of(x)) if dtypes.kind(dtype_of(x)) in "fc" else x
            for x, t in zip(op.inputs, tangents)]
    return op.op(*args, **op.attrs)


def multilinear_jvp(op, *tangents):
    """The JVP of an op linear in each floating input separately (a product rule): the sum
    over inputs with a tangent of the op with that input replaced by its tangent."""
    inputs = list(op.inputs)
    total = None
    for i, t in enumerate(tangents):
        if t is not None:
            total = plus(total, op.op(*inputs[:i], t, *inputs[i + 1:], **op.attrs))
    return total


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
    out = op.outputs[0]
    dtype = dtype_of(out)
    slopes = rule(op, np.ones(shape_of(out), dtype))
    total = None
    for slope, t in zip(slopes, tangents):
        if t is None or slope is None:
            continue
        if dtype.kind == "c":
            slope = get_op("Conj")(slope)
        total = plus(total, slope * t)
    return total


register_family_jvp(ELEMENTWISE, elementwise_jvp)
register_family_jvp(LINEAR, linear_jvp)
register_family_jvp(IDENTITY, linear_jvp)
register_family_jvp(MULTILINEAR, multilinear_jvp)
