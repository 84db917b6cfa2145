"""Metrics from confusion-matrix counts at thresholds: TruePositives and the other three
counts, Precision, Recall, AUC (ROC and PR), and the X-at-Y metrics
(PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity).

A prediction counts as positive at threshold t when it is > t. Evenly spaced thresholds
(AUC's and the X-at-Y metrics') place each prediction, clipped to [0, 1], in its bucket
ceil(p * (n - 1)) - 1, as Keras does, so a value on a threshold lands where Keras puts it.
"""
from __future__ import annotations

import numpy as np

from ... import math as tf_math
from ...framework.tensor import Tensor, constant, convert_to_tensor
from ...ops import array_ops, clip_ops, creation_ops, math_ops
from ...ops.indexing_ops import where
from ..losses.base import EPSILON, match_ranks
from .base import Metric

__all__ = ["TruePositives", "TrueNegatives", "FalsePositives", "FalseNegatives", "Precision",
           "Recall", "AUC", "PrecisionAtRecall", "RecallAtPrecision",
           "SensitivityAtSpecificity", "SpecificityAtSensitivity"]

NEG_INF = -1e10          # the threshold that makes every top-k prediction positive
COUNTS = ("tp", "fp", "tn", "fn")


def _thresholds(thresholds, default: float) -> list:
    """`thresholds` (a float or a list) as a list, `[default]` for None.

    Raises:
        ValueError: a threshold outside [0, 1].
    """
    if thresholds is None:
        return [default]
    listed = list(thresholds) if isinstance(thresholds, (list, tuple)) else [thresholds]
    invalid = [t for t in listed if t is None or t < 0 or t > 1]
    if invalid:
        raise ValueError(f"Threshold values must be in [0, 1]. Received: {invalid}")
    return listed


def _evenly_spaced(thresholds) -> bool:
    count = len(thresholds)
    if count < 3:
        return False
    even = np.arange(count, dtype=np.float32) / (count - 1)
    return bool(np.allclose(thresholds, even, atol=EPSILON))


def _top_k_only(y_pred: Tensor, k: int) -> Tensor:
    """y_pred with every value outside the k largest of its row set to NEG_INF."""
    _, indices = tf_math.top_k(y_pred, k)
    kept = math_ops.reduce_sum(creation_ops.one_hot(indices, y_pred.shape.as_list()[-1],
                                                    dtype=y_pred.dtype), axis=-2)
    return y_pred * kept + NEG_INF * (1.0 - kept)


def update_confusion_counts(counts: dict, y_true, y_pred, thresholds, evenly: bool = False,
                            top_k=None, class_id=None, sample_weight=None,
                            multi_label: bool = False, label_weights=None) -> None:
    """Adds the weighted counts at each threshold to the Variables in `counts` (keys 'tp',
    'fp', 'tn', 'fn'): shape [thresholds], or [thresholds, labels] with `multi_label`.

    Raises:
        ValueError: `class_id` with 1-D predictions.
    """
    dtype = next(iter(counts.values())).dtype
    y_true = math_ops.cast(convert_to_tensor(y_true), dtype)
    y_pred = math_ops.cast(convert_to_tensor(y_pred), dtype)
    y_pred, y_true = match_ranks(y_pred, y_true)
    weight = None
    if sample_weight is not None:
        weight = array_ops.expand_dims(math_ops.cast(convert_to_tensor(sample_weight), dtype),
                                       -1)
        _, weight = match_ranks(y_true, weight, expand_rank_1=False)
    if top_k is not None:
        y_pred = _top_k_only(y_pred, top_k)
    if class_id is not None:
        if y_pred.ndim == 1:
            raise ValueError("When class_id is provided, y_pred must be a 2D array with shape "
                             f"(num_samples, num_classes), found shape: {y_pred.shape}")
        y_true = y_true[..., class_id:class_id + 1]
        y_pred = y_pred[..., class_id:class_id + 1]
    pred_shape = array_ops.shape(y_pred)
    if label_weights is not None and not multi_label:
        labels = array_ops.broadcast_to(array_ops.expand_dims(
            math_ops.cast(convert_to_tensor(label_weights), dtype), 0), pred_shape)
        weight = labels if weight is None else array_ops.broadcast_to(weight, pred_shape) * labels
    if weight is not None:
        weight = array_ops.broadcast_to(weight, pred_shape)
    # Flatten unless multi-label, then put the thresholds first: [T, M] or [T, N, L].
    if not multi_label:
        y_true = array_ops.reshape(y_true, [-1])
        y_pred = array_ops.reshape(y_pred, [-1])
        weight = None if weight is None else array_ops.reshape(weight, [-1])
    count = len(thresholds)
    shape = [count] + [1] * y_pred.ndim
    if evenly:
        bucket = math_ops.ceil(clip_ops.clip_by_value(y_pred, 0.0, 1.0) * float(count - 1)) - 1.0
        if thresholds[0] < 0.0 or thresholds[-1] > 1.0:     # end points just outside [0, 1]
            bucket = math_ops.maximum(bucket, 0.0)
        steps = constant(np.arange(count).reshape(shape), dtype=dtype)
        predicted = tf_math.greater_equal(array_ops.expand_dims(bucket, 0), steps)
    else:
        cuts = constant(np.asarray(thresholds, np.float64).reshape(shape), dtype=dtype)
        predicted = tf_math.greater(array_ops.expand_dims(y_pred, 0), cuts)
    actual = array_ops.expand_dims(math_ops.cast(y_true, "bool"), 0)
    zeros = creation_ops.zeros_like(math_ops.cast(predicted, dtype))
    cases = {"tp": (actual, predicted), "fp": (tf_math.logical_not(actual), predicted),
             "tn": (tf_math.logical_not(actual), tf_math.logical_not(predicted)),
             "fn": (actual, tf_math.logical_not(predicted))}
    for key, variable in counts.items():
        label, pred = cases[key]
        hit = tf_math.logical_and(label, pred)
        values = math_ops.cast(hit, dtype) if weight is None else \
            where(hit, array_ops.expand_dims(weight, 0) + zeros, zeros)
        variable.assign_add(math_ops.reduce_sum(values, axis=1))


