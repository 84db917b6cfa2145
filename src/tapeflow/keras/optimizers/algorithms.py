"""SGD, Adam, AdamW, RMSprop and Adagrad: Keras's update formulas and defaults.

Each `_update_step` is the formula alone, on arrays or tensors in the variable's dtype (see
Optimizer in base.py for how the results reach the variables).
"""
from __future__ import annotations

from .base import Optimizer, cast_hyperparameter

__all__ = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]


class SGD(Optimizer):
    """Gradient descent, with optional momentum and Nesterov momentum.

    Without momentum: `w -= lr * g`. With it: `m = momentum * m - lr * g`, then `w += m`
    (or `w += momentum * m - lr * g` with `nesterov`).

    Args:
        learning_rate: default 0.01.
        momentum: in [0, 1], default 0.
        nesterov: default False.

    Raises:
        ValueError: `momentum` outside [0, 1].

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     _ = opt.apply_gradients([(tf.constant(1.0), w)])
        >>> round(float(w), 4)              # 1 - 0.1 - (0.9 * 0.1 + 0.1)
        0.71
    """

    _ELEMENTWISE = True

    def __init__(self, learning_rate=0.01, momentum: float = 0.0, nesterov: bool = False,
                 name: str | None = None, **kwargs) -> None:
        super().__init__(learning_rate, name=name, **kwargs)
        if not 0 <= momentum <= 1:
            raise ValueError(f"`momentum` must be between [0, 1]. Received: momentum={momentum}")
        self.momentum = momentum
        self.nesterov = bool(nesterov)

    def _slot_names(self) -> dict:
        return {"momentum": 0.0} if self.momentum else {}

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        if not self.momentum:
            return value - lr * gradient, {}
        momentum = cast_hyperparameter(self.momentum, value)
        m = slots["momentum"] * momentum - gradient * lr
        if self.nesterov:
            return value + (m * momentum - gradient * lr), {"momentum": m}
        return value + m, {"momentum": m}

    def get_config(self) -> dict:
        return {**super().get_config(), "momentum": self.momentum, "nesterov": self.nesterov}


class Adam(Optimizer):
    """Adam: moving averages of the gradient and its square, bias-corrected.

    With t = iterations + 1: `m += (g - m) * (1 - beta_1)`, `v += (g**2 - v) * (1 - beta_2)`,
    `w -= m * lr * sqrt(1 - beta_2**t) / (1 - beta_1**t) / (sqrt(v) + epsilon)`; with
    `amsgrad`, v is replaced by its running maximum.

    Args:
        learning_rate: default 0.001.
        beta_1, beta_2: default 0.9 and 0.999.
        epsilon: default 1e-7 (Keras's, not the paper's 1e-8).
        amsgrad: default False.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.Adam(learning_rate=0.1)
        >>> _ = opt.apply_gradients([(tf.constant(2.0), w)])
        >>> round(float(w), 4)              # the first step moves by about lr
        0.9
    """

    _ELEMENTWISE = True

    def __init__(self, learning_rate=0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, amsgrad: bool = False, name: str | None = None,
                 **kwargs) -> None:
        super().__init__(learning_rate, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.amsgrad = bool(amsgrad)

    _SLOT_GROUPS = (("momentum", "velocity"), ("velocity_hat",))

    def _slot_names(self) -> dict:
        names = {"momentum": 0.0, "velocity": 0.0}
        if self.amsgrad:
            names["velocity_hat"] = 0.0
        return names

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        beta_1_power = cast_hyperparameter(self.beta_1, value) ** step
        beta_2_power = cast_hyperparameter(self.beta_2, value) ** step
        alpha = lr * xp.sqrt(1 - beta_2_power) / (1 - beta_1_power)
        m = slots["momentum"] + (gradient - slots["momentum"]) * (1 - self.beta_1)
        v = slots["velocity"] + (xp.slicewise(xp.square, gradient) - slots["velocity"]) \
            * (1 - self.beta_2)
        new_slots = {"momentum": m, "velocity": v}
        if self.amsgrad:
            v = new_slots["velocity_hat"] = xp.maximum(slots["velocity_hat"], v)
        return value - (m * alpha) / (xp.sqrt(v) + self.epsilon), new_slots

    def get_config(self) -> dict:
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon, "amsgrad": self.amsgrad}


