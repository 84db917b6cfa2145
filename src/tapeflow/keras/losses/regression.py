"""Regression losses: squared, absolute, percentage, logarithmic, Huber, log-cosh, cosine."""
from __future__ import annotations

from ... import math as tf_math
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops import math_ops, norm_ops
from .base import EPSILON, LossFunctionWrapper, _mean_last, _prepare, match_ranks, wrapper_class

__all__ = ["mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
           "mean_squared_logarithmic_error", "huber", "log_cosh", "cosine_similarity",
           "MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
           "MeanSquaredLogarithmicError", "Huber", "LogCosh", "CosineSimilarity"]


def mean_squared_error(y_true, y_pred) -> Tensor:
    """mean((y_pred - y_true) ** 2) over the last axis.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]]).numpy()
        array([0.5], dtype=float32)
    """
    y_true, y_pred = _prepare("mean_squared_error", y_true, y_pred)
    return _mean_last(math_ops.square(y_pred - y_true))


def mean_absolute_error(y_true, y_pred) -> Tensor:
    """mean(|y_pred - y_true|) over the last axis.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.mean_absolute_error([[0.0, 1.0]], [[2.0, 1.0]]).numpy()
        array([1.], dtype=float32)
    """
    y_true, y_pred = _prepare("mean_absolute_error", y_true, y_pred)
    return _mean_last(tf_math.abs(y_pred - y_true))


def mean_absolute_percentage_error(y_true, y_pred) -> Tensor:
    """100 * mean(|y_true - y_pred| / max(|y_true|, 1e-7)) over the last axis.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.mean_absolute_percentage_error([[2.0, 4.0]], [[1.0, 5.0]]).numpy()
        array([37.5], dtype=float32)
    """
    y_true, y_pred = _prepare("mean_absolute_percentage_error", y_true, y_pred)
    ratio = (y_true - y_pred) / math_ops.maximum(tf_math.abs(y_true), EPSILON)
    return 100.0 * _mean_last(tf_math.abs(ratio))


def mean_squared_logarithmic_error(y_true, y_pred) -> Tensor:
    """mean((log(max(y_pred, 1e-7) + 1) - log(max(y_true, 1e-7) + 1)) ** 2) over the last
    axis.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.mean_squared_logarithmic_error([[0.0]], [[1.718282]])
        >>> round(float(loss[0]), 5)
        1.0
    """
    y_true, y_pred = _prepare("mean_squared_logarithmic_error", y_true, y_pred)
    first = math_ops.log(math_ops.maximum(y_pred, EPSILON) + 1.0)
    second = math_ops.log(math_ops.maximum(y_true, EPSILON) + 1.0)
    return _mean_last(math_ops.square(first - second))


def huber(y_true, y_pred, delta: float = 1.0) -> Tensor:
    """Mean over the last axis of 0.5 * e**2 where |e| <= delta, else
    delta * |e| - 0.5 * delta**2 (e = y_pred - y_true), computed as 0.5 * q**2 +
    delta * (|e| - q) with q = min(|e|, delta).

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.huber([[0.0, 0.0]], [[0.5, 3.0]]).numpy()
        array([1.3125], dtype=float32)
    """
    y_true, y_pred = _prepare("huber_loss", y_true, y_pred)
    abs_error = tf_math.abs(y_pred - y_true)
    quadratic = tf_math.minimum(abs_error, delta)
    linear = abs_error - quadratic
    return _mean_last(0.5 * math_ops.square(quadratic) + delta * linear)


def log_cosh(y_true, y_pred) -> Tensor:
    """mean(log(cosh(y_pred - y_true))) over the last axis, computed without overflow as
    x + softplus(-2x) - log(2).

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.losses.log_cosh([[0.0]], [[1.0]])[0]), 5)
        0.43378
    """
    y_true, y_pred = _prepare("log_cosh", y_true, y_pred)
    error = y_pred - y_true
    return _mean_last(error + tf_math.softplus(-2.0 * error) - 0.6931471805599453)


def cosine_similarity(y_true, y_pred, axis: int = -1) -> Tensor:
    """-sum(l2_normalize(y_true) * l2_normalize(y_pred)) over `axis`: -1 for vectors that
    point the same way, 0 for orthogonal ones (a norm below 1e-7 counts as 1e-7).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.cosine_similarity([[1.0, 0.0], [1.0, 1.0]],
        ...                                   [[2.0, 0.0], [-1.0, 1.0]]).numpy()
        array([-1., -0.], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = match_ranks(y_true, y_pred)
    y_true = norm_ops.l2_normalize(y_true, axis=axis, epsilon=EPSILON ** 2)
    y_pred = norm_ops.l2_normalize(y_pred, axis=axis, epsilon=EPSILON ** 2)
    return -math_ops.reduce_sum(y_true * y_pred, axis=axis)


MeanSquaredError = wrapper_class(
    "MeanSquaredError", mean_squared_error, "mean_squared_error", "Mean of squared errors.",
    "        >>> float(tf.keras.losses.MeanSquaredError()([[0.0, 1.0], [0.0, 0.0]],\n"
    "        ...                                          [[1.0, 1.0], [1.0, 0.0]]))\n"
    "        0.5\n")
MeanAbsoluteError = wrapper_class(
    "MeanAbsoluteError", mean_absolute_error, "mean_absolute_error", "Mean of absolute errors.",
    "        >>> float(tf.keras.losses.MeanAbsoluteError()([[0.0, 1.0]], [[2.0, 1.0]]))\n"
    "        1.0\n")
MeanAbsolutePercentageError = wrapper_class(
    "MeanAbsolutePercentageError", mean_absolute_percentage_error,
    "mean_absolute_percentage_error", "Mean absolute error in percent of |y_true|.",
    "        >>> float(tf.keras.losses.MeanAbsolutePercentageError()([[2.0]], [[1.0]]))\n"
    "        50.0\n")
MeanSquaredLogarithmicError = wrapper_class(
    "MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error", "Mean squared error of log(1 + y).",
    "        >>> float(tf.keras.losses.MeanSquaredLogarithmicError()([[0.0]], [[0.0]]))\n"
    "        0.0\n")
LogCosh = wrapper_class(
    "LogCosh", log_cosh, "log_cosh", "Mean of log(cosh(error)): quadratic near 0, linear far.",
    "        >>> round(float(tf.keras.losses.LogCosh()([[0.0]], [[1.0]])), 5)\n"
    "        0.43378\n")


class Huber(LossFunctionWrapper):
    """Quadratic for errors up to `delta`, linear beyond (see `huber`).

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.losses.Huber(delta=1.0)([[0.0, 0.0]], [[0.5, 3.0]]))
        1.3125
    """

    def __init__(self, delta: float = 1.0, reduction: str | None = "sum_over_batch_size",
                 name: str = "huber_loss", dtype=None) -> None:
        super().__init__(huber, reduction, name, dtype, delta=delta)


class CosineSimilarity(LossFunctionWrapper):
    """Negative cosine similarity along `axis` (see `cosine_similarity`).

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.losses.CosineSimilarity()([[0.0, 1.0]], [[0.0, 3.0]]))
        -1.0
    """

    def __init__(self, axis: int = -1, reduction: str | None = "sum_over_batch_size",
                 name: str = "cosine_similarity", dtype=None) -> None:
        super().__init__(cosine_similarity, reduction, name, dtype, axis=axis)
