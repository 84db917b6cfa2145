"""tf.types.experimental: abstract base classes of tapeflow's functions, and `TensorLike`.

`isinstance(f, tf.types.experimental.GenericFunction)` is true of what `tf.function` returns,
`ConcreteFunction` of one of its traces, and `Callable` of both, as in TF; `TensorLike` is
the Union of what converts to a tensor, for annotations.

Example:
    >>> import tapeflow as tf
    >>> f = tf.function(lambda x: x + 1)
    >>> types = tf.types.experimental
    >>> isinstance(f, types.PolymorphicFunction), isinstance(f, types.Callable)
    (True, True)
    >>> cf = f.get_concrete_function(tf.TensorSpec([], tf.float32))
    >>> isinstance(cf, types.ConcreteFunction), isinstance(cf, types.GenericFunction)
    (True, False)
"""
from __future__ import annotations

import abc
import typing

import numpy as np

from ..eager import function as _function
from ..framework.tensor import Tensor

__all__ = ["Callable", "ConcreteFunction", "GenericFunction", "PolymorphicFunction",
           "TensorLike"]


class Callable(metaclass=abc.ABCMeta):
    """Base of the callables tapeflow makes from Python functions."""

    @abc.abstractmethod
    def __call__(self, *args, **kwargs):
        """Runs the function."""


class ConcreteFunction(Callable):
    """One trace of a function: a graph with fixed input signature."""


class PolymorphicFunction(Callable):
    """A function that traces a `ConcreteFunction` per input signature (`tf.function`)."""


GenericFunction = PolymorphicFunction  # TF's older name of the same type

ConcreteFunction.register(_function.ConcreteFunction)
PolymorphicFunction.register(_function.Function)

TensorLike = typing.Union[Tensor, int, float, bool, str, bytes, complex, tuple, list,
                          np.ndarray, np.generic]
