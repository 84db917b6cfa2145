"""keras.metrics: running statistics kept in non-trainable Variables.

`update_state` accumulates, `result` reads, `reset_state` zeroes; calling a metric updates
it and returns the result.
"""
from __future__ import annotations

import numpy as np

from .. import math as tf_math
from ..framework import dtypes
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from ..module import Module, camel_to_snake
from ..ops import array_ops, math_ops
from . import initializers, losses
from .naming import by_name

__all__ = ["Metric", "Mean", "Sum", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
           "CategoricalAccuracy", "SparseCategoricalAccuracy", "MeanSquaredError",
           "MeanAbsoluteError", "accuracy", "binary_accuracy", "categorical_accuracy",
           "sparse_categorical_accuracy", "get"]


class Metric(Module):
    """Base class: state in Variables made with `add_weight`; subclasses define
    `update_state` and `result`.

    Args:
        name: default the class name in snake case.
        dtype: of the state and result (default float32).
    """

    def __init__(self, name: str | None = None, dtype=None) -> None:
        self._name = name or camel_to_snake(type(self).__name__)
        self._scope = None
        self._dtype = dtypes.as_dtype(dtype or "float32")

    @property
    def dtype(self) -> str:
        return self._dtype.name

    def add_weight(self, name: str, shape=(), initializer="zeros", dtype=None) -> Variable:
        """A non-trainable state Variable (zeros unless another initializer is given)."""
        value = initializers.get(initializer)(tuple(shape), dtype=dtype or self._dtype)
        return Variable(value, name=f"{self._name}/{name}", trainable=False)

    def update_state(self, *args, **kwargs) -> None:
        raise NotImplementedError

    def result(self) -> Tensor:
        raise NotImplementedError

    def reset_state(self) -> None:
        """Sets every state Variable back to zero."""
        for variable in self.variables:
            variable.assign(np.zeros_like(variable.numpy()))

    reset_states = reset_state

    def __call__(self, *args, **kwargs) -> Tensor:
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config: dict) -> "Metric":
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name} result={float(self.result()):.4g}>"


class Sum(Metric):
    """The (weighted) sum of every value given.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.Sum()
        >>> m.update_state([1.0, 3.0, 5.0])
        >>> float(m.result())
        9.0
    """

    def __init__(self, name: str = "sum", dtype=None) -> None:
        super().__init__(name, dtype)
        self.total = self.add_weight("total")

    def _weighted(self, values, sample_weight) -> tuple:
        """(values times weights, the weights broadcast to them or None)."""
        values = math_ops.cast(convert_to_tensor(values), self._dtype)
        if sample_weight is None:
            return values, None
        weight = math_ops.cast(convert_to_tensor(sample_weight), self._dtype)
        if weight.ndim == values.ndim + 1 and weight.shape.as_list()[-1] == 1:
            weight = array_ops.reshape(weight, weight.shape.as_list()[:-1])
        elif values.ndim == weight.ndim + 1 and values.shape.as_list()[-1] == 1:
            values = array_ops.reshape(values, values.shape.as_list()[:-1])
        weight = array_ops.broadcast_to(weight, values.shape.as_list())
        return values * weight, weight

    def update_state(self, values, sample_weight=None) -> None:
        values, _ = self._weighted(values, sample_weight)
        self.total.assign_add(math_ops.reduce_sum(values))

    def result(self) -> Tensor:
        return self.total.read_value()


class Mean(Sum):
    """The (weighted) mean of every value given: total / count (0 before any update).

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.Mean()
        >>> m.update_state([1.0, 3.0, 5.0, 7.0], sample_weight=[1, 1, 0, 0])
        >>> float(m.result())
        2.0
    """

    def __init__(self, name: str = "mean", dtype=None) -> None:
        super().__init__(name, dtype)
        self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None) -> None:
        values, weight = self._weighted(values, sample_weight)
        self.total.assign_add(math_ops.reduce_sum(values))
        count = values.shape.num_elements() if weight is None else math_ops.reduce_sum(weight)
        self.count.assign_add(count)

    def result(self) -> Tensor:
        return tf_math.divide_no_nan(self.total, self.count)


class MeanMetricWrapper(Mean):
    """The mean of `fn(y_true, y_pred, **kwargs)` over every example given."""

    def __init__(self, fn, name: str | None = None, dtype=None, **kwargs) -> None:
        super().__init__(name or fn.__name__, dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._fn_kwargs}


def _as_float(matches: Tensor) -> Tensor:
    return math_ops.cast(matches, "float32")


def accuracy(y_true, y_pred) -> Tensor:
    """1.0 where y_true equals y_pred exactly, else 0.0."""
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    return _as_float(tf_math.equal(y_true, y_pred))


