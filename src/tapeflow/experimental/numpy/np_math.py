"""The numpy namespace's elementwise functions and reductions, made from tables.

Each table row names a NumPy function and the tapeflow op (or composition of ops) that
computes it; the generators add NumPy's input promotion: binary functions promote both
operands to `result_type` of the two, "inexact" functions first turn integers and bools into
float64, as NumPy's ufuncs do.
"""
from __future__ import annotations

import numpy as np

import tapeflow as tf

from .np_arrays import asarray
from . import np_dtypes
from .np_dtypes import inexact_type, result_type


def _inexact(x):
    """`x` as a tensor, integers and bools cast to float64 (NumPy's ufunc loops for them)."""
    x = asarray(x)
    return x if x.dtype.is_floating or x.dtype.is_complex else tf.cast(x, inexact_type())


def promote(*values) -> list:
    """The values as tensors of their NumPy result type."""
    dtype = result_type(*values)
    return [tf.cast(v, dtype) if isinstance(v, (tf.Tensor, tf.Variable)) and v.dtype != dtype
            else asarray(v, dtype) for v in values]


_INEXACT = frozenset([tf.bfloat16, tf.float16, tf.float32, tf.float64, tf.complex64,
                      tf.complex128])
# Those a Python float keeps under prefer_float32 too (float32 promotes the others).
_WIDE_INEXACT = frozenset([tf.float32, tf.float64, tf.complex64, tf.complex128])
_NUMERIC = _INEXACT | {tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.uint32,
                       tf.uint64}


def _unary(name: str, fn, inexact: bool):
    def function(x):
        if type(x) is tf.Tensor and (not inexact or x.dtype in _INEXACT):
            return fn(x)
        return fn(_inexact(x) if inexact else asarray(x))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"NumPy's `{name}` of `x`, elementwise (composed of tapeflow ops)."
        f"\n\n    Args:\n        x: a tensor, an array or Python data"
        f"{'; integers and bools become float64 first' if inexact else ''}.\n\n"
        "    Returns:\n        A tensor of x's shape.\n\n    Example:\n        >>> import "
        f"tapeflow as tf\n        >>> tf.experimental.numpy.{name}([[1], [2]]).shape\n"
        "        TensorShape([2, 1])\n")
    return function


def _binary(name: str, fn, inexact: bool, bool_fn=None):
    # A tapeflow op takes a Python number as its second operand (in the first operand's
    # dtype); the compositions written here want tensors.
    takes_numbers = fn.__module__ != __name__

    def function(x1, x2):
        if type(x1) is tf.Tensor:  # no promotion needed: the op at its own cost
            dtype, kind = x1.dtype, type(x2)
            if kind is tf.Tensor:
                fast = x2.dtype is dtype and (bool_fn is None or dtype is not tf.bool)
            elif kind is float:
                fast = dtype in (_WIDE_INEXACT if np_dtypes._prefer_float32 else _INEXACT)
            else:
                fast = kind is int and dtype in _NUMERIC
            if fast and (not inexact or dtype in _INEXACT):
                if takes_numbers or kind is tf.Tensor:
                    return fn(x1, x2)
                return fn(x1, tf.constant(x2, dtype))
        a, b = promote(x1, x2)
        if inexact and not (a.dtype.is_floating or a.dtype.is_complex):
            a, b = tf.cast(a, inexact_type()), tf.cast(b, inexact_type())
        if bool_fn is not None and a.dtype is tf.bool:
            return bool_fn(a, b)
        return fn(a, b)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"NumPy's `{name}` of `x1` and `x2`, elementwise with broadcasting (composed of "
        "tapeflow ops).\n\n    Args:\n        x1, x2: tensors, arrays or Python data; they "
        "are promoted to NumPy's result type (`result_type`)"
        f"{', then integers and bools to float64' if inexact else ''}.\n\n    Returns:\n"
        "        A tensor of the broadcast shape.\n\n    Raises:\n        "
        "InvalidArgumentError: the shapes do not broadcast.\n\n    Example:\n        >>> "
        f"import tapeflow as tf\n        >>> tf.experimental.numpy.{name}([[1], [2]], [3, 4])"
        ".shape\n        TensorShape([2, 2])\n")
    return function


def _sinc(x):
    safe = tf.where(tf.equal(x, 0), tf.ones_like(x), x)
    return tf.where(tf.equal(x, 0), tf.ones_like(x), tf.sin(np.pi * safe) / (np.pi * safe))


def _fix(x):
    return tf.where(x < 0, tf.math.ceil(x), tf.floor(x))


def _log_base(base):
    return lambda x: tf.math.log(x) / tf.cast(np.log(base), x.dtype)


