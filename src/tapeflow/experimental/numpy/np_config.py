"""`experimental_enable_numpy_behavior`: NumPy's methods on tapeflow's Tensor and the
dtype-conversion mode, process-wide."""
from __future__ import annotations

import numpy as np

import tapeflow as tf
from tapeflow.framework import promotion

from . import np_array_ops, np_dtypes, np_math


def _tolist(self):
    return self.numpy().tolist()


def _size(self):
    return None if not self.shape.is_fully_defined() else np_array_ops.size(self)


def _reshape(self, *shape, order="C"):
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    return np_array_ops.reshape(self, shape, order)


_OWN_GETITEM = tf.Tensor.__getitem__


def _is_advanced(item) -> bool:
    """Whether an index item is NumPy's advanced indexing: a sequence, an array or a
    non-scalar (or boolean) tensor."""
    if isinstance(item, (list, np.ndarray)):
        return True
    return isinstance(item, (tf.Tensor, tf.Variable)) and (item.shape.rank != 0 or
                                                          item.dtype == tf.bool)


def _getitem(self, key):
    """NumPy's indexing: with advanced items (lists, arrays, integer or boolean tensors) the
    result gathers the elements NumPy's rules select, so it keeps its gradient."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(_is_advanced(item) for item in items) or not self.shape.is_fully_defined():
        return _OWN_GETITEM(self, key)
    try:
        items = tuple(item.numpy() if isinstance(item, (tf.Tensor, tf.Variable)) else item
                      for item in items)
    except (AttributeError, NotImplementedError, TypeError):  # a graph's tensor
        return _OWN_GETITEM(self, key)
    positions = np.arange(np_array_ops.size(self)).reshape(self.shape.as_list())[items]
    return tf.gather(tf.reshape(self, [-1]), positions)


# The attributes NumPy behaviour gives tf.Tensor (those TF 2.21 adds; Variables get none).
NUMPY_METHODS = {
    "T": property(lambda self: np_array_ops.transpose(self)),
    "size": property(_size),
    "data": property(lambda self: self),
    "__pos__": lambda self: self,
    "__round__": np_math.around,
    "__getitem__": _getitem,
    "tolist": _tolist,
    "transpose": np_array_ops.transpose,
    "flatten": np_array_ops.flatten,
    "reshape": _reshape,
    "ravel": np_array_ops.ravel,
    "clip": np_math.clip,
    "astype": lambda self, dtype: tf.cast(self, np_dtypes.as_tf_dtype(dtype)),
    "max": np_math.FUNCTIONS["amax"],
    "mean": np_math.FUNCTIONS["mean"],
    "min": np_math.FUNCTIONS["amin"],
}


# The operators that promote their operands as NumPy does under the "legacy" mode, and the
# Tensor's own ("off") versions of them.
PROMOTING_OPERATORS = tuple(f"__{r}{name}__" for name in (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul") for r in ("", "r"))
_OWN_OPERATORS = {name: tf.Tensor.__dict__[name] for name in PROMOTING_OPERATORS}


def _numpy_promoting(operator):
    def promoted(self, other):
        try:
            dtype = np_dtypes.result_type(self, other)
        except (TypeError, ValueError):  # not NumPy data: the operator decides
            return operator(self, other)
        if isinstance(other, (tf.Tensor, tf.Variable)):
            other = other if other.dtype == dtype else tf.cast(other, dtype)
        else:
            other = tf.constant(np_dtypes._python_array(other), dtype)
        return operator(self if self.dtype == dtype else tf.cast(self, dtype), other)
    promoted.__name__ = promoted.__qualname__ = operator.__name__
    return promoted


_NUMPY_OPERATORS = {name: _numpy_promoting(op) for name, op in _OWN_OPERATORS.items()}


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Gives tapeflow's Tensors NumPy's methods and sets the dtype-conversion mode, for the
    whole process.

    Tensors gain `T`, `size`, `tolist`, `reshape`, `ravel`, `flatten`, `transpose`,
    `astype`, `clip`, `max`, `mean`, `min`, `data`, unary `+`, `round()` and NumPy's
    indexing (lists, arrays and integer or boolean tensors as indices). The mode
    decides what binary ops do with operands of different dtypes: "off" refuses them
    (tapeflow's default), "legacy" promotes them as NumPy does, "safe" and "all" follow
    TF's lattice of weak and strong dtypes, "safe" refusing promotions that may lose
    precision.

    Args:
        prefer_float32: whether Python floats count as float32 in the numpy namespace.
        dtype_conversion_mode: "off", "legacy", "safe" or "all".

    Raises:
        ValueError: an unknown mode.

    Example (not run as a doctest: the methods stay on Tensors for the rest of the process,
    as in TF; tests/experimental/test_numpy.py runs it with the class put back afterwards):
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.experimental_enable_numpy_behavior()  # doctest: +SKIP
        >>> tf.constant([[1, 2]]).T.shape  # doctest: +SKIP
        TensorShape([2, 1])
    """
    promotion.set_mode(dtype_conversion_mode)
    operators = _NUMPY_OPERATORS if dtype_conversion_mode == "legacy" else _OWN_OPERATORS
    for name, attribute in {**NUMPY_METHODS, **operators}.items():
        setattr(tf.Tensor, name, attribute)
    np_dtypes.set_prefer_float32(prefer_float32)
