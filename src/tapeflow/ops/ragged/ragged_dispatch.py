"""The ragged versions of TF's public ops, registered through the one dispatch mechanism
(`ops/dispatch.py`): elementwise ops act on the flat values (a dense operand broadcast to
the ragged one's rows), reductions are segment reductions over the row partition, and
concat, stack, gather, embedding_lookup, gather_nd, where, size and expand_dims rebuild the partition."""
from __future__ import annotations

import typing

import numpy as np

from ...framework import dtypes, errors
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.variables import Variable
from .. import (array_ops, comparison_ops, creation_ops, embedding_ops, gather_ops, indexing_ops,
                math_ops, reduction_ops, segment_ops)
from ..dispatch import (NOT_SUPPORTED, dispatch_for_api, dispatch_for_binary_elementwise_apis,
                        dispatch_for_unary_elementwise_apis)
from . import ragged_ops
from .ragged_getitem import gather_rows
from .ragged_tensor import RaggedTensor, _eager_value, splits_to_rowids

Dense = typing.Union[Tensor, Variable, np.ndarray, np.generic, int, float, bool, complex, str, bytes,
                     list, tuple]
RaggedOrDense = typing.Union[RaggedTensor, Dense]


@dispatch_for_unary_elementwise_apis(RaggedTensor)
def ragged_unary_elementwise(api_func, x):
    """A unary elementwise op on a RaggedTensor: the op on its flat values."""
    return x.with_flat_values(api_func(x.flat_values))


def _dense_against(rt: RaggedTensor, d: Tensor):
    """Dense `d` broadcast to `rt` and cut into its partition: a tensor that broadcasts
    against `rt.flat_values`."""
    inner_rank = rt.flat_values.shape.rank - 1
    rank = rt.shape.rank
    if d.shape.rank <= inner_rank:
        return d
    if d.shape.rank > rank:
        raise ValueError(f"A dense operand of shape {d.shape} has a higher rank than the "
                         f"RaggedTensor of shape {rt.shape}")
    d = array_ops.reshape(d, [1] * (rank - d.shape.rank) + d.shape.as_list()) \
        if d.shape.is_fully_defined() else d
    while isinstance(rt, RaggedTensor):
        dims = d.shape.as_list()
        d = array_ops.broadcast_to(d, array_ops.concat(
            [array_ops.reshape(rt.nrows(dtypes.int32), [1]), array_ops.shape(d)[1:]], 0)) \
            if dims[0] == 1 else d
        if dims[1] == 1:  # one value per row: repeat it for each of the row's values
            d = gather_ops.gather(d[:, 0], rt.value_rowids())
        else:
            lengths = _eager_value(rt.row_lengths())
            if lengths is not None and dims[1] is not None and (lengths != dims[1]).any():
                raise errors.InvalidArgumentError(
                    None, "RaggedBroadcast", f"A dense operand of shape {dims} does not "
                    f"broadcast to the rows of lengths {lengths.tolist()} of the RaggedTensor")
            d = array_ops.reshape(d, array_ops.concat([[-1], array_ops.shape(d)[2:]], 0))
        rt = rt.values
    return d


@dispatch_for_binary_elementwise_apis(RaggedOrDense, RaggedOrDense)
def ragged_binary_elementwise(api_func, x, y):
    """A binary elementwise op with a RaggedTensor operand: the op on flat values, a
    dense operand broadcast to the ragged one's rows."""
    x_ragged, y_ragged = isinstance(x, RaggedTensor), isinstance(y, RaggedTensor)
    if x_ragged and y_ragged:
        ragged_ops.same_partition(getattr(api_func, "__name__", "elementwise op"), x, y)
        return x.with_flat_values(api_func(x.flat_values, y.flat_values))
    if x_ragged:
        if not isinstance(y, (Tensor, Variable)) and np.ndim(y) == 0:
            return x.with_flat_values(api_func(x.flat_values, y))
        y = convert_to_tensor(y, dtype_hint=x.dtype)
        return x.with_flat_values(api_func(x.flat_values, _dense_against(x, y)))
    if y_ragged:
        if not isinstance(x, (Tensor, Variable)) and np.ndim(x) == 0:
            return y.with_flat_values(api_func(x, y.flat_values))
        x = convert_to_tensor(x, dtype_hint=y.dtype)
        return y.with_flat_values(api_func(_dense_against(y, x), y.flat_values))
    return NOT_SUPPORTED


