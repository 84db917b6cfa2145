"""The ops of `tf.ragged`: ranges, row partitions from segment ids and back, stacking,
masking, partitioning, and `map_flat_values`."""
from __future__ import annotations

from ...framework import dtypes, errors
from ...framework.tensor import convert_to_tensor
from .. import (array_ops, comparison_ops, creation_ops, gather_ops, math_ops,
                reduction_ops)
from .ragged_getitem import gather_rows
from .ragged_tensor import RaggedTensor, _eager_value, _prepend_zero, splits_to_rowids

__all__ = ["boolean_mask", "map_flat_values", "range", "row_splits_to_segment_ids",
           "segment_ids_to_row_splits", "stack", "stack_dynamic_partitions",
           "concat", "as_ragged", "same_partition"]


def range(starts, limits=None, deltas=1, dtype=None, name=None,  # noqa: A001 (TF's name)
          row_splits_dtype=dtypes.int64) -> RaggedTensor:
    """A RaggedTensor whose row i is `tf.range(starts[i], limits[i], deltas[i])` (scalars
    broadcast; with `limits` None, each row is `range(starts[i])`).

    Raises:
        InvalidArgumentError: a delta is 0.

    Example:
        >>> import tapeflow as tf
        >>> tf.ragged.range([0, 5, 8], [3, 3, 12]).to_list()
        [[0, 1, 2], [], [8, 9, 10, 11]]
    """
    if limits is None:
        starts, limits = 0, starts
    parts = [convert_to_tensor(v) if dtype is None else convert_to_tensor(v, dtype)
             for v in (starts, limits, deltas)]
    if dtype is None:
        order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
        dtype = max((p.dtype for p in parts), key=lambda d: order.index(d) if d in order else 0)
        parts = [math_ops.cast(p, dtype) for p in parts]
    start, limit, delta = parts
    d = _eager_value(delta)
    if d is not None and (d == 0).any():
        raise errors.InvalidArgumentError(None, "RaggedRange", "RaggedRange: Requires delta != 0")
    # scalars alone make one row
    shape = array_ops.reshape(array_ops.shape(start + limit + delta), [-1])
    shape = array_ops.concat([shape, [1]], 0)[:1] if (start + limit + delta).shape.rank == 0 \
        else shape
    start, limit, delta = (array_ops.broadcast_to(p, shape) for p in (start, limit, delta))
    splits_dtype = dtypes.as_dtype(row_splits_dtype)
    counts = math_ops.ceil((math_ops.cast(limit, dtypes.float64) - math_ops.cast(
        start, dtypes.float64)) / math_ops.cast(delta, dtypes.float64))
    lengths = math_ops.cast(math_ops.maximum(counts, 0.0), splits_dtype)
    splits = _prepend_zero(reduction_ops.cumsum(lengths))
    rowids = splits_to_rowids(splits)
    position = creation_ops.range(0, splits[-1], dtype=splits_dtype) - \
        gather_ops.gather(splits, rowids)
    values = gather_ops.gather(start, rowids) + \
        math_ops.cast(position, dtype) * gather_ops.gather(delta, rowids)
    return RaggedTensor.from_row_splits(values, splits, validate=False)


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of each value of a partition given by `splits`.

    Example:
        >>> import tapeflow as tf
        >>> tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]).numpy()
        array([0, 0, 2, 2, 2])
    """
    splits = convert_to_tensor(splits) if hasattr(splits, "dtype") else \
        convert_to_tensor(splits, dtypes.int64)
    rt = RaggedTensor.from_row_splits(creation_ops.zeros(splits[-1:], dtypes.bool), splits,
                                      validate=True)
    ids = rt.value_rowids()
    return ids if out_type is None else math_ops.cast(ids, out_type)


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """The row splits of sorted `segment_ids` (with `num_segments` rows, default the last
    id + 1).

    Example:
        >>> import tapeflow as tf
        >>> tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2]).numpy()
        array([0, 2, 2, 5])
    """
    ids = convert_to_tensor(segment_ids) if hasattr(segment_ids, "dtype") else \
        convert_to_tensor(segment_ids, dtypes.int64)
    out_type = ids.dtype if out_type is None else dtypes.as_dtype(out_type)
    rt = RaggedTensor.from_value_rowids(creation_ops.zeros(array_ops.shape(ids), dtypes.bool),
                                        math_ops.cast(ids, out_type), num_segments)
    return rt.row_splits


def as_ragged(x, ragged_rank: int = 1, splits_dtype=dtypes.int64):
    """`x` as a RaggedTensor (a dense tensor's rows all full)."""
    if isinstance(x, RaggedTensor):
        return x
    return RaggedTensor.from_tensor(convert_to_tensor(x), ragged_rank=ragged_rank,
                                    row_splits_dtype=splits_dtype)


def same_partition(op: str, a: RaggedTensor, b: RaggedTensor) -> None:
    """InvalidArgumentError unless eager `a` and `b` have the same nested row splits."""
    sa, sb = a.nested_row_splits, b.nested_row_splits
    if len(sa) != len(sb):
        raise ValueError(f"{op}: ragged ranks differ ({len(sa)} vs. {len(sb)})")
    for x, y in zip(sa, sb):
        if x is y:
            continue
        vx, vy = _eager_value(x), _eager_value(y)
        if vx is not None and vy is not None and (vx.shape != vy.shape or (vx != vy).any()):
            raise errors.InvalidArgumentError(
                None, op, f"{op}: the RaggedTensors have incompatible row partitions "
                f"(row_splits {vx.tolist()} vs. {vy.tolist()})")


def map_flat_values(op, *args, **kwargs):
    """`op` applied to the flat values of the RaggedTensors among its arguments (which
    must share one row partition), rebuilt with that partition.

    Raises:
        InvalidArgumentError: the RaggedTensors' row partitions differ.
        ValueError: no argument is a RaggedTensor.

    Example:
        >>> import tapeflow as tf
        >>> rt = tf.ragged.constant([[1, 2], [3]])
        >>> tf.ragged.map_flat_values(tf.add, rt, 10).to_list()
        [[11, 12], [13]]
    """
    from ...framework import nest
    ragged = [x for x in nest.flatten((args, kwargs)) if isinstance(x, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    for other in ragged[1:]:
        same_partition("map_flat_values", ragged[0], other)
    args, kwargs = nest.map_structure(
        lambda x: x.flat_values if isinstance(x, RaggedTensor) else x, (args, kwargs))
    return ragged[0].with_flat_values(op(*args, **kwargs))


def concat(values, axis: int):
    """RaggedTensors (or dense tensors) joined along `axis` (0: more rows; 1: each row
    joined with the same row of the others)."""
    rts = list(values)
    ragged_rank = max(v.ragged_rank for v in rts if isinstance(v, RaggedTensor))
    splits_dtype = next(v.row_splits.dtype for v in rts if isinstance(v, RaggedTensor))
    rank = next(v.shape.rank for v in rts if isinstance(v, RaggedTensor))
    if axis < 0:
        axis += rank
    rts = [v if isinstance(v, RaggedTensor) else
           as_ragged(v, min(ragged_rank, convert_to_tensor(v).shape.rank - 1), splits_dtype)
           for v in rts]
    if len(rts) == 1:
        return rts[0]
    if axis == 0:
        offsets, splits = 0, []
        for rt in rts:
            s = rt.row_splits
            splits.append(s[:-1] + offsets)
            offsets = offsets + s[-1]
        all_splits = array_ops.concat(splits + [array_ops.reshape(offsets, [1])], 0)
        inner = [rt.values for rt in rts]
        if isinstance(inner[0], RaggedTensor) or any(isinstance(v, RaggedTensor)
                                                       for v in inner):
            values = concat(inner, 0)
        else:
            values = array_ops.concat(inner, 0)
        return RaggedTensor.from_row_splits(values, all_splits, validate=False)
    if axis == 1:
        # Each result row is the rows i of every input, in order: gather them from the
        # inputs' values stacked one after another.
        stacked = concat(rts, 0)
        n = rts[0].nrows()
        order = array_ops.reshape(array_ops.transpose(array_ops.reshape(
            creation_ops.range(0, n * len(rts), dtype=n.dtype), [len(rts), -1])), [-1])
        rows = gather_rows(stacked, order)
        outer = creation_ops.range(0, n * len(rts) + 1, len(rts), dtype=n.dtype)
        return RaggedTensor.from_row_splits(rows, outer, validate=False).merge_dims(1, 2)
    return RaggedTensor.from_row_splits(
        concat([rt.values for rt in rts], axis - 1), rts[0].row_splits, validate=False) \
        if all(isinstance(rt.values, RaggedTensor) for rt in rts) else \
        rts[0].with_values(array_ops.concat([rt.values for rt in rts], axis - 1))


def stack(values, axis=0, name=None):
    """RaggedTensors (or dense tensors) stacked along a new dimension `axis`; the result
    is ragged.

    Example:
        >>> import tapeflow as tf
        >>> tf.ragged.stack([tf.ragged.constant([[1, 2], [3]]),
        ...                  tf.ragged.constant([[4]])]).to_list()
        [[[1, 2], [3]], [[4]]]
    """
    values = list(values)
    if not any(isinstance(v, RaggedTensor) for v in values):
        values = [RaggedTensor.from_tensor(array_ops.expand_dims(convert_to_tensor(v), 0))
                  for v in values]
        return concat(values, 0) if axis == 0 else concat(values, axis)
    expanded = [as_ragged(v) for v in values]
    if axis == 0:
        rows = [rt.nrows() for rt in expanded]
        joined = concat(expanded, 0)
        splits = _prepend_zero(reduction_ops.cumsum(array_ops.stack(rows)))
        return RaggedTensor.from_row_splits(joined, splits, validate=False)
    if axis == 1:
        joined = concat(expanded, 0)
        n = expanded[0].nrows()
        order = array_ops.reshape(array_ops.transpose(array_ops.reshape(
            creation_ops.range(0, n * len(expanded), dtype=n.dtype), [len(expanded), -1])),
            [-1])
        rows = gather_rows(joined, order)
        return RaggedTensor.from_row_splits(rows, creation_ops.range(
            0, n * len(expanded) + 1, len(expanded), dtype=n.dtype), validate=False)
    raise ValueError(f"tf.ragged.stack: axis={axis} is not supported here (0 or 1)")


def boolean_mask(data, mask, name=None):
    """The elements of `data` where `mask` is true; with a mask of rank > 1 or a ragged
    one, the result is ragged (rows keep their selected elements).

    Example:
        >>> import tapeflow as tf
        >>> tf.ragged.boolean_mask([[1, 2], [3, 4]], [[True, False], [False, True]]).to_list()
        [[1], [4]]
    """
    from ..indexing_ops import boolean_mask as dense_mask, where
    if not isinstance(mask, RaggedTensor):
        mask = convert_to_tensor(mask, dtypes.bool)
        if mask.shape.rank == 1:  # whole rows
            if not isinstance(data, RaggedTensor):
                return dense_mask(data, mask)
            return gather_rows(data, array_ops.reshape(where(mask), [-1]))
        mask = RaggedTensor.from_tensor(mask, ragged_rank=mask.shape.rank - 1)
    data = as_ragged(data, mask.ragged_rank, mask.row_splits.dtype)
    if mask.ragged_rank > 1:
        inner = boolean_mask(data.values, mask.values)
        return RaggedTensor.from_row_splits(inner, data.row_splits, validate=False)
    same_partition("boolean_mask", data, mask)
    kept = math_ops.cast(mask.values, data.row_splits.dtype)
    lengths = gather_ops.unsorted_segment_sum(kept, data.value_rowids(), data.nrows())
    values = dense_mask(data.values, mask.values) if not isinstance(
        data.values, RaggedTensor) else gather_rows(data.values, array_ops.reshape(
            where(mask.values), [-1]))
    return RaggedTensor.from_row_lengths(values, lengths, validate=False)


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """A RaggedTensor whose row i holds the elements of `data` with partition i, in order.

    Example:
        >>> import tapeflow as tf
        >>> tf.ragged.stack_dynamic_partitions([10, 20, 30, 40], [1, 0, 1, 2], 4).to_list()
        [[20], [10, 30], [40], []]
    """
    from ..sort_ops import argsort
    data = convert_to_tensor(data)
    partitions = convert_to_tensor(partitions)  # (its dtype is the row splits')
    p = _eager_value(partitions)
    if p is not None and p.size and (p.min() < 0 or p.max() >= num_partitions):
        raise errors.InvalidArgumentError(
            None, "StackDynamicPartitions", f"partitions must be in [0, {num_partitions}), "
            f"got {p.tolist()}")
    order = argsort(partitions, stable=True)
    ids = gather_ops.gather(partitions, order)
    return RaggedTensor.from_value_rowids(gather_ops.gather(data, order), ids,
                                          num_partitions, validate=False)
