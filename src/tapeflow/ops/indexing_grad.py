"""Gradient rules of indexing_ops and sort_ops. Each works on raw arrays and on Tensors."""
from __future__ import annotations

import numpy as np

from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import RegisterGradient, no_gradient
from . import sort_ops  # noqa: F401  (defines TopKV2, whose rule is below)
from .array_ops import PadV2, Reshape, Shape
from .creation_ops import zero_gradient
from .gather_grad import flat_row_ids
from .gather_ops import UnsortedSegmentSum
from .comparison_ops import Equal
from .indexing_ops import (DynamicStridedSlice, DynamicStridedSliceGrad, GatherNd, ScatterNd,
                           Select, SelectV2, StridedSlice, StridedSliceGrad, TensorScatterAdd,
                           TensorScatterUpdate)
from .math_ops import Cast, DivNoNan
from .op_util import dtype_of, partly_known_dims, shape_of


@RegisterGradient("Slice")
def _slice_grad(op, g):
    shape = shape_of(op.inputs[0])
    paddings = tuple((b, d - b - s) for b, s, d in zip(op.attrs["begin"], op.attrs["size"], shape))
    return PadV2(g, paddings=paddings, constant_values=0)


@RegisterGradient("StridedSlice")
def _strided_slice_grad(op, g):
    x = op.inputs[0]
    if partly_known_dims(x) is not None:
        return DynamicStridedSliceGrad(g, Shape(x, out_type=np.int64), spec=op.attrs["index"])
    return StridedSliceGrad(g, shape=shape_of(x), index=op.attrs["index"])


@RegisterGradient("StridedSliceGrad")
def _strided_slice_grad_grad(op, g):
    return StridedSlice(g, index=op.attrs["index"])


@RegisterGradient("DynamicStridedSlice")
def _dynamic_strided_slice_grad(op, g):
    x, *bounds = op.inputs
    grad = DynamicStridedSliceGrad(g, Shape(x, out_type=np.int64), *bounds, spec=op.attrs["spec"])
    return (grad,) + (None,) * len(bounds)


@RegisterGradient("DynamicStridedSliceGrad")
def _dynamic_strided_slice_grad_grad(op, g):
    _, _, *bounds = op.inputs
    return (DynamicStridedSlice(g, *bounds, spec=op.attrs["spec"]), None) + (None,) * len(bounds)


@RegisterGradient("GatherNd")
def _gather_nd_grad(op, g):
    params, indices = op.inputs
    ishape = shape_of(indices)
    if len(ishape) == 2 and ishape[1] == 1:
        # Whole rows, as TF: an IndexedSlices.
        return IndexedSlices(g, Reshape(indices, ishape[:1]),
                             np.asarray(shape_of(params), dtype_of(indices))), None
    return ScatterNd(indices, g, shape=shape_of(params)), None


@RegisterGradient("ScatterNd")
def _scatter_nd_grad(op, g):
    return None, GatherNd(g, op.inputs[0])


@RegisterGradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, g):
    indices = op.inputs[1]
    cleared = TensorScatterUpdate(g, indices, zero_gradient(op.inputs[2]))
    return cleared, None, GatherNd(g, indices)


@RegisterGradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, g):
    return g, None, GatherNd(g, op.inputs[1])


@RegisterGradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, g):
    return g, None, -GatherNd(g, op.inputs[1])


def _tensor_scatter_extreme_grad(op, g):
    # Every value equal to the result shares its gradient: the tensor's own and the updates'.
    tensor, indices, updates = op.inputs
    out = op.outputs[0]
    dtype = dtype_of(tensor)
    kept = Cast(Equal(tensor, out), dtype=dtype)
    won = Cast(Equal(updates, GatherNd(out, indices)), dtype=dtype)
    share = DivNoNan(g, TensorScatterAdd(kept, indices, won))
    return share * kept, None, GatherNd(share, indices) * won


RegisterGradient("TensorScatterMax")(_tensor_scatter_extreme_grad)
RegisterGradient("TensorScatterMin")(_tensor_scatter_extreme_grad)


@RegisterGradient("SelectV2")
def _select_grad(op, g):
    condition = op.inputs[0]
    zero = np.zeros((), dtype_of(g))
    # The unselected side gets an exact zero; a nan in its own local gradient still shows
    # (0 * nan), which is TF's behaviour (the `where` NaN trap).
    return None, SelectV2(condition, g, zero), SelectV2(condition, zero, g)


@RegisterGradient("Select")
def _select_v1_grad(op, g):
    zeros = zero_gradient(g)  # Select does not broadcast: the zeros take g's shape
    return None, Select(op.inputs[0], g, zeros), Select(op.inputs[0], zeros, g)


@RegisterGradient("TopKV2")
def _top_k_grad(op, g, _indices_grad):
    shape = shape_of(op.inputs[0])
    n = shape[-1] if shape else 1
    rows = int(np.prod(shape[:-1], dtype=np.int64))
    # Scatter each row's k gradients back to the positions the values came from.
    scattered = UnsortedSegmentSum(Reshape(g, (-1,)), flat_row_ids(op.outputs[1], rows, n),
                                   num_segments=rows * n)
    return Reshape(scattered, shape)


no_gradient("Where")
