"""BatchNormalization, LayerNormalization, GroupNormalization and UnitNormalization."""
from __future__ import annotations

from ... import nn as tf_nn
from ...custom_gradient import stop_gradient
from ...ops import array_ops, math_ops
from .. import initializers, regularizers
from .base import InputSpec, Layer, serialize_constraint

__all__ = ["BatchNormalization", "LayerNormalization", "GroupNormalization",
           "UnitNormalization"]


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
        synchronized: in training under a `tf.distribute` strategy with several replicas,
            take the batch statistics over every replica's examples (an all-reduce of the
            sums, differentiated through); by default each replica uses its own batch.

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

    supports_masking = True
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
        self.synchronized = bool(synchronized)

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
            mean, variance = self._batch_moments(inputs, reduce_axes)
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

    def _batch_moments(self, inputs, reduce_axes: list) -> tuple:
        """The batch's mean and biased variance: this replica's, or with `synchronized`
        every replica's, from all-reduced sums of x and x^2 and the example counts."""
        replica = _replica_context() if self.synchronized else None
        if replica is None or replica.num_replicas_in_sync == 1:
            mean = math_ops.reduce_mean(inputs, axis=reduce_axes, keepdims=True)
            return mean, math_ops.reduce_mean(math_ops.square(inputs - stop_gradient(mean)),
                                              axis=reduce_axes, keepdims=True)
        features = inputs.shape.as_list()[self.axis]
        count = math_ops.cast(array_ops.size(inputs), inputs.dtype) / float(features)
        total, squares, count = replica.all_reduce("sum", [
            math_ops.reduce_sum(inputs, axis=reduce_axes, keepdims=True),
            math_ops.reduce_sum(math_ops.square(inputs), axis=reduce_axes, keepdims=True),
            count])
        mean = total / count
        return mean, squares / count - math_ops.square(mean)

    def _update_moving(self, moving, batch_value) -> None:
        batch_value = array_ops.reshape(stop_gradient(batch_value), moving.shape.as_list())
        moving.assign(moving * self.momentum + batch_value * (1.0 - self.momentum))

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum,
                "epsilon": self.epsilon, "center": self.center, "scale": self.scale,
                **_affine_config(self),
                "moving_mean_initializer": initializers.serialize(self.moving_mean_initializer),
                "moving_variance_initializer":
                    initializers.serialize(self.moving_variance_initializer),
                "synchronized": self.synchronized}



def _replica_context():
    import tapeflow as tf
    return tf.distribute.get_replica_context()


class _ScaleShift(Layer):
    """A normalization followed by a learned per-channel scale `gamma` and shift `beta`."""

    def __init__(self, epsilon: float, center: bool, scale: bool, beta_initializer,
                 gamma_initializer, beta_regularizer, gamma_regularizer, beta_constraint,
                 gamma_constraint, **kwargs) -> None:
        super().__init__(**kwargs)
        self.epsilon = float(epsilon)
        self.center = bool(center)
        self.scale = bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = beta_constraint
        self.gamma_constraint = gamma_constraint

    def _add_gamma_and_beta(self, shape: list) -> None:
        """Creates `gamma` and `beta` of `shape`, each only when used (scale, center)."""
        self.gamma = self.add_weight("gamma", shape=shape, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer,
                                     constraint=self.gamma_constraint) if self.scale else None
        self.beta = self.add_weight("beta", shape=shape, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer,
                                    constraint=self.beta_constraint) if self.center else None

    def get_config(self) -> dict:
        return {**super().get_config(), "epsilon": self.epsilon, "center": self.center,
                "scale": self.scale, **_affine_config(self)}


def _affine_config(layer) -> dict:
    """The config of a normalization layer's beta and gamma."""
    return {"beta_initializer": initializers.serialize(layer.beta_initializer),
            "gamma_initializer": initializers.serialize(layer.gamma_initializer),
            "beta_regularizer": regularizers.serialize(layer.beta_regularizer),
            "gamma_regularizer": regularizers.serialize(layer.gamma_regularizer),
            "beta_constraint": serialize_constraint(layer.beta_constraint),
            "gamma_constraint": serialize_constraint(layer.gamma_constraint)}


