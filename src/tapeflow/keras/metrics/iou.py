"""Intersection-over-union metrics for segmentation: IoU, MeanIoU, BinaryIoU, OneHotIoU,
OneHotMeanIoU, all from one running confusion matrix."""
from __future__ import annotations

import warnings

from ... import linalg as tf_linalg
from ... import math as tf_math
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops import array_ops, creation_ops, gather_ops, math_ops
from ...ops.indexing_ops import where
from ..losses.base import EPSILON
from .base import Metric

__all__ = ["IoU", "MeanIoU", "BinaryIoU", "OneHotIoU", "OneHotMeanIoU"]


class IoU(Metric):
    """The mean, over `target_class_ids`, of each class's intersection over union
    tp / (tp + fp + fn), from a [num_classes, num_classes] confusion matrix (rows: labels,
    columns: predictions) accumulated over every update; classes never seen are left out.

    Args:
        num_classes: the number of classes.
        target_class_ids: the classes to average over.
        dtype: of the confusion matrix (default int64, as Keras; float weights are then
            truncated).
        ignore_class: a label whose pixels are not counted.
        sparse_y_true, sparse_y_pred: False for one-hot (or score) inputs, reduced with
            argmax over `axis`.

    Raises:
        ValueError: a target class id >= num_classes.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.IoU(num_classes=2, target_class_ids=[0])
        >>> round(float(m([0, 0, 1, 1], [0, 1, 0, 1])), 4)      # 1 / (1 + 1 + 1)
        0.3333
    """

    def __init__(self, num_classes: int, target_class_ids, name: str | None = None,
                 dtype=None, ignore_class=None, sparse_y_true: bool = True,
                 sparse_y_pred: bool = True, axis: int = -1) -> None:
        super().__init__(name=name, dtype=dtype or "int64")
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which "
                             f"is [0, {num_classes}).")
        self.num_classes = num_classes
        self.target_class_ids = list(target_class_ids)
        self.ignore_class = ignore_class
        self.sparse_y_true = sparse_y_true
        self.sparse_y_pred = sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_variable((num_classes, num_classes),
                                          name="total_confusion_matrix")

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        if not self.sparse_y_true:
            y_true = tf_math.argmax(convert_to_tensor(y_true), axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = tf_math.argmax(convert_to_tensor(y_pred), axis=self.axis)
        y_true = array_ops.reshape(math_ops.cast(convert_to_tensor(y_true), self._dtype), [-1])
        y_pred = array_ops.reshape(math_ops.cast(convert_to_tensor(y_pred), self._dtype), [-1])
        if sample_weight is None:
            weight = creation_ops.ones_like(y_true)
        else:
            weight = convert_to_tensor(sample_weight)
            if weight.dtype.is_floating and self._dtype.is_integer:
                warnings.warn("You are passing weight as `float`, but dtype is `int`. This "
                              "may result in an incorrect weight due to type casting. "
                              "Consider using integer weights.", stacklevel=2)
            weight = array_ops.broadcast_to(array_ops.reshape(
                math_ops.cast(weight, self._dtype), [-1]), array_ops.shape(y_true))
        n = self.num_classes
        inside = tf_math.logical_and(
            tf_math.logical_and(tf_math.greater_equal(y_true, 0), tf_math.less(y_true, n)),
            tf_math.logical_and(tf_math.greater_equal(y_pred, 0), tf_math.less(y_pred, n)))
        if self.ignore_class is not None:
            inside = tf_math.logical_and(inside, tf_math.not_equal(y_true, self.ignore_class))
        zeros = creation_ops.zeros_like(y_true)
        cell = math_ops.cast(where(inside, y_true * n + y_pred, zeros), "int32")
        weight = where(inside, weight, zeros)
        counts = tf_math.unsorted_segment_sum(weight, cell, n * n)
        self.total_cm.assign_add(array_ops.reshape(counts, [n, n]))

    def result(self) -> Tensor:
        matrix = math_ops.cast(self.total_cm.read_value(), "float32")
        true_positives = tf_linalg.diag_part(matrix)
        union = math_ops.reduce_sum(matrix, axis=0) + math_ops.reduce_sum(matrix, axis=1) \
            - true_positives
        targets = self.target_class_ids
        true_positives = gather_ops.gather(true_positives, targets)
        union = gather_ops.gather(union, targets)
        valid = tf_math.greater(union, 1e-9)
        iou = where(valid, true_positives / (union + EPSILON),
                    creation_ops.zeros_like(union))
        return math_ops.reduce_sum(iou) / (math_ops.reduce_sum(math_ops.cast(valid, "float32"))
                                           + EPSILON)

    _FIXED_ARGUMENTS: tuple = ()      # set by the subclass, so left out of its config

    def get_config(self) -> dict:
        config = {**super().get_config(), "num_classes": self.num_classes,
                  "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                  "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                  "axis": self.axis}
        return {k: v for k, v in config.items() if k not in self._FIXED_ARGUMENTS}


class MeanIoU(IoU):
    """IoU averaged over every class.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.MeanIoU(num_classes=2)
        >>> round(float(m([0, 0, 1, 1], [0, 1, 0, 1])), 4)
        0.3333
    """

    _FIXED_ARGUMENTS = ("target_class_ids",)

    def __init__(self, num_classes: int, name: str | None = None, dtype=None,
                 ignore_class=None, sparse_y_true: bool = True, sparse_y_pred: bool = True,
                 axis: int = -1) -> None:
        super().__init__(num_classes, list(range(num_classes)), name, dtype, ignore_class,
                         sparse_y_true, sparse_y_pred, axis)


class BinaryIoU(IoU):
    """IoU of 0/1 labels and predictions thresholded at `threshold` (>= counts as 1).

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.BinaryIoU(target_class_ids=[1])
        >>> round(float(m([0, 1, 1], [0.2, 0.7, 0.4])), 4)
        0.5
    """

    def __init__(self, target_class_ids=(0, 1), threshold: float = 0.5,
                 name: str | None = None, dtype=None) -> None:
        super().__init__(2, target_class_ids, name, dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_pred = math_ops.cast(convert_to_tensor(y_pred), "float32")
        predicted = math_ops.cast(tf_math.greater_equal(y_pred, self.threshold), self._dtype)
        super().update_state(y_true, predicted, sample_weight)

    def get_config(self) -> dict:
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype}


class OneHotIoU(IoU):
    """IoU of one-hot labels and class scores (both reduced with argmax).

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.OneHotIoU(num_classes=2, target_class_ids=[1])
        >>> float(m([[0, 1], [0, 1]], [[0.2, 0.8], [0.6, 0.4]]))
        0.5
    """

    _FIXED_ARGUMENTS = ("sparse_y_true",)

    def __init__(self, num_classes: int, target_class_ids, name: str | None = None,
                 dtype=None, ignore_class=None, sparse_y_pred: bool = False,
                 axis: int = -1) -> None:
        super().__init__(num_classes, target_class_ids, name, dtype, ignore_class, False,
                         sparse_y_pred, axis)


class OneHotMeanIoU(MeanIoU):
    """MeanIoU of one-hot labels and class scores (both reduced with argmax).

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.OneHotMeanIoU(num_classes=2)
        >>> float(m([[0, 1], [0, 1]], [[0.2, 0.8], [0.6, 0.4]]))
        0.25
    """

    _FIXED_ARGUMENTS = ("target_class_ids", "sparse_y_true")

    def __init__(self, num_classes: int, name: str | None = None, dtype=None,
                 ignore_class=None, sparse_y_pred: bool = False, axis: int = -1) -> None:
        super().__init__(num_classes, name, dtype, ignore_class, False, sparse_y_pred, axis)
