"""BatchNormalization."""
from __future__ import annotations

from ...custom_gradient import stop_gradient
from ...ops import array_ops, math_ops
from .. import initializers
from .base import InputSpec, Layer

__all__ = ["BatchNormalization"]


class BatchNormalization(Layer):
    """Normalizes each feature (along `axis`) to zero mean and unit variance.

    In training (`training=True`, on a trainable layer) it uses the batch's mean and
    (biased) variance and moves the non-trainable `moving_mean` / `moving_variance`
    toward them: `moving = moving * momentum + batch * (1 - momentum)`. Otherwise it uses
    the moving statistics. The output is `gamma * (x - mean) / sqrt(var + epsilon) + beta`.

    Args:
        axis: the feature axis (default -1).
        momentum: of the moving averages (default 0.99).
        epsilon: added to the variance (default 0.001).
        center, scale: whether to learn `beta` and `gamma`.

    Raises:
        ValueError: `axis` outside the input's rank, or an unknown feature size.

    Example:
        >>> import tapeflow as tf
        >>> bn = tf.keras.layers.BatchNormalization(epsilon=0.0)
        >>> x = tf.constant([[1.0], [3.0]])
        >>> bn(x, training=True).numpy()
        array([[-1.],
               [ 1.]], dtype=float32)
        >>> [round(float(v), 4) for v in bn.moving_mean.numpy()]
        [0.02]
    """

    def __init__(self, axis=-1, momentum: float = 0.99, epsilon: float = 1e-3,
                 center: bool = True, scale: bool = True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros",
                 moving_variance_initializer="ones", beta_constraint=None,
                 gamma_constraint=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.axis = int(axis)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center = bool(center)
        self.scale = bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_constraint = beta_constraint
        self.gamma_constraint = gamma_constraint

    def build(self, input_shape) -> None:
        rank = len(input_shape)
        if not -rank <= self.axis < rank:
            raise ValueError(f'Layer "{self.name}": invalid axis {self.axis} for input of rank '
                             f"{rank} (shape {input_shape}).")
        axis = self.axis % rank
        size = input_shape[axis]
        if size is None:
            raise ValueError(f'Layer "{self.name}": axis {self.axis} of input shape '
                             f"{input_shape} must be known.")
        self.axis = axis
        self.input_spec = InputSpec(ndim=rank, axes={axis: size})
        self.gamma = self.add_weight("gamma", shape=[size], initializer=self.gamma_initializer,
                                     constraint=self.gamma_constraint) if self.scale else None
        self.beta = self.add_weight("beta", shape=[size], initializer=self.beta_initializer,
                                    constraint=self.beta_constraint) if self.center else None
        self.moving_mean = self.add_weight("moving_mean", shape=[size], trainable=False,
                                           initializer=self.moving_mean_initializer)
        self.moving_variance = self.add_weight("moving_variance", shape=[size],
                                               trainable=False,
                                               initializer=self.moving_variance_initializer)

    def call(self, inputs, training=None):
        rank = inputs.ndim
        reduce_axes = [a for a in range(rank) if a != self.axis]
        broadcast = [1] * rank
        broadcast[self.axis] = inputs.shape.as_list()[self.axis]
        if training and self.trainable:
            mean = math_ops.reduce_mean(inputs, axis=reduce_axes, keepdims=True)
            variance = math_ops.reduce_mean(math_ops.square(inputs - stop_gradient(mean)),
                                            axis=reduce_axes, keepdims=True)
            self._update_moving(self.moving_mean, mean)
            self._update_moving(self.moving_variance, variance)
        else:
            mean = array_ops.reshape(self.moving_mean, broadcast)
            variance = array_ops.reshape(self.moving_variance, broadcast)
        inv = 1.0 / math_ops.sqrt(variance + self.epsilon)
        if self.gamma is not None:
            inv = inv * array_ops.reshape(self.gamma, broadcast)
        outputs = (inputs - mean) * inv
        if self.beta is not None:
            outputs = outputs + array_ops.reshape(self.beta, broadcast)
        return outputs

    def _update_moving(self, moving, batch_value) -> None:
        batch_value = array_ops.reshape(stop_gradient(batch_value), moving.shape.as_list())
        moving.assign(moving * self.momentum + batch_value * (1.0 - self.momentum))

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum,
                "epsilon": self.epsilon, "center": self.center, "scale": self.scale}
