"""TensorSpec: the dtype and (partial) shape a tf.function input must have."""
from __future__ import annotations

from . import dtypes
from .tensor_shape import TensorShape

__all__ = ["TensorSpec"]


class TensorSpec:
    """Describes a tensor: its shape (unknown dimensions None), dtype and an optional name.

    Example:
        >>> import tapeflow as tf
        >>> spec = tf.TensorSpec([None, 3], tf.float32)
        >>> spec
        TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)
        >>> spec.is_compatible_with(tf.constant([[1.0, 2.0, 3.0]]))
        True
    """

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=dtypes.float32, name=None) -> None:
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name=None) -> "TensorSpec":
        return cls(tensor.shape, tensor.dtype, name)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def name(self):
        return self._name

    def is_compatible_with(self, other) -> bool:
        """Whether a tensor (or spec) `other` fits: the same dtype and a compatible shape."""
        return other.dtype == self._dtype and self._shape.is_compatible_with(other.shape)

    def __eq__(self, other) -> bool:
        return (isinstance(other, TensorSpec) and self._shape == other._shape
                and self._dtype == other._dtype and self._name == other._name)

    def __hash__(self) -> int:
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"