# -- reductions ---------------------------------------------------------------------------
def _segment_reducer(kind: str):
    """The segment reduction `(data, ids, n) -> [n, ...]` of reduction `kind`."""
    def mean(data, ids, n):
        total = gather_ops.unsorted_segment_sum(data, ids, n)
        count = gather_ops.unsorted_segment_sum(creation_ops.ones_like(data), ids, n)
        return total / count

    def variance(data, ids, n):
        centered = data - gather_ops.gather(mean(data, ids, n), ids)
        return mean(centered * centered, ids, n)
    table = {
        "sum": gather_ops.unsorted_segment_sum, "prod": segment_ops.unsorted_segment_prod,
        "max": segment_ops.unsorted_segment_max, "min": segment_ops.unsorted_segment_min,
        "mean": mean, "variance": variance,
        "std": lambda data, ids, n: math_ops.sqrt(variance(data, ids, n)),
        "any": lambda data, ids, n: comparison_ops.greater(segment_ops.unsorted_segment_max(
            math_ops.cast(data, dtypes.int32), ids, n), 0),
        "all": lambda data, ids, n: comparison_ops.greater(segment_ops.unsorted_segment_min(
            math_ops.cast(data, dtypes.int32), ids, n), 0),
    }
    return table[kind]


def _reduce_axis(rt, axis: int, kind: str, dense_api):
    """`rt` reduced over one `axis` (>= 0)."""
    if not isinstance(rt, RaggedTensor):
        return dense_api(rt, axis=axis)
    reducer = _segment_reducer(kind)
    if axis == 0:
        if isinstance(rt.values, RaggedTensor):  # columns of ragged rows stay ragged
            inner = rt.values
            cols = inner.row_lengths()
            nrows_out = reduction_ops.reduce_max(array_ops.concat(
                [creation_ops.zeros([1], cols.dtype), rt.row_lengths()], 0))
            position = rt._positions_in_rows()
            lengths = segment_ops.unsorted_segment_max(cols, position, nrows_out)
            lengths = math_ops.maximum(lengths, 0)
            out = RaggedTensor.from_row_lengths(creation_ops.zeros(
                reduction_ops.reduce_sum(lengths)[None], dtypes.bool), lengths, validate=False)
            ids = gather_ops.gather(out.row_splits, gather_ops.gather(
                position, inner.value_rowids())) + inner._positions_in_rows()
            return out.with_values(reducer(inner.values, ids, out.row_splits[-1]))
        ncols = reduction_ops.reduce_max(array_ops.concat(
            [creation_ops.zeros([1], rt.row_splits.dtype), rt.row_lengths()], 0))
        return reducer(rt.values, rt._positions_in_rows(), ncols)
    if axis == 1:
        values = rt.values
        if isinstance(values, RaggedTensor):  # merge the rows of each row, column-wise
            outer = rt.value_rowids()
            position = values._positions_in_rows()
            lengths = segment_ops.unsorted_segment_max(values.row_lengths(), outer, rt.nrows())
            lengths = math_ops.maximum(lengths, 0)
            splits = ragged_ops._prepend_zero(reduction_ops.cumsum(lengths))
            ids = gather_ops.gather(splits, gather_ops.gather(outer, values.value_rowids())) + \
                position
            return RaggedTensor.from_row_splits(reducer(values.values, ids, splits[-1]), splits,
                                                validate=False)
        return reducer(values, rt.value_rowids(), rt.nrows())
    return rt.with_values(_reduce_axis(rt.values, axis - 1, kind, dense_api))


def _ragged_reduce(kind: str, dense_api):
    def reduce(input_tensor, axis=None, keepdims=False, name=None):
        rt = input_tensor
        if axis is None:
            return dense_api(rt.flat_values, keepdims=False)
        rank = rt.shape.rank
        axes = [axis] if isinstance(axis, (int, np.integer)) else list(
            np.asarray(_eager_value(convert_to_tensor(axis)) if hasattr(axis, "dtype")
                       else axis).reshape(-1))
        for a in axes:
            if not -rank <= a < rank:
                raise ValueError(f"axis={a} out of bounds: expected {-rank}<=axis<{rank}")
        axes = sorted({int(a) % rank for a in axes}, reverse=True)
        result = rt
        for a in axes:
            result = _reduce_axis(result, a, kind, dense_api)
            if keepdims:
                result = array_ops.expand_dims(result, a)
        return result
    return reduce