def _heaviside(x1, x2):
    return tf.where(x1 < 0, tf.zeros_like(x1), tf.where(x1 > 0, tf.ones_like(x1), x2))


def _gcd(a, b):
    a, b = tf.abs(a), tf.abs(b)

    def body(a, b):
        safe = tf.where(tf.equal(b, 0), tf.ones_like(b), b)
        return tf.where(tf.equal(b, 0), a, b), tf.where(tf.equal(b, 0), b, a % safe)
    a, b = tf.broadcast_to(a, tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b))), \
        tf.broadcast_to(b, tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b)))
    return tf.while_loop(lambda a, b: tf.reduce_any(tf.not_equal(b, 0)), body, (a, b))[0]


def _lcm(a, b):
    g = _gcd(a, b)
    safe = tf.where(tf.equal(g, 0), tf.ones_like(g), g)
    return tf.where(tf.equal(g, 0), tf.zeros_like(g), tf.abs(a // safe * b))


def _logaddexp(a, b):
    big = tf.maximum(a, b)
    return big + tf.math.log1p(tf.exp(-tf.abs(a - b)))


def _logaddexp2(a, b):
    ln2 = tf.cast(np.log(2), a.dtype)
    return _logaddexp(a * ln2, b * ln2) / ln2


def _signbit(x):
    """Whether each element of `x` is negative (as TF: x < 0, so -0.0 is False).

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.signbit([-1.0, 0.0, 2.0]).numpy()
        array([ True, False, False])
    """
    x = asarray(x)
    return tf.zeros_like(x) if x.dtype == tf.bool else x < 0


def _true_divide(a, b):
    if not (a.dtype.is_floating or a.dtype.is_complex):
        a, b = tf.cast(a, tf.float64), tf.cast(b, tf.float64)
    return tf.math.truediv(a, b)


# name -> (tapeflow function, whether integers become float64 first)
UNARY = {
    "abs": (tf.abs, False), "absolute": (tf.abs, False), "fabs": (tf.abs, True),
    "negative": (tf.negative, False), "positive": (tf.identity, False),
    "sign": (tf.sign, False), "square": (tf.square, False),
    "conj": (tf.math.conj, False), "conjugate": (tf.math.conj, False),
    "real": (tf.math.real, False), "imag": (tf.math.imag, False),
    "floor": (tf.floor, True), "ceil": (tf.math.ceil, True), "fix": (_fix, True),
    "reciprocal": (tf.math.reciprocal, True), "sqrt": (tf.sqrt, True),
    "cbrt": (lambda x: tf.sign(x) * tf.pow(tf.abs(x), 1.0 / 3.0), True),
    "exp": (tf.exp, True), "exp2": (lambda x: tf.pow(tf.cast(2, x.dtype), x), True),
    "expm1": (tf.math.expm1, True), "log": (tf.math.log, True), "log2": (_log_base(2), True),
    "log10": (_log_base(10), True), "log1p": (tf.math.log1p, True),
    "sin": (tf.sin, True), "cos": (tf.cos, True), "tan": (tf.tan, True),
    "arcsin": (tf.asin, True), "arccos": (tf.acos, True), "arctan": (tf.atan, True),
    "sinh": (tf.sinh, True), "cosh": (tf.cosh, True), "tanh": (tf.tanh, True),
    "arcsinh": (tf.asinh, True), "arccosh": (tf.acosh, True), "arctanh": (tf.atanh, True),
    "deg2rad": (lambda x: x * tf.cast(np.pi / 180, x.dtype), True),
    "rad2deg": (lambda x: x * tf.cast(180 / np.pi, x.dtype), True),
    "sinc": (_sinc, True), "angle": (tf.math.angle, True),
    "isfinite": (tf.math.is_finite, True), "isinf": (tf.math.is_inf, True),
    "isnan": (tf.math.is_nan, True),
    "isposinf": (lambda x: tf.math.is_inf(x) & (x > 0), True),
    "isneginf": (lambda x: tf.math.is_inf(x) & (x < 0), True),
    "iscomplex": (lambda x: tf.not_equal(tf.math.imag(x), 0), False),
    "isreal": (lambda x: tf.equal(tf.math.imag(x), 0), False),
    "logical_not": (lambda x: tf.logical_not(tf.cast(x, tf.bool)), False),
    "bitwise_not": (lambda x: tf.logical_not(x) if x.dtype == tf.bool else
                    tf.bitwise.invert(x), False),
}

# name -> (tapeflow function, whether integers become float64 first[, the function for bools])
BINARY = {
    "add": (tf.add, False, tf.logical_or),
    "subtract": (tf.subtract, False),
    "multiply": (tf.multiply, False, tf.logical_and),
    "divide": (_true_divide, False), "true_divide": (_true_divide, False),
    "floor_divide": (tf.math.floordiv, False),
    "mod": (tf.math.floormod, False), "remainder": (tf.math.floormod, False),
    "power": (tf.pow, False), "float_power": (tf.pow, False),  # TF: no float cast
    "maximum": (tf.maximum, False, tf.logical_or),
    "minimum": (tf.minimum, False, tf.logical_and),
    "arctan2": (tf.math.atan2, True), "hypot": (lambda a, b: tf.sqrt(a * a + b * b), True),
    "logaddexp": (_logaddexp, True), "logaddexp2": (_logaddexp2, True),
    "nextafter": (tf.math.nextafter, True), "heaviside": (_heaviside, True),
    "gcd": (_gcd, False), "lcm": (_lcm, False),
    "bitwise_and": (tf.bitwise.bitwise_and, False, tf.logical_and),
    "bitwise_or": (tf.bitwise.bitwise_or, False, tf.logical_or),
    "bitwise_xor": (tf.bitwise.bitwise_xor, False, tf.math.logical_xor),
    "logical_and": (lambda a, b: tf.logical_and(tf.cast(a, tf.bool), tf.cast(b, tf.bool)), False),
    "logical_or": (lambda a, b: tf.logical_or(tf.cast(a, tf.bool), tf.cast(b, tf.bool)), False),
    "logical_xor": (lambda a, b: tf.math.logical_xor(tf.cast(a, tf.bool), tf.cast(b, tf.bool)),
                    False),
    "equal": (tf.equal, False), "not_equal": (tf.not_equal, False), "less": (tf.less, False),
    "less_equal": (tf.less_equal, False), "greater": (tf.greater, False),
    "greater_equal": (tf.greater_equal, False),
}

FUNCTIONS = {name: _unary(name, fn, inexact) for name, (fn, inexact) in UNARY.items()}
FUNCTIONS.update({name: _binary(name, *row) for name, row in BINARY.items()})
FUNCTIONS["signbit"] = _signbit
_signbit.__name__ = _signbit.__qualname__ = "signbit"


def divmod(x1, x2) -> tuple:  # noqa: A001  (NumPy's name)
    """`(floor_divide(x1, x2), mod(x1, x2))`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> [t.numpy() for t in tnp.divmod([7, -7], 3)]
        [array([ 2, -3]), array([1, 2])]
    """
    return FUNCTIONS["floor_divide"](x1, x2), FUNCTIONS["mod"](x1, x2)


def clip(a, a_min, a_max) -> tf.Tensor:
    """`a` limited to [a_min, a_max] (either may be None), in the three's result dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.clip([1, 5, 9], 2, 6).numpy()
        array([2, 5, 6])
    """
    if a_min is None and a_max is None:
        raise ValueError("clip: a_min and a_max cannot both be None")
    a = asarray(a)
    if a_min is not None:
        a = FUNCTIONS["maximum"](a, a_min)
    if a_max is not None:
        a = FUNCTIONS["minimum"](a, a_max)
    return a


def around(a, decimals=0) -> tf.Tensor:
    """`a` rounded half to even at `decimals` decimal places (integers unchanged for
    decimals >= 0).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.around([0.5, 1.5, 2.25], 1).numpy()
        array([0.5, 1.5, 2.2])
    """
    a = asarray(a)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        if decimals >= 0:
            return a
        scale = 10 ** -decimals
        return tf.cast(tf.round(tf.cast(a, tf.float64) / scale) * scale, a.dtype)
    scale = tf.cast(10.0 ** decimals, a.dtype)
    return tf.round(a * scale) / scale


round = around  # noqa: A001  (NumPy's name)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> tf.Tensor:
    """Whether |a - b| <= atol + rtol * |b|, elementwise (NaNs equal with `equal_nan`).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.isclose([1.0, 2.0], [1.0, 2.1]).numpy()
        array([ True, False])
    """
    a, b = promote(a, b)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        return tf.equal(a, b)
    close = tf.abs(a - b) <= tf.cast(atol, tf.abs(a).dtype) + tf.cast(rtol, tf.abs(b).dtype) * \
        tf.abs(b)
    close = close | tf.equal(a, b)
    if equal_nan:
        close = close | (tf.math.is_nan(tf.abs(a)) & tf.math.is_nan(tf.abs(b)))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> tf.Tensor:
    """Whether every element of `a` and `b` is close (`isclose`).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> bool(tnp.allclose([1.0, 2.0], [1.0, 2.0 + 1e-9]))
        True
    """
    return tf.reduce_all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2) -> tf.Tensor:
    """Whether `a1` and `a2` have one shape and equal elements.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> bool(tnp.array_equal([1, 2], [1, 2]))
        True
    """
    a1, a2 = promote(a1, a2)
    if a1.shape != a2.shape:
        return tf.constant(False)
    return tf.reduce_all(tf.equal(a1, a2))


# -- reductions ------------------------------------------------------------------------------
def _axis(axis):
    if axis is None or isinstance(axis, int):
        return axis
    return list(axis)


def _reduction(name: str, reduce, dtype_rule):
    def function(a, axis=None, dtype=None, keepdims=None):
        a = asarray(a)
        target = dtype_rule(a.dtype) if dtype is None else asarray(0, dtype).dtype
        if target is not None and target != a.dtype:
            a = tf.cast(a, target)
        return reduce(a, axis=_axis(axis), keepdims=bool(keepdims))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"NumPy's `{name}` of `a` along `axis` (all axes when None).\n\n    Args:\n        "
        "a: a tensor, an array or Python data.\n        axis: None, an int or a sequence of "
        "ints.\n        dtype: the dtype to compute in (NumPy's default for `a` when None)."
        "\n        keepdims: keep the reduced axes with length 1.\n\n    Returns:\n        "
        "A tensor.\n\n    Raises:\n        InvalidArgumentError: an axis is out of range.\n\n"
        "    Example:\n        >>> import tapeflow as tf\n        >>> "
        f"tf.experimental.numpy.{name}([[1.0, 2.0], [3.0, 4.0]], axis=0).shape\n"
        "        TensorShape([2])\n")
    return function


