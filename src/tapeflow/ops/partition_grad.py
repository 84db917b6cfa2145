"""Gradient rules of partition_ops. Each works on raw arrays and on Tensors alike."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient
from .array_ops import Reshape
from .comparison_ops import Equal
from .gather_ops import GatherV2
from .indexing_ops import SelectV2
from .op_util import dtype_of, shape_of
from .partition_ops import DynamicPartition, DynamicStitch


@RegisterGradient("DynamicPartition")
def _dynamic_partition_grad(op, *grads):
    # Stitch the pieces' gradients back to the positions their slices came from.
    data, partitions = op.inputs
    pshape = shape_of(partitions)
    positions = np.arange(int(np.prod(pshape, dtype=np.int64)), dtype=np.int32).reshape(pshape)
    origins = DynamicPartition(positions, partitions, **op.attrs)
    stitched = DynamicStitch(*origins, *grads, n=len(grads))
    return Reshape(stitched, shape_of(data)), None


@RegisterGradient("DynamicStitch")
def _dynamic_stitch_grad(op, g):
    # Each slice gets the gradient of the row it landed in, unless a later piece overwrote
    # it: the winners are found by stitching every slice's own position.
    n = op.attrs["n"]
    indices, data = op.inputs[:n], op.inputs[n:]
    sizes = [int(np.prod(shape_of(i), dtype=np.int64)) for i in indices]
    starts = np.cumsum([0] + sizes)
    own = [np.arange(start, start + size, dtype=np.int64).reshape(shape_of(i))
           for start, size, i in zip(starts, sizes, indices)]
    winners = DynamicStitch(*indices, *own, n=n)
    zero = np.zeros((), dtype_of(g))
    grads = []
    for index, mine, values in zip(indices, own, data):
        won = Equal(GatherV2(winners, index, axis=0, batch_dims=0), mine)
        inner = len(shape_of(values)) - len(shape_of(index))
        won = Reshape(won, shape_of(index) + (1,) * inner) if inner else won
        grads.append(SelectV2(won, GatherV2(g, index, axis=0, batch_dims=0), zero))
    return [None] * n + grads