for _kind, _api in (("sum", math_ops.reduce_sum), ("mean", math_ops.reduce_mean),
                    ("prod", reduction_ops.reduce_prod), ("max", reduction_ops.reduce_max),
                    ("min", reduction_ops.reduce_min), ("any", reduction_ops.reduce_any),
                    ("all", reduction_ops.reduce_all),
                    ("variance", reduction_ops.reduce_variance),
                    ("std", reduction_ops.reduce_std)):
    dispatch_for_api(_api, {"input_tensor": RaggedTensor})(_ragged_reduce(_kind, _api))


# -- structure ----------------------------------------------------------------------------
@dispatch_for_api(array_ops.concat, {"values": typing.List[RaggedOrDense]})
def ragged_concat(values, axis, name="concat"):
    if not any(isinstance(v, RaggedTensor) for v in values):
        return NOT_SUPPORTED
    return ragged_ops.concat(values, axis)


@dispatch_for_api(array_ops.stack, {"values": typing.List[RaggedOrDense]})
def ragged_stack(values, axis=0, name="stack"):
    if not any(isinstance(v, RaggedTensor) for v in values):
        return NOT_SUPPORTED
    return ragged_ops.stack(values, axis)


@dispatch_for_api(array_ops.expand_dims, {"input": RaggedTensor})
def ragged_expand_dims(input, axis, name=None):  # noqa: A002 (TF's name)
    """A new dimension of length 1 at `axis` of a RaggedTensor."""
    rt = input
    rank = rt.shape.rank
    if axis < 0:
        axis += rank + 1
    if not 0 <= axis <= rank:
        raise ValueError(f"axis={axis} out of bounds for a RaggedTensor of rank {rank}")
    if axis == 0:
        return RaggedTensor.from_row_splits(rt, array_ops.stack(
            [creation_ops.zeros([], rt.row_splits.dtype), rt.nrows()]), validate=False)
    if axis == 1:
        n = rt.nrows()
        return RaggedTensor.from_row_splits(rt, creation_ops.range(0, n + 1, dtype=n.dtype),
                                            validate=False)
    values = rt.values
    return rt.with_values(ragged_expand_dims(values, axis - 1) if isinstance(values, RaggedTensor)
                          else array_ops.expand_dims(values, axis - 1))


