"""Checks for NaN and Inf: the CheckNumerics op (`tf.debugging.check_numerics`), and the
check every op's output gets while `tf.debugging.enable_check_numerics` is on."""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import LINEAR, TRANSPARENT, define_op
from .op_util import as_input

__all__ = ["check_numerics", "assert_all_finite", "CheckNumerics", "bad_values"]

_ALLOWED = ("float16", "bfloat16", "float32", "float64")


def bad_values(value) -> list:
    """The kinds of non-finite entries in a float array: a sub-list of -Inf, +Inf, NaN."""
    found = []
    if np.isinf(value).any():
        found += [k for k, present in (("-Inf", (value == -np.inf).any()),
                                       ("+Inf", (value == np.inf).any())) if present]
    if np.isnan(value).any():
        found.append("NaN")
    return found


def _check_numerics(tensor, message):
    if tensor.dtype.name not in _ALLOWED:
        raise errors.InvalidArgumentError(
            None, "CheckNumerics", f"Value for attr 'T' of {tensor.dtype.name} is not in the "
            "list of allowed values: bfloat16, half, float, double")
    if np.isfinite(tensor).all():
        return tensor
    kinds = " and ".join(k for k, present in (("Inf", np.isinf(tensor).any()),
                                               ("NaN", np.isnan(tensor).any())) if present)
    raise errors.InvalidArgumentError(None, "CheckNumerics",
                                      f"{message} : Tensor had {kinds} values")


# An identity that checks when it runs, so LINEAR (a compiled plan must run it) with an
# identity's batching; its rule checks the gradient with this op, so it is handed tensors.
CheckNumerics = define_op("CheckNumerics", _check_numerics, grad_takes_tensors=True,
                          family=LINEAR, batching=TRANSPARENT)


def check_numerics(tensor, message, name=None):
    """`tensor` unchanged, after checking that it holds no NaN or Inf; its gradient is
    checked the same way.

    Args:
        tensor: a float16, bfloat16, float32 or float64 tensor.
        message: put before the error's text.

    Returns:
        `tensor`'s value.

    Raises:
        InvalidArgumentError: an entry is NaN or infinite (when the op runs), or another dtype.

    Example:
        >>> import tapeflow as tf
        >>> try:
        ...     tf.debugging.check_numerics(tf.constant([1.0, float("inf")]), "bad")
        ... except tf.errors.InvalidArgumentError as e:
        ...     print(e.message)
        bad : Tensor had Inf values
    """
    return execute(CheckNumerics, (as_input(tensor),), {"message": message})


def assert_all_finite(x, message, name=None):
    """`check_numerics(x, message)`: x unchanged after checking it holds no NaN or Inf.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.assert_all_finite(tf.constant([1.0]), "bad").numpy()
        array([1.], dtype=float32)
    """
    return check_numerics(x, message)
