"""Partitioning a tensor by ids and stitching pieces back together: kernels and the public
TF-named functions (`tf.dynamic_partition`, `tf.dynamic_stitch`).

Each op is one `define_op` row; its gradient rule lives in `partition_grad.py`.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import LINEAR, define_op
from ..framework.tensor import Tensor
from .op_util import as_input, index_input, same_dtype_inputs


# -- kernels ---------------------------------------------------------------------------------
def _dynamic_partition(data, partitions, num_partitions):
    if data.shape[:partitions.ndim] != partitions.shape:
        raise errors.InvalidArgumentError(
            None, "DynamicPartition", f"DynamicPartition: data.shape must start with "
            f"partitions.shape, got data.shape = {list(data.shape)}, partitions.shape = "
            f"{list(partitions.shape)}")
    bad = (partitions < 0) | (partitions >= num_partitions)
    if bad.any():
        where = np.argwhere(bad)[0]
        raise errors.InvalidArgumentError(
            None, "DynamicPartition", f"DynamicPartition: partitions"
            f"{where.tolist()} = {partitions[tuple(where)]} is not in [0, {num_partitions})")
    return tuple(data[partitions == i] for i in range(num_partitions))


def _dynamic_stitch(*pieces, n):
    indices, data = pieces[:n], pieces[n:]
    inner = None
    for i, (index, values) in enumerate(zip(indices, data)):
        if values.shape[:index.ndim] != index.shape or (
                inner is not None and values.shape[index.ndim:] != inner):
            raise errors.InvalidArgumentError(
                None, "DynamicStitch", f"DynamicStitch: data[{i}].shape = "
                f"{list(values.shape)} does not start with indices[{i}].shape = "
                f"{list(index.shape)} followed by the shape of the other slices")
        inner = values.shape[index.ndim:]
    flat = np.concatenate([np.ravel(i) for i in indices]).astype(np.int64)
    if flat.size and flat.min() < 0:
        raise errors.InvalidArgumentError(
            None, "DynamicStitch", f"DynamicStitch: indices must be non-negative, got "
            f"{int(flat.min())}")
    rows = int(flat.max()) + 1 if flat.size else 0
    out = np.zeros((rows,) + tuple(inner or ()), dtype=data[0].dtype)
    for index, values in zip(indices, data):  # later pieces win at a repeated index
        out[np.ravel(index)] = values.reshape((-1,) + tuple(inner))
    return out


DynamicPartition = define_op("DynamicPartition", _dynamic_partition, num_outputs=None,
                             family=LINEAR)
DynamicStitch = define_op("DynamicStitch", _dynamic_stitch, family=LINEAR)


# -- public functions ------------------------------------------------------------------------
def dynamic_partition(data, partitions, num_partitions, name=None) -> list:
    """Splits `data` into `num_partitions` pieces: piece `i` holds the slices `data[j]`
    with `partitions[j] == i`, in order.

    Args:
        data: a tensor whose shape starts with `partitions.shape`.
        partitions: an int32 tensor of ids in [0, num_partitions).
        num_partitions: the number of pieces (an int >= 1).

    Returns:
        A list of `num_partitions` tensors of `data`'s dtype.

    Raises:
        InvalidArgumentError: an id is out of range, or the shapes do not match.

    Example:
        >>> import tapeflow as tf
        >>> [p.numpy() for p in tf.dynamic_partition(tf.constant([1, 2, 3]), [1, 0, 1], 2)]
        [array([2], dtype=int32), array([1, 3], dtype=int32)]
    """
    num = int(num_partitions)
    if num < 1:
        raise errors.InvalidArgumentError(
            None, "DynamicPartition", f"DynamicPartition: num_partitions must be at least 1, "
            f"got {num}")
    out = execute(DynamicPartition, (as_input(data), index_input("DynamicPartition", partitions)),
                  {"num_partitions": num})
    return list(out)


def dynamic_stitch(indices, data, name=None) -> Tensor:
    """Interleaves the pieces `data[i]` into one tensor: `out[indices[i][j]] = data[i][j]`;
    at a repeated index the later piece wins.

    Args:
        indices: a list of int32 tensors.
        data: a list of tensors of one dtype, `data[i].shape` starting with
            `indices[i].shape` and ending with the same slice shape for all.

    Returns:
        A tensor of `max(indices) + 1` slices.

    Raises:
        InvalidArgumentError: the lists differ in length, a negative index, or mismatched
            shapes or dtypes.

    Example:
        >>> import tapeflow as tf
        >>> tf.dynamic_stitch([[0, 2], [1]], [tf.constant([1.0, 3.0]), tf.constant([2.0])]).numpy()
        array([1., 2., 3.], dtype=float32)
    """
    indices, data = list(indices), list(data)
    if len(indices) != len(data) or not indices:
        raise errors.InvalidArgumentError(
            None, "DynamicStitch", f"DynamicStitch: indices and data must be non-empty lists "
            f"of one length, got {len(indices)} and {len(data)}")
    ids = [index_input("DynamicStitch", i) for i in indices]
    return execute(DynamicStitch, (*ids, *same_dtype_inputs("DynamicStitch", data)),
                   {"n": len(ids)})
