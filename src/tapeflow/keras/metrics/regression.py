"""Regression metrics: mean errors, root mean squared error, cosine similarity, log-cosh
and the coefficient of determination R2."""
from __future__ import annotations

from ... import math as tf_math
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops import array_ops, creation_ops, math_ops
from ...ops.indexing_ops import where
from .. import losses
from ..losses.base import match_ranks
from .base import Mean, Metric, MeanMetricWrapper, wrapper_class

__all__ = ["cosine_similarity", "MeanSquaredError", "MeanAbsoluteError",
           "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError",
           "RootMeanSquaredError", "CosineSimilarity", "LogCoshError", "R2Score"]


def cosine_similarity(y_true, y_pred, axis: int = -1) -> Tensor:
    """sum(l2_normalize(y_true) * l2_normalize(y_pred)) over `axis`: 1 for vectors that
    point the same way (the negative of the loss of that name).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.metrics.CosineSimilarity()([[0.0, 1.0]], [[0.0, 2.0]]).numpy()
        np.float32(1.0)
    """
    return -losses.cosine_similarity(y_true, y_pred, axis)


MeanSquaredError = wrapper_class(
    "MeanSquaredError", losses.mean_squared_error, "mean_squared_error",
    "The mean squared error over every example given.",
    "        >>> float(tf.keras.metrics.MeanSquaredError()([[0.0, 1.0]], [[1.0, 1.0]]))\n"
    "        0.5\n", __name__)
MeanAbsoluteError = wrapper_class(
    "MeanAbsoluteError", losses.mean_absolute_error, "mean_absolute_error",
    "The mean absolute error over every example given.",
    "        >>> float(tf.keras.metrics.MeanAbsoluteError()([[0.0, 1.0]], [[2.0, 1.0]]))\n"
    "        1.0\n", __name__)
MeanAbsolutePercentageError = wrapper_class(
    "MeanAbsolutePercentageError", losses.mean_absolute_percentage_error,
    "mean_absolute_percentage_error", "The mean absolute error in percent of |y_true|.",
    "        >>> float(tf.keras.metrics.MeanAbsolutePercentageError()([[2.0]], [[1.0]]))\n"
    "        50.0\n", __name__)
MeanSquaredLogarithmicError = wrapper_class(
    "MeanSquaredLogarithmicError", losses.mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error", "The mean squared error of log(1 + y).",
    "        >>> float(tf.keras.metrics.MeanSquaredLogarithmicError()([[0.0]], [[0.0]]))\n"
    "        0.0\n", __name__)
LogCoshError = wrapper_class(
    "LogCoshError", losses.log_cosh, "logcosh", "The mean of log(cosh(y_pred - y_true)).",
    "        >>> round(float(tf.keras.metrics.LogCoshError()([[0.0]], [[1.0]])), 5)\n"
    "        0.43378\n", __name__)


class CosineSimilarity(MeanMetricWrapper):
    """The mean cosine similarity of y_true and y_pred along `axis`.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.metrics.CosineSimilarity()([[0.0, 1.0], [1.0, 0.0]],
        ...                                           [[0.0, 3.0], [0.0, 1.0]]))
        0.5
    """

    def __init__(self, name: str = "cosine_similarity", dtype=None, axis: int = -1) -> None:
        super().__init__(cosine_similarity, name, dtype, axis=axis)

    def get_config(self) -> dict:
        return Metric.get_config(self)      # Keras leaves `axis` out


class RootMeanSquaredError(Mean):
    """sqrt of the mean squared error over every example given.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.metrics.RootMeanSquaredError()([[0.0, 0.0]], [[3.0, 4.0]]))
        3.535533905029297
    """

    def __init__(self, name: str = "root_mean_squared_error", dtype=None) -> None:
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_true = math_ops.cast(convert_to_tensor(y_true), self._dtype)
        y_pred = math_ops.cast(convert_to_tensor(y_pred), self._dtype)
        y_true, y_pred = match_ranks(y_true, y_pred)
        super().update_state(math_ops.square(y_pred - y_true), sample_weight)

    def result(self) -> Tensor:
        return math_ops.sqrt(super().result())