def _sum_dtype(dtype):
    """NumPy sums bools and small integers in the default integer (int64)."""
    if dtype == tf.bool or dtype.is_integer and dtype.size < 8:
        return tf.uint64 if dtype.is_unsigned else tf.int64
    return None


def _mean_dtype(dtype):
    return None if dtype.is_floating or dtype.is_complex else inexact_type()


def _keep(dtype):
    return None


def _reduce_max(a, axis, keepdims):
    return tf.reduce_any(a, axis, keepdims) if a.dtype == tf.bool else \
        tf.reduce_max(a, axis, keepdims)


def _reduce_min(a, axis, keepdims):
    return tf.reduce_all(a, axis, keepdims) if a.dtype == tf.bool else \
        tf.reduce_min(a, axis, keepdims)


def _variance(a, axis, keepdims, ddof=0):
    mean = tf.reduce_mean(a, axis, keepdims=True)
    deviation = a - mean
    squares = tf.math.real(deviation * tf.math.conj(deviation))
    count = tf.cast(tf.size(a), squares.dtype) / tf.cast(tf.size(mean), squares.dtype)
    return tf.reduce_sum(squares, axis, keepdims) / (count - ddof)


def _nan_to(value):
    def replace(a):
        return tf.where(tf.math.is_nan(a), tf.cast(value, a.dtype), a) \
            if a.dtype.is_floating else a
    return replace