@dispatch_for_api(gather_ops.gather, {"params": RaggedTensor})
def ragged_gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Rows of a RaggedTensor (axis 0); indices of rank > 1 give ragged rows of rows."""
    if axis not in (None, 0) or batch_dims:
        raise ValueError("gather of a RaggedTensor supports axis=0 and batch_dims=0 only")
    if isinstance(indices, RaggedTensor):
        return indices.with_flat_values(ragged_gather(params, indices.flat_values))
    indices = convert_to_tensor(indices)
    if indices.shape.rank == 0:
        return params[indices]
    flat = gather_rows(params, array_ops.reshape(indices, [-1]))
    for size in reversed(indices.shape.as_list()[1:]):
        flat = RaggedTensor.from_uniform_row_length(flat, size)
    return flat


@dispatch_for_api(gather_ops.gather, {"indices": RaggedTensor})
def gather_by_ragged(params, indices, validate_indices=None, axis=None, batch_dims=0,
                     name=None):
    """A tensor gathered at ragged indices: ragged like them."""
    return indices.with_flat_values(gather_ops.gather(params, indices.flat_values, axis=axis))


@dispatch_for_api(embedding_ops.embedding_lookup, {"ids": RaggedTensor})
def embedding_lookup_by_ragged(params, ids, max_norm=None, name=None):
    """Embedding rows at ragged ids: ragged like the ids, one row per id."""
    return ids.with_flat_values(embedding_ops.embedding_lookup(params, ids.flat_values,
                                                               max_norm=max_norm))


@dispatch_for_api(indexing_ops.gather_nd, {"params": RaggedTensor})
def ragged_gather_nd(params, indices, batch_dims=0, name=None):
    """Slices of a RaggedTensor at the index tuples in the last dimension of `indices`."""
    if batch_dims:
        raise ValueError("gather_nd of a RaggedTensor supports batch_dims=0 only")
    indices = convert_to_tensor(indices)
    depth = indices.shape.as_list()[-1]
    flat = array_ops.reshape(indices, [-1, depth])
    current = params
    positions = math_ops.cast(flat[:, 0], params.row_splits.dtype)
    for level in range(1, depth):
        if not isinstance(current, RaggedTensor):
            rest = math_ops.cast(flat[:, level:], positions.dtype)
            current = indexing_ops.gather_nd(current, array_ops.concat(
                [positions[:, None], rest], 1))
            break
        positions = gather_ops.gather(current.row_splits, positions) + \
            math_ops.cast(flat[:, level], positions.dtype)
        current = current.values
    else:
        current = gather_rows(current, positions)
    for size in reversed(indices.shape.as_list()[1:-1]):
        current = RaggedTensor.from_uniform_row_length(current, size)
    return current


@dispatch_for_api(indexing_ops.where, {"condition": RaggedTensor})
def ragged_where(condition, x=None, y=None, name=None):
    """Elementwise selection among RaggedTensors of one partition, or (with x and y None)
    the coordinates of the true elements."""
    if x is None and y is None:
        return _true_coordinates(condition)
    parts = [condition] + [v for v in (x, y) if isinstance(v, RaggedTensor)]
    for other in parts[1:]:
        ragged_ops.same_partition("where", condition, other)
    flat = [v.flat_values if isinstance(v, RaggedTensor) else v for v in (x, y)]
    return condition.with_flat_values(indexing_ops.where(condition.flat_values, *flat))


def _true_coordinates(condition):
    sparse = condition.to_sparse()
    keep = array_ops.reshape(indexing_ops.where(sparse.values), [-1])
    return gather_ops.gather(sparse.indices, keep)


@dispatch_for_api(array_ops.size, {"input": RaggedTensor})
def ragged_size(input, out_type=dtypes.int32, name=None):  # noqa: A002 (TF's name)
    """The number of elements of a RaggedTensor (those of its flat values)."""
    return array_ops.size(input.flat_values, out_type=out_type)


@dispatch_for_api(array_ops.rank, {"input": RaggedTensor})
def ragged_rank_of(input, name=None):  # noqa: A002 (TF's name)
    """The rank of a RaggedTensor (ragged dimensions count)."""
    return convert_to_tensor(input.shape.rank, dtypes.int32)


@dispatch_for_api(math_ops.add_n, {"inputs": typing.List[RaggedOrDense]})
def ragged_add_n(inputs, name=None):
    """The elementwise sum of RaggedTensors of one partition."""
    if not any(isinstance(v, RaggedTensor) for v in inputs):
        return NOT_SUPPORTED
    total = inputs[0]
    for value in inputs[1:]:
        total = math_ops.add(total, value)
    return total


@dispatch_for_api(array_ops.shape, {"input": RaggedTensor})
def ragged_shape(input, out_type=dtypes.int32, name=None):  # noqa: A002 (TF's name)
    """The DynamicRaggedShape of a RaggedTensor."""
    from .dynamic_ragged_shape import DynamicRaggedShape
    return DynamicRaggedShape.from_tensor(input, out_type)


@dispatch_for_api(array_ops.tile, {"input": RaggedTensor})
def ragged_tile(input, multiples, name=None):  # noqa: A002 (TF's name)
    """A RaggedTensor repeated `multiples[0]` times along its rows, each row's contents
    `multiples[1]` times, and so on inwards."""
    rt = input
    m = [int(v) for v in np.asarray(_eager_value(convert_to_tensor(multiples))
                                    if hasattr(multiples, "dtype") else multiples)]
    if len(m) != rt.shape.rank:
        raise ValueError(f"tile: multiples {m} must have one entry per dimension of the "
                         f"RaggedTensor of shape {rt.shape}")
    values = rt.values
    if any(v != 1 for v in m[2:]):
        values = ragged_tile(values, [1] + m[2:]) if isinstance(values, RaggedTensor) else \
            array_ops.tile(values, [1] + m[2:])
    lengths = rt.row_lengths()
    if m[1] != 1:  # each row's contents m[1] times: value k of a new row is old k mod length
        tiled = lengths * m[1]
        splits = ragged_ops._prepend_zero(reduction_ops.cumsum(tiled))
        rowids = splits_to_rowids(splits)
        position = creation_ops.range(0, splits[-1], dtype=splits.dtype) - \
            gather_ops.gather(splits, rowids)
        picked = gather_ops.gather(rt.row_starts(), rowids) + \
            math_ops.floormod(position, gather_ops.gather(math_ops.maximum(lengths, 1), rowids))
        result = RaggedTensor.from_row_splits(gather_rows(values, picked), splits,
                                              validate=False)
    else:
        result = RaggedTensor.from_row_splits(values, rt.row_splits, validate=False)
    if m[0] != 1:
        n = result.nrows()
        result = gather_rows(result, array_ops.tile(creation_ops.range(0, n, dtype=n.dtype),
                                                    [m[0]]))
    return result
