"""Correlation metrics: Pearson's and Lin's concordance correlation, per example along an
axis, averaged over the examples."""
from __future__ import annotations

from ... import math as tf_math
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops import math_ops
from ..losses.base import EPSILON, match_ranks
from .base import MeanMetricWrapper

__all__ = ["pearson_correlation", "concordance_correlation", "PearsonCorrelation",
           "ConcordanceCorrelation"]


def _prepared(y_true, y_pred) -> tuple:
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    return match_ranks(y_true, y_pred)


def pearson_correlation(y_true, y_pred, axis: int = -1) -> Tensor:
    """Pearson's correlation of y_true and y_pred along `axis`: the mean product of their
    standardized values (population standard deviations).

    Example:
        >>> import tapeflow as tf
        >>> r = tf.keras.metrics.pearson_correlation([[1.0, 2.0, 3.0]], [[2.0, 4.0, 7.0]])
        >>> round(float(r[0]), 5)
        0.9934
    """
    y_true, y_pred = _prepared(y_true, y_pred)
    y_true = y_true - math_ops.reduce_mean(y_true, axis=axis, keepdims=True)
    y_pred = y_pred - math_ops.reduce_mean(y_pred, axis=axis, keepdims=True)
    y_true = y_true / tf_math.reduce_std(y_true, axis=axis, keepdims=True)
    y_pred = y_pred / tf_math.reduce_std(y_pred, axis=axis, keepdims=True)
    return math_ops.reduce_mean(y_true * y_pred, axis=axis)


def concordance_correlation(y_true, y_pred, axis: int = -1) -> Tensor:
    """Lin's concordance correlation along `axis`, as Keras computes it:
    mean(2 * (y_true - mean(y_pred)) * (y_pred - mean(y_pred)) / (var(y_true) +
    var(y_pred) + (mean(y_true) - mean(y_pred))**2 + 1e-7)).

    Example:
        >>> import tapeflow as tf
        >>> c = tf.keras.metrics.concordance_correlation([[1.0, 2.0, 3.0]], [[1.0, 2.0, 4.0]])
        >>> round(float(c[0]), 5)
        0.85714
    """
    y_true, y_pred = _prepared(y_true, y_pred)
    true_mean = math_ops.reduce_mean(y_true, axis=axis, keepdims=True)
    pred_mean = math_ops.reduce_mean(y_pred, axis=axis, keepdims=True)
    true_var = tf_math.reduce_variance(y_true - true_mean, axis=axis, keepdims=True)
    pred_var = tf_math.reduce_variance(y_pred - pred_mean, axis=axis, keepdims=True)
    covariance = (y_true - pred_mean) * (y_pred - pred_mean)
    norm = true_var + pred_var + math_ops.square(true_mean - pred_mean)
    return math_ops.reduce_mean(2.0 * covariance / (norm + EPSILON), axis=axis)


class PearsonCorrelation(MeanMetricWrapper):
    """The mean over examples of `pearson_correlation` along `axis`.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.PearsonCorrelation()
        >>> round(float(m([[1.0, 2.0, 3.0]], [[3.0, 2.0, 1.0]])), 4)
        -1.0
    """

    def __init__(self, name: str = "pearson_correlation", dtype=None, axis: int = -1) -> None:
        super().__init__(pearson_correlation, name, dtype, axis=axis)


class ConcordanceCorrelation(MeanMetricWrapper):
    """The mean over examples of `concordance_correlation` along `axis`.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.ConcordanceCorrelation()
        >>> round(float(m([[1.0, 2.0, 3.0]], [[1.0, 2.0, 3.0]])), 4)
        1.0
    """

    def __init__(self, name: str = "concordance_correlation", dtype=None,
                 axis: int = -1) -> None:
        super().__init__(concordance_correlation, name, dtype, axis=axis)
