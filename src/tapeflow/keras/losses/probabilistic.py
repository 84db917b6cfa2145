"""Probabilistic losses: binary, categorical and sparse cross entropy, their focal forms,
Kullback-Leibler divergence and Poisson."""
from __future__ import annotations

import warnings

from ... import math as tf_math
from ... import nn as tf_nn
from ...framework import errors
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops import array_ops, clip_ops, creation_ops, math_ops
from ...ops.indexing_ops import where
from .base import (EPSILON, LossFunctionWrapper, _prepare, _shape, _squeeze_last,
                   compute_weighted_loss, match_ranks, wrapper_class)

__all__ = ["binary_crossentropy", "categorical_crossentropy", "sparse_categorical_crossentropy",
           "binary_focal_crossentropy", "categorical_focal_crossentropy", "kl_divergence",
           "poisson", "BinaryCrossentropy", "CategoricalCrossentropy",
           "SparseCategoricalCrossentropy", "BinaryFocalCrossentropy",
           "CategoricalFocalCrossentropy", "KLDivergence", "Poisson"]


def _binary_crossentropy_of_probabilities(y_true: Tensor, p: Tensor) -> Tensor:
    """-(y log p + (1 - y) log(1 - p)) elementwise, p clipped to [1e-7, 1 - 1e-7]."""
    p = clip_ops.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    return -(y_true * math_ops.log(p) + (1.0 - y_true) * math_ops.log(1.0 - p))


