"""Gradient rules of gather_ops. Each works on raw arrays and on Tensors alike."""
from __future__ import annotations

import numpy as np

from ..framework.errors import SymbolicValueError
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import RegisterGradient
from .array_ops import Reshape, Transpose
from .creation_ops import ZerosLike
from .comparison_ops import GreaterEqual
from .gather_ops import GatherV2, UnsortedSegmentSum
from .indexing_ops import SelectV2, TensorScatterAdd
from .math_ops import Maximum
from .op_util import dtype_of, known_dims, shape_of


def _transposed(x, perm: tuple):
    return x if perm == tuple(range(len(perm))) else Transpose(x, perm=perm)


def flat_row_ids(indices, rows: int, n: int):
    """The positions `indices` (of shape [rows, ...], each in [0, n)) pick in the flattened
    [rows * n] axis: row r's index i becomes r * n + i, as a 1-D tensor."""
    picked = Reshape(indices, (rows, -1))
    return Reshape(picked + (np.arange(rows, dtype=dtype_of(indices)) * n)[:, None], (-1,))


@RegisterGradient("GatherV2")
def _gather_grad(op, g):
    params, indices = op.inputs
    axis, b = op.attrs["axis"], op.attrs["batch_dims"]
    if axis == 0:
        idims, pdims = known_dims(indices), known_dims(params)
        if idims is not None and None not in idims:
            n = int(np.prod(idims, dtype=np.int64))
            inner = shape_of(op.outputs[0])[len(idims):]
        else:  # (in a graph) indices of a size known when it runs: a row per index
            n, inner = -1, tuple(pdims[1:])
        rows = Reshape(g, (n,) + inner)
        try:
            dense_shape = np.asarray(shape_of(params), np.int32)
        except SymbolicValueError:  # a graph tensor whose rows are known only when it runs
            zeros = ZerosLike(params, dtype=dtype_of(g))
            return TensorScatterAdd(zeros, Reshape(indices, (n, 1)), rows), None
        return IndexedSlices(rows, Reshape(indices, (n,)), dense_shape), None
    ishape = shape_of(indices)
    pshape = shape_of(params)
    # Dense: move the gathered axes next to the batch axes, segment-sum them into
    # (batch * n) rows, and move the gathered axis back into place.
    batch, outer, n, inner = pshape[:b], pshape[b:axis], pshape[axis], pshape[axis + 1:]
    rest = ishape[b:]
    nb, nr = int(np.prod(batch, dtype=np.int64)), int(np.prod(rest, dtype=np.int64))
    o, r = len(outer), len(rest)
    perm = (tuple(range(b)) + tuple(range(b + o, b + o + r)) + tuple(range(b, b + o))
            + tuple(range(b + o + r, b + o + r + len(inner))))
    rows = Reshape(_transposed(g, perm), (nb * nr,) + outer + inner)
    dense = Reshape(UnsortedSegmentSum(rows, flat_row_ids(indices, nb, n), num_segments=nb * n),
                    batch + (n,) + outer + inner)
    back = (tuple(range(b)) + tuple(range(b + 1, b + 1 + o)) + (b,)
            + tuple(range(b + 1 + o, b + 1 + o + len(inner))))
    return _transposed(dense, back), None


@RegisterGradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, g):
    # Negative ids were dropped: they gather row 0 and are then zeroed.
    ids = op.inputs[1]
    zero = np.zeros((), dtype_of(ids))
    picked = GatherV2(g, Maximum(ids, zero), axis=0, batch_dims=0)
    id_shape = shape_of(ids)
    keep = Reshape(GreaterEqual(ids, zero),
                   id_shape + (1,) * (len(shape_of(picked)) - len(id_shape)))
    return SelectV2(keep, picked, np.zeros((), dtype_of(g))), None
