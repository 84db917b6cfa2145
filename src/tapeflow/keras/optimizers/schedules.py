"""keras.optimizers.schedules: learning rates as functions of the step, with Keras's formulas.

The formulas are written with tapeflow ops, so a schedule also works on the symbolic step
counter of an optimizer inside a `tf.function`.
"""
from __future__ import annotations

import math

from ...framework.tensor import Tensor, constant, convert_to_tensor
from ...ops import math_ops
from ...ops.indexing_ops import where
from ..naming import serialized

__all__ = ["LearningRateSchedule", "ExponentialDecay", "InverseTimeDecay",
           "PiecewiseConstantDecay", "PolynomialDecay", "CosineDecay", "serialize",
           "deserialize"]


class LearningRateSchedule:
    """Base class: `schedule(step)` returns the learning rate (a float32 Tensor)."""

    def __call__(self, step) -> Tensor:
        return self._rate(math_ops.cast(convert_to_tensor(step), "float32"))

    def _rate(self, step: Tensor) -> Tensor:
        raise NotImplementedError

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "LearningRateSchedule":
        return cls(**config)


class ExponentialDecay(LearningRateSchedule):
    """initial_learning_rate * decay_rate ** (step / decay_steps); the exponent is floored
    with `staircase`.

    Example:
        >>> import tapeflow as tf
        >>> schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
        >>> round(float(schedule(20)), 6)
        0.025
    """

    def __init__(self, initial_learning_rate: float, decay_steps: int, decay_rate: float,
                 staircase: bool = False, name=None) -> None:
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: {decay_steps}")
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def _rate(self, step):
        p = step / self.decay_steps
        if self.staircase:
            p = math_ops.floor(p)
        return self.initial_learning_rate * self.decay_rate ** p

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class InverseTimeDecay(ExponentialDecay):
    """initial_learning_rate / (1 + decay_rate * step / decay_steps); floored with
    `staircase`.

    Example:
        >>> import tapeflow as tf
        >>> schedule = tf.keras.optimizers.schedules.InverseTimeDecay(0.1, 10, 1.0)
        >>> round(float(schedule(10)), 6)
        0.05
    """

    def _rate(self, step):
        p = step / self.decay_steps
        if self.staircase:
            p = math_ops.floor(p)
        return self.initial_learning_rate / (1.0 + self.decay_rate * p)


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[0] up to boundaries[0], values[1] up to boundaries[1], ..., then values[-1].

    Raises:
        ValueError: `values` is not one longer than `boundaries`.

    Example:
        >>> import tapeflow as tf
        >>> schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay([10], [1.0, 0.5])
        >>> float(schedule(10)), float(schedule(11))
        (1.0, 0.5)
    """

    def __init__(self, boundaries, values, name=None) -> None:
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of "
                             f"values. Received: boundaries={boundaries} of length "
                             f"{len(boundaries)}, and values={values} of length {len(values)}.")
        self.boundaries = list(boundaries)
        self.values = list(values)
        self.name = name

    def _rate(self, step):
        rate = constant(self.values[-1], dtype="float32")
        for boundary, value in reversed(list(zip(self.boundaries, self.values))):
            rate = where(step <= boundary, constant(value, dtype="float32"), rate)
        return rate

    def get_config(self) -> dict:
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """(initial - end) * (1 - step / decay_steps) ** power + end, with step capped at
    decay_steps (or decay_steps stretched to the next multiple with `cycle`).

    Example:
        >>> import tapeflow as tf
        >>> schedule = tf.keras.optimizers.schedules.PolynomialDecay(1.0, 10, 0.0)
        >>> float(schedule(5)), float(schedule(50))
        (0.5, 0.0)
    """

    def __init__(self, initial_learning_rate: float, decay_steps: int,
                 end_learning_rate: float = 0.0001, power: float = 1.0, cycle: bool = False,
                 name=None) -> None:
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def _rate(self, step):
        decay_steps = self.decay_steps
        if self.cycle:
            decay_steps = decay_steps * math_ops.maximum(math_ops.ceil(step / decay_steps), 1.0)
        else:
            step = math_ops.minimum(step, float(decay_steps))
        fraction = (1.0 - step / decay_steps) ** self.power
        return (self.initial_learning_rate - self.end_learning_rate) * fraction \
            + self.end_learning_rate

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """initial_learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * step / decay_steps)) + alpha),
    step capped at decay_steps.

    Example:
        >>> import tapeflow as tf
        >>> schedule = tf.keras.optimizers.schedules.CosineDecay(1.0, 10)
        >>> round(float(schedule(5)), 6), float(schedule(10))
        (0.5, 0.0)
    """

    def __init__(self, initial_learning_rate: float, decay_steps: int, alpha: float = 0.0,
                 name=None) -> None:
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name

    def _rate(self, step):
        step = math_ops.minimum(step, float(self.decay_steps))
        cosine = 0.5 * (1.0 + math_ops.cos(math.pi * step / self.decay_steps))
        return self.initial_learning_rate * ((1.0 - self.alpha) * cosine + self.alpha)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name}


def serialize(schedule: LearningRateSchedule) -> dict:
    """{'module', 'class_name', 'config', 'registered_name'}, as Keras writes a schedule.

    Example:
        >>> import tapeflow as tf
        >>> schedules = tf.keras.optimizers.schedules
        >>> schedules.serialize(schedules.ExponentialDecay(0.1, 10, 0.5))["class_name"]
        'ExponentialDecay'
    """
    return serialized(schedule, "keras.optimizers.schedules")


def deserialize(config: dict) -> LearningRateSchedule:
    """The schedule a `serialize` dict describes.

    Raises:
        ValueError: an unknown class name.
    """
    classes = {cls.__name__: cls for cls in (ExponentialDecay, InverseTimeDecay,
                                             PiecewiseConstantDecay, PolynomialDecay,
                                             CosineDecay)}
    if config.get("class_name") not in classes:
        raise ValueError(f"Unknown learning rate schedule: {config.get('class_name')!r}. "
                         f"Known names: {', '.join(sorted(classes))}.")
    return classes[config["class_name"]].from_config(config["config"])
