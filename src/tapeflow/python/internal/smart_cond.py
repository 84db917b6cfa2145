"""`tf.__internal__.smart_cond`: a conditional decided while the code is built when it can."""
from __future__ import annotations

from ...framework.tensor import Tensor
from ...framework.variables import Variable
from ...ops.array_ops import get_static_value

__all__ = ["smart_cond"]


def smart_cond(pred, true_fn=None, false_fn=None, name=None):
    """`true_fn()` or `false_fn()` chosen now when `pred`'s value is known (a Python bool,
    an eager tensor, a graph constant), else a `tf.cond` on it.

    Args:
        pred: a scalar boolean tensor, a Python bool, or 1 or 0.
        true_fn, false_fn: functions of no arguments.
        name: the `tf.cond`'s name, when one is built.

    Returns:
        What the chosen function returns.

    Raises:
        TypeError: `pred` is none of the above, or a function is not callable.

    Example:
        >>> import tapeflow as tf
        >>> tf.__internal__.smart_cond.smart_cond(True, lambda: 1, lambda: 2)
        1
        >>> @tf.function
        ... def f(flag):
        ...     return tf.__internal__.smart_cond.smart_cond(flag, lambda: 1.0, lambda: 2.0)
        >>> float(f(tf.constant(False)))
        2.0
    """
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("smart_cond: true_fn and false_fn must be callable")
    if isinstance(pred, (Tensor, Variable)):
        value = get_static_value(pred)
        if value is None:
            from ...eager.control_flow import cond
            return cond(pred, true_fn, false_fn, name=name)
        pred = bool(value)
    elif pred not in (True, False, 1, 0) or not isinstance(pred, (bool, int)):
        raise TypeError(f"smart_cond: pred must be a Tensor, or a Python bool, or 1 or 0. "
                        f"Found instead: {type(pred).__name__}")
    return true_fn() if pred else false_fn()
