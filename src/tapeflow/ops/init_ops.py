"""TF 2's top-level initializers (`tf.zeros_initializer` ...): callables `init(shape, dtype)`
returning a tensor, with `get_config`/`from_config`. A seeded random initializer draws the
same values at every call (stateless draws keyed by the seed); without a seed, new ones.
TF 1's forms (a dtype in the constructor) are in tf.compat.v1."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor, constant
from . import random_ops, stateless_random_ops
from .creation_ops import ones, zeros

__all__ = ["constant_initializer", "ones_initializer", "random_normal_initializer",
           "random_uniform_initializer", "zeros_initializer"]


class Initializer:
    """The base of TF 2's initializers: `__call__(shape, dtype=None, **kwargs)` and a
    config of the constructor's arguments."""

    def __call__(self, shape, dtype=None, **kwargs) -> Tensor:
        raise NotImplementedError

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Initializer":
        return cls(**config)


def _numeric(dtype) -> dtypes.DType:
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer or dtype.is_complex or dtype.is_bool) \
            or dtype.is_quantized:
        raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received "
                         f"{dtype}.")
    return dtype


class zeros_initializer(Initializer):  # noqa: N801  (TF's name)
    """Makes tensors of zeros.

    Example:
        >>> import tapeflow as tf
        >>> tf.zeros_initializer()([2], tf.int32).numpy()
        array([0, 0], dtype=int32)
    """

    def __call__(self, shape, dtype=dtypes.float32, **kwargs) -> Tensor:
        return zeros(shape, _numeric(dtype))


class ones_initializer(Initializer):  # noqa: N801
    """Makes tensors of ones.

    Example:
        >>> import tapeflow as tf
        >>> tf.ones_initializer()([2]).numpy()
        array([1., 1.], dtype=float32)
    """

    def __call__(self, shape, dtype=dtypes.float32, **kwargs) -> Tensor:
        return ones(shape, _numeric(dtype))


class constant_initializer(Initializer):  # noqa: N801
    """Makes tensors of `value`: a scalar fills the shape, a list or array of the shape's
    size is reshaped to it. Without a dtype the value's own is used.

    Raises:
        TypeError: a value that is not a number, a list, a tuple or an array; when called,
            a value whose size does not fit the shape.

    Example:
        >>> import tapeflow as tf
        >>> tf.constant_initializer([1, 2, 3, 4])([2, 2]).numpy()
        array([[1, 2],
               [3, 4]], dtype=int32)
    """

    def __init__(self, value=0, support_partition=False) -> None:
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__}. Expected "
                            f"Python scalar, list or tuple of values, or numpy.ndarray.")
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape, dtype=None, **kwargs) -> Tensor:
        return constant(self.value, None if dtype is None else dtypes.as_dtype(dtype),
                        shape=shape)

    def get_config(self) -> dict:
        return {"value": self.value}


class _RandomInitializer(Initializer):
    def __init__(self, seed) -> None:
        self.seed = seed

    def _seed(self):
        return None if self.seed is None else [int(self.seed), 0]


class random_normal_initializer(_RandomInitializer):  # noqa: N801
    """Draws from a normal distribution (TF 2's defaults: mean 0, stddev 0.05).

    Raises:
        ValueError: when called, a non-floating dtype.

    Example:
        >>> import tapeflow as tf
        >>> init = tf.random_normal_initializer(stddev=1.0, seed=7)
        >>> bool(tf.reduce_all(init([3]) == init([3])))
        True
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None) -> None:
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=dtypes.float32, **kwargs) -> Tensor:
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError(f"Argument `dtype` is expected to be floating point. Received: "
                             f"{dtype}.")
        if self.seed is None:
            return random_ops.normal(shape, self.mean, self.stddev, dtype)
        return stateless_random_ops.stateless_normal(shape, self._seed(), self.mean,
                                                     self.stddev, dtype)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class random_uniform_initializer(_RandomInitializer):  # noqa: N801
    """Draws uniformly from [minval, maxval) (TF 2's defaults: -0.05 and 0.05); integer
    dtypes draw integers.

    Raises:
        ValueError: when called, a dtype that is neither floating nor integer.

    Example:
        >>> import tapeflow as tf
        >>> tf.random_uniform_initializer(0, 10)([4], tf.int32).dtype
        tf.int32
    """

    def __init__(self, minval=-0.05, maxval=0.05, seed=None) -> None:
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=dtypes.float32, **kwargs) -> Tensor:
        dtype = dtypes.as_dtype(dtype)
        if not (dtype.is_floating or dtype.is_integer):
            raise ValueError(f"Argument `dtype` is expected to be floating point or integer. "
                             f"Received: {dtype}.")
        if self.seed is None:
            return random_ops.uniform(shape, self.minval, self.maxval, dtype)
        return stateless_random_ops.stateless_uniform(shape, self._seed(), self.minval,
                                                      self.maxval, dtype)

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}
