"""Gathering slices by index, and its adjoint, the segment sum: kernels and the public
TF-named functions.

Each op is one `define_op` row; its gradient rule lives in `gather_grad.py`.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.graph_def import graph_def_form
from ..framework.registry import LINEAR, Stacking, define_op
from ..framework.shape_inference import unless_known
from ..framework.tensor import Tensor
from .dispatch import add_dispatch_support
from .op_util import as_input, index_input, int_value, known_dims, normalize_axis


# -- kernels ---------------------------------------------------------------------------------
def check_range(op_name: str, indices, limit: int) -> None:
    if indices.size and (indices.min() < 0 or indices.max() >= limit):
        where = np.argwhere((indices < 0) | (indices >= limit))[0]
        position = ",".join(map(str, where.tolist()))
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: indices[{position}] = {indices[tuple(where)]} is not in "
            f"[0, {limit})")


def _gather(params, indices, axis, batch_dims):
    check_range("GatherV2", indices, params.shape[axis])
    if not batch_dims:
        return np.take(params, indices, axis=axis)
    # params: batch + outer + [n] + inner; indices: batch + rest -> batch + outer + rest + inner.
    batch, outer = params.shape[:batch_dims], params.shape[batch_dims:axis]
    inner, rest = params.shape[axis + 1:], indices.shape[batch_dims:]
    nb, no, ni, nr = (int(np.prod(s, dtype=np.int64)) for s in (batch, outer, inner, rest))
    flat = params.reshape(nb, no, params.shape[axis], ni)
    picks = np.broadcast_to(indices.reshape(nb, 1, nr, 1), (nb, no, nr, ni))
    return np.take_along_axis(flat, picks, axis=2).reshape(batch + outer + rest + inner)


def _unsorted_segment_sum(data, segment_ids, num_segments):
    if data.shape[:segment_ids.ndim] != segment_ids.shape:
        raise errors.InvalidArgumentError(
            None, "UnsortedSegmentSum", f"UnsortedSegmentSum: segment_ids.shape "
            f"{list(segment_ids.shape)} must be a prefix of data.shape {list(data.shape)}")
    if segment_ids.size and segment_ids.max() >= num_segments:
        where = np.argwhere(segment_ids >= num_segments)[0]
        raise errors.InvalidArgumentError(
            None, "UnsortedSegmentSum", f"UnsortedSegmentSum: segment_ids"
            f"[{','.join(map(str, where.tolist()))}] = {segment_ids[tuple(where)]} is out of "
            f"range [0, {num_segments})")
    out = np.zeros((num_segments,) + data.shape[segment_ids.ndim:], dtype=data.dtype)
    keep = segment_ids >= 0
    if keep.all():
        np.add.at(out, segment_ids, data)
    else:
        np.add.at(out, segment_ids[keep], data[keep])
    return out


def _unless_batch_dims(attrs: dict):
    """Stacking expresses a gather without batch dimensions only."""
    return attrs if attrs["batch_dims"] == 0 else None


GatherV2 = define_op("GatherV2", _gather, family=LINEAR,
                     batching=Stacking(transform=_unless_batch_dims))
UnsortedSegmentSum = define_op("UnsortedSegmentSum", _unsorted_segment_sum, family=LINEAR)
graph_def_form("GatherV2", inputs={"axis": "axis"})  # TF takes the axis as an input



def _gather_dims(inputs, attrs):
    """A gather's static shape: params' dimensions before the axis, the indices' after the
    batch dimensions, params' after the axis (whatever values the indices hold)."""
    params, indices = inputs
    p, i, axis, batch = params._dims, indices._dims, attrs["axis"], attrs["batch_dims"]
    if p is None or i is None:
        return None
    return [(params._value.dtype, p[:axis] + i[batch:] + p[axis + 1:])]


GatherV2.shape_fn = unless_known(_gather_dims)


# -- public functions ------------------------------------------------------------------------
@add_dispatch_support
def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None) -> Tensor:
    """Gathers slices of `params` along `axis` at `indices`.

    The result has shape `params.shape[:axis] + indices.shape[batch_dims:] +
    params.shape[axis + 1:]`. The gradient with respect to `params` is an IndexedSlices when
    `axis` is 0, as in TF.

    Args:
        params: the tensor to gather from.
        indices: an int16/int32/int64 tensor of positions in [0, params.shape[axis]).
        validate_indices: accepted for TF compatibility (indices are always checked).
        axis: the axis of `params` to gather along (default `batch_dims`).
        batch_dims: how many leading dimensions `params` and `indices` share as batches.

    Returns:
        The gathered tensor, with `params`' dtype.

    Raises:
        InvalidArgumentError: an index is out of range or not an integer, `axis` or
            `batch_dims` is out of range, or the batch dimensions differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.gather(tf.constant([[1, 2], [3, 4], [5, 6]]), [2, 0]).numpy()
        array([[5, 6],
               [1, 2]], dtype=int32)
    """
    params = as_input(params)
    indices = index_input("GatherV2", indices)
    pshape, ishape = known_dims(params), known_dims(indices)
    b = int(batch_dims)
    if ishape is not None:
        if b < 0:
            b += len(ishape)
        if not 0 <= b <= len(ishape):
            raise errors.InvalidArgumentError(
                None, "GatherV2", f"GatherV2: batch_dims ({batch_dims}) must be in "
                f"[{-len(ishape)}, {len(ishape)}] for indices of shape {list(ishape)}")
    a = normalize_axis("GatherV2", b if axis is None else axis,
                       None if pshape is None else len(pshape))
    if pshape is None or ishape is None:  # unknown rank: checked when it runs
        return execute(GatherV2, (params, indices), {"axis": a, "batch_dims": b})
    if b > a:
        raise errors.InvalidArgumentError(
            None, "GatherV2", f"GatherV2: batch_dims ({b}) must be less than or equal to axis "
            f"({a})")
    if any(p != i and p is not None and i is not None for p, i in zip(pshape[:b], ishape[:b])):
        raise errors.InvalidArgumentError(
            None, "GatherV2", f"GatherV2: the first {b} dimensions of params {list(pshape)} and "
            f"indices {list(ishape)} must be equal")
    return execute(GatherV2, (params, indices), {"axis": a, "batch_dims": b})


def unsorted_segment_sum(data, segment_ids, num_segments, name=None) -> Tensor:
    """Sums the slices of `data` that share a segment id: `out[i] = sum(data[ids == i])`.

    `segment_ids.shape` must be a prefix of `data.shape`; negative ids are dropped.

    Raises:
        InvalidArgumentError: an id is >= num_segments, the ids are not integers, or their
            shape is not a prefix of `data.shape`.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.unsorted_segment_sum(tf.constant([1.0, 2.0, 3.0]), [1, 0, 1], 2).numpy()
        array([2., 4.], dtype=float32)
    """
    ids = index_input("UnsortedSegmentSum", segment_ids)
    num = int_value("UnsortedSegmentSum", num_segments, "num_segments")
    return execute(UnsortedSegmentSum, (as_input(data), ids), {"num_segments": num})

