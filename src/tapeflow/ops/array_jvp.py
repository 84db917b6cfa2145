"""Forward-mode (JVP) rules of array_ops: each op is linear, so it maps tangents as values."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterJVP
from .array_ops import BroadcastTo, ConcatV2, Reshape, SplitV, Transpose
from .math_jvp import register_elementwise_jvp
from .op_util import shape_of, value_of


register_elementwise_jvp("Identity", "ReadVariableOp")


@RegisterJVP("Reshape")
def _reshape_jvp(op, t, _):
    return Reshape(t, shape_of(op.outputs[0]))


@RegisterJVP("BroadcastTo")
def _broadcast_to_jvp(op, t, _):
    return BroadcastTo(t, shape_of(op.outputs[0]))


@RegisterJVP("Transpose")
def _transpose_jvp(op, t):
    return Transpose(t, **op.attrs)


@RegisterJVP("ConcatV2")
def _concat_jvp(op, *tangents):
    return ConcatV2(*[np.zeros_like(value_of(x)) if t is None else t
                      for x, t in zip(op.inputs, tangents)], **op.attrs)


@RegisterJVP("SplitV")
def _split_jvp(op, t):
    return SplitV(t, **op.attrs)
