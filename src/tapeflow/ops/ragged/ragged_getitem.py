"""Indexing and slicing a RaggedTensor (`rt[i]`, `rt[a:b]`, `rt[:, a:b]`), and gathering
its rows: each is a gather of `values` at ranges built from the row splits."""
from __future__ import annotations

from ...framework import dtypes, errors
from ...framework.tensor import convert_to_tensor
from .. import array_ops, creation_ops, gather_ops, math_ops, reduction_ops
from .ragged_tensor import RaggedTensor, _eager_value, _prepend_zero, splits_to_rowids

__all__ = ["ragged_getitem", "gather_rows", "range_indices"]


def range_indices(starts, limits):
    """(indices, splits): the concatenated ranges `starts[i]..limits[i]` and the splits
    that cut them back into one row per range."""
    lengths = math_ops.maximum(limits - starts, 0)
    splits = _prepend_zero(reduction_ops.cumsum(lengths))
    rowids = splits_to_rowids(splits)
    indices = creation_ops.range(0, splits[-1], dtype=lengths.dtype) - \
        gather_ops.gather(splits, rowids) + gather_ops.gather(starts, rowids)
    return indices, splits


def gather_rows(rt, indices):
    """The rows `indices` (1-D) of `rt` (a RaggedTensor or a dense tensor)."""
    if not isinstance(rt, RaggedTensor):
        return gather_ops.gather(rt, indices)
    indices = math_ops.cast(convert_to_tensor(indices), rt.row_splits.dtype)
    starts = gather_ops.gather(rt.row_starts(), indices)
    limits = gather_ops.gather(rt.row_limits(), indices)
    value_indices, splits = range_indices(starts, limits)
    return RaggedTensor.from_row_splits(gather_rows(rt.values, value_indices), splits,
                                        validate=False)


def _row(rt, i: int):
    n = _eager_value(rt.nrows())
    if n is not None and not -n <= i < n:
        raise errors.InvalidArgumentError(
            None, "StridedSlice", f"slice index {i} of dimension 0 out of bounds "
            f"(a RaggedTensor of shape {rt.shape})")
    if i < 0:
        i = rt.nrows() + i
    start, limit = rt.row_splits[i], rt.row_splits[i + 1]
    if isinstance(rt.values, RaggedTensor):
        return gather_rows(rt.values, creation_ops.range(start, limit, dtype=start.dtype))
    return rt.values[start:limit]


def _slice_bounds(key: slice, lengths):
    from ..indexing_ops import where
    """Per row of lengths `lengths`, the start and limit (offsets in the row) of `key`."""
    def clip(bound, default):
        if bound is None:
            return default
        bound = convert_to_tensor(bound, lengths.dtype)
        bound = where(bound < 0, lengths + bound, array_ops.broadcast_to(
            bound, array_ops.shape(lengths)))
        return math_ops.minimum(math_ops.maximum(bound, 0), lengths)
    start = clip(key.start, creation_ops.zeros_like(lengths))
    stop = clip(key.stop, lengths)
    return start, math_ops.maximum(stop, start)


def _index_inner(rt, keys: tuple):
    """`rt` (all rows kept) indexed by `keys` from its ragged dimension 1 on."""
    if not keys:
        return rt
    first, rest = keys[0], keys[1:]
    if not isinstance(first, slice):
        raise ValueError("Cannot index into an inner ragged dimension.")
    if first.step not in (None, 1):
        raise ValueError(f"Slicing a ragged dimension with step {first.step} is not "
                         "supported (only step 1)")
    if first != slice(None):
        start, stop = _slice_bounds(first, rt.row_lengths())
        indices, splits = range_indices(rt.row_starts() + start, rt.row_starts() + stop)
        rt = RaggedTensor.from_row_splits(gather_rows(rt.values, indices), splits,
                                          validate=False)
    if not rest:
        return rt
    values = rt.values
    if isinstance(values, RaggedTensor):
        return rt.with_values(_index_inner(values, rest))
    return rt.with_values(values[(slice(None),) + rest])


def ragged_getitem(rt, key):
    """`rt[key]`: integers, slices and Ellipsis (TF's RaggedTensor indexing).

    Raises:
        ValueError: an integer index into a ragged dimension (other than the first).
        InvalidArgumentError: a row index out of range.
    """
    keys = key if isinstance(key, tuple) else (key,)
    if any(k is Ellipsis for k in keys):
        at = keys.index(Ellipsis)
        fill = (rt.shape.rank or len(keys)) - (len(keys) - 1)
        keys = keys[:at] + (slice(None),) * max(fill, 0) + keys[at + 1:]
    if not keys:
        return rt
    first, rest = keys[0], keys[1:]
    if isinstance(first, slice):
        if first == slice(None):
            return _index_inner(rt, rest)
        nrows = rt.nrows()
        indices = creation_ops.range(*_row_range(first, nrows), dtype=rt.row_splits.dtype)
        return _index_inner(gather_rows(rt, indices), rest)
    if hasattr(first, "__index__") or (hasattr(first, "dtype") and
                                       first.dtype in (dtypes.int32, dtypes.int64)):
        row = _row(rt, int(first) if hasattr(first, "__index__") else first)
        if not rest:
            return row
        if isinstance(row, RaggedTensor):
            return ragged_getitem(row, rest)
        return row[rest]
    raise TypeError(f"Cannot index a RaggedTensor with {first!r} "
                    "(use integers, slices or Ellipsis)")


def _row_range(key: slice, nrows):
    """(start, limit, step) for `range` over the rows `key` selects."""
    n = _eager_value(nrows)
    if n is not None:
        return slice(key.start, key.stop, key.step).indices(int(n))
    step = 1 if key.step is None else key.step
    if step != 1:
        raise ValueError("A strided row slice of a RaggedTensor needs eager rows")
    start, stop = _slice_bounds(key, array_ops.reshape(nrows, [1]))
    return start[0], stop[0], 1
