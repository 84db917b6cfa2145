"""`tf.ragged.constant` and `tf.ragged.constant_value`: a RaggedTensor from nested lists."""
from __future__ import annotations

import numpy as np

from ...framework import dtypes
from ...framework.tensor import constant as dense_constant
from .ragged_tensor import RaggedTensor

__all__ = ["constant", "constant_value"]


def _depth(x) -> int:
    """The nesting depth of scalars in `x`; ValueError if it differs between scalars."""
    if not isinstance(x, (list, tuple)):
        return 0
    depths = {_depth(item) for item in x}
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    return (depths.pop() if depths else 0) + 1


def _partition(pylist, ragged_rank: int):
    """(flat list of rows, nested row lengths) of `pylist` cut `ragged_rank` levels deep."""
    lengths, level = [], list(pylist)
    for _ in range(ragged_rank):
        lengths.append([len(row) for row in level])
        level = [item for row in level for item in row]
    return level, lengths


def _build(pylist, dtype, ragged_rank, inner_shape, row_splits_dtype, make_values, make_ragged):
    depth = _depth(pylist)
    if ragged_rank is None:
        ragged_rank = max(depth - 1 - (len(inner_shape) if inner_shape else 0), 0)
    if depth and ragged_rank >= depth:
        raise ValueError(f"A ragged_rank >= the rank of the value: ragged_rank={ragged_rank},"
                         f" rank={depth}")
    if ragged_rank == 0 or not depth:
        return make_values(pylist, dtype)
    flat, lengths = _partition(pylist, ragged_rank)
    inner = tuple(inner_shape) if inner_shape is not None else None
    if not flat and inner is None:
        inner = (0,) * max(depth - ragged_rank - 1, 0)
    values = make_values(flat, dtype) if flat else \
        make_values(np.zeros((0,) + (inner or ()), (dtype or dtypes.float32).as_numpy_dtype
                             if dtype is not None else np.float32), dtype)
    return make_ragged(values, lengths, row_splits_dtype)


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64) -> RaggedTensor:
    """A RaggedTensor holding the nested Python lists `pylist`.

    Args:
        pylist: nested lists of scalars, all at one depth.
        dtype: the values' dtype (default: inferred as `tf.constant` does).
        ragged_rank: how many dims are ragged (default: all but the innermost
            `len(inner_shape)`).
        inner_shape: the shape of the uniform innermost values.
        row_splits_dtype: int64 or int32.

    Returns:
        A RaggedTensor (a Tensor when `pylist` has rank 1 or ragged_rank is 0).

    Raises:
        ValueError: scalars at different depths, or a ragged_rank too large.

    Example:
        >>> import tapeflow as tf
        >>> tf.ragged.constant([[1, 2], [3]])
        <tf.RaggedTensor [[1, 2], [3]]>
    """
    dtype = None if dtype is None else dtypes.as_dtype(dtype)

    def ragged(values, lengths, splits_dtype):
        splits_dtype = dtypes.as_dtype(splits_dtype)
        rt = values
        for row_lengths in reversed(lengths):
            rt = RaggedTensor.from_row_lengths(
                rt, dense_constant(np.asarray(row_lengths, splits_dtype.as_numpy_dtype)),
                validate=False)
        return rt
    return _build(pylist, dtype, ragged_rank, inner_shape, row_splits_dtype,
                  lambda v, d: dense_constant(v, d), ragged)


def constant_value(pylist, dtype=None, ragged_rank=None, inner_shape=None,
                   row_splits_dtype="int64"):
    """The nested lists `pylist` as a `tf.compat.v1.ragged.RaggedTensorValue` (NumPy parts).

    Example:
        >>> import tapeflow as tf
        >>> tf.compat.v1.ragged.constant_value([[1, 2], [3]]).to_list()
        [[1, 2], [3]]
    """
    from .ragged_tensor_value import RaggedTensorValue

    def ragged(values, lengths, splits_dtype):
        rt = values
        for row_lengths in reversed(lengths):
            splits = np.concatenate([[0], np.cumsum(row_lengths)]).astype(
                dtypes.as_dtype(splits_dtype).as_numpy_dtype)
            rt = RaggedTensorValue(rt, splits)
        return rt
    np_dtype = None if dtype is None else dtypes.as_dtype(dtype).as_numpy_dtype
    return _build(pylist, dtype if dtype is None else dtypes.as_dtype(dtype), ragged_rank,
                  inner_shape, row_splits_dtype,
                  lambda v, d: np.asarray(v, np_dtype), ragged)