class LayerNormalization(_ScaleShift):
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

    supports_masking = True
    _single_input = True

    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | frozenset((
        "_axes", "_broadcast"))

    def __init__(self, axis=-1, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer="zeros", gamma_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs) -> None:
        super().__init__(epsilon, center, scale, beta_initializer, gamma_initializer,
                         beta_regularizer, gamma_regularizer, beta_constraint,
                         gamma_constraint, **kwargs)
        self.axis = [int(a) for a in axis] if isinstance(axis, (list, tuple)) else int(axis)

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
        self._add_gamma_and_beta(sizes)
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
        return {**super().get_config(), "axis": self.axis}


class GroupNormalization(_ScaleShift):
    """Normalizes each example over groups of channels: the channels along `axis` are split
    into `groups` blocks, and each block (with all the other non-batch axes) is brought to
    zero mean and unit variance, then scaled by `gamma` and shifted by `beta` per channel.
    `groups=1` is LayerNormalization over all axes; `groups=channels` is instance
    normalization.

    Args:
        groups: the number of groups (default 32); it must divide the channel count.
        axis: the channel axis (default -1).
        epsilon: added to the variance (default 0.001).
        center, scale: whether to learn `beta` and `gamma` (weights 'gamma', 'beta',
            [channels] each).
        beta_initializer, gamma_initializer, beta_regularizer, gamma_regularizer,
        beta_constraint, gamma_constraint: for the two weights.

    Raises:
        ValueError: an unknown channel count, or one that `groups` does not divide.

    Example:
        >>> import tapeflow as tf
        >>> gn = tf.keras.layers.GroupNormalization(groups=2, epsilon=0.0)
        >>> gn(tf.constant([[1.0, 3.0, 10.0, 30.0]])).numpy()
        array([[-1.,  1., -1.,  1.]], dtype=float32)
    """

    def __init__(self, groups: int = 32, axis: int = -1, epsilon: float = 1e-3,
                 center: bool = True, scale: bool = True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, **kwargs) -> None:
        super().__init__(epsilon, center, scale, beta_initializer, gamma_initializer,
                         beta_regularizer, gamma_regularizer, beta_constraint,
                         gamma_constraint, **kwargs)
        self.groups = int(groups)
        self.axis = int(axis)

    def build(self, input_shape) -> None:
        rank = len(input_shape)
        channels = input_shape[self.axis]
        if channels is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined "
                             f"dimension but the layer received an input with shape "
                             f"{input_shape}.")
        if self.groups == -1:
            self.groups = channels
        if channels < self.groups or channels % self.groups:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the "
                             f"number of channels ({channels}) and cannot exceed it.")
        self.input_spec = InputSpec(ndim=rank, axes={self.axis: channels})
        self._add_gamma_and_beta([channels])

    def call(self, inputs):
        shape = inputs.shape.as_list()
        axis = self.axis % len(shape)
        channels = shape[axis]
        split = [self.groups, channels // self.groups]
        grouped = array_ops.reshape(inputs, [-1, *shape[1:axis], *split, *shape[axis + 1:]])
        reduce_axes = [a for a in range(1, len(shape) + 1) if a != axis]
        mean, variance = tf_nn.moments(grouped, reduce_axes, keepdims=True)
        inv = math_ops.rsqrt(variance + self.epsilon)
        broadcast = [1] * (len(shape) + 1)
        broadcast[axis:axis + 2] = split
        if self.gamma is not None:
            inv = inv * array_ops.reshape(self.gamma, broadcast)
        outputs = (grouped - mean) * inv
        if self.beta is not None:
            outputs = outputs + array_ops.reshape(self.beta, broadcast)
        return array_ops.reshape(outputs, [-1, *shape[1:]])

    def get_config(self) -> dict:
        return {**super().get_config(), "groups": self.groups, "axis": self.axis}


class UnitNormalization(Layer):
    """Scales each example to unit L2 norm along `axis`: x / ||x|| (zero vectors stay
    zero: the inverse norm is capped at 1e12).

    Args:
        axis: an axis or a list of axes (default -1).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.UnitNormalization()(tf.constant([[3.0, 4.0]])).numpy()
        array([[0.6, 0.8]], dtype=float32)
    """

    def __init__(self, axis=-1, **kwargs) -> None:
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else int(axis)

    def call(self, inputs):
        squares = math_ops.reduce_sum(math_ops.square(inputs), axis=self.axis, keepdims=True)
        # min(rsqrt(s), 1e12) as Keras, written so that a zero vector divides by nothing.
        return inputs * math_ops.rsqrt(math_ops.maximum(squares, 1e-24))

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis}
