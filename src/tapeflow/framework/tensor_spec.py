"""TypeSpec, and TensorSpec: the dtype and (partial) shape a tf.function input must have."""
from __future__ import annotations

import abc

from . import dtypes
from .tensor_shape import TensorShape

__all__ = ["TensorSpec", "TypeSpec"]


class TypeSpec(abc.ABC):
    """The base of value specs: a subclass names the `value_type` it describes and the
    fields (`_serialize()`) that make two specs equal.

    Example:
        >>> import tapeflow as tf
        >>> isinstance(tf.TensorSpec([2]), tf.TypeSpec)
        True
    """

    __slots__ = ()

    @property
    @abc.abstractmethod
    def value_type(self) -> type:
        """The Python type of the values this spec describes."""

    @abc.abstractmethod
    def _serialize(self) -> tuple:
        """The fields that define the spec."""

    def is_compatible_with(self, spec_or_value) -> bool:
        """Whether `spec_or_value` is a spec equal to this one."""
        return self == spec_or_value

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._serialize()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(repr(f) for f in self._serialize())})"


class TensorSpec(TypeSpec):
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

    @property
    def value_type(self) -> type:
        from .tensor import Tensor
        return Tensor

    def _serialize(self) -> tuple:
        return (self._shape, self._dtype, self._name)

    def is_compatible_with(self, other) -> bool:
        """Whether a tensor (or spec) `other` fits: the same dtype and a compatible shape."""
        return other.dtype == self._dtype and self._shape.is_compatible_with(other.shape)

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"
