"""tf.experimental.numpy.random: NumPy's random functions on tapeflow's global generator.

`seed(s)` seeds tapeflow's global random state (`tf.random.set_seed`); the functions
return float64 tensors by default, as NumPy's (float32 with prefer_float32).
"""
from __future__ import annotations

import tapeflow as tf

from .np_dtypes import as_tf_dtype, default_float_type


def seed(s) -> None:
    """Seeds the global random state.

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.random.seed(1)
    """
    tf.random.set_seed(int(s))


def _shape(size) -> list:
    if size is None:
        return []
    return [size] if isinstance(size, int) else list(size)


def standard_normal(size=None) -> tf.Tensor:
    """Samples of the standard normal distribution, of shape `size`."""
    return tf.random.normal(_shape(size), dtype=default_float_type())


def randn(*args) -> tf.Tensor:
    """Standard normal samples of shape `args`."""
    return standard_normal(args)


def uniform(low=0.0, high=1.0, size=None) -> tf.Tensor:
    """Samples uniform in [low, high), of shape `size`."""
    return tf.random.uniform(_shape(size), low, high, dtype=default_float_type())


def random(size=None) -> tf.Tensor:
    """Samples uniform in [0, 1), of shape `size`."""
    return uniform(size=size)


def rand(*size) -> tf.Tensor:
    """Samples uniform in [0, 1) of shape `size`."""
    return uniform(size=size)


def randint(low, high=None, size=None, dtype=int) -> tf.Tensor:
    """Integers uniform in [low, high) ([0, low) when `high` is None)."""
    if high is None:
        low, high = 0, low
    dtype = tf.int64 if dtype is int else as_tf_dtype(dtype)
    if not dtype.is_integer:
        raise ValueError(f"randint: dtype must be an integer type, got {dtype.name}")
    return tf.random.uniform(_shape(size), low, high, dtype=dtype)


def poisson(lam=1.0, size=None) -> tf.Tensor:
    """Samples of the Poisson distribution with rate `lam` (int64)."""
    return tf.random.poisson(_shape(size), lam, dtype=tf.int64)
