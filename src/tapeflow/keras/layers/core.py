"""Core layers: Dense, Activation, Flatten, Reshape, Dropout, Identity."""
from __future__ import annotations

import numpy as np

from ...ops import array_ops, math_ops
from .. import activations, backend, initializers, regularizers
from .. import random as keras_random
from .base import InputSpec, Layer, serialize_constraint

__all__ = ["Dense", "Activation", "Flatten", "Reshape", "Dropout", "Identity"]


class KernelLayer(Layer):
    """A layer computing `activation(f(inputs, kernel) + bias)`: Dense and Conv2D."""

    _CHECKPOINT_NAMES = {"kernel": "_kernel"}

    _single_input = True

    def __init__(self, activation=None, use_bias: bool = True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        set_kernel_options(self, kernel_initializer, bias_initializer, kernel_regularizer,
                           bias_regularizer, kernel_constraint, bias_constraint)

    def _add_kernel_and_bias(self, kernel_shape: list, bias_size=None) -> None:
        """Creates `kernel`, and `bias` (when used) of `bias_size` (an int, or a shape),
        by default the size of the kernel's last axis."""
        self.kernel = self.add_weight("kernel", shape=kernel_shape,
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        bias_size = kernel_shape[-1] if bias_size is None else bias_size
        self.bias = self.add_weight("bias", shape=np.atleast_1d(bias_size).tolist(),
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None

    def _finish(self, outputs):
        if self.bias is not None:
            outputs = outputs + self.bias
        return self.activation(outputs)

    def get_config(self) -> dict:
        return {**super().get_config(), "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias, **kernel_options_config(self)}


def set_kernel_options(layer: Layer, kernel_initializer, bias_initializer, kernel_regularizer,
                       bias_regularizer, kernel_constraint, bias_constraint) -> None:
    """Sets a layer's kernel and bias initializers, regularizers and constraints (names
    resolved) as its attributes of those names."""
    layer.kernel_initializer = initializers.get(kernel_initializer)
    layer.bias_initializer = initializers.get(bias_initializer)
    layer.kernel_regularizer = regularizers.get(kernel_regularizer)
    layer.bias_regularizer = regularizers.get(bias_regularizer)
    layer.kernel_constraint = kernel_constraint
    layer.bias_constraint = bias_constraint


def kernel_options_config(layer: Layer) -> dict:
    """The config entries of what `set_kernel_options` set, and the activity regularizer."""
    return {"kernel_initializer": initializers.serialize(layer.kernel_initializer),
            "bias_initializer": initializers.serialize(layer.bias_initializer),
            "kernel_regularizer": regularizers.serialize(layer.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(layer.bias_regularizer),
            "activity_regularizer": regularizers.serialize(layer.activity_regularizer),
            "kernel_constraint": serialize_constraint(layer.kernel_constraint),
            "bias_constraint": serialize_constraint(layer.bias_constraint)}


class Dense(KernelLayer):
    """A fully connected layer: `activation(inputs @ kernel + bias)`.

    The kernel has shape [last input dimension, units]; inputs of rank above 2 are
    multiplied along their last axis.

    Args:
        units: the output size (a positive int).
        activation: a name, a callable or None (linear).
        use_bias: whether to add a bias.
        kernel_initializer, bias_initializer: initializers (default glorot_uniform, zeros).
        kernel_regularizer, bias_regularizer: penalties on the weights (`losses`).
        activity_regularizer: a penalty on the outputs.
        kernel_constraint, bias_constraint: projections applied after optimizer updates.

    Raises:
        ValueError: `units` is not positive; an input of rank below 2, or with another
            last dimension than the layer was built for.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.Dense(2, kernel_initializer="ones")
        >>> layer(tf.constant([[1.0, 2.0, 3.0]])).numpy()
        array([[6., 6.]], dtype=float32)
        >>> [w.shape for w in layer.weights]
        [TensorShape([3, 2]), TensorShape([2])]
    """

    supports_masking = True

    def __init__(self, units: int, activation=None, use_bias: bool = True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs) -> None:
        super().__init__(activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer, bias_regularizer, activity_regularizer,
                         kernel_constraint, bias_constraint, **kwargs)
        units = int(units)
        if units <= 0:
            raise ValueError("Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units}")
        self.units = units
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape) -> None:
        last_dim = input_shape[-1]
        if last_dim is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be "
                             f"defined. Found None. Full input shape received: {input_shape}")
        self._add_kernel_and_bias([last_dim, self.units])
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})

    def call(self, inputs):
        if not inputs.dtype.is_floating:
            inputs = math_ops.cast(inputs, self._dtype)
        return self._finish(math_ops.matmul(inputs, self.kernel))

    def get_config(self) -> dict:
        return {**super().get_config(), "units": self.units}


class Activation(Layer):
    """Applies an activation function (a name such as 'relu', or a callable).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Activation("relu")(tf.constant([-1.0, 1.0])).numpy()
        array([0., 1.], dtype=float32)
    """

    supports_masking = True
    _single_input = True

    def __init__(self, activation, **kwargs) -> None:
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self) -> dict:
        return {**super().get_config(), "activation": activations.serialize(self.activation)}


