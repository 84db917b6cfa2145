"""`register_tensor_conversion_function`: teaches `convert_to_tensor` (and so every op) to
convert objects of a user's type."""
from __future__ import annotations

import numbers

import numpy as np

from .tensor import _OVERRIDES, CONVERSION_FUNCTIONS

__all__ = ["register_tensor_conversion_function"]

_PRIORITIES: dict = {}


def register_tensor_conversion_function(base_type, conversion_func, priority=100) -> None:
    """Makes `convert_to_tensor` (and every op's input conversion) call
    `conversion_func(value, dtype=None, name=None, as_ref=False)` for instances of
    `base_type`; it returns a tensor, or NotImplemented to let the next function try.
    Lower priorities are tried first.

    Args:
        base_type: a type or tuple of types.
        conversion_func: the function.
        priority: the order among functions for one value (default 100).

    Raises:
        TypeError: `base_type` is a Python number or NumPy type, or `conversion_func` is
            not callable.

    Example:
        >>> import tapeflow as tf
        >>> class Meters:
        ...     def __init__(self, value):
        ...         self.value = value
        >>> tf.register_tensor_conversion_function(
        ...     Meters, lambda m, dtype=None, name=None, as_ref=False: tf.constant(m.value, dtype))
        >>> float(tf.add(Meters(2.0), 1.0))
        3.0
    """
    types = base_type if isinstance(base_type, tuple) else (base_type,)
    if any(not isinstance(t, type) for t in types):
        raise TypeError(f"base_type must be a type or a tuple of types, got {base_type!r}")
    if any(issubclass(t, (numbers.Number, np.ndarray, np.generic)) for t in types):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy "
                        "scalars and arrays.")
    if not callable(conversion_func):
        raise TypeError(f"conversion_func must be callable, got {conversion_func!r}")
    _PRIORITIES[(base_type, conversion_func)] = (priority, len(_PRIORITIES))
    CONVERSION_FUNCTIONS[:] = sorted(_PRIORITIES, key=_PRIORITIES.get)
    _OVERRIDES.clear()
