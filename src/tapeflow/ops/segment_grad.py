"""Gradient rules of segment_ops. Each works on raw arrays and on Tensors alike.

Max and min share the gradient among tied extremes equally; products divide out the
element, with the product of the other elements where it is zero. Per-segment tensors are
gathered onto the rows before they are combined: a sorted segment op's row count is known
only when a graph runs, and rows are.
"""
from __future__ import annotations

import numpy as np

from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import RegisterGradient
from .array_ops import Reshape
from .comparison_ops import Equal, Greater, GreaterEqual
from .gather_ops import GatherV2, UnsortedSegmentSum
from .indexing_ops import SelectV2
from .math_ops import Cast, DivNoNan, Maximum, Sqrt
from .op_util import dtype_of, shape_of
from .segment_ops import SegmentProd, SegmentSum, UnsortedSegmentProd


class _Segments:
    """How the rules of one segment op spread a per-segment tensor back onto the rows."""

    def __init__(self, op):
        data, ids = op.inputs[:2]
        self.num = op.attrs.get("num_segments")
        self.ids = ids
        self.zero = np.zeros((), dtype_of(ids))
        self.id_rank, self.rank = len(shape_of(ids)), len(shape_of(data))
        self.dtype = dtype_of(data)

    def sum(self, x):
        if self.num is None:
            return SegmentSum(x, self.ids)
        return UnsortedSegmentSum(x, self.ids, num_segments=self.num)

    def prod(self, x):
        if self.num is None:
            return SegmentProd(x, self.ids)
        return UnsortedSegmentProd(x, self.ids, num_segments=self.num)

    def rows_mask(self, mask):
        """`mask` on the ids, broadcast against the data."""
        return Reshape(mask, shape_of(self.ids) + (1,) * (self.rank - self.id_rank))

    def gather(self, x):
        """`x[ids]` with the rows of dropped (negative) ids zero."""
        if self.num is None:
            return GatherV2(x, self.ids, axis=0, batch_dims=0)
        picked = GatherV2(x, Maximum(self.ids, self.zero), axis=0, batch_dims=0)
        keep = self.rows_mask(GreaterEqual(self.ids, self.zero))
        return SelectV2(keep, picked, np.zeros((), dtype_of(x)))


def _extreme_grad(op, g):
    data = op.inputs[0]
    s = _Segments(op)
    chosen = Cast(Equal(data, s.gather(op.outputs[0])), dtype=s.dtype)
    if s.num is not None:
        chosen = chosen * Cast(s.rows_mask(GreaterEqual(s.ids, s.zero)), dtype=s.dtype)
    share = DivNoNan(s.gather(g), s.gather(s.sum(chosen)))
    return share * chosen, None, *([None] * (len(op.inputs) - 2))


def _prod_grad(op, g):
    data = op.inputs[0]
    s = _Segments(op)
    zero = np.zeros((), s.dtype)
    is_zero = Equal(data, zero)
    zeros = s.sum(Cast(is_zero, dtype=s.dtype))
    nonzero = SelectV2(is_zero, np.ones((), s.dtype), data)
    # The product of the other elements: out / x where x != 0; where x is the segment's one
    # zero, the product of its non-zero elements; 0 where the segment has two zeros or more.
    others = SelectV2(is_zero, SelectV2(Greater(s.gather(zeros), np.ones((), s.dtype)), zero,
                                        s.gather(s.prod(nonzero))),
                      s.gather(op.outputs[0]) / nonzero)
    return s.gather(g) * others, None, *([None] * (len(op.inputs) - 2))


for _op in ("SegmentMax", "SegmentMin", "UnsortedSegmentMax", "UnsortedSegmentMin"):
    RegisterGradient(_op)(_extreme_grad)
for _op in ("SegmentProd", "UnsortedSegmentProd"):
    RegisterGradient(_op)(_prod_grad)


@RegisterGradient("SegmentSum")
def _segment_sum_grad(op, g):
    return GatherV2(g, op.inputs[1], axis=0, batch_dims=0), None


@RegisterGradient("SegmentMean")
def _segment_mean_grad(op, g):
    data, ids = op.inputs
    ones = Cast(GreaterEqual(ids, np.zeros((), dtype_of(ids))), dtype=dtype_of(data))
    counts = Reshape(GatherV2(SegmentSum(ones, ids), ids, axis=0, batch_dims=0),
                     (-1,) + (1,) * (len(shape_of(data)) - 1))
    return GatherV2(g, ids, axis=0, batch_dims=0) / counts, None


def _sparse_grad(scale):
    """The rule of a sparse segment op whose segment `i` is divided by `scale(count_i)`."""
    def rule(op, g):
        data, indices, ids = op.inputs
        num = op.attrs["num_segments"]
        rows = GatherV2(g, ids, axis=0, batch_dims=0)
        if scale is not None:
            ones = Cast(GreaterEqual(ids, np.zeros((), dtype_of(ids))), dtype=dtype_of(data))
            counts = SegmentSum(ones, ids) if num is None else \
                UnsortedSegmentSum(ones, ids, num_segments=num)
            picked = scale(GatherV2(counts, ids, axis=0, batch_dims=0))
            rows = rows / Reshape(picked, (-1,) + (1,) * (len(shape_of(data)) - 1))
        shape = shape_of(data)
        if op.attrs["sparse_gradient"]:
            return IndexedSlices(rows, indices, np.asarray(shape, np.int32)), None, None
        return UnsortedSegmentSum(rows, indices, num_segments=shape[0]), None, None
    return rule


RegisterGradient("SparseSegmentSum")(_sparse_grad(None))
RegisterGradient("SparseSegmentMean")(_sparse_grad(lambda counts: counts))
RegisterGradient("SparseSegmentSqrtN")(_sparse_grad(Sqrt))