class R2Score(Metric):
    """The coefficient of determination, 1 - residual sum of squares / total sum of
    squares, per output column of 2-D data, then aggregated.

    Args:
        class_aggregation: 'uniform_average' (the mean over columns, default),
            'variance_weighted_average' (weighted by each column's total sum of squares) or
            None (one score per column).
        num_regressors: p > 0 gives the adjusted score 1 - (1 - R2)(n - 1)/(n - p - 1),
            n the number of values seen (unless n - 1 <= p).

    Raises:
        ValueError: an unknown aggregation, num_regressors < 0, or inputs not 2-D.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.R2Score()
        >>> float(m([[1.0], [2.0], [3.0]], [[1.0], [2.0], [4.0]]))
        0.5
    """

    def __init__(self, class_aggregation: str | None = "uniform_average",
                 num_regressors: int = 0, name: str = "r2_score", dtype=None) -> None:
        super().__init__(name=name, dtype=dtype)
        choices = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in choices:
            raise ValueError("Invalid value for argument `class_aggregation`. Expected one "
                             f"of {choices}. Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value "
                             f">= 0. Received: num_regressors={num_regressors}")
        self.class_aggregation = class_aggregation
        self.num_regressors = num_regressors
        self.num_samples = self.add_variable(name="num_samples")
        self._built = False

    def _build(self, true_shape: list, pred_shape: list) -> None:
        if len(pred_shape) != 2 or len(true_shape) != 2:
            raise ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim). "
                             f"Received input shapes: y_pred.shape={tuple(pred_shape)} and "
                             f"y_true.shape={tuple(true_shape)}.")
        columns = [pred_shape[-1]]
        self.squared_sum = self.add_variable(columns, name="squared_sum")
        self.sum = self.add_variable(columns, name="sum")
        self.total_mse = self.add_variable(columns, name="residual")
        self.count = self.add_variable(columns, name="count")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_true = math_ops.cast(convert_to_tensor(y_true), self._dtype)
        y_pred = math_ops.cast(convert_to_tensor(y_pred), self._dtype)
        y_true, y_pred = match_ranks(y_true, y_pred)
        if not self._built:
            self._build(y_true.shape.as_list(), y_pred.shape.as_list())
        weight = math_ops.cast(convert_to_tensor(1.0 if sample_weight is None
                                                 else sample_weight), self._dtype)
        if weight.ndim == 1:
            weight = array_ops.expand_dims(weight, 1)
        weight = array_ops.broadcast_to(weight, array_ops.shape(y_true))
        weighted = y_true * weight
        self.sum.assign_add(math_ops.reduce_sum(weighted, axis=0))
        self.squared_sum.assign_add(math_ops.reduce_sum(y_true * weighted, axis=0))
        self.total_mse.assign_add(math_ops.reduce_sum(
            math_ops.square(y_true - y_pred) * weight, axis=0))
        self.count.assign_add(math_ops.reduce_sum(weight, axis=0))
        self.num_samples.assign_add(math_ops.cast(array_ops.size(y_true), self._dtype))

    def result(self) -> Tensor:
        total_sum = self.sum.read_value()
        total = self.squared_sum - total_sum * (total_sum / self.count)
        raw = 1.0 - self.total_mse / total
        raw = where(tf_math.is_inf(raw), creation_ops.zeros_like(raw), raw)
        if self.class_aggregation == "uniform_average":
            score = math_ops.reduce_mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = math_ops.reduce_sum(total * raw) / math_ops.reduce_sum(total)
        else:
            score = raw
        if not self.num_regressors:
            return score
        n, p = self.num_samples.read_value(), float(self.num_regressors)
        adjusted = 1.0 - (1.0 - score) * (n - 1.0) / (n - p - 1.0)
        return where(tf_math.greater(n - 1.0, p), adjusted, score)

    def get_config(self) -> dict:
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
