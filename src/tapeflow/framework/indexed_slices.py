"""IndexedSlices: a sparse gradient, rows `values` at `indices` of a dense `dense_shape`."""
from __future__ import annotations

import numpy as np

from .registry import get_op
from .tensor import Tensor, constant
from .tensor_shape import TensorShape
from .variables import Variable

__all__ = ["IndexedSlices", "aggregate", "to_dense"]


class IndexedSlices:
    """Rows of a tensor: `dense[indices[i]] += values[i]`, the form gather gradients take.

    Adding two IndexedSlices concatenates them (repeated indices are summed only when the
    slices are made dense); `tf.convert_to_tensor` makes them dense.

    Args:
        values: a tensor of shape `[n] + dense_shape[1:]`.
        indices: an integer tensor of shape `[n]`, rows of the dense tensor.
        dense_shape: the shape of the dense tensor (an int32 tensor), or None.

    Example:
        >>> import tapeflow as tf
        >>> s = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([2, 0]),
        ...                      tf.constant([3, 2]))
        >>> tf.convert_to_tensor(s).numpy()
        array([[3., 4.],
               [0., 0.],
               [1., 2.]], dtype=float32)
    """

    __slots__ = ("values", "indices", "dense_shape")

    def __init__(self, values, indices, dense_shape=None) -> None:
        self.values = values
        self.indices = indices
        self.dense_shape = dense_shape

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        if self.dense_shape is None:
            return TensorShape(None)
        return TensorShape([int(d) for d in np.asarray(self.dense_shape)])

    def _as_tensor(self) -> Tensor:
        dense = to_dense(self)
        return dense if isinstance(dense, Tensor) else constant(dense)

    def __add__(self, other):
        return aggregate(self, other)

    __radd__ = __add__

    def __repr__(self) -> str:
        return (f"IndexedSlices(indices={self.indices!r}, values={self.values!r}, "
                f"dense_shape={self.dense_shape!r})")


def to_dense(s: IndexedSlices):
    """The dense tensor `s` stands for: a segment sum, so repeated indices add up.

    Works on Tensors and, inside gradient rules, on raw arrays (raw arrays in, raw array
    out). The op is looked up by name: it is defined in the op library above this layer.
    """
    values, indices = s.values, s.indices
    if not isinstance(values, (Tensor, Variable, np.ndarray, np.generic)):
        values = constant(values)
    if not isinstance(indices, (Tensor, Variable, np.ndarray, np.generic)):
        indices = constant(indices)
    if s.dense_shape is None:
        num = int(np.max(getattr(indices, "_value", indices), initial=-1)) + 1
    else:
        num = int(np.asarray(getattr(s.dense_shape, "_value", s.dense_shape))[0])
    return get_op("UnsortedSegmentSum")(values, indices, num_segments=num)


def aggregate(a, b):
    """The sum of two gradients where at least one is IndexedSlices.

    Two IndexedSlices concatenate (as in TF); a dense operand makes the result dense.
    """
    if isinstance(a, IndexedSlices) and isinstance(b, IndexedSlices):
        concat = get_op("ConcatV2")
        return IndexedSlices(concat(a.values, b.values, axis=0),
                             concat(a.indices, b.indices, axis=0),
                             a.dense_shape if a.dense_shape is not None else b.dense_shape)
    dense, sparse = (b, a) if isinstance(a, IndexedSlices) else (a, b)
    return dense + to_dense(sparse)