REDUCTIONS = {
    "sum": (tf.reduce_sum, _sum_dtype), "prod": (tf.reduce_prod, _sum_dtype),
    "mean": (tf.reduce_mean, _mean_dtype),
    "amax": (_reduce_max, _keep), "max": (_reduce_max, _keep),
    "amin": (_reduce_min, _keep), "min": (_reduce_min, _keep),
    "nansum": (lambda a, axis, keepdims: tf.reduce_sum(_nan_to(0)(a), axis, keepdims),
               _sum_dtype),
    "nanprod": (lambda a, axis, keepdims: tf.reduce_prod(_nan_to(1)(a), axis, keepdims),
                _sum_dtype),
}
FUNCTIONS.update({name: _reduction(name, fn, rule) for name, (fn, rule) in REDUCTIONS.items()})


def all(a, axis=None, keepdims=None) -> tf.Tensor:  # noqa: A001  (NumPy's name)
    """Whether every element along `axis` is true (nonzero).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.all([[True, False], [True, True]], axis=1).numpy()
        array([False,  True])
    """
    return tf.reduce_all(tf.cast(asarray(a), tf.bool), _axis(axis), bool(keepdims))


def any(a, axis=None, keepdims=None) -> tf.Tensor:  # noqa: A001  (NumPy's name)
    """Whether some element along `axis` is true (nonzero).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.any([[0, 0], [0, 3]], axis=1).numpy()
        array([False,  True])
    """
    return tf.reduce_any(tf.cast(asarray(a), tf.bool), _axis(axis), bool(keepdims))


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=None) -> tf.Tensor:
    """The variance of `a` along `axis`, dividing by N - ddof (float64 for integers).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> float(tnp.var([1.0, 3.0]))
        1.0
    """
    a = asarray(a, dtype)
    a = tf.cast(a, _mean_dtype(a.dtype)) if _mean_dtype(a.dtype) else a
    return _variance(a, _axis(axis), bool(keepdims), ddof)


