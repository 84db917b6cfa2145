"""XLA's dynamic slices: read or overwrite a block of a tensor at a start given as a tensor
(`XlaDynamicSlice`, `XlaDynamicUpdateSlice`), the ops behind
`tensorflow.compiler.tf2xla.python.xla.dynamic_slice` / `dynamic_update_slice`.

As in XLA, each start index is clamped so the block lies inside the operand: a start of
-1 reads from 0, a start past the end moves back until the block fits. The gradient rules
live in `xla_grad.py`.
"""
from __future__ import annotations

import builtins

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import LINEAR, define_op
from ..framework.tensor import Tensor
from .op_util import as_input, index_input, int_values, same_dtype_inputs

__all__ = ["dynamic_slice", "dynamic_update_slice"]


def _block(op_name: str, shape: tuple, start, size: tuple) -> tuple:
    """The slices of the `size` block at `start` (clamped into `shape`)."""
    start = np.ravel(start)
    if start.shape[0] != len(shape):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: start_indices must be a vector with one index per "
            f"input dimension ({len(shape)}), got {start.shape[0]} for input shape "
            f"{list(shape)}")
    for axis, (s, d) in enumerate(zip(size, shape)):
        if s > d or s < 0:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: block size {s} in dimension {axis} does not fit "
                f"input shape {list(shape)} (block shape {list(size)})")
    return tuple(builtins.slice(b, b + s) for b, s in
                 ((min(max(int(b), 0), d - s), s) for b, s, d in zip(start, size, shape)))


def _dynamic_slice(x, start, size):
    return x[_block("XlaDynamicSlice", x.shape, start, size)]


def _dynamic_update_slice(x, update, start):
    if update.ndim != x.ndim:
        raise errors.InvalidArgumentError(
            None, "XlaDynamicUpdateSlice", f"XlaDynamicUpdateSlice: update of shape "
            f"{list(update.shape)} must have the rank of the input, of shape {list(x.shape)}")
    out = np.copy(x)
    out[_block("XlaDynamicUpdateSlice", x.shape, start, update.shape)] = update
    return out


XlaDynamicSlice = define_op("XlaDynamicSlice", _dynamic_slice, family=LINEAR)
XlaDynamicUpdateSlice = define_op("XlaDynamicUpdateSlice", _dynamic_update_slice,
                                  family=LINEAR)


def dynamic_slice(input, start_indices, size_indices, name=None) -> Tensor:  # noqa: A002
    """The block of `input` of shape `size_indices` starting at `start_indices`.

    Args:
        input: a tensor.
        start_indices: one integer start per dimension (a tensor, known when the op runs);
            each is clamped so the block fits.
        size_indices: the block's shape (known when the op is built).
        name: unused (TF's op name).

    Returns:
        A tensor of `input`'s dtype and shape `size_indices`.

    Raises:
        InvalidArgumentError: a start count other than `input`'s rank, a block larger than
            `input`, or non-integer starts.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.ops.xla_ops import dynamic_slice
        >>> x = tf.reshape(tf.range(12.0), (3, 4))
        >>> dynamic_slice(x, [1, 3], [2, 2]).numpy().tolist()
        [[6.0, 7.0], [10.0, 11.0]]
    """
    size = tuple(int_values("XlaDynamicSlice", size_indices, "size_indices"))
    return execute(XlaDynamicSlice, (as_input(input),
                                     index_input("XlaDynamicSlice", start_indices)),
                   {"size": size})


def dynamic_update_slice(input, update, indices, name=None) -> Tensor:  # noqa: A002
    """`input` with the block at `indices` replaced by `update`.

    Args:
        input: a tensor.
        update: a tensor of `input`'s dtype and rank, no larger in any dimension.
        indices: one integer start per dimension (a tensor, known when the op runs); each
            is clamped so `update` fits.
        name: unused (TF's op name).

    Returns:
        A new tensor of `input`'s shape and dtype.

    Raises:
        InvalidArgumentError: dtypes that differ, a rank other than `input`'s, an update
            larger than `input`, or a start count other than its rank.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.ops.xla_ops import dynamic_update_slice
        >>> x = tf.zeros((2, 3))
        >>> dynamic_update_slice(x, tf.ones((1, 2)), [1, 5]).numpy().tolist()
        [[0.0, 0.0, 0.0], [0.0, 1.0, 1.0]]
    """
    x, update = same_dtype_inputs("XlaDynamicUpdateSlice", (input, update))
    return execute(XlaDynamicUpdateSlice,
                   (x, update, index_input("XlaDynamicUpdateSlice", indices)), {})
