"""IndexedSlices: a sparse gradient, rows `values` at `indices` of a dense `dense_shape`."""
from __future__ import annotations

import numpy as np

from .tensor import Tensor

__all__ = ["IndexedSlices"]


class IndexedSlices:
    """Rows of a tensor: `dense[indices[i]] += values[i]`, the form gather gradients take.

    Adding two IndexedSlices concatenates them; `tf.convert_to_tensor` sums the rows into a
    dense tensor.
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
        return TensorShape(None if self.dense_shape is None else list(np.asarray(self.dense_shape)))

    def _as_tensor(self) -> Tensor:
        from ..ops import array_ops
        return array_ops.indexed_slices_to_dense(self)

    def __add__(self, other):
        return aggregate(self, other)

    __radd__ = __add__

    def __repr__(self) -> str:
        return (f"IndexedSlices(indices={self.indices!r}, values={self.values!r}, "
                f"dense_shape={self.dense_shape!r})")


def aggregate(a, b):
    """The sum of two gradients where at least one is IndexedSlices.

    Two IndexedSlices concatenate (as in TF); a dense operand makes the result dense.
    """
    from ..ops import array_ops
    if isinstance(a, IndexedSlices) and isinstance(b, IndexedSlices):
        return IndexedSlices(array_ops.ConcatV2(a.values, b.values, axis=0),
                             array_ops.ConcatV2(a.indices, b.indices, axis=0), a.dense_shape)
    dense, sparse = (b, a) if isinstance(a, IndexedSlices) else (a, b)
    return dense + array_ops.indexed_slices_to_dense(sparse)
