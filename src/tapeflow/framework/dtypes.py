"""DType objects with TensorFlow's names, mapped one-to-one onto NumPy dtypes."""
from __future__ import annotations

import builtins

import numpy as np

__all__ = [
    "DType", "as_dtype", "float16", "float32", "float64", "half", "double",
    "int8", "int16", "int32", "int64", "uint8", "bool", "complex64", "complex128",
]


class DType:
    """A tensor element type: a TF name over a NumPy dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.float32.is_floating, tf.float32.as_numpy_dtype
        (True, <class 'numpy.float32'>)
    """

    __slots__ = ("name", "_np", "is_floating", "is_complex", "is_integer", "is_bool",
                 "is_unsigned")

    def __init__(self, name: str, np_type: type) -> None:
        self.name = name
        self._np = np.dtype(np_type)
        kind = self._np.kind
        self.is_floating = kind == "f"
        self.is_complex = kind == "c"
        self.is_integer = kind in "iu"
        self.is_unsigned = kind == "u"
        self.is_bool = kind == "b"

    @property
    def as_numpy_dtype(self) -> type:
        return self._np.type

    @property
    def base_dtype(self) -> "DType":
        return self

    @property
    def real_dtype(self) -> "DType":
        return {complex64: float32, complex128: float64}.get(self, self)

    @property
    def is_trainable(self) -> bool:
        """Whether gradients flow through tensors of this type (floating or complex)."""
        return self.is_floating or self.is_complex

    @property
    def size(self) -> int:
        return self._np.itemsize

    @property
    def min(self):
        return (np.finfo if self.is_floating else np.iinfo)(self._np).min

    @property
    def max(self):
        return (np.finfo if self.is_floating else np.iinfo)(self._np).max

    def is_compatible_with(self, other) -> bool:
        return self == as_dtype(other)

    def __eq__(self, other) -> bool:
        if isinstance(other, DType):
            return self is other
        try:
            return self is as_dtype(other)
        except TypeError:
            return False

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
bool = DType("bool", np.bool_)  # noqa: A001  (TF's public name)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
half = float16
double = float64

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, bool, complex64,
        complex128)
_BY_NAME = {d.name: d for d in _ALL}
_BY_NAME.update(half=float16, double=float64)
_BY_NUMPY = {d._np: d for d in _ALL}
# Keyed by type character too: a fast lookup for Tensor.dtype (several chars can mean one type).
_BY_CHAR = {np.dtype(c).char: _BY_NUMPY[np.dtype(c)] for c in np.typecodes["All"]
            if c not in "OSUVMm" and np.dtype(c) in _BY_NUMPY}
_BY_CHAR.update({np.dtype(c).char: _BY_NUMPY[np.dtype(c)] for c in "?"})


def from_numpy(np_dtype) -> DType:
    """The DType of a NumPy dtype; TypeError for one tapeflow has no DType for."""
    try:
        return _BY_NUMPY[np_dtype]
    except KeyError:
        raise TypeError(f"tapeflow has no dtype for NumPy dtype {np_dtype}") from None


def as_dtype(type_value) -> DType:
    """Converts a DType, a name, a NumPy dtype or a Python type to a DType.

    Raises:
        TypeError: `type_value` names no supported dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.as_dtype("float64") is tf.float64
        True
    """
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        try:
            return _BY_NAME[type_value]
        except KeyError:
            raise TypeError(f"Cannot convert {type_value!r} to a tapeflow DType") from None
    if type_value is float:
        return float32
    if type_value is int:
        return int32
    if type_value is builtins.bool:
        return bool
    try:
        return from_numpy(np.dtype(type_value))
    except (TypeError, ValueError):
        raise TypeError(f"Cannot convert {type_value!r} to a tapeflow DType") from None

