"""Gradient rules of tensor_array_ops. Each works on raw arrays and on Tensors."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .indexing_ops import Bound, DynamicStridedSlice
from .op_util import shape_of
from .tensor_array_ops import TensorArrayWriteGrad


@RegisterGradient("TensorArrayWrite")
def _tensor_array_write_grad(op, g):
    buffer, index, _ = op.inputs
    # The buffer tells whether the write sized it (then no gradient reaches it); one of a
    # static, non-empty shape was not, and `g` stands in for it so that the backward does
    # not read the buffer (a while_loop would keep it at every iteration).
    dims = shape_of(buffer)
    sized = buffer if dims is None or None in dims or 0 in dims else g
    return (TensorArrayWriteGrad(g, sized, index), None,
            DynamicStridedSlice(g, index, spec=(Bound(0),)))


@RegisterGradient("TensorArrayWriteGrad")
def _tensor_array_write_grad_grad(op, h):
    g, _, index = op.inputs
    return TensorArrayWriteGrad(h, g, index), None, None
