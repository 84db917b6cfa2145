"""Nadam, Adamax, Lamb and Lion: Keras's update formulas and defaults for the optimizers
built on Adam's moving moments."""
from __future__ import annotations

import numpy as np

from ...framework.variables import Variable
from ...ops import math_ops
from .base import Optimizer, _keep, cast_hyperparameter

__all__ = ["Nadam", "Adamax", "Lamb", "Lion"]


class _Moments(Optimizer):
    """An optimizer with Adam's `beta_1`, `beta_2` and `epsilon`, and their defaults."""

    def __init__(self, learning_rate=0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, name: str | None = None, **kwargs) -> None:
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def get_config(self) -> dict:
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}


class Nadam(_Moments):
    """Adam with Nesterov momentum, with Keras's momentum schedule
    u_t = beta_1 * (1 - 0.5 * 0.96 ** t) and its running product.

    Args:
        learning_rate: default 0.001.
        beta_1, beta_2: default 0.9 and 0.999.
        epsilon: default 1e-7.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.Nadam(learning_rate=0.1)
        >>> _ = opt.apply_gradients([(tf.constant(2.0), w)])
        >>> round(float(w), 4)
        0.9
    """

    _ELEMENTWISE = True

    def __init__(self, learning_rate=0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, name: str | None = None, **kwargs) -> None:
        super().__init__(learning_rate, beta_1, beta_2, epsilon, name, **kwargs)
        self._u_product = None
        self._u_product_now = None     # this step's product, set by _prepare_step

    def _slot_names(self) -> dict:
        return {"momentum": 0.0, "velocity": 0.0}

    def _build_state(self, first_variable: Variable) -> None:
        self._u_product = Variable(np.ones((), first_variable.dtype.as_numpy_dtype),
                                   name="variable", trainable=False)

    def _state_variables(self) -> list:
        return [] if self._u_product is None else [("u_product", self._u_product)]

    def _prepare_step(self, xp, count, building: bool, when) -> None:
        if building:
            dtype = self._u_product.dtype
            step = math_ops.cast(count + 1, dtype)
            old = self._u_product.read_value()
            self._u_product_now = old * self.beta_1 * (1.0 - 0.5 * math_ops.pow(
                dtype.as_numpy_dtype(0.96), step))
            self._u_product.assign(_keep(when, self._u_product_now, old))
        else:
            value = self._u_product.mutable_array()
            kind = value.dtype.type
            value[...] = value * kind(self.beta_1) * (1 - kind(0.5) * kind(0.96) ** kind(count + 1))
            self._u_product_now = value[()]

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        # Keras casts beta_1, beta_2 and the decay 0.96 here (the product used them exact).
        beta_1, beta_2, decay = (cast_hyperparameter(x, value)
                                 for x in (self.beta_1, self.beta_2, 0.96))
        u_t = beta_1 * (1.0 - 0.5 * xp.power(decay, step))
        u_t_1 = beta_1 * (1.0 - 0.5 * xp.power(decay, step + 1))
        u_product_t = self._u_product_now
        u_product_t_1 = u_product_t * u_t_1
        m = slots["momentum"] + (gradient - slots["momentum"]) * (1 - beta_1)
        v = slots["velocity"] + (xp.slicewise(xp.square, gradient) - slots["velocity"]) \
            * (1 - beta_2)
        m_hat = u_t_1 * m / (1 - u_product_t_1) + (1 - u_t) * gradient / (1 - u_product_t)
        v_hat = v / (1 - xp.power(beta_2, step))
        return (value - m_hat * lr / (xp.sqrt(v_hat) + self.epsilon),
                {"momentum": m, "velocity": v})


