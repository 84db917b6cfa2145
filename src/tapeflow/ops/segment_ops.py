"""Segment reductions (sorted and unsorted) and their sparse forms: kernels and the public
TF-named functions.

`UnsortedSegmentSum` itself lives in `gather_ops.py` (it is gather's adjoint). Each op is one
`define_op` row; its gradient rule lives in `segment_grad.py`.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import LINEAR, define_op
from ..framework.tensor import Tensor
from .array_ops import reshape
from .gather_ops import check_range, unsorted_segment_sum
from .math_ops import cast, maximum, sqrt
from .op_util import as_input, index_input, int_values


# -- kernels ---------------------------------------------------------------------------------
_UFUNCS = {"Sum": np.add, "Prod": np.multiply, "Max": np.maximum, "Min": np.minimum}


def _empty_value(kind: str, dtype: np.dtype):
    """What an empty unsorted segment holds."""
    if kind == "Prod":
        return 1
    if kind in ("Max", "Min"):
        info = np.finfo(dtype) if dtypes.kind(dtype) == "f" else np.iinfo(dtype)
        return info.min if kind == "Max" else info.max
    return 0


def _reduce(kind: str, data, ids, num: int):
    out = np.full((num,) + data.shape[ids.ndim:], _empty_value(kind, data.dtype),
                  dtype=data.dtype)
    keep = ids >= 0
    _UFUNCS[kind].at(out, ids[keep], data[keep])
    return out


def _sorted_kernel(kind: str):
    name = f"Segment{kind}"

    def kernel(data, segment_ids):
        ids = segment_ids
        if ids.ndim != 1 or not data.ndim or ids.shape[0] != data.shape[0]:
            raise errors.InvalidArgumentError(
                None, name, f"{name}: segment_ids should be the same size as dimension 0 of "
                f"input (segment_ids shape {list(ids.shape)}, data shape {list(data.shape)})")
        if ids.size and (ids[0] < 0 or np.any(np.diff(ids) < 0)):
            raise errors.InvalidArgumentError(
                None, name, f"{name}: segment ids are not increasing (or negative): "
                f"{ids.tolist()}")
        return _sorted_reduce(kind, data, ids, int(ids[-1]) + 1 if ids.size else 0)
    return kernel


def _counts_of(ids, num: int, ndim: int):
    counts = np.bincount(ids[ids >= 0], minlength=num)[:num]
    return counts.reshape((num,) + (1,) * (ndim - 1))


def _sorted_reduce(kind: str, data, ids, num: int):
    """Segment `kind` (Sum, Mean, SqrtN, Prod, Max, Min) with empty segments 0 (1 for Prod)."""
    if kind in ("Mean", "SqrtN"):
        counts = np.maximum(_counts_of(ids, num, data.ndim), 1)
        total = _reduce("Sum", data, ids, num)
        return (total / (counts if kind == "Mean" else np.sqrt(counts))).astype(data.dtype)
    out = _reduce(kind, data, ids, num)
    if kind in ("Max", "Min"):
        out[np.broadcast_to(_counts_of(ids, num, data.ndim) == 0, out.shape)] = 0
    return out


def _unsorted_kernel(kind: str):
    name = f"UnsortedSegment{kind}"

    def kernel(data, segment_ids, num_segments):
        ids = segment_ids
        if data.shape[:ids.ndim] != ids.shape:
            raise errors.InvalidArgumentError(
                None, name, f"{name}: segment_ids.shape {list(ids.shape)} must be a prefix of "
                f"data.shape {list(data.shape)}")
        if ids.size and ids.max() >= num_segments:
            where = np.argwhere(ids >= num_segments)[0]
            raise errors.InvalidArgumentError(
                None, name, f"{name}: segment_ids[{','.join(map(str, where.tolist()))}] = "
                f"{ids[tuple(where)]} is out of range [0, {num_segments})")
        return _reduce(kind, data, ids, num_segments)
    return kernel


def _sparse_kernel(kind: str):
    name = f"SparseSegment{kind}"

    def kernel(data, indices, segment_ids, num_segments, sparse_gradient):
        ids = segment_ids
        if ids.ndim != 1 or ids.shape != indices.shape:
            raise errors.InvalidArgumentError(
                None, name, f"{name}: segment_ids and indices should have same size (shapes "
                f"{list(ids.shape)} and {list(indices.shape)})")
        check_range(name, indices, data.shape[0] if data.ndim else 0)
        if ids.size and (ids[0] < 0 or np.any(np.diff(ids) < 0)):
            raise errors.InvalidArgumentError(
                None, name, f"{name}: segment ids are not increasing (or negative): "
                f"{ids.tolist()}")
        num = (int(ids[-1]) + 1 if ids.size else 0) if num_segments is None else num_segments
        if ids.size and ids[-1] >= num:
            raise errors.InvalidArgumentError(
                None, name, f"{name}: segment ids must be < num_segments ({num}), got "
                f"{int(ids[-1])}")
        return _sorted_reduce(kind, data[indices], ids, num)
    return kernel


SegmentSum = define_op("SegmentSum", _sorted_kernel("Sum"), family=LINEAR)
SegmentMean = define_op("SegmentMean", _sorted_kernel("Mean"), family=LINEAR)
SegmentProd = define_op("SegmentProd", _sorted_kernel("Prod"))
SegmentMax = define_op("SegmentMax", _sorted_kernel("Max"))
SegmentMin = define_op("SegmentMin", _sorted_kernel("Min"))
UnsortedSegmentProd = define_op("UnsortedSegmentProd", _unsorted_kernel("Prod"))
UnsortedSegmentMax = define_op("UnsortedSegmentMax", _unsorted_kernel("Max"))
UnsortedSegmentMin = define_op("UnsortedSegmentMin", _unsorted_kernel("Min"))
SparseSegmentSum = define_op("SparseSegmentSum", _sparse_kernel("Sum"), family=LINEAR)
SparseSegmentMean = define_op("SparseSegmentMean", _sparse_kernel("Mean"), family=LINEAR)
SparseSegmentSqrtN = define_op("SparseSegmentSqrtN", _sparse_kernel("SqrtN"), family=LINEAR)


# -- public functions ------------------------------------------------------------------------
def _sorted(op, data, segment_ids) -> Tensor:
    return execute(op, (as_input(data), index_input(op.name, segment_ids)), {})


def _unsorted(op, data, segment_ids, num_segments) -> Tensor:
    (num,) = int_values(op.name, num_segments, "num_segments")
    return execute(op, (as_input(data), index_input(op.name, segment_ids)),
                   {"num_segments": num})


_SORTED_DOC = """The {what} of the rows of `data` in each segment: `out[i]` reduces the rows
    `j` with `segment_ids[j] == i`.

    Args:
        data: a tensor.
        segment_ids: a 1-D int32/int64 tensor of non-decreasing ids, one per row of `data`.

    Returns:
        A tensor of `data`'s dtype with `segment_ids[-1] + 1` rows; a segment without rows
        holds {empty}.

    Raises:
        InvalidArgumentError: the ids are not sorted, negative, not integers, or not one per
            row of `data`.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.{fn}(tf.constant([1.0, 4.0, 2.0]), [0, 0, 2]).numpy()
        {example}
