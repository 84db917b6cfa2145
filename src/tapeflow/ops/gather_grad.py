"""Gradient rules of gather_ops. Each works on raw arrays and on Tensors alike."""
from __future__ import annotations

import numpy as np

from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import RegisterGradient
from .array_ops import Reshape, Transpose
from .gather_ops import GatherV2, UnsortedSegmentSum
from .op_util import dtype_of, shape_of, value_of


def _transposed(x, perm: tuple):
    return x if perm == tuple(range(len(perm))) else Transpose(x, perm=perm)


@RegisterGradient("GatherV2")
def _gather_grad(op, g):
    params, indices = op.inputs
    axis, b = op.attrs["axis"], op.attrs["batch_dims"]
    pshape, index_values = shape_of(params), value_of(indices)
    if axis == 0:
        n = index_values.size
        return IndexedSlices(Reshape(g, (n,) + pshape[1:]), index_values.reshape(n),
                             np.asarray(pshape, np.int32)), None
    # Dense: move the gathered axes next to the batch axes, segment-sum them into
    # (batch * n) rows, and move the gathered axis back into place.
    batch, outer, n, inner = pshape[:b], pshape[b:axis], pshape[axis], pshape[axis + 1:]
    rest = index_values.shape[b:]
    nb, nr = int(np.prod(batch, dtype=np.int64)), int(np.prod(rest, dtype=np.int64))
    o, r = len(outer), len(rest)
    perm = (tuple(range(b)) + tuple(range(b + o, b + o + r)) + tuple(range(b, b + o))
            + tuple(range(b + o + r, b + o + r + len(inner))))
    rows = Reshape(_transposed(g, perm), (nb * nr,) + outer + inner)
    ids = (np.arange(nb)[:, None] * n + index_values.reshape(nb, nr)).reshape(-1)
    dense = Reshape(UnsortedSegmentSum(rows, ids, num_segments=nb * n),
                    batch + (n,) + outer + inner)
    back = (tuple(range(b)) + tuple(range(b + 1, b + 1 + o)) + (b,)
            + tuple(range(b + 1 + o, b + 1 + o + len(inner))))
    return _transposed(dense, back), None


@RegisterGradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, g):
    ids = value_of(op.inputs[1])
    keep = ids >= 0
    if keep.all():
        return GatherV2(g, ids, axis=0, batch_dims=0), None
    picked = GatherV2(g, np.maximum(ids, 0), axis=0, batch_dims=0)
    mask = keep.reshape(ids.shape + (1,) * (len(shape_of(picked)) - ids.ndim))
    return picked * mask.astype(dtype_of(g)), None