class _ConfusionCount(Metric):
    """One count of the confusion matrix at each threshold (default 0.5)."""

    _count = ""

    def __init__(self, thresholds=None, name: str | None = None, dtype=None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = _thresholds(thresholds, 0.5)
        self._evenly = _evenly_spaced(self.thresholds)
        self.accumulator = self.add_variable((len(self.thresholds),), name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        update_confusion_counts({self._count: self.accumulator}, y_true, y_pred,
                                self.thresholds, self._evenly, sample_weight=sample_weight)

    def result(self) -> Tensor:
        value = self.accumulator.read_value()
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self) -> dict:
        return {**super().get_config(), "thresholds": self.init_thresholds}


def _count_class(class_name: str, key: str, what: str, example: str) -> type:
    doc = (f"The weighted number of {what} at each threshold (`thresholds`: a float or a list "
           "in [0, 1], default 0.5): a scalar for one threshold, else one count per "
           "threshold.\n\n    Raises:\n        ValueError: a threshold outside [0, 1].\n\n"
           f"    Example:\n        >>> import tapeflow as tf\n{example}")
    return type(class_name, (_ConfusionCount,), {"_count": key, "__doc__": doc,
                                                 "__module__": __name__})


TruePositives = _count_class(
    "TruePositives", "tp", "true positives (label 1, prediction above the threshold)",
    "        >>> float(tf.keras.metrics.TruePositives()([0, 1, 1, 1], [1, 0, 1, 1]))\n"
    "        2.0\n")
FalsePositives = _count_class(
    "FalsePositives", "fp", "false positives (label 0, prediction above the threshold)",
    "        >>> float(tf.keras.metrics.FalsePositives()([0, 1, 0, 0], [0, 0, 1, 1]))\n"
    "        2.0\n")
TrueNegatives = _count_class(
    "TrueNegatives", "tn", "true negatives (label 0, prediction at or below the threshold)",
    "        >>> float(tf.keras.metrics.TrueNegatives()([0, 1, 0, 0], [1, 1, 0, 0]))\n"
    "        2.0\n")
FalseNegatives = _count_class(
    "FalseNegatives", "fn", "false negatives (label 1, prediction at or below the threshold)",
    "        >>> float(tf.keras.metrics.FalseNegatives()([0, 1, 1, 1], [0, 1, 0, 0]))\n"
    "        2.0\n")


class _Ratio(Metric):
    """tp / (tp + other) at each threshold, optionally for the top-k predictions of each
    row or for one class."""

    _other = ""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name: str | None = None,
                 dtype=None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        self.thresholds = _thresholds(thresholds, 0.5 if top_k is None else NEG_INF)
        self._evenly = _evenly_spaced(self.thresholds)
        size = (len(self.thresholds),)
        self.true_positives = self.add_variable(size, name="true_positives")
        other = {"fp": "false_positives", "fn": "false_negatives"}[self._other]
        setattr(self, other, self.add_variable(size, name=other))
        self._other_variable = getattr(self, other)

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        update_confusion_counts({"tp": self.true_positives, self._other: self._other_variable},
                                y_true, y_pred, self.thresholds, self._evenly, self.top_k,
                                self.class_id, sample_weight)

    def result(self) -> Tensor:
        tp = self.true_positives.read_value()
        value = tf_math.divide_no_nan(tp, tp + self._other_variable)
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self) -> dict:
        return {**super().get_config(), "thresholds": self.init_thresholds,
                "top_k": self.top_k, "class_id": self.class_id}