class AdamW(Adam):
    """Adam with decoupled weight decay: each step first does `w -= w * weight_decay * lr`.

    Args:
        learning_rate: default 0.001.
        weight_decay: default 0.004.
        beta_1, beta_2, epsilon, amsgrad: as Adam.

    Raises:
        ValueError: `weight_decay` is None.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5)
        >>> _ = opt.apply_gradients([(tf.constant(0.0), w)])   # no gradient: decay only
        >>> round(float(w), 4)
        0.95
    """

    def __init__(self, learning_rate=0.001, weight_decay: float = 0.004, beta_1: float = 0.9,
                 beta_2: float = 0.999, epsilon: float = 1e-7, amsgrad: bool = False,
                 name: str | None = None, **kwargs) -> None:
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: "
                             "weight_decay=None")
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, name=name,
                         weight_decay=weight_decay, **kwargs)


class RMSprop(Optimizer):
    """RMSprop: divides the gradient by a moving root mean square.

    `v = rho * v + (1 - rho) * g**2`; the step is `lr * g / sqrt(v + epsilon)` (with
    `centered`, v minus the squared moving mean gradient), applied through a momentum
    accumulator when `momentum` > 0.

    Args:
        learning_rate: default 0.001.
        rho: default 0.9.
        momentum: default 0.
        epsilon: default 1e-7.
        centered: default False.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.RMSprop(learning_rate=0.01, rho=0.0)
        >>> _ = opt.apply_gradients([(tf.constant(3.0), w)])   # g / sqrt(g**2) = 1
        >>> round(float(w), 4)
        0.99
    """

    _ELEMENTWISE = True

    def __init__(self, learning_rate=0.001, rho: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-7, centered: bool = False, name: str | None = None,
                 **kwargs) -> None:
        super().__init__(learning_rate, name=name, **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = bool(centered)

    _SLOT_GROUPS = (("velocity",), ("momentum",), ("average_gradient",))

    def _slot_names(self) -> dict:
        names = {"velocity": 0.0}
        if self.momentum > 0:
            names["momentum"] = 0.0
        if self.centered:
            names["average_gradient"] = 0.0
        return names

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        rho = self.rho
        velocity = rho * slots["velocity"] \
            + xp.slicewise(lambda g: (1 - rho) * xp.square(g), gradient)
        new_slots = {"velocity": velocity}
        if self.centered:
            average = new_slots["average_gradient"] = \
                rho * slots["average_gradient"] + (1 - rho) * gradient
            denominator = velocity - xp.square(average) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = lr * gradient / xp.sqrt(denominator)
        if self.momentum > 0:
            increment = new_slots["momentum"] = self.momentum * slots["momentum"] + increment
        return value - increment, new_slots

    def get_config(self) -> dict:
        return {**super().get_config(), "rho": self.rho, "momentum": self.momentum,
                "epsilon": self.epsilon, "centered": self.centered}


class Adagrad(Optimizer):
    """Adagrad: `acc += g**2`, then `w -= lr * g / sqrt(acc + epsilon)`.

    Args:
        learning_rate: default 0.001.
        initial_accumulator_value: the accumulators' starting value, default 0.1.
        epsilon: default 1e-7.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.Adagrad(learning_rate=0.5, initial_accumulator_value=0.0,
        ...                                   epsilon=0.0)
        >>> _ = opt.apply_gradients([(tf.constant(2.0), w)])   # 0.5 * 2 / sqrt(4)
        >>> float(w)
        0.5
    """

    _ELEMENTWISE = True

    def __init__(self, learning_rate=0.001, initial_accumulator_value: float = 0.1,
                 epsilon: float = 1e-7, name: str | None = None, **kwargs) -> None:
        super().__init__(learning_rate, name=name, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def _slot_names(self) -> dict:
        return {"accumulator": self.initial_accumulator_value}

    def _update_step(self, xp, gradient, value, slots, lr, step) -> tuple:
        accumulator = slots["accumulator"] + xp.slicewise(xp.square, gradient)
        return (value - lr * gradient / xp.sqrt(accumulator + self.epsilon),
                {"accumulator": accumulator})

    def get_config(self) -> dict:
        return {**super().get_config(),
                "initial_accumulator_value": self.initial_accumulator_value,
                "epsilon": self.epsilon}
