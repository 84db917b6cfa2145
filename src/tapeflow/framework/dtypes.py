"""DType objects with TensorFlow's names, mapped one-to-one onto NumPy dtypes."""
from __future__ import annotations

import builtins
import importlib
import sys

import numpy as np

__all__ = [
    "DType", "as_dtype", "float16", "float32", "float64", "half", "double",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
    "complex64", "complex128", "bfloat16", "qint8", "qint16", "qint32", "quint8", "quint16",
    "string", "resource", "variant",
]


class DType:
    """A tensor element type: a TF name over a NumPy dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.float32.is_floating, tf.float32.as_numpy_dtype
        (True, <class 'numpy.float32'>)
    """

    __slots__ = ("name", "_np", "is_floating", "is_complex", "is_integer", "is_bool",
                 "is_unsigned", "is_quantized")

    def __init__(self, name: str, np_type: type) -> None:
        self.name = name
        self._np = np.dtype(np_type)
        kind = self._np.kind
        self.is_floating = kind == "f"
        self.is_complex = kind == "c"
        self.is_integer = kind in "iu"
        self.is_unsigned = kind == "u"
        self.is_bool = kind == "b"
        self.is_quantized = False

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
    def is_numeric(self) -> bool:
        """Whether the type holds numbers: integers, floats, complex and quantized types
        (not bool, string, resource or variant)."""
        return self.is_floating or self.is_complex or self.is_integer or self.is_quantized

    @property
    def size(self) -> int:
        return self._np.itemsize

    @property
    def min(self):
        return (np.finfo if self.is_floating else np.iinfo)(self._np).min

    @property
    def max(self):
        return (np.finfo if self.is_floating else np.iinfo)(self._np).max

    @property
    def limits(self) -> tuple:
        """(min, max) of an integer or bool type; ValueError for other types, as TF."""
        if not (self.is_integer or self.is_bool):
            raise ValueError(f"{self} does not have defined limits.")
        return (0, 1) if self.is_bool else (int(self.min), int(self.max))

    @property
    def as_datatype_enum(self) -> int:
        """The number of TF's `DataType` enum for this type (DT_FLOAT is 1), as files store it."""
        return _DATATYPE_ENUMS[self.name]

    @property
    def is_numpy_compatible(self) -> bool:
        return True

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
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)
bool = DType("bool", np.bool_)  # noqa: A001  (TF's public name)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
half = float16
double = float64



class _ExtensionDType(DType):
    """A computing dtype whose NumPy type comes from an optional package, imported the first
    time a computation needs it: bfloat16 is the ml_dtypes package's (`pip install
    'tapeflow[bfloat16]'`). Its properties are known without the package.

    On loading, the type joins the lookup tables (`from_numpy`, `Tensor.dtype`) and
    `_FLOAT_KINDS`: NumPy calls its kind 'V' (void), tapeflow treats it as floating.
    """

    __slots__ = ("_module", "_type_name", "_extra", "_size", "_min_max", "_loaded", "_kind")

    def __init__(self, name: str, module: str, type_name: str, extra: str, size: int,
                 min_max: tuple, kind: str = "f") -> None:
        self.name = name
        self._module, self._type_name, self._extra = module, type_name, extra
        self._size, self._min_max, self._loaded, self._kind = size, min_max, None, kind
        self.is_floating = kind == "f"
        self.is_integer = kind in "iu"
        self.is_unsigned = kind == "u"
        self.is_complex = self.is_bool = False
        self.is_quantized = False

    @property
    def _np(self) -> np.dtype:
        loaded = self._loaded
        return loaded if loaded is not None else self._load()

    def _load(self) -> np.dtype:
        try:
            module = importlib.import_module(self._module)
        except ImportError:
            raise ImportError(f"tapeflow computes in {self.name} through the {self._module} "
                              f"package, which is not installed: pip install "
                              f"'tapeflow[{self._extra}]'") from None
        np_dtype = np.dtype(getattr(module, self._type_name))
        _BY_NUMPY[np_dtype] = _BY_CHAR[np_dtype.char] = self
        _FLOAT_KINDS[np_dtype] = self._kind
        self._loaded = np_dtype
        return np_dtype

    @property
    def size(self) -> int:
        return self._size

    @property
    def min(self):
        return self._min_max[0]

    @property
    def max(self):
        return self._min_max[1]


