"""Conv2D, MaxPooling2D and AveragePooling2D on channels-last (NHWC) or channels-first
(NCHW) images; channels-first inputs are transposed to NHWC around the NHWC kernels."""
from __future__ import annotations

from ... import nn as tf_nn
from ...ops import array_ops
from ..backend import normalize_data_format
from .base import InputSpec, Layer
from .core import KernelLayer

__all__ = ["Conv2D", "MaxPooling2D", "AveragePooling2D"]


def _pair(value, name: str) -> tuple:
    """An int or a pair of positive ints as a pair."""
    pair = (value, value) if isinstance(value, int) else tuple(int(v) for v in value)
    if len(pair) != 2 or any(v <= 0 for v in pair):
        raise ValueError(f"The `{name}` argument must be a tuple of 2 positive integers. "
                         f"Received: {name}={value!r}")
    return pair


def _padding(padding: str) -> str:
    padding = str(padding).lower()
    if padding not in ("valid", "same"):
        raise ValueError(f"The `padding` argument must be one of 'valid', 'same'. Received: "
                         f"padding={padding!r}")
    return padding


def channels_last(run, inputs, data_format: str):
    """`run` (an NHWC computation) applied to `inputs` laid out as `data_format`."""
    if data_format == "channels_last":
        return run(inputs)
    return array_ops.transpose(run(array_ops.transpose(inputs, [0, 2, 3, 1])), [0, 3, 1, 2])


class Conv2D(KernelLayer):
    """A 2-D convolution over [batch, height, width, channels] images.

    The kernel has shape [kernel_height, kernel_width, in_channels, filters]; the output is
    `activation(conv2d(inputs, kernel) + bias)`.

    Args:
        filters: the number of output channels.
        kernel_size: an int or (height, width).
        strides: an int or a pair (default 1).
        padding: 'valid' (default) or 'same'.
        data_format: 'channels_last' (default, [batch, height, width, channels]) or
            'channels_first' ([batch, channels, height, width]).
        dilation_rate: an int or a pair (default 1); not with strides above 1.
        activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
        bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint: as
        for Dense.

    Raises:
        ValueError: bad sizes, padding or data_format; inputs not of rank 4, or with a
            channel count other than the one the layer was built for.

    Example:
        >>> import tapeflow as tf
        >>> conv = tf.keras.layers.Conv2D(2, 3, kernel_initializer="ones")
        >>> y = conv(tf.constant(1.0, shape=[1, 5, 5, 1]))
        >>> y.shape, float(y.numpy()[0, 0, 0, 0])
        (TensorShape([1, 3, 3, 2]), 9.0)
    """

    def __init__(self, filters: int, kernel_size, strides=(1, 1), padding: str = "valid",
                 data_format=None, dilation_rate=(1, 1), groups: int = 1, activation=None,
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs) -> None:
        super().__init__(activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer, bias_regularizer, activity_regularizer,
                         kernel_constraint, bias_constraint, **kwargs)
        if int(filters) <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        if groups != 1:
            raise NotImplementedError("Conv2D: grouped convolutions (groups > 1) are not "
                                      "supported.")
        self.filters = int(filters)
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.strides = _pair(strides, "strides")
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("`strides > 1` not supported in conjunction with "
                             f"`dilation_rate > 1`. Received: strides={self.strides} and "
                             f"dilation_rate={self.dilation_rate}")
        self.padding = _padding(padding)
        self.data_format = normalize_data_format("Conv2D", data_format)
        self.input_spec = InputSpec(ndim=4)

    def build(self, input_shape) -> None:
        axis = -1 if self.data_format == "channels_last" else 1
        channels = input_shape[axis]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found "
                             f"`None`. Full input shape received: {input_shape}")
        self._add_kernel_and_bias([*self.kernel_size, channels, self.filters])
        self.input_spec = InputSpec(ndim=4, axes={axis: channels})

    def call(self, inputs):
        return channels_last(
            lambda x: self._finish(tf_nn.conv2d(x, self.kernel, strides=self.strides,
                                                padding=self.padding.upper(),
                                                dilations=self.dilation_rate)),
            inputs, self.data_format)

    def get_config(self) -> dict:
        return {**super().get_config(), "filters": self.filters,
                "kernel_size": self.kernel_size, "strides": self.strides,
                "padding": self.padding, "dilation_rate": self.dilation_rate,
                "data_format": self.data_format}


class _Pooling2D(Layer):
    """A window reduction over [batch, height, width, channels] images."""

    _single_input = True

    _pool_op = ""  # the tf.nn function's name

    def __init__(self, pool_size=(2, 2), strides=None, padding: str = "valid",
                 data_format=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _pair(strides, "strides")
        self.padding = _padding(padding)
        self.data_format = normalize_data_format(type(self).__name__, data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        pool = getattr(tf_nn, self._pool_op)
        return channels_last(lambda x: pool(x, ksize=self.pool_size, strides=self.strides,
                                            padding=self.padding.upper()),
                             inputs, self.data_format)

    def get_config(self) -> dict:
        return {**super().get_config(), "pool_size": self.pool_size, "strides": self.strides,
                "padding": self.padding, "data_format": self.data_format}


class MaxPooling2D(_Pooling2D):
    """The maximum of each `pool_size` window, moved by `strides` (default: pool_size).

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> x = tf.constant(np.arange(16.0, dtype="float32").reshape(1, 4, 4, 1))
        >>> tf.keras.layers.MaxPooling2D()(x).numpy()[0, :, :, 0]
        array([[ 5.,  7.],
               [13., 15.]], dtype=float32)
    """

    _pool_op = "max_pool2d"


class AveragePooling2D(_Pooling2D):
    """The mean of each `pool_size` window, moved by `strides` (default: pool_size);
    with 'same' padding only the real (unpadded) elements are averaged.

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> x = tf.constant(np.arange(16.0, dtype="float32").reshape(1, 4, 4, 1))
        >>> tf.keras.layers.AveragePooling2D()(x).numpy()[0, :, :, 0]
        array([[ 2.5,  4.5],
               [10.5, 12.5]], dtype=float32)
    """

    _pool_op = "avg_pool2d"
