"""SparseTensor: a tensor stored as coordinates (COO): `dense[indices[i]] = values[i]`.

Its three parts are ordinary tensors (int64 `indices` [nnz, rank], `values` [nnz], int64
`dense_shape` [rank]), so a tape watching `values` (or a Variable they were read from)
differentiates through the sparse ops, and tf.function passes one as those three tensors.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from .composite_tensor import CompositeTensor
from .registry import get_op
from .shape_inference import constant_shape
from .tensor import Tensor, convert_to_tensor
from .tensor_shape import TensorShape
from .tensor_spec import TensorSpec, TypeSpec

__all__ = ["SparseTensor", "SparseTensorSpec"]


def _static_dims(dense_shape):
    """The dimensions `dense_shape` is known to hold (None entries unknown), or None."""
    if hasattr(dense_shape, "_op"):
        return constant_shape(dense_shape)
    return tuple(int(d) for d in dense_shape._value)


class SparseTensor(CompositeTensor):
    """A sparse tensor: `values[i]` sits at coordinates `indices[i]` of a `dense_shape`
    tensor whose other elements are zero.

    Args:
        indices: int64 coordinates, shape `[nnz, rank]`.
        values: the `nnz` values, shape `[nnz]`, any dtype.
        dense_shape: int64, shape `[rank]`: the shape of the dense tensor.

    Raises:
        ValueError: an integer tensor of another dtype than int64 for `indices` or
            `dense_shape`, or parts whose shapes do not fit together.
        TypeError: `dense_shape` or `indices` holds non-integers.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[1.0, 2.0], dense_shape=[3, 4])
        >>> st.shape, st.dtype
        (TensorShape([3, 4]), tf.float32)
        >>> tf.sparse.to_dense(st).numpy()
        array([[0., 1., 0., 0.],
               [0., 0., 0., 0.],
               [2., 0., 0., 0.]], dtype=float32)
    """

    __slots__ = ("_indices", "_values", "_dense_shape", "_dims")

    def __init__(self, indices, values, dense_shape) -> None:
        indices = _int64_part(indices)
        values = convert_to_tensor(values)
        dense_shape = _int64_part(dense_shape)
        _check_parts(indices.shape, values.shape, dense_shape.shape)
        self._indices, self._values, self._dense_shape = indices, values, dense_shape
        self._dims = _static_dims(dense_shape)

    @classmethod
    def from_value(cls, sparse_tensor_value) -> "SparseTensor":
        """`sparse_tensor_value` (a SparseTensor, or any value with `indices`, `values` and
        `dense_shape`) as a SparseTensor."""
        if isinstance(sparse_tensor_value, SparseTensor):
            return sparse_tensor_value
        return cls(sparse_tensor_value.indices, sparse_tensor_value.values,
                   sparse_tensor_value.dense_shape)

    @property
    def indices(self) -> Tensor:
        """The int64 `[nnz, rank]` coordinates of the values."""
        return self._indices

    @property
    def values(self) -> Tensor:
        """The `[nnz]` values."""
        return self._values

    @property
    def dense_shape(self) -> Tensor:
        """The int64 `[rank]` shape of the dense tensor."""
        return self._dense_shape

    @property
    def dtype(self) -> dtypes.DType:
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        """The static shape of the dense tensor (dimensions a graph does not know are None)."""
        return TensorShape(None if self._dims is None else list(self._dims))

    def get_shape(self) -> TensorShape:
        return self.shape

    def set_shape(self, shape) -> None:
        """Refines the static shape with `shape` (ValueError if they are incompatible)."""
        merged = self.shape.merge_with(TensorShape(shape))
        self._dims = None if merged.rank is None else tuple(merged.as_list())

    def with_values(self, new_values) -> "SparseTensor":
        """A SparseTensor with the same indices and shape and `new_values` (of length nnz)."""
        result = SparseTensor(self._indices, new_values, self._dense_shape)
        result._dims = self._dims
        return result

    @property
    def _type_spec(self) -> "SparseTensorSpec":
        return SparseTensorSpec(self.shape, self.dtype)

    def __mul__(self, other):
        return self.with_values(self._values * _at_indices(self, other, "SparseDenseCwiseMul"))

    def __truediv__(self, other):
        return self.with_values(self._values / _at_indices(self, other, "SparseDenseCwiseDiv"))

    __div__ = __truediv__

    def __repr__(self) -> str:
        return (f"SparseTensor(indices={self._indices}, values={self._values}, "
                f"dense_shape={self._dense_shape})")

    __str__ = __repr__


def _int64_part(value) -> Tensor:
    """`indices` or `dense_shape` as an int64 tensor; data holding non-integers is a
    TypeError (an integer tensor of another dtype a ValueError, as convert_to_tensor's)."""
    if not isinstance(value, Tensor) and np.asarray(value).dtype.kind not in "iub":
        if np.size(value):
            raise TypeError(f"SparseTensor: cannot convert {value!r} to a tensor of dtype int64")
    return convert_to_tensor(value, dtype=dtypes.int64)


def _check_parts(indices: TensorShape, values: TensorShape, dense_shape: TensorShape) -> None:
    for name, shape, rank in (("indices", indices, 2), ("values", values, 1),
                              ("dense_shape", dense_shape, 1)):
        if shape.rank is not None and shape.rank != rank:
            raise ValueError(f"SparseTensor: {name} must have rank {rank}, got shape {shape}")
    for a, b in ((indices.rank and indices.as_list()[0], values.rank and values.as_list()[0]),
                 (indices.rank and indices.as_list()[1],
                  dense_shape.rank and dense_shape.as_list()[0])):
        if a is not None and b is not None and a != b:
            raise ValueError(f"SparseTensor: dimensions {a} and {b} are not compatible "
                             f"(indices {indices}, values {values}, dense_shape {dense_shape})")


def _at_indices(sp: SparseTensor, other, op_name: str):
    """The elements of dense `other`, broadcast to `sp`'s shape, at `sp`'s indices."""
    other = convert_to_tensor(other, dtype=sp.dtype)
    rank, own = other.shape.rank, sp.shape.rank
    if not rank:
        return other
    if own is not None and rank > own:
        raise ValueError(f"{op_name}: the dense operand of shape {other.shape} has a higher rank "
                         f"than the SparseTensor of shape {sp.shape}")
    dims = other.shape.as_list()
    positions = np.arange(own - rank, own)
    keep = np.array([0 if d == 1 else 1 for d in dims], np.int64)
    if rank == 1:
        # Gathered by whole rows, the dense operand's gradient would be IndexedSlices; TF's
        # SparseDenseCwiseMul gives it a dense one: gather from a column instead.
        other = get_op("Reshape")(other, (-1, 1))
        positions, keep = np.array([own - 1, own - 1]), np.array([keep[0], 0], np.int64)
    columns = get_op("GatherV2")(sp.indices, positions, axis=1, batch_dims=0)
    return get_op("GatherNd")(other, columns * keep)


class SparseTensorSpec(TypeSpec):
    """The type of a SparseTensor: its dense shape (partly known) and its values' dtype.

    Args:
        shape: the dense shape (None: unknown rank).
        dtype: the values' dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.SparseTensorSpec([None, 3], tf.float32)
        SparseTensorSpec(TensorShape([None, 3]), tf.float32)
    """

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape=None, dtype=dtypes.float32) -> None:
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    @classmethod
    def from_value(cls, value) -> "SparseTensorSpec":
        return cls(value.shape, value.dtype)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def value_type(self):
        return SparseTensor

    def is_compatible_with(self, other) -> bool:
        """Whether a SparseTensor (or spec) `other` fits: the same dtype, a compatible shape."""
        return isinstance(other, (SparseTensor, SparseTensorSpec)) and \
            other.dtype == self._dtype and self._shape.is_compatible_with(other.shape)

    @property
    def _component_specs(self) -> list:
        rank = self._shape.rank
        return [TensorSpec([None, rank], dtypes.int64), TensorSpec([None], self._dtype),
                TensorSpec([rank], dtypes.int64)]

    def _to_components(self, value: SparseTensor) -> list:
        return [value.indices, value.values, value.dense_shape]

    def _from_components(self, components: list) -> SparseTensor:
        result = SparseTensor(*components)
        result.set_shape(self._shape)
        return result

    def _serialize(self) -> tuple:
        return (self._shape, self._dtype)