class _StringDType(DType):
    """TF's string: each element is a Python `bytes` object in a NumPy array of dtype object.

    Not NumPy's fixed-width 'S' arrays: those pad every element to the longest one (a
    100,000-element array with one long string costs 100,000 long ones), and they strip
    trailing NUL bytes (`np.array([b"a\\0"])[0] == b"a"`), while TF's strings are arbitrary
    bytes of any length. Python `str` is encoded as UTF-8, as TF does. Its NumPy type is
    `object`, its size 0 and it has no min, max or limits, as TF's.
    """

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("string", object)

    @property
    def as_numpy_dtype(self) -> type:
        return object

    @property
    def size(self) -> int:
        return 0

    @property
    def min(self):
        raise TypeError(f"Cannot find minimum value of {self}.")

    @property
    def max(self):
        raise TypeError(f"Cannot find maximum value of {self}.")


class _OpaqueDType(DType):
    """A TF dtype tapeflow names and describes but has no kernels for: the quantized types,
    resource and variant. Its properties are TF's; asking an op or a tensor for one
    is a TypeError."""

    __slots__ = ("_numpy_type", "_size", "_min_max")

    def __init__(self, name: str, numpy_type, size: int, is_floating: bool = False,
                 is_quantized: bool = False, min_max=None) -> None:
        self.name = name
        self._numpy_type, self._size, self._min_max = numpy_type, size, min_max
        self.is_floating, self.is_quantized = is_floating, is_quantized
        self.is_complex = self.is_integer = self.is_bool = self.is_unsigned = False

    @property
    def _np(self):
        raise TypeError(f"tapeflow cannot compute with {self.name} tensors: it has no kernels "
                        f"for that dtype")

    @property
    def as_numpy_dtype(self):
        if self._numpy_type is None:
            raise TypeError(f"{self} has no NumPy type")
        return self._numpy_type

    @property
    def size(self) -> int:
        return self._size

    @property
    def min(self):
        if self._min_max is None:
            raise TypeError(f"Cannot find minimum value of {self}.")
        return self._min_max[0]

    @property
    def max(self):
        if self._min_max is None:
            raise TypeError(f"Cannot find maximum value of {self}.")
        return self._min_max[1]

    @property
    def limits(self) -> tuple:
        raise ValueError(f"{self} does not have defined limits.")

    @property
    def is_numpy_compatible(self) -> bool:
        return self.name not in ("resource", "variant")


def _quantized(name: str, code: str) -> _OpaqueDType:
    numpy_type = np.dtype([(name, code)])
    return _OpaqueDType(name, numpy_type, numpy_type.itemsize, is_quantized=True)


_BFLOAT16_MAX = float.fromhex("0x1.fep127")
bfloat16 = _ExtensionDType("bfloat16", "ml_dtypes", "bfloat16", "bfloat16", 2,
                          (-_BFLOAT16_MAX, _BFLOAT16_MAX))
# 8-bit floats (ml_dtypes' too): TF names them (as_dtype) but does not export them.
float8_e4m3fn = _ExtensionDType("float8_e4m3fn", "ml_dtypes", "float8_e4m3fn", "bfloat16", 1,
                                (-448.0, 448.0))
float8_e5m2 = _ExtensionDType("float8_e5m2", "ml_dtypes", "float8_e5m2", "bfloat16", 1,
                              (-57344.0, 57344.0))
# The other narrow types TF names (tf.experimental's), ml_dtypes' too.
float8_e4m3fnuz = _ExtensionDType("float8_e4m3fnuz", "ml_dtypes", "float8_e4m3fnuz",
                                  "bfloat16", 1, (-240.0, 240.0))
float4_e2m1fn = _ExtensionDType("float4_e2m1fn", "ml_dtypes", "float4_e2m1fn", "bfloat16", 1,
                                (-6.0, 6.0))
int4 = _ExtensionDType("int4", "ml_dtypes", "int4", "bfloat16", 1, (-8, 7), kind="i")
uint4 = _ExtensionDType("uint4", "ml_dtypes", "uint4", "bfloat16", 1, (0, 15), kind="u")
int2 = _ExtensionDType("int2", "ml_dtypes", "int2", "bfloat16", 1, (-2, 1), kind="i")
# Not here: float8_e4m3b11fnuz, float8_e5m2fnuz and uint2, whose NumPy type characters
# ('L', 'C', 'C') are uint64's or each other's: Tensor.dtype finds a dtype by its character.
qint8 = _quantized("qint8", "i1")
qint16 = _quantized("qint16", "<i2")
qint32 = _quantized("qint32", "<i4")
quint8 = _quantized("quint8", "u1")
quint16 = _quantized("quint16", "<u2")
string = _StringDType()
resource = _OpaqueDType("resource", None, 0)
variant = _OpaqueDType("variant", None, 0)

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
        bool, complex64, complex128, string)
