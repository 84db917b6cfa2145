"""The numpy namespace's conversion and creation functions: `asarray`, `arange`, `zeros`, ...

Every function returns a tapeflow Tensor (`tnp.ndarray` is `tf.Tensor`) and is composed of
tapeflow ops, so it differentiates under GradientTape and traces in tf.function.
"""
from __future__ import annotations

import numpy as np

import tapeflow as tf
from tapeflow.framework import promotion
from tapeflow.framework.tensor import WeakTensor

from .np_dtypes import _python_array, as_tf_dtype, inexact_type, result_type

ndarray = tf.Tensor
newaxis = None
e, pi, inf = np.e, np.pi, np.inf


def _holds_tensor(value) -> bool:
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return True
    return isinstance(value, (list, tuple)) and any(_holds_tensor(v) for v in value)


def asarray(a, dtype=None) -> tf.Tensor:
    """`a` as a tensor: a tensor as it is (cast to `dtype` when given), other data with the
    dtype NumPy would give it (float32 for Python floats with prefer_float32).

    Args:
        a: a tensor, an array, or Python data (nested lists may hold tensors).
        dtype: the dtype wanted, or None.

    Returns:
        A Tensor.

    Raises:
        ValueError: `a` is ragged or cannot be converted.

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.asarray([1, 2.5]).dtype
        tf.float64
    """
    dtype = as_tf_dtype(dtype)
    if isinstance(a, (tf.Tensor, tf.Variable)):
        a = tf.convert_to_tensor(a)
    elif _holds_tensor(a):
        parts = [asarray(v) for v in a]
        common = result_type(*parts)
        a = tf.stack([tf.cast(p, common) for p in parts])
    elif promotion.mode in promotion.LATTICE_MODES and promotion.python_type(a) is not None:
        a = tf.constant(a)  # weak, of 32 bits (complex128 for complex)
    else:
        a = tf.constant(_python_array(a))
    return a if dtype is None or a.dtype == dtype else tf.cast(a, dtype)


def array(val, dtype=None, copy=True, ndmin=0) -> tf.Tensor:
    """`asarray(val, dtype)` with at least `ndmin` dimensions (leading ones added).

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.array([1, 2], ndmin=2).shape
        TensorShape([1, 2])
    """
    result = asarray(val, dtype)
    if copy and result is val:  # a tensor given as it is: a new one with its values
        result = tf.identity(result)
    while result.shape.rank < ndmin:
        result = tf.expand_dims(result, 0)
    return result


def asanyarray(a, dtype=None) -> tf.Tensor:
    """`asarray(a, dtype)` (tensors are the only array kind here).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.asanyarray([1.5]).dtype
        tf.float64
    """
    return asarray(a, dtype)


def ascontiguousarray(a, dtype=None) -> tf.Tensor:
    """`asarray(a, dtype)` with at least one dimension, as NumPy's.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.ascontiguousarray(3).shape
        TensorShape([1])
    """
    return array(a, dtype, ndmin=1)


def copy(a) -> tf.Tensor:
    """A copy of `a` (tensors are immutable: the same values in a new tensor).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.copy([1, 2]).numpy()
        array([1, 2])
    """
    return array(a, copy=True)


def _float_default(dtype):
    return inexact_type() if dtype is None or dtype is float else as_tf_dtype(dtype)


def _shape(shape) -> list:
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    return [int(s) for s in shape]


def zeros(shape, dtype=float) -> tf.Tensor:
    """A tensor of `shape` filled with 0 (float64 by default).

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.zeros(2).numpy()
        array([0., 0.])
    """
    return tf.zeros(_shape(shape), _float_default(dtype))


def ones(shape, dtype=float) -> tf.Tensor:
    """A tensor of `shape` filled with 1 (float64 by default).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.ones((2,), tnp.int32).numpy()
        array([1, 1], dtype=int32)
    """
    return tf.ones(_shape(shape), _float_default(dtype))


def empty(shape, dtype=float) -> tf.Tensor:
    """A tensor of `shape` (its values are zeros: tensors have no uninitialized memory).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.empty((2,)).shape
        TensorShape([2])
    """
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None) -> tf.Tensor:
    """A tensor of `shape` filled with `fill_value` (its NumPy dtype unless `dtype`).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.full((2,), 7).numpy()
        array([7, 7])
    """
    value = asarray(fill_value, dtype)
    return tf.broadcast_to(value, _shape(shape))


def _like(a, dtype, shape):
    a = asarray(a)
    dtype = a.dtype if dtype is None else as_tf_dtype(dtype)
    return a, dtype, (tf.shape(a) if shape is None else _shape(shape))


def zeros_like(a, dtype=None, shape=None) -> tf.Tensor:
    """Zeros with the shape (or `shape`) and dtype (or `dtype`) of `a`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.zeros_like([[1, 2]]).numpy()
        array([[0, 0]])
    """
    a, dtype, shape = _like(a, dtype, shape)
    return tf.zeros(shape, dtype)


def ones_like(a, dtype=None, shape=None) -> tf.Tensor:
    """Ones with the shape (or `shape`) and dtype (or `dtype`) of `a`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.ones_like([1.5, 2.5]).numpy()
        array([1., 1.])
    """
    a, dtype, shape = _like(a, dtype, shape)
    return tf.ones(shape, dtype)


