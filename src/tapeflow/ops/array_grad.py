"""Gradient rules of array_ops."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient
from .array_ops import ConcatV2, Reshape, SplitV, Transpose
from .op_util import shape_of


@RegisterGradient("Identity")
def _identity_grad(op, g):
    return g


@RegisterGradient("ReadVariableOp")
def _read_variable_grad(op, g):
    return g


@RegisterGradient("Reshape")
def _reshape_grad(op, g):
    return Reshape(g, shape_of(op.inputs[0])), None


@RegisterGradient("BroadcastTo")
def _broadcast_to_grad(op, g):
    # The engine sums the gradient back to the input's shape.
    return g, None


@RegisterGradient("Transpose")
def _transpose_grad(op, g):
    return Transpose(g, perm=tuple(np.argsort(op.attrs["perm"]).tolist()))


@RegisterGradient("ConcatV2")
def _concat_grad(op, g):
    axis = op.attrs["axis"]
    bounds = np.cumsum([shape_of(x)[axis] for x in op.inputs])[:-1]
    return tuple(SplitV(g, indices=tuple(bounds.tolist()), axis=axis))


@RegisterGradient("SplitV")
def _split_grad(op, *grads):
    return ConcatV2(*grads, axis=op.attrs["axis"])