class Flatten(Layer):
    """Flattens each example to one axis: [batch, d1, d2, ...] -> [batch, d1 * d2 * ...].

    A rank-1 input becomes [batch, 1]. With data_format='channels_first' the features
    are moved last first, so the order matches the channels-last layout.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Flatten()(tf.constant(0.0, shape=[2, 3, 4])).shape
        TensorShape([2, 12])
    """

    _single_input = True

    def __init__(self, data_format=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.data_format = backend.normalize_data_format("Flatten", data_format)
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        if self.data_format == "channels_first" and inputs.ndim > 2:
            # Flatten in channels-last order, so the features line up as they would in NHWC.
            inputs = array_ops.transpose(inputs, [0, *range(2, inputs.ndim), 1])
        shape = inputs.shape.as_list()
        rest = shape[1:]
        if None in rest:                      # only while tracing with unknown dimensions
            return array_ops.reshape(inputs, [shape[0], -1])
        return array_ops.reshape(inputs, [-1, int(np.prod(rest))])

    def get_config(self) -> dict:
        return {**super().get_config(), "data_format": self.data_format}


class Reshape(Layer):
    """Reshapes each example to `target_shape` (the batch axis is kept); one entry may be -1.

    Raises:
        ValueError: more than one -1, or an example whose size does not fit.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Reshape((3, -1))(tf.constant(0.0, shape=[2, 12])).shape
        TensorShape([2, 3, 4])
    """

    _single_input = True

    def __init__(self, target_shape, **kwargs) -> None:
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)
        if sum(d == -1 for d in self.target_shape) > 1:
            raise ValueError("There must be at most one unknown dimension (-1) in "
                             f"target_shape. Received: target_shape={self.target_shape}")

    def call(self, inputs):
        shape = inputs.shape.as_list()
        size = int(np.prod(shape[1:]))
        known = int(np.prod([d for d in self.target_shape if d != -1]))
        fits = size % known == 0 if -1 in self.target_shape else size == known
        if not fits or known == 0 and size:
            raise ValueError(f'Layer "{self.name}": the total size of the new array must be '
                             f"unchanged, input_shape = {shape[1:]}, output_shape = "
                             f"{list(self.target_shape)}")
        target = [size // known if d == -1 else d for d in self.target_shape]
        return array_ops.reshape(inputs, [-1, *target])

    def get_config(self) -> dict:
        return {**super().get_config(), "target_shape": self.target_shape}


class Dropout(Layer):
    """Zeroes a fraction `rate` of the inputs during training and scales the rest by
    1 / (1 - rate) (`tf.nn.dropout`); the identity at inference.

    Args:
        rate: the fraction to drop, in [0, 1].
        noise_shape: the mask's shape (None entries take the input's), to drop whole
            features or channels.
        seed: the seed of the layer's `seed_generator` (a keras.random.SeedGenerator):
            each call draws a new mask, and two layers of one seed draw the same sequence;
            without a seed, one drawn from Python's `random` (which
            `keras.utils.set_random_seed` seeds). Its state (none when `rate` is 0) is among
            the layer's `non_trainable_variables`, not its weights, as in Keras 3.

    Raises:
        ValueError: `rate` outside [0, 1].

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.Dropout(0.5, seed=0)
        >>> x = tf.ones([1, 1000])
        >>> bool((layer(x).numpy() == x.numpy()).all())      # inference: unchanged
        True
        >>> sorted(set(layer(x, training=True).numpy().ravel().tolist()))
        [0.0, 2.0]
    """

    supports_masking = True
    _single_input = True

    def __init__(self, rate: float, noise_shape=None, seed=None, **kwargs) -> None:
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1. Received: rate={rate}")
        self.rate = float(rate)
        self.noise_shape = None if noise_shape is None else tuple(noise_shape)
        self.seed = seed
        self.seed_generator = keras_random.SeedGenerator(seed) if self.rate > 0 else None

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return inputs
        if self.rate == 1:
            return inputs * 0.0
        return keras_random.dropout(inputs, self.rate, noise_shape=self.noise_shape,
                                    seed=self.seed_generator)

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "noise_shape": self.noise_shape,
                "seed": self.seed}


class Lambda(Layer):
    """Wraps a function of tensors as a layer, e.g. to use tapeflow ops in a functional
    model: `Lambda(lambda t: tf.reduce_sum(t, axis=-1, keepdims=True))(x)`.

    The function gets the layer's inputs (and `arguments` as keywords); it should create
    no variables. Arithmetic on Keras tensors (`x + y`, `x * 2.0`, `x[:, 0]`) makes such
    layers implicitly.

    Args:
        function: the function to apply.
        output_shape, mask: accepted for Keras compatibility (shapes are inferred).
        arguments: keyword arguments passed to `function`.

    Example:
        >>> import tapeflow as tf
        >>> double = tf.keras.layers.Lambda(lambda t: t * 2.0)
        >>> double(tf.constant([1.0, 2.0])).numpy()
        array([2., 4.], dtype=float32)
    """

    def __init__(self, function, output_shape=None, mask=None, arguments=None,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})

    def call(self, inputs):
        return self.function(inputs, **self.arguments)

    def get_config(self) -> dict:
        """The base config plus the function (a lambda as its bytecode, which loading
        runs only with `safe_mode=False`; a named function by its registered name)."""
        from ..saving.serialization import serialize_keras_object
        return {**super().get_config(), "function": serialize_keras_object(self.function),
                "arguments": self.arguments}


class Identity(Layer):
    """Returns its inputs unchanged (a placeholder, e.g. for an optional block).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Identity()(tf.constant([1.0, 2.0])).numpy()
        array([1., 2.], dtype=float32)
    """

    supports_masking = True