class Precision(_Ratio):
    """tp / (tp + fp): of the predictions above the threshold, the fraction labelled 1.

    Args:
        thresholds: a float or a list in [0, 1] (default 0.5; with `top_k`, every top-k
            prediction counts as positive); several give one precision each.
        top_k: only the k highest predictions of each row can be positive.
        class_id: only this class (the last axis) is counted.

    Raises:
        ValueError: a threshold outside [0, 1].

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.metrics.Precision()([0, 1, 1, 1], [1, 0, 1, 1]))
        0.6666666865348816
    """

    _other = "fp"


class Recall(_Ratio):
    """tp / (tp + fn): of the examples labelled 1, the fraction predicted above the
    threshold. Arguments as Precision.

    Raises:
        ValueError: a threshold outside [0, 1].

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.metrics.Recall()([0, 1, 1, 1], [1, 0, 1, 1]))
        0.6666666865348816
    """

    _other = "fn"


def _rate(numerator: Tensor, other: Tensor) -> Tensor:
    return tf_math.divide_no_nan(numerator, numerator + other)


class AUC(Metric):
    """Area under the ROC or precision-recall curve, from counts at `num_thresholds`
    thresholds.

    The thresholds are i / (num_thresholds - 1) for i in 1 .. num_thresholds - 2, plus
    -1e-7 and 1 + 1e-7 at the ends (or `thresholds`, sorted, between those ends). The
    area is a Riemann sum over the curve's segments: 'interpolation' (the default) takes
    the mean of the two ends for ROC, and Davis & Goadrich's interpolation of precision
    for PR; 'minoring' and 'majoring' take the lower and higher end.

    Args:
        num_thresholds: > 1, default 200.
        curve: 'ROC' (default) or 'PR'.
        summation_method: 'interpolation', 'minoring' or 'majoring'.
        thresholds: explicit thresholds in [0, 1] (then num_thresholds is their number + 2).
        multi_label: keep one curve per label (the last axis of rank-2 predictions) and
            average their areas (weighted by `label_weights`); else flatten everything.
        num_labels: the number of labels, to make the state before the first update.
        label_weights: one weight per label.
        from_logits: apply a sigmoid to the predictions first.

    Raises:
        ValueError: num_thresholds <= 1, an unknown curve or summation method, a threshold
            outside [0, 1], `num_labels` without `multi_label`, or multi-label predictions
            that are not rank 2.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.AUC(num_thresholds=3)
        >>> float(m([0, 0, 1, 1], [0.0, 0.5, 0.3, 0.9]))
        0.75
    """

    def __init__(self, num_thresholds: int = 200, curve: str = "ROC",
                 summation_method: str = "interpolation", name: str | None = None, dtype=None,
                 thresholds=None, multi_label: bool = False, num_labels=None,
                 label_weights=None, from_logits: bool = False) -> None:
        if str(curve).upper() not in ("ROC", "PR"):
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are '
                             '["PR", "ROC"]')
        if str(summation_method).lower() not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". '
                             'Expected values are ["interpolation", "majoring", "minoring"]')
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            inner = sorted(_thresholds(thresholds, 0.5))
            self.num_thresholds = len(inner) + 2
            self._evenly = _evenly_spaced([0.0] + inner + [1.0])
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._evenly = True
        self._thresholds = [0.0 - EPSILON] + inner + [1.0 + EPSILON]
        self.curve = str(curve).upper()
        self.summation_method = str(summation_method).lower()
        super().__init__(name=name, dtype=dtype)
        self.multi_label = multi_label
        self.num_labels = num_labels
        self.label_weights = None if label_weights is None else \
            constant(label_weights, dtype=self._dtype)
        self._from_logits = from_logits
        self._built = False
        if multi_label and num_labels:
            self._build([None, num_labels])
        elif not multi_label:
            if num_labels:
                raise ValueError("`num_labels` is needed only when `multi_label` is True.")
            self._build(None)

    @property
    def thresholds(self) -> list:
        """The thresholds, with the two end points."""
        return list(self._thresholds)

    def _build(self, shape) -> None:
        size = [self.num_thresholds]
        if self.multi_label:
            if len(shape) != 2:
                raise ValueError("`y_pred` must have rank 2 when `multi_label=True`. Found "
                                 f"rank {len(shape)}. Full shape received for `y_pred`: "
                                 f"{shape}")
            size.append(shape[1])
        self.true_positives = self.add_variable(size, name="true_positives")
        self.false_positives = self.add_variable(size, name="false_positives")
        self.true_negatives = self.add_variable(size, name="true_negatives")
        self.false_negatives = self.add_variable(size, name="false_negatives")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_pred = convert_to_tensor(y_pred)
        if not self._built:
            self._build(y_pred.shape.as_list())
        if self._from_logits:
            y_pred = math_ops.sigmoid(y_pred)
        update_confusion_counts(
            {"tp": self.true_positives, "fp": self.false_positives, "tn": self.true_negatives,
             "fn": self.false_negatives}, y_true, y_pred, self._thresholds, self._evenly,
            sample_weight=sample_weight, multi_label=self.multi_label,
            label_weights=None if self.multi_label else self.label_weights)

    def _average(self, terms: Tensor) -> Tensor:
        if not self.multi_label:
            return math_ops.reduce_sum(terms)
        by_label = math_ops.reduce_sum(terms, axis=0)
        if self.label_weights is None:
            return math_ops.reduce_mean(by_label)
        return tf_math.divide_no_nan(math_ops.reduce_sum(by_label * self.label_weights),
                                     math_ops.reduce_sum(self.label_weights))

    def _interpolated_pr_area(self, tp: Tensor, fp: Tensor, fn: Tensor) -> Tensor:
        """Precision interpolated between thresholds as Davis & Goadrich (2006) do:
        tp and tp + fp vary linearly between neighbouring thresholds."""
        positives = tp + fp
        dtp = tp[:-1] - tp[1:]
        dp = positives[:-1] - positives[1:]
        slope = tf_math.divide_no_nan(dtp, math_ops.maximum(dp, 0.0))
        intercept = tp[1:] - slope * positives[1:]
        both = tf_math.logical_and(tf_math.greater(positives[:-1], 0.0),
                                   tf_math.greater(positives[1:], 0.0))
        ratio = where(both, tf_math.divide_no_nan(positives[:-1],
                                                  math_ops.maximum(positives[1:], 0.0)),
                      creation_ops.ones_like(positives[1:]))
        terms = tf_math.divide_no_nan(slope * (dtp + intercept * math_ops.log(ratio)),
                                      math_ops.maximum(tp[1:] + fn[1:], 0.0))
        return self._average(terms)

    def result(self) -> Tensor:
        tp, fp = self.true_positives.read_value(), self.false_positives.read_value()
        tn, fn = self.true_negatives.read_value(), self.false_negatives.read_value()
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolated_pr_area(tp, fp, fn)
        recall = _rate(tp, fn)
        x, y = (_rate(fp, tn), recall) if self.curve == "ROC" else (recall, _rate(tp, fp))
        if self.summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = math_ops.minimum(y[:-1], y[1:])
        else:
            heights = math_ops.maximum(y[:-1], y[1:])
        return self._average((x[:-1] - x[1:]) * heights)

    def get_config(self) -> dict:
        config = {**super().get_config(), "num_thresholds": self.num_thresholds,
                  "curve": self.curve, "summation_method": self.summation_method,
                  "multi_label": self.multi_label, "num_labels": self.num_labels,
                  "label_weights": None if self.label_weights is None
                  else self.label_weights.numpy().tolist(),
                  "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self._thresholds[1:-1]
        return config


class _AtConstraint(Metric):
    """The best value of one rate among the thresholds where another reaches `value`."""

    _constraint = _dependent = ""

    def __init__(self, value: float, num_thresholds: int = 200, class_id=None,
                 name: str | None = None, dtype=None) -> None:
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self._constraint}` must be in the range [0, 1]. "
                             f"Received: {self._constraint}={value}")
        if num_thresholds <= 0:
            raise ValueError("Argument `num_thresholds` must be an integer > 0. "
                             f"Received: num_thresholds={num_thresholds}")
        super().__init__(name=name, dtype=dtype)
        setattr(self, self._constraint, value)
        self.value = value
        self.num_thresholds = num_thresholds
        self.class_id = class_id
        if num_thresholds == 1:
            self.thresholds, self._evenly = [0.5], False
        else:
            self.thresholds = [i / (num_thresholds - 1) for i in range(num_thresholds)]
            self._evenly = True
        size = (len(self.thresholds),)
        self.true_positives = self.add_variable(size, name="true_positives")
        self.false_positives = self.add_variable(size, name="false_positives")
        self.true_negatives = self.add_variable(size, name="true_negatives")
        self.false_negatives = self.add_variable(size, name="false_negatives")

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        update_confusion_counts(
            {"tp": self.true_positives, "fp": self.false_positives, "tn": self.true_negatives,
             "fn": self.false_negatives}, y_true, y_pred, self.thresholds, self._evenly,
            class_id=self.class_id, sample_weight=sample_weight)

    def _rates(self) -> dict:
        tp, fp = self.true_positives.read_value(), self.false_positives.read_value()
        tn, fn = self.true_negatives.read_value(), self.false_negatives.read_value()
        recall = _rate(tp, fn)
        return {"recall": recall, "sensitivity": recall, "precision": _rate(tp, fp),
                "specificity": _rate(tn, fp)}

    def result(self) -> Tensor:
        rates = self._rates()
        constrained, dependent = rates[self._constraint], rates[self._dependent]
        feasible = tf_math.greater_equal(constrained, self.value)
        best = where(feasible, dependent, creation_ops.zeros_like(dependent))
        return math_ops.maximum(tf_math.reduce_max(best), 0.0)

    def get_config(self) -> dict:
        return {**super().get_config(), "class_id": self.class_id,
                "num_thresholds": self.num_thresholds, self._constraint: self.value}


class PrecisionAtRecall(_AtConstraint):
    """The best precision among the thresholds (i / (num_thresholds - 1)) where recall is at
    least `recall`.

    Raises:
        ValueError: `recall` outside [0, 1], or num_thresholds <= 0.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.PrecisionAtRecall(0.5)
        >>> float(m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]))
        0.5
    """

    _constraint, _dependent = "recall", "precision"

    def __init__(self, recall: float, num_thresholds: int = 200, class_id=None,
                 name: str | None = None, dtype=None) -> None:
        super().__init__(recall, num_thresholds, class_id, name, dtype)


class RecallAtPrecision(_AtConstraint):
    """The best recall among the thresholds (i / (num_thresholds - 1)) where precision is at
    least `precision`.

    Raises:
        ValueError: `precision` outside [0, 1], or num_thresholds <= 0.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.RecallAtPrecision(0.8)
        >>> float(m([0, 0, 1, 1], [0, 0.5, 0.3, 0.9]))
        0.5
    """

    _constraint, _dependent = "precision", "recall"

    def __init__(self, precision: float, num_thresholds: int = 200, class_id=None,
                 name: str | None = None, dtype=None) -> None:
        super().__init__(precision, num_thresholds, class_id, name, dtype)


class SensitivityAtSpecificity(_AtConstraint):
    """The best sensitivity (recall) among the thresholds (i / (num_thresholds - 1)) where
    specificity (tn / (tn + fp)) is at least `specificity`.

    Raises:
        ValueError: `specificity` outside [0, 1], or num_thresholds <= 0.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.SensitivityAtSpecificity(0.5)
        >>> float(m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]))
        0.5
    """

    _constraint, _dependent = "specificity", "sensitivity"

    def __init__(self, specificity: float, num_thresholds: int = 200, class_id=None,
                 name: str | None = None, dtype=None) -> None:
        super().__init__(specificity, num_thresholds, class_id, name, dtype)


class SpecificityAtSensitivity(_AtConstraint):
    """The best specificity among the thresholds (i / (num_thresholds - 1)) where
    sensitivity (recall) is at least `sensitivity`.

    Raises:
        ValueError: `sensitivity` outside [0, 1], or num_thresholds <= 0.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.SpecificityAtSensitivity(0.5)
        >>> float(m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]))
        0.6666666865348816
    """

    _constraint, _dependent = "sensitivity", "specificity"

    def __init__(self, sensitivity: float, num_thresholds: int = 200, class_id=None,
                 name: str | None = None, dtype=None) -> None:
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)