def binary_crossentropy(y_true, y_pred, from_logits: bool = False,
                        label_smoothing: float = 0.0, axis: int = -1) -> Tensor:
    """-mean(y log p + (1 - y) log(1 - p)) over `axis`; p clipped to [1e-7, 1 - 1e-7],
    or computed stably from logits with `from_logits`.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.losses.binary_crossentropy([1.0], [0.5])), 4)
        0.6931
    """
    y_true, y_pred = _prepare("binary_crossentropy", y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        losses = tf_nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        losses = _binary_crossentropy_of_probabilities(y_true, y_pred)
    return math_ops.reduce_mean(losses, axis=axis) if losses.ndim else losses


def categorical_crossentropy(y_true, y_pred, from_logits: bool = False,
                             label_smoothing: float = 0.0, axis: int = -1) -> Tensor:
    """-sum(y_true * log(p)) over `axis`, p = y_pred normalized to sum 1 and clipped to
    [1e-7, 1 - 1e-7], or softmax(y_pred) computed stably with `from_logits`.

    Raises:
        ValueError: y_true and y_pred have different shapes.

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.categorical_crossentropy([[0.0, 1.0]], [[0.5, 0.5]])
        >>> [round(float(v), 4) for v in loss.numpy()]
        [0.6931]
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    if _shape(y_true) != _shape(y_pred):
        raise ValueError(f"categorical_crossentropy: Shapes {tuple(_shape(y_true))} and "
                         f"{tuple(_shape(y_pred))} are incompatible (y_true must be one-hot, "
                         "shaped like y_pred; use sparse_categorical_crossentropy for integer "
                         "labels).")
    if label_smoothing:
        classes = _shape(y_pred)[axis]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if from_logits:
        return tf_nn.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    p = y_pred / math_ops.reduce_sum(y_pred, axis=axis, keepdims=True)
    p = clip_ops.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    return -math_ops.reduce_sum(y_true * math_ops.log(p), axis=axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits: bool = False,
                                    ignore_class=None, axis: int = -1) -> Tensor:
    """-log(p[label]) per example, for integer labels (shape [batch] or [batch, 1]) and
    class scores y_pred of shape [batch, classes]: probabilities (clipped), or logits.
    Examples labelled `ignore_class` get a loss of 0.

    Raises:
        ValueError: labels shaped otherwise than y_pred without its class axis.
        InvalidArgumentError: a label outside [0, classes).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.sparse_categorical_crossentropy(
        ...     [1], [[0.0, 0.0]], from_logits=True)
        >>> [round(float(v), 4) for v in loss.numpy()]
        [0.6931]
    """
    name = "sparse_categorical_crossentropy"
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if axis not in (-1, y_pred.ndim - 1):
        y_pred = array_ops.transpose(y_pred, _move_to_end(y_pred.ndim, axis))
    if y_true.ndim == y_pred.ndim and y_true.ndim and _shape(y_true)[-1] == 1:
        y_true = _squeeze_last(y_true)
    if y_pred.ndim < 1 or _shape(y_true) != _shape(y_pred)[:-1]:
        raise ValueError(f"{name}: Shape mismatch: The shape of labels (received "
                         f"{tuple(_shape(y_true))}) should equal the shape of logits except for "
                         f"the last dimension (received {tuple(_shape(y_pred))}).")
    if not y_true.dtype.is_integer:
        y_true = math_ops.cast(y_true, "int64")
    if not from_logits:
        y_pred = math_ops.log(clip_ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON))
    valid = None
    if ignore_class is not None:
        valid = tf_math.not_equal(y_true, math_ops.cast(ignore_class, y_true.dtype))
        y_true = where(valid, y_true, creation_ops.zeros_like(y_true))
    try:
        losses = tf_nn.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    except errors.InvalidArgumentError as e:
        raise errors.InvalidArgumentError(None, e.op, f"{name}: {e.message}") from None
    return losses if valid is None else where(valid, losses, creation_ops.zeros_like(losses))


def _move_to_end(rank: int, axis: int) -> list:
    axis %= rank
    return [a for a in range(rank) if a != axis] + [axis]


class _Crossentropy(LossFunctionWrapper):
    """A cross entropy with `from_logits`, `label_smoothing` and `axis`."""

    _fn = None
    _default_name = ""

    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0,
                 axis: int = -1, reduction: str | None = "sum_over_batch_size",
                 name: str | None = None, dtype=None) -> None:
        super().__init__(type(self)._fn, reduction, name or self._default_name, dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class BinaryCrossentropy(_Crossentropy):
    """Cross entropy of 0/1 targets and probabilities (or logits with `from_logits`).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.BinaryCrossentropy(from_logits=True)
        >>> round(float(loss([[1.0], [0.0]], [[0.0], [0.0]])), 4)
        0.6931
    """

    _fn = staticmethod(binary_crossentropy)
    _default_name = "binary_crossentropy"


class CategoricalCrossentropy(_Crossentropy):
    """Cross entropy of one-hot targets and class probabilities (or logits).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.CategoricalCrossentropy(from_logits=True)
        >>> round(float(loss([[0.0, 1.0]], [[0.0, 0.0]])), 4)
        0.6931
    """

    _fn = staticmethod(categorical_crossentropy)
    _default_name = "categorical_crossentropy"


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Cross entropy of integer labels and class probabilities (or logits).

    Args:
        from_logits: y_pred holds logits rather than probabilities.
        ignore_class: a label whose examples get no loss; the mean reductions then divide
            by the number of the other examples, as Keras does.

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        >>> round(float(loss([0, 1], [[0.0, 0.0], [0.0, 0.0]])), 4)
        0.6931
        >>> loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
        ...                                                      ignore_class=-1)
        >>> round(float(loss([0, -1], [[0.0, 0.0], [0.0, 5.0]])), 4)
        0.6931
    """

    def __init__(self, from_logits: bool = False, ignore_class=None,
                 reduction: str | None = "sum_over_batch_size",
                 name: str = "sparse_categorical_crossentropy", dtype=None) -> None:
        super().__init__(sparse_categorical_crossentropy, reduction, name, dtype,
                         from_logits=from_logits, ignore_class=ignore_class)

    def __call__(self, y_true, y_pred, sample_weight=None) -> Tensor:
        ignore_class = self._fn_kwargs["ignore_class"]
        if ignore_class is None:
            return super().__call__(y_true, y_pred, sample_weight)
        losses = self.call(y_true, y_pred)
        labels = array_ops.reshape(convert_to_tensor(y_true), _shape(losses))
        valid = math_ops.cast(tf_math.not_equal(labels, math_ops.cast(ignore_class,
                                                                        labels.dtype)),
                              losses.dtype)
        if self.reduction in ("sum_over_batch_size", "mean"):
            valid = valid * tf_math.divide_no_nan(float(losses.shape.num_elements()),
                                                  math_ops.reduce_sum(valid))
        if sample_weight is not None:
            weight = math_ops.cast(convert_to_tensor(sample_weight), losses.dtype)
            valid, weight = match_ranks(valid, weight)
            valid = valid * weight
        return compute_weighted_loss(losses, valid, self.reduction)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing: bool = False,
                              alpha: float = 0.25, gamma: float = 2.0,
                              from_logits: bool = False, label_smoothing: float = 0.0,
                              axis: int = -1) -> Tensor:
    """Binary cross entropy scaled by (1 - p_t) ** gamma, p_t the probability given to the
    true class, so that easy examples count less; with `apply_class_balancing` also by
    alpha for positives and 1 - alpha for negatives. Mean over `axis`.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.binary_focal_crossentropy([[1.0, 0.0]], [[0.5, 0.5]])
        >>> round(float(loss[0]), 5)            # 0.25 * log(2)
        0.17329
    """
    y_true, y_pred = _prepare("binary_focal_crossentropy", y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = math_ops.sigmoid(y_pred)
    losses = _binary_crossentropy_of_probabilities(y_true, y_pred)
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    losses = math_ops.pow(1.0 - p_t, gamma) * losses
    if apply_class_balancing:
        losses = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * losses
    return math_ops.reduce_mean(losses, axis=axis) if losses.ndim else losses


def categorical_focal_crossentropy(y_true, y_pred, alpha: float = 0.25, gamma: float = 2.0,
                                   from_logits: bool = False, label_smoothing: float = 0.0,
                                   axis: int = -1) -> Tensor:
    """-sum(alpha * (1 - p) ** gamma * y_true * log(p)) over `axis`, p = y_pred normalized
    to sum 1 and clipped to [1e-7, 1 - 1e-7] (softmax first with `from_logits`).

    Raises:
        ValueError: y_true and y_pred have different shapes, or `axis` is a bool.

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.categorical_focal_crossentropy([[0.0, 1.0]], [[0.5, 0.5]])
        >>> round(float(loss[0]), 5)            # 0.25 * 0.5 ** 2 * log(2)
        0.04332
    """
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type "
                         f"{type(axis)}")
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    if _shape(y_true) != _shape(y_pred):
        raise ValueError(f"categorical_focal_crossentropy: Shapes {tuple(_shape(y_true))} and "
                         f"{tuple(_shape(y_pred))} are incompatible.")
    if y_pred.ndim and _shape(y_pred)[-1] == 1:
        warnings.warn("categorical_focal_crossentropy expects y_pred of shape (batch_size, "
                      f"num_classes) with num_classes > 1, got {tuple(_shape(y_pred))}; use "
                      "binary_focal_crossentropy for two classes.", SyntaxWarning, stacklevel=2)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / _shape(y_true)[-1]
    if from_logits:
        y_pred = tf_nn.softmax(y_pred, axis=axis)
    p = y_pred / math_ops.reduce_sum(y_pred, axis=axis, keepdims=True)
    p = clip_ops.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    weight = alpha * math_ops.pow(1.0 - p, gamma)
    return math_ops.reduce_sum(weight * (-y_true * math_ops.log(p)), axis=axis)