def std(a, axis=None, keepdims=None) -> tf.Tensor:
    """The standard deviation of `a` along `axis`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> float(tnp.std([1.0, 3.0]))
        1.0
    """
    return tf.sqrt(var(a, axis=axis, keepdims=keepdims))


def nanmean(a, axis=None, dtype=None, keepdims=None) -> tf.Tensor:
    """The mean of the non-NaN elements of `a` along `axis`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> float(tnp.nanmean([1.0, float('nan'), 3.0]))
        2.0
    """
    a = asarray(a, dtype)
    a = tf.cast(a, _mean_dtype(a.dtype)) if _mean_dtype(a.dtype) else a
    present = tf.cast(tf.logical_not(tf.math.is_nan(a)), a.dtype)
    return tf.reduce_sum(_nan_to(0)(a), _axis(axis), bool(keepdims)) / \
        tf.reduce_sum(present, _axis(axis), bool(keepdims))


def ptp(a, axis=None, keepdims=None) -> tf.Tensor:
    """max - min along `axis`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> int(tnp.ptp([4, 9, 1]))
        8
    """
    return FUNCTIONS["amax"](a, axis, keepdims=keepdims) - FUNCTIONS["amin"](a, axis,
                                                                           keepdims=keepdims)


def average(a, axis=None, weights=None, returned=False) -> tf.Tensor:
    """The mean of `a` along `axis`, weighted by `weights` when given.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.average([1.0, 2.0, 4.0], weights=[1.0, 1.0, 2.0]).numpy()
        np.float64(2.75)
    """
    a = _inexact(a)
    if weights is None:
        result = tf.reduce_mean(a, _axis(axis))
        total = tf.cast(tf.size(a) // tf.size(result), result.dtype)
    else:
        a, weights = promote(a, weights)
        if weights.shape.rank == 1 and a.shape.rank > 1 and axis is not None:
            shape = [1] * a.shape.rank
            shape[axis] = -1
            weights = tf.reshape(weights, shape)
        weights = tf.broadcast_to(weights, tf.shape(a))
        total = tf.reduce_sum(weights, _axis(axis))
        result = tf.reduce_sum(a * weights, _axis(axis)) / total
    return (result, tf.broadcast_to(total, tf.shape(result))) if returned else result


def count_nonzero(a, axis=None) -> tf.Tensor:
    """The number of nonzero elements along `axis` (int64).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> int(tnp.count_nonzero([0, 1, 2, 0]))
        2
    """
    return tf.math.count_nonzero(asarray(a), _axis(axis), dtype=tf.int64)


def _cumulative(name: str, fn):
    def function(a, axis=None, dtype=None):
        a = asarray(a)
        target = _sum_dtype(a.dtype) if dtype is None else asarray(0, dtype).dtype
        if target is not None and target != a.dtype:
            a = tf.cast(a, target)
        if axis is None:
            a, axis = tf.reshape(a, [-1]), 0
        return fn(a, axis)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"NumPy's `{name}` of `a` along `axis` (of the flattened `a` when None); bools and "
        "small integers accumulate in int64.\n\n    Example:\n        >>> import tapeflow as "
        f"tf\n        >>> tf.experimental.numpy.{name}([1, 2, 3]).dtype\n        tf.int64\n")
    return function


FUNCTIONS["cumsum"] = _cumulative("cumsum", tf.cumsum)
FUNCTIONS["cumprod"] = _cumulative("cumprod", tf.math.cumprod)


def argmax(a, axis=None) -> tf.Tensor:
    """The index of the largest element along `axis` (of the flattened `a` when None).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> int(tnp.argmax([[1, 5], [7, 2]]))
        2
    """
    a = asarray(a)
    return tf.argmax(tf.reshape(a, [-1]) if axis is None else a, 0 if axis is None else axis)


def argmin(a, axis=None) -> tf.Tensor:
    """The index of the smallest element along `axis` (of the flattened `a` when None).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.argmin([[1, 5], [7, 2]], axis=1).numpy()
        array([0, 1])
    """
    a = asarray(a)
    return tf.argmin(tf.reshape(a, [-1]) if axis is None else a, 0 if axis is None else axis)
