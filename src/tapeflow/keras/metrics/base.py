"""The Metric base class and the running sums and means the other metrics build on.

State lives in non-trainable Variables; `update_state` accumulates, `result` reads,
`reset_state` zeroes, and calling a metric updates it and returns the result. Updates are
written with tapeflow ops, so they also run inside a `tf.function` (as `fit` runs them).
"""
from __future__ import annotations

import numpy as np

from ... import math as tf_math
from ...framework import dtypes
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.variables import Variable
from ...module import Module, camel_to_snake
from ...ops import array_ops, math_ops
from .. import initializers
from ..losses.base import match_ranks

__all__ = ["Metric", "Mean", "Sum", "MeanMetricWrapper", "samplewise"]


class Metric(Module):
    """Base class: state in Variables made with `add_weight` (or `add_variable`);
    subclasses define `update_state` and `result`.

    Args:
        dtype: of the state and result (default float32).
        name: default the class name in snake case.
    """

    _TF_MODULE_IGNORED_PROPERTIES = Module._TF_MODULE_IGNORED_PROPERTIES | {"_state"}

    def __init__(self, dtype=None, name: str | None = None) -> None:
        self._name = name or camel_to_snake(type(self).__name__)
        self._scope = None
        self._dtype = dtypes.as_dtype(dtype or "float32")
        self._state: list = []

    @property
    def dtype(self) -> str:
        return self._dtype.name

    def add_variable(self, shape=(), initializer="zeros", dtype=None, aggregation="sum",
                     name: str | None = None) -> Variable:
        """A non-trainable state Variable (zeros unless another initializer is given)."""
        value = initializers.get(initializer)(tuple(shape), dtype=dtype or self._dtype)
        variable = Variable(value, name=f"{self._name}/{name}", trainable=False)
        self._state.append(variable)
        return variable

    def add_weight(self, name: str, shape=(), initializer="zeros", dtype=None) -> Variable:
        """`add_variable` with the name first, as Keras's `add_weight`."""
        return self.add_variable(shape, initializer, dtype, name=name)

    @property
    def variables(self) -> list:
        """The state Variables in the order they were made, then those of tracked
        sub-metrics."""
        own = list(self._state)
        return own + [v for v in super().variables if all(v is not o for o in own)]

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
        result = self.result()
        shown = f"{float(result):.4g}" if result.shape.num_elements() == 1 else \
            np.array2string(result.numpy(), precision=4)
        return f"<{type(self).__name__} name={self.name} result={shown}>"


def samplewise(values, sample_weight, reduce, dtype) -> tuple:
    """Keras's per-example reduction: (one value per example, the weights or None).

    With weights, the values are first reduced (with `reduce`, a reduce_sum or reduce_mean)
    over the axes the weights lack and multiplied by them; weights of rank > 1 are then
    reduced over their non-batch axes too. Finally values of rank > 1 are reduced to one
    per example.
    """
    values = math_ops.cast(convert_to_tensor(values), dtype)
    weight = None
    if sample_weight is not None:
        weight = math_ops.cast(convert_to_tensor(sample_weight), dtype)
        values, weight = match_ranks(values, weight)
        if values.ndim > weight.ndim:
            values = reduce(values, axis=list(range(weight.ndim, values.ndim)))
        weight = array_ops.broadcast_to(weight, array_ops.shape(values))
        values = values * weight
        if weight.ndim > 1:
            weight = reduce(weight, axis=list(range(1, weight.ndim)))
    if values.ndim > 1:
        values = reduce(values, axis=list(range(1, values.ndim)))
    return values, weight


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
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None) -> None:
        values, _ = samplewise(values, sample_weight, math_ops.reduce_sum, self._dtype)
        self.total.assign_add(math_ops.reduce_sum(values))

    def result(self) -> Tensor:
        return self.total.read_value()


class Mean(Metric):
    """The (weighted) mean of every value given: total / count (0 before any update).

    Values are first reduced to one mean per example (see `samplewise`); `count` counts
    examples, or sums their weights.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.Mean()
        >>> m.update_state([1.0, 3.0, 5.0, 7.0], sample_weight=[1, 1, 0, 0])
        >>> float(m.result())
        2.0
    """

    def __init__(self, name: str = "mean", dtype=None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None) -> None:
        values, weight = samplewise(values, sample_weight, math_ops.reduce_mean, self._dtype)
        self.total.assign_add(math_ops.reduce_sum(values))
        if weight is not None:
            count = math_ops.reduce_sum(weight)
        elif values.ndim:
            count = math_ops.cast(array_ops.shape(values)[0], self._dtype)
        else:
            count = 1.0
        self.count.assign_add(count)

    def result(self) -> Tensor:
        return tf_math.divide_no_nan(self.total, self.count)


class MeanMetricWrapper(Mean):
    """The mean of `fn(y_true, y_pred, **kwargs)` over every example given.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.keras.metrics.MeanMetricWrapper(tf.keras.losses.mean_squared_error)
        >>> float(m([[0.0, 1.0]], [[1.0, 1.0]]))
        0.5
    """

    def __init__(self, fn, name: str | None = None, dtype=None, **kwargs) -> None:
        super().__init__(name=name or fn.__name__, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._fn_kwargs}


def wrapper_class(class_name: str, fn, default_name: str, summary: str, example: str,
                  module: str) -> type:
    """A MeanMetricWrapper subclass of `fn` with the signature `(name=default_name,
    dtype=None, **fn_kwargs)` and a docstring with a runnable example."""
    def __init__(self, name: str = default_name, dtype=None, **kwargs) -> None:
        MeanMetricWrapper.__init__(self, fn, name, dtype, **kwargs)

    doc = f"{summary}\n\n    Example:\n        >>> import tapeflow as tf\n{example}"
    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc,
                                                   "__module__": module})