def kl_divergence(y_true, y_pred) -> Tensor:
    """sum(y_true * log(y_true / y_pred)) over the last axis, both clipped to [1e-7, 1].

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.kl_divergence([[0.5, 0.5]], [[0.25, 0.75]])
        >>> round(float(loss[0]), 5)
        0.14384
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true = clip_ops.clip_by_value(y_true, EPSILON, 1.0)
    y_pred = clip_ops.clip_by_value(y_pred, EPSILON, 1.0)
    return math_ops.reduce_sum(y_true * math_ops.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred) -> Tensor:
    """mean(y_pred - y_true * log(y_pred + 1e-7)) over the last axis.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.losses.poisson([[0.0, 2.0]], [[1.0, 1.0]])[0])
        1.0
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    return math_ops.reduce_mean(y_pred - y_true * math_ops.log(y_pred + EPSILON), axis=-1)


class BinaryFocalCrossentropy(LossFunctionWrapper):
    """Focal binary cross entropy (see `binary_focal_crossentropy`).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.BinaryFocalCrossentropy(gamma=0.0)   # plain cross entropy
        >>> round(float(loss([[1.0]], [[0.5]])), 4)
        0.6931
    """

    def __init__(self, apply_class_balancing: bool = False, alpha: float = 0.25,
                 gamma: float = 2.0, from_logits: bool = False, label_smoothing: float = 0.0,
                 axis: int = -1, reduction: str | None = "sum_over_batch_size",
                 name: str = "binary_focal_crossentropy", dtype=None) -> None:
        super().__init__(binary_focal_crossentropy, reduction, name, dtype,
                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class CategoricalFocalCrossentropy(LossFunctionWrapper):
    """Focal categorical cross entropy (see `categorical_focal_crossentropy`).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.CategoricalFocalCrossentropy(alpha=1.0, gamma=0.0)
        >>> round(float(loss([[0.0, 1.0]], [[0.5, 0.5]])), 4)
        0.6931
    """

    def __init__(self, alpha: float = 0.25, gamma: float = 2.0, from_logits: bool = False,
                 label_smoothing: float = 0.0, axis: int = -1,
                 reduction: str | None = "sum_over_batch_size",
                 name: str = "categorical_focal_crossentropy", dtype=None) -> None:
        super().__init__(categorical_focal_crossentropy, reduction, name, dtype, alpha=alpha,
                         gamma=gamma, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


KLDivergence = wrapper_class(
    "KLDivergence", kl_divergence, "kl_divergence",
    "Kullback-Leibler divergence of y_pred from y_true.",
    "        >>> float(tf.keras.losses.KLDivergence()([[0.5, 0.5]], [[0.5, 0.5]]))\n"
    "        0.0\n")
Poisson = wrapper_class(
    "Poisson", poisson, "poisson", "Poisson negative log-likelihood (without log(y!)).",
    "        >>> float(tf.keras.losses.Poisson()([[0.0, 2.0]], [[1.0, 1.0]]))\n"
    "        1.0\n")
