"""RaggedTensorSpec: the type of a RaggedTensor (shape, dtype, ragged rank, row-splits
dtype). Its components are the flat values and one row-splits vector per ragged dimension;
batching adds a ragged dimension, unbatching removes one (ragged rank 0 describes a Tensor,
as the rows of a RaggedTensor of ragged rank 1 are)."""
from __future__ import annotations

from ...framework import dtypes
from ...framework.tensor import Tensor
from ...framework.tensor_shape import TensorShape
from ...framework.tensor_spec import TensorSpec, TypeSpec
from .ragged_tensor import RaggedTensor

__all__ = ["RaggedTensorSpec"]


class RaggedTensorSpec(TypeSpec):
    """The type of a RaggedTensor: its static shape, dtype, ragged rank and the dtype of
    its row splits.

    Args:
        shape: the static shape (None dims unknown); None: unknown rank.
        dtype: the values' dtype.
        ragged_rank: the number of ragged dims (default: rank - 1).
        row_splits_dtype: int64 or int32.
        flat_values_spec: the spec of the flat values (its dtype and shape win).

    Example:
        >>> import tapeflow as tf
        >>> tf.RaggedTensorSpec([2, None], tf.int32)
        RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)
    """

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype", "_flat_values_spec")

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
                 row_splits_dtype=dtypes.int64, flat_values_spec=None) -> None:
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if flat_values_spec is not None:
            self._dtype = flat_values_spec.dtype
        self._flat_values_spec = flat_values_spec
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int):
            raise TypeError(f"ragged_rank must be an int, got {ragged_rank!r}")
        if rank is not None and not 0 <= ragged_rank < max(rank, 1):
            raise ValueError(f"ragged_rank must be non-negative and less than rank "
                             f"({rank}), got {ragged_rank}")
        self._ragged_rank = ragged_rank

    @classmethod
    def from_value(cls, value) -> "RaggedTensorSpec":
        return value._type_spec if isinstance(value, RaggedTensor) else \
            cls(value.shape, value.dtype, 0)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def ragged_rank(self) -> int:
        return self._ragged_rank

    @property
    def row_splits_dtype(self) -> dtypes.DType:
        return self._row_splits_dtype

    @property
    def flat_values_spec(self):
        return self._flat_values_spec

    @property
    def value_type(self):
        return RaggedTensor if self._ragged_rank > 0 else Tensor

    def _serialize(self) -> tuple:
        if self._flat_values_spec is None:
            return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)
        return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype,
                self._flat_values_spec)

    def _with_shape(self, shape) -> "RaggedTensorSpec":
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def _batch(self, batch_size) -> "RaggedTensorSpec":
        return RaggedTensorSpec(TensorShape([batch_size]).concatenate(self._shape),
                                self._dtype, self._ragged_rank + 1, self._row_splits_dtype)

    def _unbatch(self) -> "RaggedTensorSpec":
        if self._shape.rank == 0:
            raise ValueError("Cannot unbatch a RaggedTensorSpec of rank 0")
        return RaggedTensorSpec(self._shape[1:], self._dtype, max(self._ragged_rank - 1, 0),
                                self._row_splits_dtype)

    def is_compatible_with(self, spec_or_value) -> bool:
        """Whether a RaggedTensor (or spec) fits: the same dtype, ragged rank and splits
        dtype, and a compatible shape."""
        other = spec_or_value
        if isinstance(other, RaggedTensor):
            other = other._type_spec
        elif not isinstance(other, RaggedTensorSpec):
            return self._ragged_rank == 0 and isinstance(other, (Tensor, TensorSpec)) and \
                other.dtype == self._dtype and self._shape.is_compatible_with(other.shape)
        return other._dtype == self._dtype and other._ragged_rank == self._ragged_rank and \
            other._row_splits_dtype == self._row_splits_dtype and \
            self._shape.is_compatible_with(other._shape)

    @property
    def _component_specs(self) -> list:
        if self._ragged_rank == 0:
            return [TensorSpec(self._shape, self._dtype)]
        rank = self._shape.rank
        inner = TensorShape(None) if rank is None else self._shape[self._ragged_rank + 1:]
        flat = TensorSpec(TensorShape([None]).concatenate(inner), self._dtype)
        nrows = None if rank is None else self._shape.as_list()[0]
        outer = TensorSpec([None if nrows is None else nrows + 1], self._row_splits_dtype)
        return [flat, outer] + [TensorSpec([None], self._row_splits_dtype)] * \
            (self._ragged_rank - 1)

    def _to_components(self, value) -> list:
        if self._ragged_rank == 0:
            return [value]
        return [value.flat_values] + list(value.nested_row_splits)

    def _from_components(self, components):
        if self._ragged_rank == 0:
            return components[0]
        return RaggedTensor.from_nested_row_splits(components[0], components[1:],
                                                   validate=False)