class Adamax(_Moments):
    """Adam with the infinity norm: `u = max(beta_2 * u, |g|)`,
    `w -= lr * m / ((1 - beta_1**t) * (u + epsilon))`.

    Args:
        learning_rate: default 0.001.
        beta_1, beta_2: default 0.9 and 0.999.
        epsilon: default 1e-7.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.Adamax(learning_rate=0.1)
        >>> _ = opt.apply_gradients([(tf.constant(2.0), w)])
        >>> round(float(w), 4)
        0.9
    """

    _ELEMENTWISE = True

    def _slot_names(self) -> dict:
        return {"momentum": 0.0, "norm": 0.0}

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        m = slots["momentum"] + (gradient - slots["momentum"]) * (1 - self.beta_1)
        u = xp.maximum(self.beta_2 * slots["norm"], xp.slicewise(xp.abs, gradient))
        beta_1_power = xp.power(cast_hyperparameter(self.beta_1, value), step)
        step_size = lr * m / ((1 - beta_1_power) * (u + self.epsilon))
        return value - step_size, {"momentum": m, "norm": u}


class Lamb(_Moments):
    """Adam's step scaled per variable by the trust ratio ||w|| / ||step|| (1 where either
    norm is 0).

    Args:
        learning_rate: default 0.001.
        beta_1, beta_2: default 0.9 and 0.999.
        epsilon: default 1e-7.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable([3.0, 4.0])
        >>> opt = tf.keras.optimizers.Lamb(learning_rate=0.1)
        >>> _ = opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
        >>> [round(v, 4) for v in w.numpy().tolist()]       # step 0.1 * 5 / sqrt(2) each
        [2.6464, 3.6464]
    """

    def _slot_names(self) -> dict:
        return {"momentum": 0.0, "velocity": 0.0}

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        m = slots["momentum"] + (gradient - slots["momentum"]) * (1 - self.beta_1)
        v = slots["velocity"] + (xp.slicewise(xp.square, gradient) - slots["velocity"]) \
            * (1 - self.beta_2)
        m_hat = m / (1.0 - xp.power(cast_hyperparameter(self.beta_1, value), step))
        v_hat = v / (1.0 - xp.power(cast_hyperparameter(self.beta_2, value), step))
        update = m_hat / (xp.sqrt(v_hat) + self.epsilon)
        w_norm = xp.sqrt(xp.sum(xp.square(value)))
        g_norm = xp.sqrt(xp.sum(xp.square(update)))
        ratio = xp.where(w_norm > 0, xp.where(g_norm > 0, w_norm / g_norm, 1.0), 1.0)
        return value - ratio * lr * update, {"momentum": m, "velocity": v}


class Lion(Optimizer):
    """The sign of an interpolated momentum: `w -= lr * sign(beta_1 * m + (1 - beta_1) * g)`,
    then `m = beta_2 * m + (1 - beta_2) * g`.

    Args:
        learning_rate: default 0.001.
        beta_1: in (0, 1], default 0.9.
        beta_2: default 0.99.

    Raises:
        ValueError: `beta_1` outside (0, 1].

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable([1.0, 1.0])
        >>> opt = tf.keras.optimizers.Lion(learning_rate=0.1)
        >>> _ = opt.apply_gradients([(tf.constant([3.0, -0.5]), w)])
        >>> w.numpy()
        array([0.9, 1.1], dtype=float32)
    """

    _ELEMENTWISE = True

    def __init__(self, learning_rate=0.001, beta_1: float = 0.9, beta_2: float = 0.99,
                 name: str | None = None, **kwargs) -> None:
        super().__init__(learning_rate, name=name, **kwargs)
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the [0, 1] range. Otherwise, the "
                             f"optimizer degenerates to SignSGD. Received: beta_1={beta_1}.")
        self.beta_1 = beta_1
        self.beta_2 = beta_2

    def _slot_names(self) -> dict:
        return {"momentum": 0.0}

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        m = slots["momentum"]
        beta_1 = cast_hyperparameter(self.beta_1, value)
        beta_2 = cast_hyperparameter(self.beta_2, value)
        direction = xp.sign(m * beta_1 + gradient * (1.0 - beta_1))
        return (value - lr * direction,
                {"momentum": m * beta_2 + gradient * (1.0 - beta_2)})

    def get_config(self) -> dict:
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2}
