"""BatchNormalization and LayerNormalization."""
from __future__ import annotations

from ...custom_gradient import stop_gradient
from ...ops import array_ops, math_ops
from .. import initializers, regularizers
from .base import InputSpec, Layer

__all__ = ["BatchNormalization", "LayerNormalization"]


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

    _single_input = True

    def __init__(self, axis=-1, momentum: float = 0.99, epsilon: float = 1e-3,
                 center: bool = True, scale: bool = True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros",
                 moving_variance_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 synchronized: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
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
                                     regularizer=self.gamma_regularizer,
                                     constraint=self.gamma_constraint) if self.scale else None
        self.beta = self.add_weight("beta", shape=[size], initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer,
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


class LayerNormalization(Layer):
    """Normalizes each example over `axis` (default the last): `gamma * (x - mean) /
    sqrt(variance + epsilon) + beta`, with the mean and (biased) variance taken over those
    axes alone, so it behaves the same in training and inference and has no moving state.

    Args:
        axis: an axis or list of axes to normalize over (and that gamma and beta span).
        epsilon: added to the variance (default 0.001).
        center, scale: whether to learn `beta` and `gamma`.
        beta_initializer, gamma_initializer, beta_regularizer, gamma_regularizer,
        beta_constraint, gamma_constraint: for the two weights.

    Raises:
        ValueError: an axis outside the input's rank (naming the layer and shape), or an
            unknown size along it.

    Example:
        >>> import tapeflow as tf
        >>> ln = tf.keras.layers.LayerNormalization(epsilon=0.0)
        >>> ln(tf.constant([[1.0, 3.0], [2.0, 6.0]])).numpy()
        array([[-1.,  1.],
               [-1.,  1.]], dtype=float32)
    """

    _single_input = True

    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | frozenset((
        "_axes", "_broadcast"))

    def __init__(self, axis=-1, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer="zeros", gamma_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.axis = [int(a) for a in axis] if isinstance(axis, (list, tuple)) else int(axis)
        self.epsilon = float(epsilon)
        self.center = bool(center)
        self.scale = bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = beta_constraint
        self.gamma_constraint = gamma_constraint

    def build(self, input_shape) -> None:
        rank = len(input_shape)
        axes = self.axis if isinstance(self.axis, list) else [self.axis]
        if any(not -rank <= a < rank for a in axes):
            raise ValueError(f'Layer "{self.name}": invalid axis {self.axis} for input of rank '
                             f"{rank} (shape {input_shape}).")
        self._axes = sorted(a % rank for a in axes)
        sizes = [input_shape[a] for a in self._axes]
        if None in sizes:
            raise ValueError(f'Layer "{self.name}": the axes {self.axis} of input shape '
                             f"{input_shape} must have known sizes.")
        self._broadcast = [input_shape[a] if a in self._axes else 1 for a in range(rank)]
        self.gamma = self.add_weight("gamma", shape=sizes, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer,
                                     constraint=self.gamma_constraint) if self.scale else None
        self.beta = self.add_weight("beta", shape=sizes, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer,
                                    constraint=self.beta_constraint) if self.center else None
        self.input_spec = InputSpec(ndim=rank, axes={a: input_shape[a] for a in self._axes})

    def call(self, inputs):
        mean = math_ops.reduce_mean(inputs, axis=self._axes, keepdims=True)
        centered = inputs - mean
        variance = math_ops.reduce_mean(math_ops.square(centered), axis=self._axes,
                                        keepdims=True)
        outputs = centered * math_ops.rsqrt(variance + self.epsilon)
        if self.gamma is not None:
            outputs = outputs * array_ops.reshape(self.gamma, self._broadcast)
        if self.beta is not None:
            outputs = outputs + array_ops.reshape(self.beta, self._broadcast)
        return outputs

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale}
