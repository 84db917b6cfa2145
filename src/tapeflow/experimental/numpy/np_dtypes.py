"""The numpy namespace's dtypes and its NumPy type promotion.

Inside the namespace dtypes promote as NumPy's do (`np.result_type`, Python scalars weak),
except that with `prefer_float32` a Python float counts as float32 (and a Python complex as
complex64), and a Python float converted alone becomes float32 instead of float64.
"""
from __future__ import annotations

import numbers

import numpy as np

import tapeflow as tf
from tapeflow.framework import promotion

# The numpy namespace's dtype names are NumPy's scalar types.
bool_ = np.bool_
int_ = np.int64
float_ = np.float64
complex_ = np.complex128
object_ = np.object_
string_ = np.bytes_
unicode_ = np.str_
inexact = np.inexact
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
finfo = np.finfo
iinfo = np.iinfo
issubdtype = np.issubdtype

_prefer_float32 = False


def set_prefer_float32(prefer: bool) -> None:
    """Whether Python floats count as float32 (True) or float64 (NumPy's, the default)."""
    global _prefer_float32
    _prefer_float32 = bool(prefer)


def is_prefer_float32() -> bool:
    """Whether Python floats count as float32 in the numpy namespace."""
    return _prefer_float32


def _promotion_operand(x):
    """`x` as `np.result_type` takes it: a tensor by its dtype, a Python number as itself
    (weak), or as a float32/complex64 scalar with prefer_float32."""
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return x.dtype.as_numpy_dtype
    if isinstance(x, tf.DType):
        return x.as_numpy_dtype
    if _prefer_float32 and type(x) is float:
        return np.float32(x)
    if _prefer_float32 and type(x) is complex:
        return np.complex64(x)
    if isinstance(x, (list, tuple)):
        return _python_array(x).dtype
    return x


def _python_array(value) -> np.ndarray:
    """Python data as NumPy would hold it, with float32/complex64 for floats under
    prefer_float32."""
    array = np.asarray(value)
    if _prefer_float32 and not isinstance(value, (np.ndarray, np.generic)):
        if array.dtype == np.float64:
            return array.astype(np.float32)
        if array.dtype == np.complex128:
            return array.astype(np.complex64)
    return array


def result_type(*arrays_and_dtypes) -> tf.DType:
    """The dtype NumPy's promotion gives the arguments (tensors, dtypes, Python numbers).

    Args:
        *arrays_and_dtypes: tensors, arrays, dtypes (NumPy's or tapeflow's) or numbers.

    Returns:
        A tapeflow DType.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.result_type(tnp.int32, tnp.float32)
        tf.float64
    """
    return tf.as_dtype(np.result_type(*[_promotion_operand(x) for x in arrays_and_dtypes]))


def promote_types(type1, type2):
    """The smallest dtype both `type1` and `type2` convert to safely, as NumPy's.

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.promote_types(tf.int8, tf.uint8)
        dtype('int16')
    """
    return np.promote_types(_np_dtype(type1), _np_dtype(type2))


def _np_dtype(dtype) -> np.dtype:
    if isinstance(dtype, tf.DType):
        return np.dtype(dtype.as_numpy_dtype)
    return np.dtype(dtype)


def default_float_type() -> tf.DType:
    """float32 with prefer_float32 or under the "all"/"safe" modes, else float64."""
    return tf.float32 if _prefer_float32 or promotion.mode in promotion.LATTICE_MODES \
        else tf.float64


def inexact_type() -> tf.DType:
    """The float that integers and bools become in the namespace's float functions (sqrt,
    mean): float64 as NumPy's, float32 under the "all"/"safe" modes (prefer_float32 does
    not change it)."""
    return tf.float32 if promotion.mode in promotion.LATTICE_MODES else tf.float64


def as_tf_dtype(dtype):
    """`dtype` (NumPy's, tapeflow's, a Python type or None) as a tapeflow DType or None."""
    if dtype is None or isinstance(dtype, tf.DType):
        return dtype
    if dtype is float:
        return tf.float64
    return tf.as_dtype(np.dtype(dtype))


def is_number(x) -> bool:
    return isinstance(x, numbers.Number) and not isinstance(x, np.ndarray)
