"""keras.metrics: running statistics kept in non-trainable Variables, with Keras 3's
formulas, names and configs.

`update_state` accumulates, `result` reads, `reset_state` zeroes; calling a metric updates
it and returns the result. `get` (and `Model.compile`) accept a metric object, a function,
a class name ('AUC') or its snake-case name ('auc', 'top_k_categorical_accuracy').
"""
from ...module import camel_to_snake
from .. import losses as _losses
from ..losses import (binary_crossentropy, binary_focal_crossentropy, categorical_crossentropy,
                      categorical_focal_crossentropy, categorical_hinge, hinge, huber,
                      kl_divergence, log_cosh, mean_absolute_error,
                      mean_absolute_percentage_error, mean_squared_error,
                      mean_squared_logarithmic_error, poisson, sparse_categorical_crossentropy,
                      squared_hinge)
from ..naming import by_name
from .accuracy import (Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
                       SparseTopKCategoricalAccuracy, TopKCategoricalAccuracy, accuracy,
                       binary_accuracy, categorical_accuracy, sparse_categorical_accuracy,
                       sparse_top_k_categorical_accuracy, top_k_categorical_accuracy)
from .base import Mean, MeanMetricWrapper, Metric, Sum
from .confusion import (AUC, FalseNegatives, FalsePositives, Precision, PrecisionAtRecall,
                        Recall, RecallAtPrecision, SensitivityAtSpecificity,
                        SpecificityAtSensitivity, TrueNegatives, TruePositives)
from .correlation import (ConcordanceCorrelation, PearsonCorrelation, concordance_correlation,
                          pearson_correlation)
from .f_score import F1Score, FBetaScore
from .iou import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU
from .probabilistic import (BinaryCrossentropy, CategoricalCrossentropy, CategoricalHinge, Hinge,
                            KLDivergence, Poisson, SparseCategoricalCrossentropy, SquaredHinge)
from .regression import (CosineSimilarity, LogCoshError, MeanAbsoluteError,
                         MeanAbsolutePercentageError, MeanSquaredError,
                         MeanSquaredLogarithmicError, R2Score, RootMeanSquaredError)

mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = _losses.logcosh

_CLASSES = {cls.__name__: cls for cls in (
    Mean, Sum, Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
    TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy, AUC, Precision, Recall,
    TruePositives, TrueNegatives, FalsePositives, FalseNegatives, PrecisionAtRecall,
    RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity, F1Score, FBetaScore,
    IoU, MeanIoU, BinaryIoU, OneHotIoU, OneHotMeanIoU, BinaryCrossentropy, CategoricalCrossentropy,
    SparseCategoricalCrossentropy, KLDivergence, Poisson, Hinge, SquaredHinge, CategoricalHinge,
    CosineSimilarity, LogCoshError, MeanAbsoluteError, MeanAbsolutePercentageError,
    MeanSquaredError, MeanSquaredLogarithmicError, R2Score, RootMeanSquaredError,
    PearsonCorrelation, ConcordanceCorrelation)}
_BY_NAME = {camel_to_snake(name): cls for name, cls in _CLASSES.items()}
_BY_NAME.update({"acc": Accuracy, "mse": MeanSquaredError, "MSE": MeanSquaredError,
                 "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError,
                 "mape": MeanAbsolutePercentageError, "MAPE": MeanAbsolutePercentageError,
                 "msle": MeanSquaredLogarithmicError, "MSLE": MeanSquaredLogarithmicError})

__all__ = ["Metric", "MeanMetricWrapper", "get", "accuracy", "binary_accuracy", "categorical_accuracy",
           "sparse_categorical_accuracy", "top_k_categorical_accuracy",
           "sparse_top_k_categorical_accuracy", "binary_crossentropy",
           "binary_focal_crossentropy", "categorical_crossentropy",
           "categorical_focal_crossentropy", "sparse_categorical_crossentropy", "hinge",
           "squared_hinge", "categorical_hinge", "huber", "kl_divergence", "kld", "KLD",
           "kullback_leibler_divergence", "log_cosh", "logcosh", "poisson",
           "mean_squared_error", "mse", "MSE", "mean_absolute_error", "mae", "MAE",
           "mean_absolute_percentage_error", "mape", "MAPE", "mean_squared_logarithmic_error",
           "msle", "MSLE", "pearson_correlation", "concordance_correlation", *sorted(_CLASSES)]


def get(identifier) -> Metric:
    """A metric object from a name ('auc', 'sparse_categorical_accuracy', 'mae', 'Mean'...),
    a Metric, or a function `fn(y_true, y_pred)` (wrapped in a MeanMetricWrapper).

    Raises:
        ValueError: an unknown name.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.metrics.get("mae").name
        'mean_absolute_error'
        >>> type(tf.keras.metrics.get("auc")).__name__
        'AUC'
    """
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str):
        return by_name("metric", identifier, _BY_NAME, _CLASSES)()
    if callable(identifier):
        return MeanMetricWrapper(identifier)
    raise ValueError(f"Could not interpret metric identifier: {identifier!r}")