def empty_like(a, dtype=None, shape=None) -> tf.Tensor:
    """`zeros_like(a, dtype, shape)` (tensors have no uninitialized memory).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.empty_like([[1, 2]]).dtype
        tf.int64
    """
    return zeros_like(a, dtype, shape)


def full_like(a, fill_value, dtype=None, shape=None) -> tf.Tensor:
    """`fill_value` broadcast to the shape of `a`, in the dtype of `a` (or `dtype`).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.full_like([1.0, 2.0], 3).numpy()
        array([3., 3.])
    """
    a, dtype, shape = _like(a, dtype, shape)
    return tf.broadcast_to(tf.cast(asarray(fill_value), dtype), shape)


def eye(N, M=None, k=0, dtype=float) -> tf.Tensor:  # noqa: N803  (NumPy's names)
    """An N x M matrix with ones on diagonal `k` (float64 by default).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.eye(2, 3, k=1).numpy()
        array([[0., 1., 0.],
               [0., 0., 1.]])
    """
    M = N if M is None else M  # noqa: N806
    rows = tf.range(N)[:, None]
    cols = tf.range(M)[None, :]
    return tf.cast(tf.equal(cols - rows, k), _float_default(dtype))


def identity(n, dtype=float) -> tf.Tensor:
    """The n x n identity matrix.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.identity(2).numpy()
        array([[1., 0.],
               [0., 1.]])
    """
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None) -> tf.Tensor:  # noqa: N803
    """Ones at and below diagonal `k` of an N x M matrix, zeros above.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.tri(2).numpy()
        array([[1., 0.],
               [1., 1.]])
    """
    M = N if M is None else M  # noqa: N806
    rows = tf.range(N)[:, None]
    cols = tf.range(M)[None, :]
    return tf.cast(cols - rows <= k, _float_default(dtype))


def arange(start, stop=None, step=1, dtype=None) -> tf.Tensor:
    """Evenly spaced values in [start, stop), NumPy's dtype from the arguments.

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.arange(3).numpy()
        array([0, 1, 2])
    """
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange: step must not be 0")
    if dtype is None and promotion.mode in promotion.LATTICE_MODES and \
            promotion.python_type([start, stop, step]) is not None:
        weak = promotion.python_type([start, stop, step])[0]  # weak 32-bit, as tf.constant
        result = arange(start, stop, step, weak)
        return WeakTensor(result.numpy()) if tf.executing_eagerly() else result
    dtype = as_tf_dtype(dtype) or result_type(start, stop, step)
    count = max(int(np.ceil((stop - start) / step)), 0)
    values = tf.cast(tf.range(count), tf.float64 if dtype.is_floating or dtype.is_complex
                     else tf.int64)
    return tf.cast(values * tf.cast(step, values.dtype) + tf.cast(start, values.dtype), dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """`num` evenly spaced values from `start` to `stop` (included unless not `endpoint`).

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.linspace(0, 1, 3).numpy()
        array([0. , 0.5, 1. ])
    """
    dtype = result_type(start, stop, float(num)) if dtype is float else as_tf_dtype(dtype)
    work = tf.float64 if not dtype.is_complex else tf.complex128
    start, stop = tf.cast(asarray(start), work), tf.cast(asarray(stop), work)
    divisions = (num - 1) if endpoint else num
    step = (stop - start) / max(divisions, 1)
    steps = tf.reshape(tf.cast(tf.range(num), work), [num] + [1] * start.shape.rank)
    result = start[None] + steps * step[None]
    if endpoint and num > 1:
        result = tf.concat([result[:-1], stop[None]], 0)
    if axis != 0:
        result = moveaxis(result, 0, axis)
    result = tf.cast(result, dtype)
    return (result, tf.cast(step, dtype)) if retstep else result


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0) -> tf.Tensor:
    """`base ** linspace(start, stop, num)`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.logspace(0, 2, 3).numpy()
        array([  1.,  10., 100.])
    """
    exponents = linspace(start, stop, num, endpoint, axis=axis)
    result = tf.pow(tf.cast(base, exponents.dtype), exponents)
    return result if dtype is None else tf.cast(result, as_tf_dtype(dtype))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0) -> tf.Tensor:
    """Numbers spaced evenly on a log scale from `start` to `stop`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.geomspace(1, 100, 3).numpy()
        array([  1.,  10., 100.])
    """
    start, stop = tf.cast(asarray(start), tf.float64), tf.cast(asarray(stop), tf.float64)
    result = tf.exp(linspace(tf.math.log(start), tf.math.log(stop), num, endpoint,
                             dtype=tf.float64, axis=axis))
    return tf.cast(result, as_tf_dtype(dtype) or result_type(float))


def moveaxis(a, source, destination) -> tf.Tensor:
    """`a` with axes `source` moved to positions `destination`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.moveaxis(tnp.zeros((2, 3, 4)), 0, -1).shape
        TensorShape([3, 4, 2])
    """
    a = asarray(a)
    rank = a.shape.rank
    source = [s % rank for s in np.atleast_1d(source).tolist()]
    destination = [d % rank for d in np.atleast_1d(destination).tolist()]
    order = [i for i in range(rank) if i not in source]
    for d, s in sorted(zip(destination, source)):
        order.insert(d, s)
    return tf.transpose(a, order)
