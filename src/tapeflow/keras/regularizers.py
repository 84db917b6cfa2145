"""keras.regularizers: penalties on weights (or layer outputs) that layers add to their losses.

A layer given `kernel_regularizer=tf.keras.regularizers.l2(0.01)` adds `0.01 *
sum(kernel ** 2)` to `layer.losses` (computed afresh each time `losses` is read, so a tape
sees it), and `fit` adds `model.losses` to the compiled loss. An `activity_regularizer`
penalises a layer's outputs on each call, divided by the batch size.
"""
from __future__ import annotations

import math

from ..ops import math_ops
from .naming import by_name

__all__ = ["Regularizer", "L1", "L2", "L1L2", "l1", "l2", "l1_l2", "get", "serialize"]


def _penalty(value, name: str) -> float:
    """`value` as a float.

    Raises:
        ValueError: not a finite number.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value):
        raise ValueError(f"Invalid value for argument {name}: expected a finite float, "
                         f"received {name}={value!r}")
    return float(value)


class Regularizer:
    """Base class: `regularizer(weight)` returns a scalar penalty; subclasses implement
    `__call__` and `get_config`."""

    def __call__(self, x):
        return 0.0

    def get_config(self) -> dict:
        raise NotImplementedError(f"{type(self).__name__} does not implement get_config()")

    @classmethod
    def from_config(cls, config: dict) -> "Regularizer":
        return cls(**config)


class L1L2(Regularizer):
    """`l1 * sum(|x|) + l2 * sum(x ** 2)`.

    Args:
        l1, l2: the factors (default 0.0 each).

    Raises:
        ValueError: a factor that is not a finite number.

    Example:
        >>> import tapeflow as tf
        >>> reg = tf.keras.regularizers.L1L2(l1=0.1, l2=0.5)
        >>> round(float(reg(tf.constant([1.0, -2.0]))), 4)     # 0.1 * 3 + 0.5 * 5
        2.8
    """

    def __init__(self, l1=0.0, l2=0.0) -> None:
        self.l1 = _penalty(0.0 if l1 is None else l1, "l1")
        self.l2 = _penalty(0.0 if l2 is None else l2, "l2")

    def __call__(self, x):
        penalty = 0.0
        if self.l1:
            penalty = self.l1 * math_ops.reduce_sum(math_ops.abs(x))
        if self.l2:
            penalty = penalty + self.l2 * math_ops.reduce_sum(math_ops.square(x))
        return penalty

    def get_config(self) -> dict:
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    """`l1 * sum(|x|)`.

    Args:
        l1: the factor (default 0.01).

    Raises:
        ValueError: a factor that is not a finite number.

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.regularizers.L1(0.1)(tf.constant([1.0, -2.0]))), 4)
        0.3
    """

    def __init__(self, l1=0.01) -> None:
        super().__init__(l1=l1)

    def get_config(self) -> dict:
        return {"l1": self.l1}


class L2(L1L2):
    """`l2 * sum(x ** 2)` (no factor 1/2, as in Keras).

    Args:
        l2: the factor (default 0.01).

    Raises:
        ValueError: a factor that is not a finite number.

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.regularizers.L2(0.1)(tf.constant([1.0, -2.0]))), 4)
        0.5
    """

    def __init__(self, l2=0.01) -> None:
        super().__init__(l2=l2)

    def get_config(self) -> dict:
        return {"l2": self.l2}


def l1_l2(l1=0.01, l2=0.01) -> L1L2:
    """An L1L2 regularizer with both factors (default 0.01 each).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.regularizers.l1_l2().get_config()
        {'l1': 0.01, 'l2': 0.01}
    """
    return L1L2(l1=l1, l2=l2)


l1 = L1
l2 = L2

_BY_NAME = {"l1": L1, "l2": L2, "l1_l2": l1_l2, "L1": L1, "L2": L2, "L1L2": L1L2}


def get(identifier):
    """A regularizer from a name ('l1', 'l2', 'l1_l2'), a {'class_name', 'config'} dict, a
    Regularizer or a callable; None stays None.

    Raises:
        ValueError: an unknown name or something that is not a regularizer.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.regularizers.get("l2").get_config()
        {'l2': 0.01}
    """
    if identifier is None or callable(identifier):
        return identifier
    if isinstance(identifier, str):
        return by_name("regularizer", identifier, _BY_NAME)()
    if isinstance(identifier, dict) and "class_name" in identifier:
        cls = by_name("regularizer", identifier["class_name"], _BY_NAME)
        return cls(**identifier.get("config", {}))
    raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}")


def serialize(regularizer):
    """Keras 3's {'module', 'class_name', 'config', 'registered_name'} of a regularizer
    (None stays None)."""
    if regularizer is None:
        return None
    return {"module": "keras.regularizers", "class_name": type(regularizer).__name__,
            "config": regularizer.get_config(), "registered_name": None}
