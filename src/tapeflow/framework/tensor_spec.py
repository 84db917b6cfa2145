"""TypeSpec, and TensorSpec: the dtype and (partial) shape a tf.function input must have."""
from __future__ import annotations

import abc

from . import dtypes
from .tensor_shape import TensorShape

__all__ = ["TensorSpec", "TypeSpec"]


class TypeSpec(abc.ABC):
    """The type of a value: a subclass names the `value_type` it describes and the fields
    (`_serialize()`) that make two specs equal.

    A composite spec (that of a SparseTensor or RaggedTensor) also says which tensors make a
    value (`_component_specs`, `_to_components`) and how to rebuild one from them
    (`_from_components`): tf.function passes a composite through a trace as its components,
    nest flattens it into them with `expand_composites=True`, and tf.data batches it with
    `_batch`/`_unbatch`.

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

    @property
    def _component_specs(self):
        """The specs of the tensors that make a value (composite specs only)."""
        raise NotImplementedError(f"{type(self).__name__} is not a composite spec")

    def _to_components(self, value) -> list:
        raise NotImplementedError(f"{type(self).__name__} is not a composite spec")

    def _from_components(self, components):
        raise NotImplementedError(f"{type(self).__name__} is not a composite spec")

    @classmethod
    def _is_composite(cls) -> bool:
        """Whether values of this spec are made of component tensors."""
        return cls._to_components is not TypeSpec._to_components

    def _with_shape(self, shape) -> "TypeSpec":
        """This spec with static shape `shape` (None: unknown rank), its other fields kept."""
        return type(self)(shape, self.dtype)

    def _batch(self, batch_size) -> "TypeSpec":
        """The spec of a batch of `batch_size` (None: unknown) values of this spec."""
        return self._with_shape(TensorShape([batch_size]).concatenate(self.shape))

    def _unbatch(self) -> "TypeSpec":
        """The spec of one element of a batch of this spec."""
        if self.shape.rank == 0:
            raise ValueError(f"Cannot unbatch a {type(self).__name__} of rank 0: {self!r}")
        return self._with_shape(self.shape[1:])

    def is_compatible_with(self, spec_or_value) -> bool:
        """Whether `spec_or_value` (a spec or a value) has a spec equal to this one."""
        if not isinstance(spec_or_value, TypeSpec):
            spec_or_value = getattr(spec_or_value, "_type_spec", spec_or_value)
        return self == spec_or_value

    def most_specific_common_supertype(self, others):
        """The most specific spec that this and every spec in `others` fit (dimensions that
        differ become unknown), or None when they are of different kinds."""
        shape = self.shape
        for other in others:
            if type(other) is not type(self) or \
                    other._with_shape(None) != self._with_shape(None):
                return None
            shape = shape.most_specific_compatible_shape(other.shape)
        return self._with_shape(shape)

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