"""


def segment_sum(data, segment_ids, name=None) -> Tensor:
    return _sorted(SegmentSum, data, segment_ids)


def segment_mean(data, segment_ids, name=None) -> Tensor:
    return _sorted(SegmentMean, data, segment_ids)


def segment_prod(data, segment_ids, name=None) -> Tensor:
    return _sorted(SegmentProd, data, segment_ids)


def segment_max(data, segment_ids, name=None) -> Tensor:
    return _sorted(SegmentMax, data, segment_ids)


def segment_min(data, segment_ids, name=None) -> Tensor:
    return _sorted(SegmentMin, data, segment_ids)


for _fn, _what, _empty, _example in (
        (segment_sum, "sum", "0", "array([5., 0., 2.], dtype=float32)"),
        (segment_mean, "mean", "0", "array([2.5, 0. , 2. ], dtype=float32)"),
        (segment_prod, "product", "1", "array([4., 1., 2.], dtype=float32)"),
        (segment_max, "maximum", "0", "array([4., 0., 2.], dtype=float32)"),
        (segment_min, "minimum", "0", "array([1., 0., 2.], dtype=float32)")):
    _fn.__doc__ = _SORTED_DOC.format(what=_what, empty=_empty, fn=_fn.__name__,
                                     example=_example)

_UNSORTED_DOC = """The {what} of the slices of `data` that share a segment id: `out[i]`
    reduces `data[j]` over the positions `j` with `segment_ids[j] == i`.

    `segment_ids.shape` must be a prefix of `data.shape`; negative ids are dropped.

    Args:
        data: a tensor.
        segment_ids: an int32/int64 tensor, in any order, each < num_segments.
        num_segments: the number of segments (the output's first dimension).

    Returns:
        A tensor of `data`'s dtype of shape `[num_segments] + data.shape[ids.ndim:]`; a
        segment without slices holds {empty}.

    Raises:
        InvalidArgumentError: an id is >= num_segments, the ids are not integers, or their
            shape is not a prefix of `data.shape`.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.{fn}(tf.constant([1.0, 4.0, 2.0]), [1, 1, 0], 3).numpy()
        {example}
"""


def unsorted_segment_prod(data, segment_ids, num_segments, name=None) -> Tensor:
    return _unsorted(UnsortedSegmentProd, data, segment_ids, num_segments)


def unsorted_segment_max(data, segment_ids, num_segments, name=None) -> Tensor:
    return _unsorted(UnsortedSegmentMax, data, segment_ids, num_segments)


def unsorted_segment_min(data, segment_ids, num_segments, name=None) -> Tensor:
    return _unsorted(UnsortedSegmentMin, data, segment_ids, num_segments)


def _counts(data, segment_ids, num_segments):
    """How many slices each segment holds (at least 1), shaped to divide the segment sums."""
    data = as_input(data)
    ids = index_input("UnsortedSegmentSum", segment_ids)
    ones = cast(ids >= 0, data.dtype)
    counts = maximum(unsorted_segment_sum(ones, ids, num_segments), 1)
    extra = data.shape.rank - ids.shape.rank
    return reshape(counts, [-1] + [1] * extra)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None) -> Tensor:
    return unsorted_segment_sum(data, segment_ids, num_segments) / _counts(
        data, segment_ids, num_segments)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None) -> Tensor:
    return unsorted_segment_sum(data, segment_ids, num_segments) / sqrt(
        _counts(data, segment_ids, num_segments))


for _fn, _what, _empty, _example in (
        (unsorted_segment_prod, "product", "1", "array([2., 4., 1.], dtype=float32)"),
        (unsorted_segment_max, "maximum", "the dtype's lowest value",
         "array([ 2.0000000e+00,  4.0000000e+00, -3.4028235e+38], dtype=float32)"),
        (unsorted_segment_min, "minimum", "the dtype's highest value",
         "array([2.0000000e+00, 1.0000000e+00, 3.4028235e+38], dtype=float32)"),
        (unsorted_segment_mean, "mean", "0", "array([2. , 2.5, 0. ], dtype=float32)"),
        (unsorted_segment_sqrt_n, "sum divided by the square root of the count", "0",
         "array([2.  , 3.54, 0.  ], dtype=float32)")):
    _fn.__doc__ = _UNSORTED_DOC.format(what=_what, empty=_empty, fn=_fn.__name__,
                                       example=_example)


def _sparse(op, data, indices, segment_ids, num_segments, sparse_gradient) -> Tensor:
    num = None if num_segments is None else int_values(op.name, num_segments, "num_segments")[0]
    return execute(op, (as_input(data), index_input(op.name, indices),
                        index_input(op.name, segment_ids)),
                   {"num_segments": num, "sparse_gradient": bool(sparse_gradient)})


_SPARSE_DOC = """The {what} of the rows `data[indices[j]]` in each segment `segment_ids[j]`.

    Args:
        data: a tensor.
        indices: a 1-D int32/int64 tensor of rows of `data` to reduce.
        segment_ids: a 1-D int32/int64 tensor of non-decreasing ids, one per entry of
            `indices`.
        num_segments: the number of segments (default `segment_ids[-1] + 1`).
        sparse_gradient: the gradient with respect to `data` is an IndexedSlices of the
            picked rows (a repeated index repeats) instead of a dense tensor.

    Returns:
        A tensor of `data`'s dtype; a segment without rows holds 0.

    Raises:
        InvalidArgumentError: an index is out of range, or the ids are not sorted, not
            integers or not one per index.

    Example:
        >>> import tapeflow as tf
        >>> data = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> tf.sparse.{fn}(data, [0, 1, 1], [0, 0, 1]).numpy()
        {example}
"""


def sparse_segment_sum(data, indices, segment_ids, num_segments=None, name=None,
                       sparse_gradient=False) -> Tensor:
    return _sparse(SparseSegmentSum, data, indices, segment_ids, num_segments, sparse_gradient)


def sparse_segment_mean(data, indices, segment_ids, num_segments=None, name=None,
                        sparse_gradient=False) -> Tensor:
    return _sparse(SparseSegmentMean, data, indices, segment_ids, num_segments,
                   sparse_gradient)


def sparse_segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None,
                          sparse_gradient=False) -> Tensor:
    return _sparse(SparseSegmentSqrtN, data, indices, segment_ids, num_segments,
                   sparse_gradient)


for _fn, _what, _example in (
        (sparse_segment_sum, "sum", "array([[4., 6.],\n               [3., 4.]], dtype=float32)"),
        (sparse_segment_mean, "mean",
         "array([[2., 3.],\n               [3., 4.]], dtype=float32)"),
        (sparse_segment_sqrt_n, "sum divided by the square root of the count",
         "array([[2.83 , 4.24],\n               [3. , 4. ]], dtype=float32)")):
    _fn.__doc__ = _SPARSE_DOC.format(what=_what, fn=_fn.__name__[len("sparse_"):],
                                     example=_example)
