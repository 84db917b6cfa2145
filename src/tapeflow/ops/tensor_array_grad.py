"""Gradient rules of tensor_array_ops. Each works on raw arrays and on Tensors."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .indexing_ops import Bound, DynamicStridedSlice
from .tensor_array_ops import TensorArrayWriteGrad


@RegisterGradient("TensorArrayWrite")
def _tensor_array_write_grad(op, g):
    buffer, index, _ = op.inputs
    return (TensorArrayWriteGrad(g, buffer, index), None,
            DynamicStridedSlice(g, index, spec=(Bound(0),)))


@RegisterGradient("TensorArrayWriteGrad")
def _tensor_array_write_grad_grad(op, h):
    g, _, index = op.inputs
    return TensorArrayWriteGrad(h, g, index), None, None