def binary_accuracy(y_true, y_pred, threshold: float = 0.5) -> Tensor:
    """Mean over the last axis of 1.0 where (y_pred > threshold) equals y_true."""
    y_true, y_pred = losses.base._prepare("binary_accuracy", y_true, y_pred)
    predicted = math_ops.cast(tf_math.greater(y_pred, threshold), y_pred.dtype)
    matches = _as_float(tf_math.equal(y_true, predicted))
    return math_ops.reduce_mean(matches, axis=-1) if matches.ndim else matches


def categorical_accuracy(y_true, y_pred) -> Tensor:
    """1.0 where argmax(y_true) equals argmax(y_pred) along the last axis."""
    return _as_float(tf_math.equal(tf_math.argmax(convert_to_tensor(y_true), axis=-1),
                                   tf_math.argmax(convert_to_tensor(y_pred), axis=-1)))


def sparse_categorical_accuracy(y_true, y_pred) -> Tensor:
    """1.0 where the integer label equals argmax(y_pred) along the last axis."""
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true.ndim == y_pred.ndim and y_true.ndim:
        y_true = array_ops.reshape(y_true, y_true.shape.as_list()[:-1])
    predicted = tf_math.argmax(y_pred, axis=-1)
    if predicted.dtype is not y_true.dtype:
        predicted = math_ops.cast(predicted, y_true.dtype)
    return _as_float(tf_math.equal(y_true, predicted))


def _wrapper(name: str, fn, default_name: str, summary: str, example: str):
    def __init__(self, name: str = default_name, dtype=None, **kwargs) -> None:
        MeanMetricWrapper.__init__(self, fn, name, dtype, **kwargs)

    doc = f"{summary}\n\n    Example:\n        >>> import tapeflow as tf\n{example}"
    return type(name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc,
                                             "__module__": __name__})


Accuracy = _wrapper(
    "Accuracy", accuracy, "accuracy", "How often predictions equal labels exactly.",
    "        >>> float(tf.keras.metrics.Accuracy()([1, 2, 3, 4], [0, 2, 3, 4]))\n"
    "        0.75\n")
BinaryAccuracy = _wrapper(
    "BinaryAccuracy", binary_accuracy, "binary_accuracy",
    "How often (y_pred > threshold) equals the 0/1 label; `threshold` defaults to 0.5.",
    "        >>> float(tf.keras.metrics.BinaryAccuracy()([[1], [0]], [[0.9], [0.7]]))\n"
    "        0.5\n")
CategoricalAccuracy = _wrapper(
    "CategoricalAccuracy", categorical_accuracy, "categorical_accuracy",
    "How often the argmax of the prediction matches that of the one-hot label.",
    "        >>> float(tf.keras.metrics.CategoricalAccuracy()([[0, 1], [1, 0]],\n"
    "        ...                                              [[0.2, 0.8], [0.3, 0.7]]))\n"
    "        0.5\n")
SparseCategoricalAccuracy = _wrapper(
    "SparseCategoricalAccuracy", sparse_categorical_accuracy, "sparse_categorical_accuracy",
    "How often the argmax of the prediction equals the integer label.",
    "        >>> m = tf.keras.metrics.SparseCategoricalAccuracy()\n"
    "        >>> float(m([1, 0], [[0.2, 0.8], [0.3, 0.7]]))\n"
    "        0.5\n")
MeanSquaredError = _wrapper(
    "MeanSquaredError", losses.mean_squared_error, "mean_squared_error",
    "The mean squared error over every example given.",
    "        >>> float(tf.keras.metrics.MeanSquaredError()([[0.0, 1.0]], [[1.0, 1.0]]))\n"
    "        0.5\n")
MeanAbsoluteError = _wrapper(
    "MeanAbsoluteError", losses.mean_absolute_error, "mean_absolute_error",
    "The mean absolute error over every example given.",
    "        >>> float(tf.keras.metrics.MeanAbsoluteError()([[0.0, 1.0]], [[2.0, 1.0]]))\n"
    "        1.0\n")

_BY_NAME = {
    "accuracy": Accuracy, "acc": Accuracy, "binary_accuracy": BinaryAccuracy,
    "categorical_accuracy": CategoricalAccuracy,
    "sparse_categorical_accuracy": SparseCategoricalAccuracy,
    "mean_squared_error": MeanSquaredError, "mse": MeanSquaredError,
    "mean_absolute_error": MeanAbsoluteError, "mae": MeanAbsoluteError,
}
_CLASSES = {cls.__name__: cls for cls in (Mean, Sum, *set(_BY_NAME.values()))}


def get(identifier) -> Metric:
    """A metric object from a name ('sparse_categorical_accuracy', 'mae', 'Mean'...), a
    Metric, or a function `fn(y_true, y_pred)` (wrapped in a MeanMetricWrapper).

    Raises:
        ValueError: an unknown name.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.metrics.get("mae").name
        'mean_absolute_error'
    """
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str):
        return by_name("metric", identifier, _BY_NAME, _CLASSES)()
    if callable(identifier):
        return MeanMetricWrapper(identifier)
    raise ValueError(f"Could not interpret metric identifier: {identifier!r}")
