"""tf.TensorArray: a list of same-shaped tensors written and read by (tensor) position.

A TensorArray holds one tensor, its buffer, of shape `[size] + element_shape`; every
operation is an op on it (a write is a TensorArrayWrite, a read a slice, `stack` the buffer
itself), so gradients, second order, tracing and `while_loop` need nothing of their own: a
TensorArray passed through `while_loop` is its buffer as a loop variable. Each write returns a new TensorArray, as in TF2 (`ta = ta.write(i, x)`); eagerly
the array written to changes as well, as TF's eager arrays do.
Until the element shape is known (an `element_shape` argument or the first write) there
is no buffer; `while_loop` finds the element shape by tracing its body once, and where
that leaves dimensions unknown the buffer starts empty and the first write sizes it.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.context import state
from ..framework.execute import execute
from ..framework.registry import LINEAR, define_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .type_spec import TensorArraySpec
from .array_ops import concat, expand_dims, reshape, shape, stack
from .creation_ops import fill
from .gather_ops import gather
from .indexing_ops import tensor_scatter_nd_update
from .math_ops import maximum
from .reduction_ops import reduce_max

__all__ = ["TensorArray"]


def _write(buffer, index, value):
    if buffer.shape[1:] != value.shape:
        if buffer.size:
            raise ValueError(f"TensorArray: could not write a value of shape {list(value.shape)}"
                             f" into elements of shape {list(buffer.shape[1:])}")
        # Elements of a shape the graph did not know: the first write sets it.
        buffer = np.zeros(buffer.shape[:1] + value.shape, value.dtype)
    else:
        buffer = buffer.copy()
    buffer[index] = value
    return buffer


def _write_grad(g, buffer, index):
    if g.shape != buffer.shape:  # the write made the buffer: nothing flows to the empty one
        return np.zeros_like(buffer)
    out = g.copy()
    out[index] = 0
    return out


def _write_into(buffer, index, value):
    if buffer.shape[1:] != value.shape:
        return _write(buffer, index, value)
    buffer[index] = value
    return buffer


def _write_grad_into(g, buffer, index):
    if g.shape != buffer.shape:
        return np.zeros_like(buffer)
    g[index] = 0
    return g


# A write into the buffer; the gradient of the buffer is the upstream one with the written
# row cleared (TensorArrayWriteGrad, which is its own adjoint; rules in tensor_array_grad.py).
TensorArrayWrite = define_op("TensorArrayWrite", _write, family=LINEAR)
TensorArrayWriteGrad = define_op("TensorArrayWriteGrad", _write_grad, family=LINEAR)
# The same writes done in the buffer's own array, by a while_loop that owns it (a copy it
# made) and gives the body's result back in its place.
IN_PLACE = {TensorArrayWrite: _write_into, TensorArrayWriteGrad: _write_grad_into}


class TensorArray:
    """A list of tensors of one dtype and shape, indexed by (possibly symbolic) integers.

    Args:
        dtype: the elements' dtype.
        size: the number of elements (an int or a scalar int tensor).
        dynamic_size: writes past the end grow the array.
        clear_after_read: accepted (reads never clear: values are immutable here).
        element_shape: the elements' shape, if known before the first write.
        infer_shape: accepted; the first write fixes the element shape.

    Raises:
        ValueError: no `size` and not `dynamic_size`.

    Example:
        >>> import tapeflow as tf
        >>> ta = tf.TensorArray(tf.float32, size=3)
        >>> for i in range(3):
        ...     ta = ta.write(i, tf.constant([1.0, 2.0]) * i)
        >>> ta.stack().numpy()
        array([[0., 0.],
               [1., 2.],
               [2., 4.]], dtype=float32)
        >>> float(ta.read(2)[1]), int(ta.size())
        (4.0, 3)
    """

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None) -> None:
        if size is None and not dynamic_size:
            raise ValueError("TensorArray: give a size, or dynamic_size=True")
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._element_shape = TensorShape(element_shape)
        self._size = 0 if size is None else size
        self._buffer = None
        if self._element_shape.is_fully_defined():
            self._buffer = self._zeros(self._size, self._element_shape.as_list())

    # -- what it is ------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic_size

    @property
    def element_shape(self) -> TensorShape:
        return self._element_shape

    @property
    def _type_spec(self) -> TensorArraySpec:
        return TensorArraySpec(self._element_shape, self._dtype, self._dynamic_size)

    @property
    def flow(self):
        """The buffer: the tensor a while_loop carries for this TensorArray."""
        return self._buffer

    def size(self, name=None) -> Tensor:
        """The number of elements, as an int32 scalar tensor."""
        if self._buffer is None:
            return convert_to_tensor(self._size, dtype=dtypes.int32)
        return shape(self._buffer, out_type=dtypes.int32)[0]

    def _with(self, buffer) -> "TensorArray":
        """A TensorArray of `buffer`; eagerly this one changes too, as TF's eager arrays
        do (a write not assigned back is still seen)."""
        out = TensorArray.__new__(TensorArray)
        out._dtype, out._dynamic_size, out._size = self._dtype, self._dynamic_size, self._size
        out._element_shape = TensorShape(buffer.shape[1:]) if buffer.shape.rank is not None \
            else self._element_shape
        out._buffer = buffer
        if state.graph is None:
            self._buffer, self._element_shape = buffer, out._element_shape
        return out

    def _zeros(self, rows, element: list):
        if isinstance(rows, int) and all(isinstance(d, int) for d in element):
            return convert_to_tensor(np.zeros([rows] + element, self._dtype._np))
        return fill(stack([rows] + element), np.zeros((), self._dtype._np))

    def _value(self, value) -> Tensor:
        value = convert_to_tensor(value, dtype=self._dtype)
        if not self._element_shape.is_compatible_with(value.shape):
            raise ValueError(f"TensorArray: could not write a value of shape {value.shape} into "
                             f"an array of elements of shape {self._element_shape}")
        return value

    def _ready(self, value: Tensor, rows=None):
        """The buffer, made on the first write of a value (and grown to `rows` when
        dynamic)."""
        buffer = self._buffer
        if buffer is None:
            element = [shape(value)[i] if d is None else d
                       for i, d in enumerate(value.shape.as_list())]
            buffer = self._zeros(self._size, element)
        if self._dynamic_size and rows is not None:
            missing = maximum(rows - shape(buffer, out_type=dtypes.int32)[0], 0)
            tail = [shape(buffer)[i + 1] if d is None else d
                    for i, d in enumerate(buffer.shape.as_list()[1:])]
            buffer = concat([buffer, self._zeros(missing, tail)], 0)
        return buffer

    # -- reading ---------------------------------------------------------------------------
    def read(self, index, name=None) -> Tensor:
        """The element at `index`.

        Raises:
            ValueError: nothing was written yet and the element shape is unknown.
        """
        if self._buffer is None:
            raise ValueError("TensorArray: cannot read before the first write when the element "
                             "shape is unknown; give element_shape")
        return self._buffer[convert_to_tensor(index, dtype=dtypes.int32)]

    def stack(self, name=None) -> Tensor:
        """All elements stacked along a new first axis."""
        if self._buffer is None:
            if isinstance(self._size, int) and self._size == 0 and \
                    self._element_shape.rank is not None:
                return convert_to_tensor(np.zeros([0] + [d or 0 for d in
                                                         self._element_shape.as_list()],
                                                  self._dtype._np))
            raise ValueError("TensorArray: cannot stack an array whose element shape is "
                             "unknown and that was never written; give element_shape")
        return self._buffer

    def gather(self, indices, name=None) -> Tensor:
        """The elements at `indices`, stacked."""
        return gather(self.stack(), indices)

    def concat(self, name=None) -> Tensor:
        """The elements joined along their first axis."""
        buffer = self.stack()
        return reshape(buffer, concat([[-1], shape(buffer, out_type=dtypes.int32)[2:]], 0))

    # -- writing ---------------------------------------------------------------------------
    def write(self, index, value, name=None) -> "TensorArray":
        """A TensorArray with `value` at `index`.

        Raises:
            ValueError: `value`'s shape differs from the elements'.
        """
        value = self._value(value)
        index = convert_to_tensor(index, dtype=dtypes.int32)
        buffer = self._ready(value, index + 1)
        return self._with(execute(TensorArrayWrite, (buffer, index, value), {}))

    def scatter(self, indices, value, name=None) -> "TensorArray":
        """A TensorArray with row k of `value` at `indices[k]`."""
        value = convert_to_tensor(value, dtype=self._dtype)
        indices = convert_to_tensor(indices, dtype=dtypes.int32)
        buffer = self._ready(self._value(value[0]),
                             reduce_max(indices) + 1 if self._dynamic_size else None)
        return self._with(tensor_scatter_nd_update(buffer, expand_dims(indices, -1), value))

    def unstack(self, value, name=None) -> "TensorArray":
        """A TensorArray whose elements are the rows of `value`.

        Raises:
            ValueError: `value` is a scalar, or its rows' shape differs from the elements'.
        """
        value = convert_to_tensor(value, dtype=self._dtype)
        if value.shape.rank == 0 or not self._element_shape.is_compatible_with(
                TensorShape(None if value.shape.rank is None else value.shape.as_list()[1:])):
            raise ValueError(f"TensorArray.unstack: cannot unstack a value of shape "
                             f"{value.shape} into elements of shape {self._element_shape}")
        return self._with(value)

    def split(self, value, lengths, name=None) -> "TensorArray":
        """A TensorArray of the consecutive pieces of `value` of `lengths` rows (equal
        lengths: the pieces are stacked into one buffer).

        Raises:
            errors.InvalidArgumentError: the lengths differ or do not add up.
        """
        value = convert_to_tensor(value, dtype=self._dtype)
        counts = [int(n) for n in np.ravel(lengths)]
        if len(set(counts)) > 1 or sum(counts) != value.shape[0]:
            raise errors.InvalidArgumentError(
                None, "TensorArraySplit", f"TensorArray.split: lengths {counts} must be equal "
                f"and add up to the value's {value.shape[0]} rows")
        return self._with(reshape(value, [len(counts), counts[0] if counts else 0] +
                                  value.shape.as_list()[1:]))

    def identity(self) -> "TensorArray":
        return self

    def mark_used(self) -> None:
        """Accepted for compatibility."""

    def close(self, name=None) -> None:
        """Accepted for compatibility."""

    def __repr__(self) -> str:
        return f"<tf.TensorArray dtype={self._dtype.name} element_shape={self._element_shape}>"


