"""Adadelta, Ftrl and Adafactor: Keras's update formulas and defaults for optimizers whose
per-coordinate step sizes come from accumulated squares."""
from __future__ import annotations

import numpy as np

from ...framework.variables import Variable
from .base import Optimizer

__all__ = ["Adadelta", "Ftrl", "Adafactor"]


class Adadelta(Optimizer):
    """Steps of size rms(past steps) / rms(past gradients), times the learning rate.

    `acc_g = rho * acc_g + (1 - rho) * g**2`; `d = -sqrt(acc_d + eps) / sqrt(acc_g + eps) * g`;
    `acc_d = rho * acc_d + (1 - rho) * d**2`; `w += lr * d`.

    Args:
        learning_rate: default 0.001.
        rho: default 0.95.
        epsilon: default 1e-7.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.Adadelta(learning_rate=1.0, rho=0.0, epsilon=1e-6)
        >>> _ = opt.apply_gradients([(tf.constant(1.0), w)])   # d = -sqrt(1e-6) / 1
        >>> round(float(w), 6)
        0.999
    """

    _ELEMENTWISE = True

    def __init__(self, learning_rate=0.001, rho: float = 0.95, epsilon: float = 1e-7,
                 name: str | None = None, **kwargs) -> None:
        super().__init__(learning_rate, name=name, **kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def _slot_names(self) -> dict:
        return {"accumulated_grad": 0.0, "accumulated_delta_var": 0.0}

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        rho, eps = self.rho, self.epsilon
        grad_square = rho * slots["accumulated_grad"] \
            + xp.slicewise(lambda g: (1 - rho) * xp.square(g), gradient)
        rms_delta, rms_grad = xp.sqrt(slots["accumulated_delta_var"] + eps), \
            xp.sqrt(grad_square + eps)
        delta = -(rms_delta * gradient / rms_grad)
        delta_square = rho * slots["accumulated_delta_var"] + xp.slicewise(
            lambda g, a, b: (1 - rho) * xp.square(-(a * g / b)), gradient, rms_delta, rms_grad)
        return value + lr * delta, {"accumulated_grad": grad_square,
                                    "accumulated_delta_var": delta_square}

    def get_config(self) -> dict:
        return {**super().get_config(), "rho": self.rho, "epsilon": self.epsilon}


class Ftrl(Optimizer):
    """Follow The Regularized Leader (McMahan et al., 2013), with L1, L2 and L2-shrinkage
    regularization, as Keras computes it.

    Args:
        learning_rate: default 0.001.
        learning_rate_power: <= 0, default -0.5.
        initial_accumulator_value: >= 0, default 0.1.
        l1_regularization_strength, l2_regularization_strength,
        l2_shrinkage_regularization_strength: >= 0, default 0.
        beta: default 0 (adds beta / (2 * lr) to the L2 strength).

    Raises:
        ValueError: a negative accumulator value or strength, or a positive power.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(0.0)
        >>> opt = tf.keras.optimizers.Ftrl(learning_rate=1.0, initial_accumulator_value=0.0)
        >>> _ = opt.apply_gradients([(tf.constant(2.0), w)])   # -linear / quadratic = -2 / 2
        >>> float(w)
        -1.0
    """

    _ELEMENTWISE = True

    def __init__(self, learning_rate=0.001, learning_rate_power: float = -0.5,
                 initial_accumulator_value: float = 0.1,
                 l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0,
                 l2_shrinkage_regularization_strength: float = 0.0, beta: float = 0.0,
                 name: str | None = None, **kwargs) -> None:
        super().__init__(learning_rate, name=name, **kwargs)
        if initial_accumulator_value < 0.0:
            raise ValueError("`initial_accumulator_value` needs to be positive or zero. "
                             f"Received: initial_accumulator_value={initial_accumulator_value}.")
        if learning_rate_power > 0.0:
            raise ValueError("`learning_rate_power` needs to be negative or zero. Received: "
                             f"learning_rate_power={learning_rate_power}.")
        for arg, strength in [("l1_regularization_strength", l1_regularization_strength),
                              ("l2_regularization_strength", l2_regularization_strength),
                              ("l2_shrinkage_regularization_strength",
                               l2_shrinkage_regularization_strength)]:
            if strength < 0.0:
                raise ValueError(f"`{arg}` needs to be positive or zero. Received: "
                                 f"{arg}={strength}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def _slot_names(self) -> dict:
        return {"accumulator": self.initial_accumulator_value, "linear": 0.0}

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        power = -self.learning_rate_power
        l1 = self.l1_regularization_strength
        l2 = self.l2_regularization_strength + self.beta / (2.0 * lr)
        shrunk = gradient + 2 * self.l2_shrinkage_regularization_strength * value
        accumulator = slots["accumulator"]
        new_accumulator = accumulator + xp.slicewise(xp.square, gradient)
        linear = slots["linear"] + shrunk - (
            xp.power(new_accumulator, power) - xp.power(accumulator, power)) / lr * value
        quadratic = xp.power(new_accumulator, power) / lr + 2 * l2
        new_value = (xp.clip(linear, -l1, l1) - linear) / quadratic
        return new_value, {"accumulator": new_accumulator, "linear": linear}

    def get_config(self) -> dict:
        return {**super().get_config(), "learning_rate_power": self.learning_rate_power,
                "initial_accumulator_value": self.initial_accumulator_value,
                "l1_regularization_strength": self.l1_regularization_strength,
                "l2_regularization_strength": self.l2_regularization_strength,
                "l2_shrinkage_regularization_strength":
                    self.l2_shrinkage_regularization_strength,
                "beta": self.beta}


class Adafactor(Optimizer):
    """Adam-like steps with a factored second moment: for a variable of rank >= 2, running
    means of the squared gradient over its last axis (slot 'r') and over the one before
    ('c'), whose outer product (r normalized) stands in for the full second moment.

    The step size is max(epsilon_2, rms(w)) * min(lr, 1 / sqrt(t)); the normalized
    gradient's rms is clipped to `clip_threshold`; the decay of the moments is
    1 - t ** beta_2_decay.

    Args:
        learning_rate: default 0.001.
        beta_2_decay: default -0.8.
        epsilon_1: added to the squared gradient, default 1e-30.
        epsilon_2: the smallest rms(w) used, default 1e-3.
        clip_threshold: default 1.0.
        relative_step: default True.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable([[1.0, 1.0], [1.0, 1.0]])
        >>> opt = tf.keras.optimizers.Adafactor(learning_rate=0.1)
        >>> _ = opt.apply_gradients([(tf.ones((2, 2)), w)])
        >>> w.numpy()                        # rms(w) * lr * g / sqrt(g**2) per entry
        array([[0.9, 0.9],
               [0.9, 0.9]], dtype=float32)
    """

    def __init__(self, learning_rate=0.001, beta_2_decay: float = -0.8,
                 epsilon_1: float = 1e-30, epsilon_2: float = 1e-3,
                 clip_threshold: float = 1.0, relative_step: bool = True,
                 name: str | None = None, **kwargs) -> None:
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_2_decay = beta_2_decay
        self.epsilon_1 = epsilon_1
        self.epsilon_2 = epsilon_2
        self.clip_threshold = clip_threshold
        self.relative_step = relative_step

    def _slot_names(self) -> dict:
        return {"r": 0.0, "c": 0.0, "velocity": 0.0}

    def _slot_shape(self, name: str, variable: Variable) -> list:
        shape = variable.shape.as_list()
        if name == "velocity":
            return shape
        if len(shape) < 2:
            return []
        return shape[:-1] if name == "r" else shape[:-2] + shape[-1:]

    def _slot_dtype(self, name: str, variable: Variable):
        # An unfactored (rank < 2) variable's 'r' and 'c' are int32 scalar placeholders.
        if name != "velocity" and variable.shape.rank < 2:
            return np.int32
        return variable.dtype.as_numpy_dtype

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        def rms(x):
            return xp.sqrt(xp.mean(xp.square(x)))

        rho = xp.minimum(lr, 1.0 / xp.sqrt(step))
        alpha = xp.maximum(self.epsilon_2, rms(value)) * rho
        squared = xp.slicewise(xp.square, gradient) + self.epsilon_1
        beta_2 = 1.0 - xp.power(step, self.beta_2_decay)
        new_slots = {}
        if len(value.shape) >= 2:
            r = new_slots["r"] = beta_2 * slots["r"] + (1.0 - beta_2) * xp.mean(squared, axis=-1)
            c = new_slots["c"] = beta_2 * slots["c"] + (1.0 - beta_2) * xp.mean(squared, axis=-2)
            v = xp.expand_dims(r / xp.mean(r, axis=-1, keepdims=True), -1) \
                * xp.expand_dims(c, -2)
        else:
            v = beta_2 * slots["velocity"] + (1.0 - beta_2) * squared
        new_slots["velocity"] = v
        root = xp.sqrt(v)
        u = gradient / root
        rms_u = xp.sqrt(xp.mean(xp.slicewise(lambda g, r: xp.square(g / r), gradient, root)))
        u = u / xp.maximum(1.0, rms_u / self.clip_threshold)
        return value - alpha * u, new_slots

    def get_config(self) -> dict:
        return {**super().get_config(), "beta_2_decay": self.beta_2_decay,
                "epsilon_1": self.epsilon_1, "epsilon_2": self.epsilon_2,
                "clip_threshold": self.clip_threshold, "relative_step": self.relative_step}
