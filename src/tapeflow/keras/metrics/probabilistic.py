"""Means of the probabilistic and hinge losses as metrics: cross entropies,
Kullback-Leibler divergence, Poisson, hinge, squared hinge, categorical hinge."""
from __future__ import annotations

from ... import math as tf_math
from ...framework.tensor import convert_to_tensor
from ...ops import array_ops, math_ops
from .. import losses
from .base import MeanMetricWrapper, wrapper_class

__all__ = ["BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
           "KLDivergence", "Poisson", "Hinge", "SquaredHinge", "CategoricalHinge"]


class BinaryCrossentropy(MeanMetricWrapper):
    """The mean binary cross entropy (see `keras.losses.binary_crossentropy`).

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.metrics.BinaryCrossentropy()([[1.0]], [[0.5]])), 4)
        0.6931
    """

    def __init__(self, name: str = "binary_crossentropy", dtype=None,
                 from_logits: bool = False, label_smoothing: float = 0) -> None:
        super().__init__(losses.binary_crossentropy, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)


class CategoricalCrossentropy(MeanMetricWrapper):
    """The mean categorical cross entropy of one-hot labels.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.CategoricalCrossentropy(from_logits=True)
        >>> round(float(m([[0.0, 1.0]], [[0.0, 0.0]])), 4)
        0.6931
    """

    def __init__(self, name: str = "categorical_crossentropy", dtype=None,
                 from_logits: bool = False, label_smoothing: float = 0,
                 axis: int = -1) -> None:
        super().__init__(losses.categorical_crossentropy, name, dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The mean cross entropy of integer labels. Examples labelled `ignore_class` add a
    loss of 0; as in Keras, they still count in the mean unless sample weights are given,
    in which case their weight is 0.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.SparseCategoricalCrossentropy(from_logits=True)
        >>> round(float(m([1], [[0.0, 0.0]])), 4)
        0.6931
    """

    def __init__(self, name: str = "sparse_categorical_crossentropy", dtype=None,
                 from_logits: bool = False, ignore_class=None, axis: int = -1) -> None:
        super().__init__(losses.sparse_categorical_crossentropy, name, dtype,
                         from_logits=from_logits, ignore_class=ignore_class, axis=axis)

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        ignore_class = self._fn_kwargs["ignore_class"]
        if ignore_class is None or sample_weight is None:
            return super().update_state(y_true, y_pred, sample_weight)
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        labels = array_ops.reshape(convert_to_tensor(y_true), values.shape.as_list())
        valid = math_ops.cast(tf_math.not_equal(
            labels, math_ops.cast(ignore_class, labels.dtype)), self._dtype)
        weight = valid * math_ops.cast(convert_to_tensor(sample_weight), self._dtype)
        return super(MeanMetricWrapper, self).update_state(values, weight)


KLDivergence = wrapper_class(
    "KLDivergence", losses.kl_divergence, "kl_divergence",
    "The mean Kullback-Leibler divergence of y_pred from y_true.",
    "        >>> float(tf.keras.metrics.KLDivergence()([[0.5, 0.5]], [[0.5, 0.5]]))\n"
    "        0.0\n", __name__)
Poisson = wrapper_class(
    "Poisson", losses.poisson, "poisson", "The mean Poisson loss.",
    "        >>> float(tf.keras.metrics.Poisson()([[0.0, 2.0]], [[1.0, 1.0]]))\n"
    "        1.0\n", __name__)
Hinge = wrapper_class(
    "Hinge", losses.hinge, "hinge", "The mean hinge loss.",
    "        >>> float(tf.keras.metrics.Hinge()([[1.0], [0.0]], [[2.0], [0.5]]))\n"
    "        0.75\n", __name__)
SquaredHinge = wrapper_class(
    "SquaredHinge", losses.squared_hinge, "squared_hinge", "The mean squared hinge loss.",
    "        >>> float(tf.keras.metrics.SquaredHinge()([[1.0], [0.0]], [[2.0], [0.5]]))\n"
    "        1.125\n", __name__)
CategoricalHinge = wrapper_class(
    "CategoricalHinge", losses.categorical_hinge, "categorical_hinge",
    "The mean categorical hinge loss.",
    "        >>> round(float(tf.keras.metrics.CategoricalHinge()([[0.0, 1.0]], [[0.3, 0.8]])), 4)\n"
    "        0.5\n", __name__)