_OPAQUE = (qint8, qint16, qint32, quint8, quint16, resource, variant)
_EXTENSIONS = (bfloat16, float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float4_e2m1fn, int4,
               uint4, int2)
_BY_NAME = {d.name: d for d in _ALL + _EXTENSIONS + _OPAQUE}
_BY_NAME.update(half=float16, double=float64)
# TF's DataType enum numbers (types.proto), which checkpoints and TensorProtos store.
_DATATYPE_ENUMS = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
                   "string": 7, "complex64": 8, "int64": 9, "bool": 10, "qint8": 11,
                   "quint8": 12, "qint32": 13, "bfloat16": 14, "qint16": 15, "quint16": 16,
                   "uint16": 17, "complex128": 18, "float16": 19, "resource": 20, "variant": 21,
                   "uint32": 22, "uint64": 23, "float8_e5m2": 24, "float8_e4m3fn": 25,
                   "float8_e4m3fnuz": 26, "int4": 29, "uint4": 30, "int2": 31,
                   "float4_e2m1fn": 33}
_BY_ENUM = {number: _BY_NAME[name] for name, number in _DATATYPE_ENUMS.items()}
_BY_NUMPY = {d._np: d for d in _ALL}
# Keyed by type character too: a fast lookup for Tensor.dtype (several chars can mean one type).
_BY_CHAR = {np.dtype(c).char: _BY_NUMPY[np.dtype(c)] for c in np.typecodes["All"]
            if c not in "SUVMm" and np.dtype(c) in _BY_NUMPY}
_BY_CHAR.update({np.dtype(c).char: _BY_NUMPY[np.dtype(c)] for c in "?"})


# The NumPy kind tapeflow gives an extension type NumPy calls 'V' (bfloat16: 'f').
_FLOAT_KINDS: dict = {}


def kind(np_dtype: np.dtype) -> str:
    """The NumPy kind code of `np_dtype` ('f', 'i', ...), with the extension floats (bfloat16)
    'f'. For checks off the hot path: `np_dtype.kind` first, this where that one fails."""
    return _FLOAT_KINDS.get(np_dtype, np_dtype.kind)


def numpy_dtype(char: str) -> np.dtype:
    """The NumPy dtype of type character `char`, a loaded extension's (bfloat16's 'E') too."""
    dtype = _BY_CHAR.get(char)
    return np.dtype(char) if dtype is None else dtype._np


def from_numpy(np_dtype) -> DType:
    """The DType of a NumPy dtype; TypeError for one tapeflow has no DType for."""
    try:
        return _BY_NUMPY[np_dtype]
    except KeyError:
        pass
    if getattr(np_dtype, "kind", None) in ("U", "S"):  # NumPy's text arrays hold strings
        return string
    for extension in _EXTENSIONS:  # an array made with the package before tapeflow loaded it
        if extension._loaded is None and extension._module in sys.modules \
                and getattr(np_dtype, "name", None) == extension._type_name:
            extension._load()
            return from_numpy(np_dtype)
    raise TypeError(f"tapeflow has no dtype for NumPy dtype {np_dtype}")


def as_dtype(type_value) -> DType:
    """Converts a DType, a name, a DataType enum number, a NumPy dtype or a Python type to a
    DType.

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
    if isinstance(type_value, int) and not isinstance(type_value, builtins.bool):
        try:
            return _BY_ENUM[type_value]
        except KeyError:
            raise TypeError(f"Cannot convert {type_value!r} to a tapeflow DType") from None
    if type_value is float:
        return float32
    if type_value is int:
        return int32
    if type_value is builtins.bool:
        return bool
    if type_value is builtins.str or type_value is bytes:  # TF: no DType for these
        raise TypeError(f"Cannot convert {type_value!r} to a tapeflow DType")
    try:
        return from_numpy(np.dtype(type_value))
    except (TypeError, ValueError):
        raise TypeError(f"Cannot convert {type_value!r} to a tapeflow DType") from None

