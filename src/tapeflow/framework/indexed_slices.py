"""IndexedSlices: a sparse gradient, rows `values` at `indices` of a dense `dense_shape`."""
from __future__ import annotations

import numpy as np

from .tensor import Tensor

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
        from .tensor_shape import TensorShape
        if self.dense_shape is None:
            return TensorShape(None)
        return TensorShape([int(d) for d in np.asarray(self.dense_shape)])

    def _as_tensor(self) -> Tensor:
        from .tensor import constant
        dense = to_dense(self)
        return dense if isinstance(dense, Tensor) else constant(dense)

    def __add__(self, other):
        return aggregate(self, other)

    __radd__ = __add__

    def __repr__(self) -> str:
        return (f"IndexedSlices(indices={self.indices!r}, values={self.values!r}, "
                f"dense_shape={self.dense_shape!r})")


def to_dense(s: IndexedSlices):
    """The dense sum of `s` (a segment sum); raw arrays in, raw array out."""
    from ..ops.gather_ops import indexed_slices_to_dense
    return indexed_slices_to_dense(s)


def aggregate(a, b):
    """The sum of two gradients where at least one is IndexedSlices.

    Two IndexedSlices concatenate (as in TF); a dense operand makes the result dense.
    """
    from ..ops.array_ops import ConcatV2
    if isinstance(a, IndexedSlices) and isinstance(b, IndexedSlices):
        return IndexedSlices(ConcatV2(a.values, b.values, axis=0),
                             ConcatV2(a.indices, b.indices, axis=0),
                             a.dense_shape if a.dense_shape is not None else b.dense_shape)
    dense, sparse = (b, a) if isinstance(a, IndexedSlices) else (a, b)
    return dense + to_dense(sparse)
