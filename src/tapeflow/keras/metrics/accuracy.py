"""Accuracy metrics: exact, binary, categorical, sparse categorical and top-k."""
from __future__ import annotations

from ... import math as tf_math
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops import array_ops, creation_ops, math_ops
from ...ops.indexing_ops import where
from ..losses.base import match_ranks
from .base import MeanMetricWrapper, wrapper_class

__all__ = ["accuracy", "binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
           "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy", "Accuracy",
           "BinaryAccuracy", "CategoricalAccuracy", "SparseCategoricalAccuracy",
           "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy"]


def _as_float(matches: Tensor) -> Tensor:
    return math_ops.cast(matches, "float32")


def accuracy(y_true, y_pred) -> Tensor:
    """1.0 where y_true equals y_pred exactly, else 0.0.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.metrics.Accuracy()([1, 2], [1, 3]).numpy()
        np.float32(0.5)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = match_ranks(y_true, y_pred)
    return _as_float(tf_math.equal(y_true, y_pred))


def binary_accuracy(y_true, y_pred, threshold: float = 0.5) -> Tensor:
    """1.0 where (y_pred > threshold) equals the 0/1 label, elementwise.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.metrics.binary_accuracy([[1.0, 0.0]], [[0.9, 0.7]]).numpy()
        array([[1., 0.]], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    y_true, y_pred = match_ranks(y_true, y_pred)
    predicted = math_ops.cast(tf_math.greater(y_pred, math_ops.cast(threshold, y_pred.dtype)),
                              y_true.dtype)
    return _as_float(tf_math.equal(y_true, predicted))


def categorical_accuracy(y_true, y_pred) -> Tensor:
    """1.0 where argmax(y_true) equals argmax(y_pred) along the last axis.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.metrics.categorical_accuracy([[0, 1], [1, 0]],
        ...                                       [[0.2, 0.8], [0.3, 0.7]]).numpy()
        array([1., 0.], dtype=float32)
    """
    return _as_float(tf_math.equal(tf_math.argmax(convert_to_tensor(y_true), axis=-1),
                                   tf_math.argmax(convert_to_tensor(y_pred), axis=-1)))


def _labels_without_trailing_one(y_true: Tensor, y_pred: Tensor) -> Tensor:
    if y_true.ndim == y_pred.ndim and y_true.ndim and y_true.shape.as_list()[-1] == 1:
        return array_ops.reshape(y_true, y_true.shape.as_list()[:-1])
    return y_true


def sparse_categorical_accuracy(y_true, y_pred) -> Tensor:
    """1.0 where the integer label equals argmax(y_pred) along the last axis.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.metrics.sparse_categorical_accuracy([1, 1], [[0.2, 0.8], [0.6, 0.4]]).numpy()
        array([1., 0.], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = _labels_without_trailing_one(convert_to_tensor(y_true), y_pred)
    predicted = tf_math.argmax(y_pred, axis=-1)
    if predicted.dtype is not y_true.dtype:
        predicted = math_ops.cast(predicted, y_true.dtype)
    return _as_float(tf_math.equal(y_true, predicted))


def _in_top_k(labels: Tensor, y_pred: Tensor, k: int) -> Tensor:
    """Whether each label's score is among the k largest of its row, ties counting in
    (TF's in_top_k); y_pred is [..., classes], labels [...]."""
    classes = y_pred.shape.as_list()[-1]
    chosen = creation_ops.one_hot(math_ops.cast(labels, "int32"), classes, dtype="bool")
    score = math_ops.reduce_sum(where(chosen, y_pred, creation_ops.zeros_like(y_pred)), axis=-1)
    higher = math_ops.reduce_sum(math_ops.cast(
        tf_math.greater(y_pred, array_ops.expand_dims(score, -1)), "int32"), axis=-1)
    return tf_math.logical_and(tf_math.less(higher, k), tf_math.is_finite(score))


def top_k_categorical_accuracy(y_true, y_pred, k: int = 5) -> Tensor:
    """1.0 where the one-hot label's class is among the k highest scores (ties count).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.metrics.top_k_categorical_accuracy(
        ...     [[0, 0, 1], [0, 1, 0]], [[0.1, 0.5, 0.4], [0.1, 0.2, 0.7]], k=2).numpy()
        array([1., 0.], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    return _as_float(_in_top_k(tf_math.argmax(convert_to_tensor(y_true), axis=-1), y_pred, k))


def sparse_top_k_categorical_accuracy(y_true, y_pred, k: int = 5,
                                      from_sorted_ids: bool = False) -> Tensor:
    """1.0 where the integer label is among the k highest scores (ties count); with
    `from_sorted_ids`, y_pred holds class ids sorted by score and the label must be among
    its first k.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.metrics.sparse_top_k_categorical_accuracy(
        ...     [2, 1], [[0.1, 0.5, 0.4], [0.1, 0.2, 0.7]], k=2).numpy()
        array([1., 0.], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = _labels_without_trailing_one(convert_to_tensor(y_true), y_pred)
    if from_sorted_ids:
        first = y_pred[..., :k]
        labels = math_ops.cast(array_ops.expand_dims(y_true, -1), first.dtype)
        return _as_float(tf_math.reduce_any(tf_math.equal(labels, first), axis=-1))
    return _as_float(_in_top_k(y_true, y_pred, k))


Accuracy = wrapper_class(
    "Accuracy", accuracy, "accuracy", "How often predictions equal labels exactly.",
    "        >>> float(tf.keras.metrics.Accuracy()([1, 2, 3, 4], [0, 2, 3, 4]))\n"
    "        0.75\n", __name__)
CategoricalAccuracy = wrapper_class(
    "CategoricalAccuracy", categorical_accuracy, "categorical_accuracy",
    "How often the argmax of the prediction matches that of the one-hot label.",
    "        >>> float(tf.keras.metrics.CategoricalAccuracy()([[0, 1], [1, 0]],\n"
    "        ...                                              [[0.2, 0.8], [0.3, 0.7]]))\n"
    "        0.5\n", __name__)
SparseCategoricalAccuracy = wrapper_class(
    "SparseCategoricalAccuracy", sparse_categorical_accuracy, "sparse_categorical_accuracy",
    "How often the argmax of the prediction equals the integer label.",
    "        >>> m = tf.keras.metrics.SparseCategoricalAccuracy()\n"
    "        >>> float(m([1, 0], [[0.2, 0.8], [0.3, 0.7]]))\n"
    "        0.5\n", __name__)


class BinaryAccuracy(MeanMetricWrapper):
    """How often (y_pred > threshold) equals the 0/1 label.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.metrics.BinaryAccuracy()([[1], [0]], [[0.9], [0.7]]))
        0.5
    """

    def __init__(self, name: str = "binary_accuracy", dtype=None, threshold: float = 0.5):
        super().__init__(binary_accuracy, name, dtype, threshold=threshold)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label's class is among the k highest scores.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.TopKCategoricalAccuracy(k=1)
        >>> float(m([[0, 1], [1, 0]], [[0.2, 0.8], [0.3, 0.7]]))
        0.5
    """

    def __init__(self, k: int = 5, name: str = "top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)
        self.k = k


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the k highest scores.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.SparseTopKCategoricalAccuracy(k=1)
        >>> float(m([1, 1], [[0.2, 0.8], [0.3, 0.7]]))
        1.0
    """

    def __init__(self, k: int = 5, name: str = "sparse_top_k_categorical_accuracy",
                 dtype=None, from_sorted_ids: bool = False) -> None:
        super().__init__(sparse_top_k_categorical_accuracy, name, dtype, k=k,
                         from_sorted_ids=from_sorted_ids)
        self.k = k

    def get_config(self) -> dict:
        config = super().get_config()
        if not config["from_sorted_ids"]:
            del config["from_sorted_ids"]
        return config
