"""Margin and overlap losses: hinge, squared hinge, categorical hinge, Dice, Tversky."""
from __future__ import annotations

from ... import math as tf_math
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops import math_ops
from ...ops.indexing_ops import where
from .base import EPSILON, LossFunctionWrapper, _mean_last, _prepare, wrapper_class

__all__ = ["hinge", "squared_hinge", "categorical_hinge", "dice", "tversky", "Hinge",
           "SquaredHinge", "CategoricalHinge", "Dice", "Tversky"]


def _signed_labels(y_true: Tensor) -> Tensor:
    """Labels that are all 0 or 1 become -1 or 1; other labels are kept as they are."""
    binary = tf_math.reduce_all(tf_math.logical_or(tf_math.equal(y_true, 0.0),
                                                    tf_math.equal(y_true, 1.0)))
    return where(binary, 2.0 * y_true - 1.0, y_true)


def _margins(fn_name: str, y_true, y_pred) -> Tensor:
    y_true, y_pred = _prepare(fn_name, y_true, y_pred)
    return math_ops.maximum(1.0 - _signed_labels(y_true) * y_pred, 0.0)


def hinge(y_true, y_pred) -> Tensor:
    """mean(max(1 - y_true * y_pred, 0)) over the last axis; labels of 0 and 1 are taken as
    -1 and 1.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.hinge([[0.0, 1.0]], [[0.5, 0.5]]).numpy()
        array([1.], dtype=float32)
    """
    return _mean_last(_margins("hinge", y_true, y_pred))


def squared_hinge(y_true, y_pred) -> Tensor:
    """mean(max(1 - y_true * y_pred, 0) ** 2) over the last axis; labels of 0 and 1 are
    taken as -1 and 1.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.squared_hinge([[0.0, 1.0]], [[0.5, 0.5]]).numpy()
        array([1.25], dtype=float32)
    """
    return _mean_last(math_ops.square(_margins("squared_hinge", y_true, y_pred)))


def categorical_hinge(y_true, y_pred) -> Tensor:
    """max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0) over the last axis,
    for one-hot y_true: the best wrong score must trail the right one by a margin of 1.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.categorical_hinge([[0.0, 1.0]], [[0.3, 0.8]]).numpy()
        array([0.5], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    positive = math_ops.reduce_sum(y_true * y_pred, axis=-1)
    negative = tf_math.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return math_ops.maximum(negative - positive + 1.0, 0.0)


def dice(y_true, y_pred, axis=None) -> Tensor:
    """1 - 2 * sum(y_true * y_pred) / (sum(y_true) + sum(y_pred) + 1e-7), the sums over
    `axis` (every axis when None, giving one scalar).

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.losses.dice([[1.0, 0.0]], [[1.0, 1.0]])), 5)
        0.33333
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    intersection = math_ops.reduce_sum(y_true * y_pred, axis=axis)
    total = math_ops.reduce_sum(y_true, axis=axis) + math_ops.reduce_sum(y_pred, axis=axis)
    return 1.0 - 2.0 * intersection / (total + EPSILON)



def tversky(y_true, y_pred, alpha: float = 0.5, beta: float = 0.5, axis=None) -> Tensor:
    """1 - tp / (tp + alpha * fp + beta * fn), with the soft counts tp = sum(y_true * y_pred),
    fp = sum(y_true * (1 - y_pred)) and fn = sum((1 - y_true) * y_pred) over `axis` (every
    axis when None), as Keras computes them; alpha = beta = 0.5 is the Dice loss.

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.losses.tversky([[1.0, 0.0]], [[1.0, 1.0]], beta=1.0)), 5)
        0.5
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    intersection = math_ops.reduce_sum(y_true * y_pred, axis=axis)
    false_positives = math_ops.reduce_sum((1.0 - y_pred) * y_true, axis=axis)
    false_negatives = math_ops.reduce_sum(y_pred * (1.0 - y_true), axis=axis)
    return 1.0 - intersection / (intersection + alpha * false_positives
                                 + beta * false_negatives + EPSILON)


Hinge = wrapper_class(
    "Hinge", hinge, "hinge", "Hinge loss of -1/1 (or 0/1) labels and scores.",
    "        >>> float(tf.keras.losses.Hinge()([[1.0], [0.0]], [[2.0], [0.5]]))\n"
    "        0.75\n")
SquaredHinge = wrapper_class(
    "SquaredHinge", squared_hinge, "squared_hinge", "Squared hinge loss.",
    "        >>> float(tf.keras.losses.SquaredHinge()([[1.0], [0.0]], [[2.0], [0.5]]))\n"
    "        1.125\n")
CategoricalHinge = wrapper_class(
    "CategoricalHinge", categorical_hinge, "categorical_hinge",
    "Hinge loss of one-hot labels and class scores.",
    "        >>> round(float(tf.keras.losses.CategoricalHinge()([[0.0, 1.0]], [[0.3, 0.8]])), 4)\n"
    "        0.5\n")


class Dice(LossFunctionWrapper):
    """1 - the Dice coefficient of y_true and y_pred (see `dice`).

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.losses.Dice()([[1.0, 0.0]], [[1.0, 0.0]])), 5)
        0.0
    """

    def __init__(self, reduction: str | None = "sum_over_batch_size", name: str = "dice",
                 axis=None, dtype=None) -> None:
        super().__init__(dice, reduction, name, dtype, axis=axis)


class Tversky(LossFunctionWrapper):
    """1 - the Tversky index of y_true and y_pred (see `tversky`).

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.losses.Tversky(alpha=0.3, beta=0.7)([[1.0, 0.0]],
        ...                                                          [[1.0, 0.0]])), 5)
        0.0
    """

    def __init__(self, alpha: float = 0.5, beta: float = 0.5,
                 reduction: str | None = "sum_over_batch_size", name: str = "tversky",
                 axis=None, dtype=None) -> None:
        super().__init__(tversky, reduction, name, dtype, alpha=alpha, beta=beta, axis=axis)
