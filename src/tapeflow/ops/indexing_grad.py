"""Gradient rules of indexing_ops and sort_ops. Each works on raw arrays and on Tensors."""
from __future__ import annotations

import numpy as np

from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import RegisterGradient, no_gradient
from . import sort_ops  # noqa: F401  (defines TopKV2, whose rule is below)
from .array_ops import PadV2, Reshape
from .gather_ops import UnsortedSegmentSum
from .indexing_ops import (GatherNd, ScatterNd, SelectV2, StridedSlice, StridedSliceGrad,
                           TensorScatterUpdate)
from .op_util import dtype_of, shape_of, value_of


@RegisterGradient("Slice")
def _slice_grad(op, g):
    shape = shape_of(op.inputs[0])
    paddings = tuple((b, d - b - s) for b, s, d in zip(op.attrs["begin"], op.attrs["size"], shape))
    return PadV2(g, paddings=paddings, constant_values=0)


@RegisterGradient("StridedSlice")
def _strided_slice_grad(op, g):
    return StridedSliceGrad(g, shape=shape_of(op.inputs[0]), index=op.attrs["index"])


@RegisterGradient("StridedSliceGrad")
def _strided_slice_grad_grad(op, g):
    return StridedSlice(g, index=op.attrs["index"])


@RegisterGradient("GatherNd")
def _gather_nd_grad(op, g):
    params, indices = op.inputs
    index_values = value_of(indices)
    if index_values.ndim == 2 and index_values.shape[1] == 1:
        # Whole rows, as TF: an IndexedSlices.
        return IndexedSlices(g, index_values[:, 0], np.asarray(shape_of(params),
                                                               index_values.dtype)), None
    return ScatterNd(index_values, g, shape=shape_of(params)), None


@RegisterGradient("ScatterNd")
def _scatter_nd_grad(op, g):
    return None, GatherNd(g, value_of(op.inputs[0]))


@RegisterGradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, g):
    indices = value_of(op.inputs[1])
    cleared = TensorScatterUpdate(g, indices, np.zeros(shape_of(op.inputs[2]), dtype_of(g)))
    return cleared, None, GatherNd(g, indices)


@RegisterGradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, g):
    return g, None, GatherNd(g, value_of(op.inputs[1]))


@RegisterGradient("SelectV2")
def _select_grad(op, g):
    condition = op.inputs[0]
    zero = np.zeros((), dtype_of(g))
    # The unselected side gets an exact zero; a nan in its own local gradient still shows
    # (0 * nan), which is TF's behaviour (the `where` NaN trap).
    return None, SelectV2(condition, g, zero), SelectV2(condition, zero, g)


@RegisterGradient("TopKV2")
def _top_k_grad(op, g, _indices_grad):
    shape = shape_of(op.inputs[0])
    indices = value_of(op.outputs[1])
    n = shape[-1] if shape else 1
    rows = int(np.prod(shape[:-1], dtype=np.int64))
    # Scatter each row's k gradients back to the positions the values came from.
    flat_ids = (np.arange(rows)[:, None] * n + indices.reshape(rows, -1)).reshape(-1)
    scattered = UnsortedSegmentSum(Reshape(g, (-1,)), flat_ids, num_segments=rows * n)
    return Reshape(scattered, shape)


no_gradient("Where")
