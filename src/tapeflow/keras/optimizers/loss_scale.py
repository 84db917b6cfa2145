"""LossScaleOptimizer: dynamic loss scaling around another optimizer, as Keras 3 does it."""
from __future__ import annotations

import numpy as np

from ... import math as tf_math
from ...framework.context import executing_eagerly
from ...framework.variables import Variable
from ...ops import array_ops, math_ops
from ...ops.indexing_ops import where
from ..naming import serialized
from .base import Optimizer

__all__ = ["LossScaleOptimizer"]

_BASE_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None,
                  "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
                  "ema_overwrite_frequency": None, "loss_scale_factor": None,
                  "gradient_accumulation_steps": None}


class LossScaleOptimizer(Optimizer):
    """Scales the loss up (`scale_loss`) so small float16 gradients do not underflow, and
    the gradients back down before the inner optimizer uses them.

    When every gradient is finite the inner optimizer steps, and after
    `dynamic_growth_steps` such steps in a row the scale doubles; otherwise the step is
    skipped (the inner optimizer's `iterations` included) and the scale halves.

    Args:
        inner_optimizer: the optimizer that updates the variables.
        initial_scale: default 2 ** 15.
        dynamic_growth_steps: default 2000.

    Raises:
        ValueError: `dynamic=False`, or a base option (clipping, EMA, ...), which belongs on
            the inner optimizer.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.LossScaleOptimizer(tf.keras.optimizers.SGD(0.5),
        ...                                              initial_scale=4.0)
        >>> _ = opt.apply_gradients([(tf.constant(8.0), w)])    # 8 / 4 = 2: w -= 0.5 * 2
        >>> float(w), float(opt.dynamic_scale)
        (0.0, 4.0)
        >>> _ = opt.apply_gradients([(tf.constant(float("inf")), w)])   # skipped
        >>> float(w), float(opt.dynamic_scale), int(opt.iterations)
        (0.0, 2.0, 1)
    """

    def __init__(self, inner_optimizer: Optimizer, initial_scale: float = 2.0 ** 15,
                 dynamic_growth_steps: int = 2000, name: str | None = None,
                 **kwargs) -> None:
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, "
                             "simply set `loss_scale_factor` directly on the "
                             "`inner_optimizer`.")
        for arg, default in _BASE_DEFAULTS.items():
            if arg in kwargs and kwargs.pop(arg) != default:
                raise ValueError(f"LossScaleOptimizer does not support `{arg}`. Instead, set "
                                 f"`{arg}` on the `inner_optimizer`.")
        if kwargs:
            raise ValueError("LossScaleOptimizer does not support arguments: "
                             f"`{'`, `'.join(kwargs)}`.")
        super().__init__(learning_rate=0.0, name=name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        inner_optimizer.loss_scale_factor = None
        self.step_counter = Variable(np.int64(0), name="step_counter", trainable=False)
        self.dynamic_scale = Variable(np.float32(initial_scale), name="dynamic_scale",
                                      trainable=False)

    @property
    def iterations(self) -> Variable:
        """The inner optimizer's step counter."""
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self):
        """The inner optimizer's learning rate."""
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value) -> None:
        self.inner_optimizer.learning_rate = value

    @property
    def variables(self) -> list:
        """Its own counters and scale, then the inner optimizer's variables."""
        return [self._iterations, self._learning_rate, self.step_counter,
                self.dynamic_scale] + self.inner_optimizer.variables

    def build(self, var_list) -> None:
        self.inner_optimizer.build(var_list)

    def scale_loss(self, loss):
        """The loss times the current scale."""
        return loss * math_ops.cast(self.dynamic_scale, loss.dtype)

    def apply_gradients(self, grads_and_vars, name=None, skip_gradients_aggregation=False):
        """Unscales the gradients and lets the inner optimizer step if all are finite;
        then grows or halves the scale. Returns the inner `iterations`."""
        checked = self._checked_pairs(grads_and_vars)
        building = not executing_eagerly()
        scale = self.dynamic_scale.read_value()
        unscaled = [(g / math_ops.cast(scale, g.dtype), v) for g, v in checked]
        finite = [tf_math.reduce_all(tf_math.is_finite(getattr(g, "dense", g)))
                  for g, _ in checked]
        counter = self.step_counter.read_value()
        if not building:
            if all(bool(f) for f in finite):
                self.inner_optimizer._apply_checked(unscaled)
                grow = int(counter) == self.dynamic_growth_steps - 1
                self.step_counter.assign(0 if grow else int(counter) + 1)
                self.dynamic_scale.assign(scale * 2.0 if grow else scale)
            else:
                self.step_counter.assign(0)
                self.dynamic_scale.assign(scale * 0.5)
            return self.iterations
        all_finite = tf_math.reduce_all(array_ops.stack(finite))
        self.inner_optimizer._apply_checked(unscaled, when=all_finite)
        grow = tf_math.logical_and(all_finite,
                                   tf_math.equal(counter, self.dynamic_growth_steps - 1))
        zero = counter * 0
        self.step_counter.assign(where(all_finite, where(grow, zero, counter + 1), zero))
        self.dynamic_scale.assign(where(all_finite, where(grow, scale * 2.0, scale),
                                        scale * 0.5))
        return self.iterations

    def finalize_variable_values(self, var_list) -> None:
        self.inner_optimizer.finalize_variable_values(var_list)

    def get_config(self) -> dict:
        return {"name": self.name,
                "inner_optimizer": serialized(self.inner_optimizer, "keras.optimizers"),
                "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config: dict) -> "LossScaleOptimizer":
        from . import deserialize
        config = dict(config)
        return cls(deserialize(config.pop("inner_optimizer")), **config)

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        return {"iteration": self._iterations, "learning_rate": self._learning_rate,
                "step_counter": self.step_counter, "dynamic_scale": self.dynamic_scale,
                "inner_optimizer": self.inner_optimizer}
