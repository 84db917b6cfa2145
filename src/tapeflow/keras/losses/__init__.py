"""keras.losses: loss functions and the Loss classes that reduce them, with Keras 3's formulas.

Each function returns one loss per example (the mean over the last axis for elementwise
losses); a Loss object weights those by `sample_weight` and reduces them (see
`compute_weighted_loss`).
"""
from ..naming import by_name
from .base import EPSILON, Loss, LossFunctionWrapper, Reduction, compute_weighted_loss
from .classification import (CategoricalHinge, Dice, Hinge, SquaredHinge, Tversky,
                             categorical_hinge, dice, hinge, squared_hinge, tversky)
from .probabilistic import (BinaryCrossentropy, BinaryFocalCrossentropy,
                            CategoricalCrossentropy, CategoricalFocalCrossentropy, KLDivergence,
                            Poisson, SparseCategoricalCrossentropy, binary_crossentropy,
                            binary_focal_crossentropy, categorical_crossentropy,
                            categorical_focal_crossentropy, kl_divergence, poisson,
                            sparse_categorical_crossentropy)
from .regression import (CosineSimilarity, Huber, LogCosh, MeanAbsoluteError,
                         MeanAbsolutePercentageError, MeanSquaredError,
                         MeanSquaredLogarithmicError, cosine_similarity, huber, log_cosh,
                         mean_absolute_error, mean_absolute_percentage_error,
                         mean_squared_error, mean_squared_logarithmic_error)

mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh

_FUNCTIONS = {fn.__name__: fn for fn in (
    mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
    mean_squared_logarithmic_error, huber, log_cosh, cosine_similarity, binary_crossentropy,
    categorical_crossentropy, sparse_categorical_crossentropy, binary_focal_crossentropy,
    categorical_focal_crossentropy, kl_divergence, poisson, hinge, squared_hinge,
    categorical_hinge, dice, tversky)}
_FUNCTIONS.update({"mse": mse, "MSE": mse, "mae": mae, "MAE": mae, "mape": mape, "MAPE": mape,
                   "msle": msle, "MSLE": msle, "kld": kld, "KLD": kld, "huber_loss": huber, "bce": binary_crossentropy,
                   "BCE": binary_crossentropy,
                   "kullback_leibler_divergence": kld, "logcosh": logcosh})
_CLASSES = {cls.__name__: cls for cls in (
    MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError,
    MeanSquaredLogarithmicError, Huber, LogCosh, CosineSimilarity, BinaryCrossentropy,
    CategoricalCrossentropy, SparseCategoricalCrossentropy, BinaryFocalCrossentropy,
    CategoricalFocalCrossentropy, KLDivergence, Poisson, Hinge, SquaredHinge,
    CategoricalHinge, Dice, Tversky)}

__all__ = ["EPSILON", "Loss", "LossFunctionWrapper", "Reduction", "compute_weighted_loss",
           "get", "mse", "MSE", "mae", "MAE", "mape", "MAPE", "msle", "MSLE", "kld", "KLD",
           "kullback_leibler_divergence", "logcosh",
           *sorted({fn.__name__ for fn in _FUNCTIONS.values()}), *sorted(_CLASSES)]


def get(identifier):
    """A loss from a name: a function for 'mse' or 'sparse_categorical_crossentropy', a Loss
    object for 'MeanSquaredError'. Callables and None pass through.

    Raises:
        ValueError: an unknown name.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.get("mse").__name__
        'mean_squared_error'
        >>> tf.keras.losses.get("Poisson").name
        'poisson'
    """
    if identifier is None or callable(identifier):
        return identifier
    if isinstance(identifier, str):
        found = by_name("loss function", identifier, _FUNCTIONS, _CLASSES)
        return found() if isinstance(found, type) else found
    raise ValueError(f"Could not interpret loss identifier: {identifier!r}")
