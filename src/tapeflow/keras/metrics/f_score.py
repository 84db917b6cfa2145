"""F-scores: FBetaScore and F1Score, per class or averaged."""
from __future__ import annotations

from ... import math as tf_math
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops import array_ops, math_ops
from ..losses.base import EPSILON
from .base import Metric

__all__ = ["FBetaScore", "F1Score"]


class FBetaScore(Metric):
    """(1 + beta**2) * precision * recall / (beta**2 * precision + recall) of 2-D
    multi-class or multi-label data, per class or averaged.

    A prediction is positive where it is > `threshold`, or, with threshold None, where it
    is the highest of its row (and not 0).

    Args:
        average: None (one score per class), 'micro' (counts pooled over classes), 'macro'
            (the mean of the class scores) or 'weighted' (their mean weighted by each
            class's number of true labels).
        beta: a float > 0 (default 1.0).
        threshold: a float in (0, 1], or None.

    Raises:
        ValueError: an unknown `average`, a `beta` or `threshold` that is not a float in
            range, or inputs that are not 2-D.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.FBetaScore(beta=2.0, threshold=0.5, average="micro")
        >>> round(float(m([[1, 1, 0]], [[0.9, 0.2, 0.7]])), 4)      # p = r = 1/2
        0.5
    """

    def __init__(self, average: str | None = None, beta: float = 1.0, threshold=None,
                 name: str = "fbeta_score", dtype=None) -> None:
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, "
                             f"'micro', 'macro', 'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError("Invalid `beta` argument value. It should be a Python float. "
                             f"Received: beta={beta} of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: "
                             f"beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError("Invalid `threshold` argument value. It should be a Python "
                                 f"float. Received: threshold={threshold} of type "
                                 f"'{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError("Invalid `threshold` argument value. It should verify 0 < "
                                 f"threshold <= 1. Received: threshold={threshold}")
        self.average = average
        self.beta = beta
        self.threshold = threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, true_shape: list, pred_shape: list) -> None:
        if len(pred_shape) != 2 or len(true_shape) != 2:
            raise ValueError(f"{type(self).__name__} expects 2D inputs with shape (batch_size, "
                             f"output_dim). Received input shapes: y_pred.shape="
                             f"{tuple(pred_shape)} and y_true.shape={tuple(true_shape)}.")
        shape = () if self.average == "micro" else (pred_shape[-1],)
        self.true_positives = self.add_variable(shape, name="true_positives")
        self.false_positives = self.add_variable(shape, name="false_positives")
        self.false_negatives = self.add_variable(shape, name="false_negatives")
        self.intermediate_weights = self.add_variable(shape, name="intermediate_weights")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_true = math_ops.cast(convert_to_tensor(y_true), self._dtype)
        y_pred = math_ops.cast(convert_to_tensor(y_pred), self._dtype)
        if not self._built:
            self._build(y_true.shape.as_list(), y_pred.shape.as_list())
        if self.threshold is None:
            best = tf_math.reduce_max(y_pred, axis=-1, keepdims=True)
            positive = tf_math.logical_and(tf_math.greater_equal(y_pred, best),
                                           tf_math.greater(tf_math.abs(y_pred), 1e-9))
        else:
            positive = tf_math.greater(y_pred, self.threshold)
        y_pred = math_ops.cast(positive, self._dtype)
        weight = None if sample_weight is None else array_ops.expand_dims(
            math_ops.cast(convert_to_tensor(sample_weight), self._dtype), 1)

        def weighted_sum(values: Tensor) -> Tensor:
            return math_ops.reduce_sum(values if weight is None else values * weight,
                                       axis=self.axis)

        self.true_positives.assign_add(weighted_sum(y_pred * y_true))
        self.false_positives.assign_add(weighted_sum(y_pred * (1.0 - y_true)))
        self.false_negatives.assign_add(weighted_sum((1.0 - y_pred) * y_true))
        self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self) -> Tensor:
        tp = self.true_positives.read_value()
        precision = tp / (tp + self.false_positives + EPSILON)
        recall = tp / (tp + self.false_negatives + EPSILON)
        beta_squared = self.beta ** 2
        score = precision * recall / (beta_squared * precision + recall + EPSILON) \
            * (1.0 + beta_squared)
        if self.average == "weighted":
            weights = self.intermediate_weights.read_value()
            return math_ops.reduce_sum(score * weights / (math_ops.reduce_sum(weights)
                                                          + EPSILON))
        if self.average is not None:
            return math_ops.reduce_mean(score)
        return score

    def get_config(self) -> dict:
        return {**super().get_config(), "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    """FBetaScore with beta = 1: the harmonic mean of precision and recall.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.F1Score(threshold=0.5, average="micro")
        >>> round(float(m([[1, 1, 0]], [[0.9, 0.2, 0.7]])), 4)
        0.5
    """

    def __init__(self, average: str | None = None, threshold=None, name: str = "f1_score",
                 dtype=None) -> None:
        super().__init__(average, 1.0, threshold, name, dtype)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["beta"]
        return config
