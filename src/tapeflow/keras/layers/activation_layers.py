"""Activation functions as layers with their own arguments: ReLU, LeakyReLU, PReLU (a
learned slope), ELU and Softmax (with a mask)."""
from __future__ import annotations

from ... import nn as tf_nn
from ...ops import comparison_ops, indexing_ops, math_ops, reduction_ops
from .. import activations, initializers, regularizers
from .base import InputSpec, Layer
from .base import serialize_constraint

__all__ = ["ReLU", "LeakyReLU", "PReLU", "ELU", "Softmax"]


class ReLU(Layer):
    """max(x, 0), generalised: inputs below `threshold` become negative_slope * (x -
    threshold), outputs are capped at `max_value` (keras.activations.relu).

    Args:
        max_value: the cap (None: no cap); non-negative.
        negative_slope: the slope below the threshold (default 0); non-negative.
        threshold: where the slope changes (default 0).

    Raises:
        ValueError: a negative max_value or negative_slope, or a None argument.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.ReLU(max_value=2.0)(tf.constant([-1.0, 1.0, 3.0])).numpy()
        array([0., 1., 2.], dtype=float32)
    """

    def __init__(self, max_value=None, negative_slope: float = 0.0, threshold: float = 0.0,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError("max_value of a ReLU layer cannot be a negative value. Received: "
                             f"max_value={max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError("negative_slope of a ReLU layer cannot be a negative value. "
                             f"Received: negative_slope={negative_slope}")
        if threshold is None:
            raise ValueError("threshold of a ReLU layer cannot be None. Received: "
                             f"threshold={threshold}")
        self.max_value = max_value
        self.negative_slope = negative_slope
        self.threshold = threshold

    def call(self, inputs):
        return activations.relu(inputs, alpha=self.negative_slope, max_value=self.max_value,
                                threshold=self.threshold)

    def get_config(self) -> dict:
        return {**super().get_config(), "max_value": self.max_value,
                "negative_slope": self.negative_slope, "threshold": self.threshold}


class LeakyReLU(Layer):
    """x for x >= 0, negative_slope * x otherwise (default slope 0.3).

    Raises:
        ValueError: a negative or None slope.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.LeakyReLU(0.5)(tf.constant([-2.0, 2.0])).numpy()
        array([-1.,  2.], dtype=float32)
    """

    def __init__(self, negative_slope: float = 0.3, **kwargs) -> None:
        if "alpha" in kwargs:  # Keras 2's name, still accepted by Keras 3
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError("The negative_slope value of a Leaky ReLU layer cannot be None or "
                             f"negative value. Expected a float. Received: "
                             f"negative_slope={negative_slope}")
        self.negative_slope = negative_slope

    def call(self, inputs):
        return tf_nn.leaky_relu(inputs, alpha=self.negative_slope)

    def get_config(self) -> dict:
        return {**super().get_config(), "negative_slope": self.negative_slope}


class PReLU(Layer):
    """x for x >= 0, alpha * x otherwise, with `alpha` learned per element of an example
    (weight 'alpha' of shape input_shape[1:], size 1 along `shared_axes`).

    Args:
        alpha_initializer: default 'zeros'.
        alpha_regularizer, alpha_constraint: for the weight.
        shared_axes: axes (from 1) along which one slope is shared, e.g. [1, 2] for one
            slope per channel of images.

    Example:
        >>> import tapeflow as tf
        >>> prelu = tf.keras.layers.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.5))
        >>> prelu(tf.constant([[-2.0, 2.0]])).numpy()
        array([[-1.,  2.]], dtype=float32)
    """

    def __init__(self, alpha_initializer="Zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = alpha_constraint
        if shared_axes is None or isinstance(shared_axes, (list, tuple)):
            self.shared_axes = None if shared_axes is None else list(shared_axes)
        else:
            self.shared_axes = [shared_axes]

    def build(self, input_shape) -> None:
        shape = list(input_shape)[1:]
        for axis in self.shared_axes or ():
            shape[axis - 1] = 1
        if None in shape:
            raise ValueError(f'Layer "{self.name}": the axes of input shape {input_shape} '
                             "that are not shared must be known.")
        self.alpha = self.add_weight("alpha", shape=shape, initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        axes = {i + 1: d for i, d in enumerate(list(input_shape)[1:])
                if i + 1 not in (self.shared_axes or ())}
        self.input_spec = InputSpec(ndim=len(input_shape), axes=axes)

    def call(self, inputs):
        return tf_nn.relu(inputs) - self.alpha * tf_nn.relu(-inputs)

    def get_config(self) -> dict:
        return {**super().get_config(),
                "alpha_initializer": initializers.serialize(self.alpha_initializer),
                "alpha_regularizer": regularizers.serialize(self.alpha_regularizer),
                "alpha_constraint": serialize_constraint(self.alpha_constraint),
                "shared_axes": self.shared_axes}


class ELU(Layer):
    """x for x > 0, alpha * (exp(x) - 1) otherwise.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.ELU(alpha=2.0)(tf.constant([0.0, 1.0])).numpy()
        array([0., 1.], dtype=float32)
    """

    def __init__(self, alpha: float = 1.0, **kwargs) -> None:
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        outputs = tf_nn.elu(inputs)
        if self.alpha == 1:
            return outputs
        return indexing_ops.where(inputs > 0, outputs, self.alpha * outputs)

    def get_config(self) -> dict:
        return {**super().get_config(), "alpha": self.alpha}


class Softmax(Layer):
    """exp(x) / sum(exp(x)) over `axis` (an int or a tuple of axes); positions where a
    `mask` is False get (nearly) zero weight.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.Softmax()
        >>> layer(tf.constant([[1.0, 1.0, 5.0]]), mask=tf.constant([[True, True, False]])).numpy()
        array([[0.5, 0.5, 0. ]], dtype=float32)
    """

    def __init__(self, axis=-1, **kwargs) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        if mask is not None:
            if not mask.dtype.is_bool:
                mask = comparison_ops.greater(mask, math_ops.cast(0.5, mask.dtype))
            lowest = -3e4 if inputs.dtype.name == "float16" else -1e9
            inputs = indexing_ops.where(mask, inputs, math_ops.cast(lowest, inputs.dtype))
        if isinstance(self.axis, (list, tuple)) and len(self.axis) > 1:
            outputs = math_ops.exp(inputs - reduction_ops.reduce_logsumexp(
                inputs, axis=list(self.axis), keepdims=True))
        else:
            outputs = tf_nn.softmax(inputs, axis=self.axis[0] if isinstance(
                self.axis, (list, tuple)) else self.axis)
        if mask is not None:  # a wholly masked axis gives zeros, not a uniform distribution
            outputs = indexing_ops.where(mask, outputs, math_ops.cast(0.0, outputs.dtype))
        return outputs

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis}
