"""Arithmetic on shapes and flat indices: broadcast shapes, `shape_n`, `unravel_index`,
`required_space_to_batch_paddings`. Their results are integers, so nothing here has a
gradient."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.tensor import Tensor, constant
from ..framework.tensor_shape import TensorShape
from .array_ops import shape
from .math_ops import cast
from .op_util import NO_ATTRS, as_input, index_input, int_values

__all__ = ["broadcast_dynamic_shape", "broadcast_static_shape", "required_space_to_batch_paddings",
           "shape_n", "unravel_index"]


def _broadcast_args(s0, s1):
    try:
        return np.array(np.broadcast_shapes(tuple(s0), tuple(s1)), dtype=s0.dtype)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, "BroadcastArgs", f"BroadcastArgs: Incompatible shapes: {s0.tolist()} vs. "
            f"{s1.tolist()}") from None


def _unravel_index(indices, dims):
    if np.any(dims <= 0):
        raise errors.InvalidArgumentError(
            None, "UnravelIndex", f"UnravelIndex: dims must be positive, got {dims.tolist()}")
    if np.any((indices < 0) | (indices >= np.prod(dims))):
        raise errors.InvalidArgumentError(
            None, "UnravelIndex", f"UnravelIndex: index is out of bound as with dims "
            f"{dims.tolist()} (indices {indices.tolist()})")
    return np.array(np.unravel_index(indices, tuple(dims)), dtype=indices.dtype)


BroadcastArgs = define_op("BroadcastArgs", _broadcast_args)
UnravelIndex = define_op("UnravelIndex", _unravel_index)
no_gradient("BroadcastArgs")
no_gradient("UnravelIndex")


def _shape_vector(op_name: str, value) -> Tensor:
    x = as_input(value)
    if x.dtype not in (dtypes.int32, dtypes.int64) or x.shape.rank != 1:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: a shape must be a 1-D int32 or int64 tensor, got "
            f"{x.dtype.name} of shape {list(x.shape)}")
    return x


def broadcast_dynamic_shape(shape_x, shape_y) -> Tensor:
    """The shape two tensors of shapes `shape_x` and `shape_y` broadcast to.

    Args:
        shape_x, shape_y: 1-D int32 or int64 tensors (or lists) of one dtype.

    Returns:
        A 1-D tensor of their dtype.

    Raises:
        InvalidArgumentError: shapes that do not broadcast, or different dtypes.

    Example:
        >>> import tapeflow as tf
        >>> tf.broadcast_dynamic_shape([2, 1, 3], [4, 1]).numpy()
        array([2, 4, 3], dtype=int32)
    """
    x = _shape_vector("BroadcastArgs", shape_x)
    y = _shape_vector("BroadcastArgs", shape_y)
    if x.dtype != y.dtype:
        raise errors.InvalidArgumentError(
            None, "BroadcastArgs", f"BroadcastArgs: the shapes must have one dtype, got "
            f"{x.dtype.name} and {y.dtype.name}")
    return execute(BroadcastArgs, (x, y), NO_ATTRS)


def broadcast_static_shape(shape_x, shape_y) -> TensorShape:
    """The TensorShape two tensors of static shapes `shape_x` and `shape_y` broadcast to;
    unknown dimensions broadcast with known ones where they can.

    Raises:
        ValueError: shapes that do not broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.broadcast_static_shape(tf.TensorShape([2, 1, 3]), tf.TensorShape([4, None]))
        TensorShape([2, 4, 3])
    """
    x, y = TensorShape(shape_x), TensorShape(shape_y)
    if x.rank is None or y.rank is None:
        return TensorShape(None)
    dims = []
    for a, b in zip(([1] * y.rank + x.as_list())[-max(x.rank, y.rank):],
                    ([1] * x.rank + y.as_list())[-max(x.rank, y.rank):]):
        if a == 1 or a == b:
            dims.append(b)
        elif b == 1:
            dims.append(a)
        elif a is None or b is None:
            dims.append(a if b is None and a != 1 else b)
        else:
            raise ValueError(f"Incompatible shapes for broadcasting. Two shapes are compatible "
                             f"if for each dimension pair they are either equal or one of them "
                             f"is 1. Received: {tuple(x.as_list())} and {tuple(y.as_list())}.")
    return TensorShape(dims)


def shape_n(input, out_type=dtypes.int32, name=None) -> list:  # noqa: A002
    """The shapes of a list of tensors, each a 1-D integer tensor.

    Example:
        >>> import tapeflow as tf
        >>> [s.numpy().tolist() for s in tf.shape_n([tf.ones([2, 3]), tf.ones([4])])]
        [[2, 3], [4]]
    """
    return [shape(x, out_type) for x in input]


def unravel_index(indices, dims, name=None) -> Tensor:
    """The coordinates of flat `indices` in an array of shape `dims` (C order).

    Args:
        indices: an int32/int64 scalar or 1-D tensor.
        dims: the 1-D shape, of the same dtype.

    Returns:
        [len(dims)] for a scalar index, else [len(dims), len(indices)].

    Raises:
        InvalidArgumentError: an index out of range, a non-positive dimension, or a
            non-integer dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.unravel_index([1, 5, 7], [3, 3]).numpy()
        array([[0, 1, 2],
               [1, 2, 1]], dtype=int32)
    """
    indices = index_input("UnravelIndex", indices)
    dims = index_input("UnravelIndex", dims)
    return execute(UnravelIndex, (indices, cast(dims, indices.dtype)), NO_ATTRS)


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None,
                                     name=None) -> tuple:
    """The paddings and crops that make `space_to_batch_nd` of a tensor with spatial shape
    `input_shape` (after `base_paddings`) divide evenly by `block_shape`.

    Args:
        input_shape: [N] spatial sizes; block_shape: [N] block sizes;
        base_paddings: [N, 2] paddings to start from (default zeros).

    Returns:
        `(paddings, crops)`, each an [N, 2] int32 tensor: the extra padding goes after.

    Example:
        >>> import tapeflow as tf
        >>> paddings, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3])
        >>> paddings.numpy().tolist(), crops.numpy().tolist()
        ([[0, 1], [0, 2]], [[0, 1], [0, 2]])
    """
    sizes = np.array(int_values("RequiredSpaceToBatchPaddings", input_shape, "input_shape"),
                     np.int64)
    block = np.array(int_values("RequiredSpaceToBatchPaddings", block_shape, "block_shape"),
                     np.int64)
    base = np.zeros((len(sizes), 2), np.int64) if base_paddings is None else np.array(
        int_values("RequiredSpaceToBatchPaddings", base_paddings, "base_paddings"), np.int64)
    if sizes.shape != block.shape or base.size != 2 * len(sizes) or np.any(block < 1):
        raise ValueError(f"required_space_to_batch_paddings: input_shape and block_shape must "
                         f"have one length N (block sizes positive) and base_paddings N pairs, "
                         f"got {sizes.tolist()}, {block.tolist()} and {base.tolist()}")
    base = base.reshape(-1, 2)
    padded = sizes + base[:, 0] + base[:, 1]
    extra = (block - padded % block) % block
    paddings = np.stack([base[:, 0], base[:, 1] + extra], axis=1)
    crops = np.stack([np.zeros_like(extra), extra], axis=1)
    return constant(paddings.astype(np.int32)), constant(crops.astype(np.int32))
