"""tf.compat.v1.losses: TF1's weighted losses, added to the LOSSES collection.

Each loss is reduced as `reduction` says (default SUM_BY_NONZERO_WEIGHTS: the weighted sum
divided by the number of non-zero weights).
"""
from __future__ import annotations

import tapeflow as tf

from ...framework.context import executing_eagerly
from ...framework.graph import GraphKeys, get_default_graph

__all__ = ["Reduction", "compute_weighted_loss", "softmax_cross_entropy",
           "sparse_softmax_cross_entropy", "sigmoid_cross_entropy", "mean_squared_error",
           "absolute_difference", "huber_loss", "add_loss", "get_losses",
           "get_regularization_losses", "get_regularization_loss", "get_total_loss"]


class Reduction:
    """How a weighted loss is reduced (TF1's values)."""

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls) -> tuple:
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
                cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key) -> None:
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}.")


def add_loss(loss, loss_collection=GraphKeys.LOSSES) -> None:
    """Adds `loss` to the collection `loss_collection` (nothing when eager)."""
    if loss_collection and not executing_eagerly():
        get_default_graph().add_to_collection(loss_collection, loss)


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """`losses * weights`, reduced by `reduction`, added to `loss_collection`.

    Raises:
        ValueError: an unknown reduction.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> float(tf1.losses.compute_weighted_loss([1.0, 2.0, 3.0], [1.0, 0.0, 1.0]))
        2.0
    """
    Reduction.validate(reduction)
    losses = tf.convert_to_tensor(losses)
    dtype = losses.dtype
    weights = tf.ones_like(losses) * tf.cast(weights, dtype)
    weighted = losses * weights
    if reduction == Reduction.NONE:
        loss = weighted
    else:
        loss = tf.reduce_sum(weighted)
        if reduction == Reduction.MEAN:
            loss = tf.math.divide_no_nan(loss, tf.reduce_sum(weights))
        elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
            loss = tf.math.divide_no_nan(loss, tf.cast(tf.size(losses), dtype))
        elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
            nonzero = tf.reduce_sum(tf.cast(tf.not_equal(weights, 0.0), dtype))
            loss = tf.math.divide_no_nan(loss, nonzero)
    add_loss(loss, loss_collection)
    return loss


def _smoothed(labels, smoothing, uniform):
    """`labels` moved towards `uniform` by the fraction `smoothing`."""
    return labels * (1.0 - smoothing) + smoothing * uniform if smoothing else labels


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Softmax cross-entropy of one-hot labels (smoothed towards uniform by
    `label_smoothing`), weighted per example.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> round(float(tf1.losses.softmax_cross_entropy([[0.0, 1.0]], [[0.0, 0.0]])), 4)
        0.6931
    """
    logits = tf.convert_to_tensor(logits)
    labels = tf.cast(onehot_labels, logits.dtype)
    classes = tf.cast(tf.shape(labels)[-1], logits.dtype)
    labels = _smoothed(labels, label_smoothing, 1.0 / classes)
    losses = tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(labels),
                                                     logits=logits)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None,
                                 loss_collection=GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Softmax cross-entropy of integer class labels, weighted per example.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> round(float(tf1.losses.sparse_softmax_cross_entropy([1], [[0.0, 0.0]])), 4)
        0.6931
    """
    losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0,
                          scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Sigmoid cross-entropy (labels smoothed towards 1/2 by `label_smoothing`)."""
    logits = tf.convert_to_tensor(logits)
    labels = _smoothed(tf.cast(multi_class_labels, logits.dtype), label_smoothing, 0.5)
    losses = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def mean_squared_error(labels, predictions, weights=1.0, scope=None,
                       loss_collection=GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """(predictions - labels)², weighted and reduced.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> float(tf1.losses.mean_squared_error([1.0, 2.0], [2.0, 4.0]))
        2.5
    """
    predictions = tf.convert_to_tensor(predictions)
    labels = tf.cast(labels, predictions.dtype)
    losses = tf.math.squared_difference(predictions, labels)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def absolute_difference(labels, predictions, weights=1.0, scope=None,
                        loss_collection=GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """|predictions - labels|, weighted and reduced."""
    predictions = tf.convert_to_tensor(predictions)
    losses = tf.abs(predictions - tf.cast(labels, predictions.dtype))
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None,
               loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """0.5 x² for |x| <= delta, else delta (|x| - 0.5 delta), x = predictions - labels."""
    predictions = tf.convert_to_tensor(predictions)
    error = tf.abs(predictions - tf.cast(labels, predictions.dtype))
    quadratic = tf.minimum(error, delta)
    losses = 0.5 * quadratic * quadratic + delta * (error - quadratic)
    return compute_weighted_loss(losses, weights, scope, loss_collection, reduction)


def get_losses(scope=None, loss_collection=GraphKeys.LOSSES) -> list:
    """The losses added to `loss_collection`."""
    return get_default_graph().get_collection(loss_collection, scope)


def get_regularization_losses(scope=None) -> list:
    """The regularization losses of the default graph (from get_variable regularizers)."""
    return get_default_graph().get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of the regularization losses (0.0 when there are none)."""
    losses = get_regularization_losses(scope)
    return tf.add_n(losses, name=name) if losses else tf.constant(0.0)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """The sum of the losses (and, by default, of the regularization losses).

    Raises:
        ValueError: there are no losses.
    """
    losses = get_losses(scope) + (get_regularization_losses(scope)
                                  if add_regularization_losses else [])
    if not losses:
        raise ValueError("No losses found in collection.")
    return tf.add_n(losses, name=name)
