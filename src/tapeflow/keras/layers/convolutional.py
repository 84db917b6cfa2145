"""Convolution layers in 1, 2 and 3 dimensions: Conv, ConvTranspose, DepthwiseConv and
SeparableConv, on channels-last or channels-first inputs. Each rank is one class attribute
of a shared base; the computation is one `tf.nn` call (a grouped `convolution`, or a
`conv*_transpose`)."""
from __future__ import annotations

from ... import nn as tf_nn
from ...ops import array_ops
from .. import initializers, regularizers
from ..backend import normalize_data_format
from .base import InputSpec
from .base import serialize_constraint
from .core import KernelLayer

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
           "Conv3DTranspose", "DepthwiseConv1D", "DepthwiseConv2D", "SeparableConv1D",
           "SeparableConv2D"]

_TF_FORMATS = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}


def normalize_tuple(value, rank: int, name: str, allow_zero: bool = False) -> tuple:
    """An int or `rank` ints as a tuple of `rank` ints, each positive (or zero when
    `allow_zero`)."""
    values = (value,) * rank if isinstance(value, int) else tuple(int(v) for v in value)
    if len(values) != rank or any(v < 0 or v == 0 and not allow_zero for v in values):
        kind = "non-negative" if allow_zero else "positive"
        raise ValueError(f"The `{name}` argument must be a tuple of {rank} {kind} integers. "
                         f"Received: {name}={value!r}")
    return values


def normalize_padding(padding: str, allowed=("valid", "same")) -> str:
    padding = str(padding).lower()
    if padding not in allowed:
        raise ValueError(f"The `padding` argument must be one of {', '.join(map(repr, allowed))}."
                         f" Received: padding={padding!r}")
    return padding


def tf_data_format(rank: int, data_format: str) -> str:
    """TF's name ("NHWC", "NCDHW", ...) of a Keras data_format for `rank` spatial axes."""
    return _TF_FORMATS[rank][data_format == "channels_first"]


def channel_axis(data_format: str) -> int:
    return -1 if data_format == "channels_last" else 1


def _positive(value, name: str) -> int:
    if int(value) <= 0:
        raise ValueError(f"Invalid value for argument `{name}`. Expected a strictly positive "
                         f"value. Received {name}={value}.")
    return int(value)


class _BaseConv(KernelLayer):
    """What the convolution layers share: sizes, padding, data_format, the bias along the
    channel axis, and the input check of `rank + 2` dimensions."""

    rank = 2
    _paddings = ("valid", "same")

    def __init__(self, kernel_size, strides, padding, data_format, dilation_rate, activation,
                 use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                 bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint,
                 **kwargs) -> None:
        super().__init__(activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer, bias_regularizer, activity_regularizer,
                         kernel_constraint, bias_constraint, **kwargs)
        self.kernel_size = normalize_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = normalize_tuple(strides, self.rank, "strides")
        self.dilation_rate = normalize_tuple(dilation_rate, self.rank, "dilation_rate")
        self.padding = normalize_padding(padding, self._paddings)
        self.data_format = normalize_data_format(type(self).__name__, data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def _channels(self, input_shape) -> int:
        axis = channel_axis(self.data_format)
        channels = input_shape[axis]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found "
                             f"`None`. Full input shape received: {input_shape}")
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={axis: channels})
        return channels

    def _finish(self, outputs):
        if self.bias is not None:
            outputs = tf_nn.bias_add(outputs, self.bias,
                                     data_format=tf_data_format(self.rank, self.data_format))
        return self.activation(outputs)

    def get_config(self) -> dict:
        return {**super().get_config(), "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding,
                "data_format": self.data_format, "dilation_rate": self.dilation_rate}


class _Conv(_BaseConv):
    """A (grouped) convolution: kernel [*kernel_size, in_channels / groups, filters]."""

    def __init__(self, filters: int, kernel_size, strides=1, padding: str = "valid",
                 data_format=None, dilation_rate=1, groups: int = 1, activation=None,
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs) -> None:
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate,
                         activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer, bias_regularizer, activity_regularizer,
                         kernel_constraint, bias_constraint, **kwargs)
        self.filters, self.groups = _positive(filters, "filters"), int(groups)
        if self.groups <= 0 or self.filters % self.groups:
            raise ValueError("The number of filters must be evenly divisible by the number "
                             f"of groups. Received: groups={groups}, filters={filters}.")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("`strides > 1` not supported in conjunction with "
                             f"`dilation_rate > 1`. Received: strides={self.strides} and "
                             f"dilation_rate={self.dilation_rate}")

    def build(self, input_shape) -> None:
        channels = self._channels(input_shape)
        if channels % self.groups:
            raise ValueError("The number of input channels must be evenly divisible by the "
                             f"number of groups. Received groups={self.groups}, but the input "
                             f"has {channels} channels (full input shape is {input_shape}).")
        self._add_kernel_and_bias([*self.kernel_size, channels // self.groups, self.filters])

    def call(self, inputs):
        padding = self.padding
        if padding == "causal":
            left = (self.kernel_size[0] - 1) * self.dilation_rate[0]
            pads = [[0, 0], [left, 0], [0, 0]] if self.data_format == "channels_last" \
                else [[0, 0], [0, 0], [left, 0]]
            inputs, padding = array_ops.pad(inputs, pads), "valid"
        return self._finish(tf_nn.convolution(
            inputs, self.kernel, strides=self.strides, padding=padding.upper(),
            data_format=tf_data_format(self.rank, self.data_format),
            dilations=self.dilation_rate))

    def get_config(self) -> dict:
        return {**super().get_config(), "filters": self.filters, "groups": self.groups}


class Conv1D(_Conv):
    """A 1-D convolution over [batch, steps, channels] sequences (channels first:
    [batch, channels, steps]); kernel [kernel_size, in_channels / groups, filters].

    Args:
        filters: the number of output channels.
        kernel_size, strides, dilation_rate: an int or a 1-tuple.
        padding: 'valid' (default), 'same', or 'causal' (left padding only, so output t
            sees inputs up to t).
        data_format: 'channels_last' (default) or 'channels_first'.
        groups: split the channels into this many groups, each with its own filters.
        activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
        bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint: as
        for Dense.

    Raises:
        ValueError: bad sizes, padding, data_format or groups; an input not of rank 3.

    Example:
        >>> import tapeflow as tf
        >>> conv = tf.keras.layers.Conv1D(1, 2, padding="causal", kernel_initializer="ones")
        >>> conv(tf.reshape(tf.constant([1.0, 2.0, 3.0]), [1, 3, 1])).numpy().ravel()
        array([1., 3., 5.], dtype=float32)
    """

    rank = 1
    _paddings = ("valid", "same", "causal")


class Conv2D(_Conv):
    """A 2-D convolution over [batch, height, width, channels] images.

    The kernel has shape [kernel_height, kernel_width, in_channels / groups, filters]; the
    output is `activation(conv2d(inputs, kernel) + bias)`.

    Args:
        filters: the number of output channels.
        kernel_size: an int or (height, width).
        strides: an int or a pair (default 1).
        padding: 'valid' (default) or 'same'.
        data_format: 'channels_last' (default, [batch, height, width, channels]) or
            'channels_first' ([batch, channels, height, width]).
        dilation_rate: an int or a pair (default 1); not with strides above 1.
        groups: split the channels into this many groups, each with its own filters.
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

    rank = 2


class Conv3D(_Conv):
    """A 3-D convolution over [batch, depth, height, width, channels] volumes; kernel
    [*kernel_size, in_channels / groups, filters]. Arguments as for Conv2D, with triples.

    Example:
        >>> import tapeflow as tf
        >>> conv = tf.keras.layers.Conv3D(2, 2, kernel_initializer="ones")
        >>> y = conv(tf.ones([1, 3, 3, 3, 1]))
        >>> y.shape, float(y.numpy()[0, 0, 0, 0, 0])
        (TensorShape([1, 2, 2, 2, 2]), 8.0)
    """

    rank = 3


def deconv_output_length(length: int, kernel: int, padding: str, output_padding, stride: int,
                         dilation: int) -> int:
    """The spatial size a transposed convolution produces (Keras's rule)."""
    kernel = kernel + (kernel - 1) * (dilation - 1)
    if output_padding is None:
        return length * stride + max(kernel - stride, 0) if padding == "valid" \
            else length * stride
    pad = kernel // 2 if padding == "same" else 0
    return (length - 1) * stride + kernel - 2 * pad + output_padding


class _ConvTranspose(_BaseConv):
    """The transpose of a convolution: kernel [*kernel_size, filters, in_channels]."""

    def __init__(self, filters: int, kernel_size, strides=1, padding: str = "valid",
                 output_padding=None, data_format=None, dilation_rate=1, activation=None,
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs) -> None:
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate,
                         activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer, bias_regularizer, activity_regularizer,
                         kernel_constraint, bias_constraint, **kwargs)
        self.filters = _positive(filters, "filters")
        self.output_padding = None if output_padding is None else normalize_tuple(
            output_padding, self.rank, "output_padding", allow_zero=True)
        if self.output_padding is not None and any(
                p >= s for p, s in zip(self.output_padding, self.strides)):
            raise ValueError(f"Strides {self.strides} must be greater than output padding "
                             f"{self.output_padding}.")

    def build(self, input_shape) -> None:
        self._add_kernel_and_bias([*self.kernel_size, self.filters,
                                   self._channels(input_shape)], self.filters)

    def call(self, inputs):
        shape = inputs.shape.as_list()
        first = self.data_format == "channels_first"
        sizes = shape[2:] if first else shape[1:-1]
        out = [deconv_output_length(n, k, self.padding, None if self.output_padding is None
                                    else self.output_padding[i], s, d)
               for i, (n, k, s, d) in enumerate(zip(sizes, self.kernel_size, self.strides,
                                                    self.dilation_rate))]
        output_shape = [shape[0], self.filters, *out] if first else \
            [shape[0], *out, self.filters]
        transpose = (tf_nn.conv1d_transpose, tf_nn.conv2d_transpose,
                     tf_nn.conv3d_transpose)[self.rank - 1]
        return self._finish(transpose(
            inputs, self.kernel, output_shape, strides=list(self.strides),
            padding=self.padding.upper(), data_format=tf_data_format(self.rank, self.data_format),
            dilations=list(self.dilation_rate)))

    def get_config(self) -> dict:
        return {**super().get_config(), "filters": self.filters,
                "output_padding": self.output_padding}


class Conv1DTranspose(_ConvTranspose):
    """The transpose of Conv1D (a "deconvolution"): [batch, steps, channels] to
    [batch, new_steps, filters]; kernel [kernel_size, filters, in_channels].

    Args:
        filters: the number of output channels.
        kernel_size, strides, dilation_rate: an int or a 1-tuple.
        padding: 'valid' (default) or 'same'.
        output_padding: extra size added on one side of the output (below the stride),
            or None to infer it.
        data_format, activation, use_bias, initializers, regularizers, constraints: as
            for Conv1D.

    Example:
        >>> import tapeflow as tf
        >>> up = tf.keras.layers.Conv1DTranspose(1, 2, strides=2, kernel_initializer="ones")
        >>> up(tf.reshape(tf.constant([1.0, 2.0]), [1, 2, 1])).numpy().ravel()
        array([1., 1., 2., 2.], dtype=float32)
    """

    rank = 1


class Conv2DTranspose(_ConvTranspose):
    """The transpose of Conv2D: kernel [kernel_height, kernel_width, filters, in_channels].
    Arguments as for Conv1DTranspose, with pairs.

    Example:
        >>> import tapeflow as tf
        >>> up = tf.keras.layers.Conv2DTranspose(3, 3, strides=2, padding="same")
        >>> up(tf.ones([1, 4, 4, 2])).shape
        TensorShape([1, 8, 8, 3])
    """

    rank = 2


class Conv3DTranspose(_ConvTranspose):
    """The transpose of Conv3D: kernel [*kernel_size, filters, in_channels]. Arguments as
    for Conv1DTranspose, with triples.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Conv3DTranspose(2, 2, strides=2)(tf.ones([1, 2, 2, 2, 3])).shape
        TensorShape([1, 4, 4, 4, 2])
    """

    rank = 3


def _depthwise_names(config: dict) -> dict:
    """`config` with the kernel's initializer, regularizer and constraint called depthwise_."""
    return {"depthwise" + key[len("kernel"):]
            if key in ("kernel_initializer", "kernel_regularizer", "kernel_constraint")
            else key: value for key, value in config.items()}


class _DepthwiseConv(_BaseConv):
    """Each input channel convolved with its own `depth_multiplier` filters: kernel
    [*kernel_size, in_channels, depth_multiplier], output channel c * depth_multiplier + m
    (a convolution with one group per input channel)."""

    def __init__(self, kernel_size, strides=1, padding: str = "valid", depth_multiplier: int = 1,
                 data_format=None, dilation_rate=1, activation=None, use_bias: bool = True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs) -> None:
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate,
                         activation, use_bias, depthwise_initializer, bias_initializer,
                         depthwise_regularizer, bias_regularizer, activity_regularizer,
                         depthwise_constraint, bias_constraint, **kwargs)
        self.depth_multiplier = _positive(depth_multiplier, "depth_multiplier")

    def build(self, input_shape) -> None:
        channels = self._channels(input_shape)
        self._add_kernel_and_bias([*self.kernel_size, channels, self.depth_multiplier],
                                  channels * self.depth_multiplier)

    def call(self, inputs):
        return self._finish(depthwise(self, inputs, self.kernel))

    def get_config(self) -> dict:
        return {**_depthwise_names(super().get_config()),
                "depth_multiplier": self.depth_multiplier}


def depthwise(layer: _BaseConv, inputs, kernel):
    """The depthwise convolution of `inputs` with `kernel` [*k, channels, multiplier],
    as `layer`'s sizes and format say."""
    shape = kernel.shape.as_list()
    grouped = array_ops.reshape(kernel, [*shape[:-2], 1, shape[-2] * shape[-1]])
    return tf_nn.convolution(inputs, grouped, strides=layer.strides,
                             padding=layer.padding.upper(),
                             data_format=tf_data_format(layer.rank, layer.data_format),
                             dilations=layer.dilation_rate)


class DepthwiseConv1D(_DepthwiseConv):
    """A depthwise 1-D convolution of [batch, steps, channels] sequences.

    Args:
        kernel_size, strides, dilation_rate: an int or a 1-tuple.
        padding: 'valid' (default) or 'same'.
        depth_multiplier: filters per input channel.
        data_format, activation, use_bias: as for Conv1D.
        depthwise_initializer, depthwise_regularizer, depthwise_constraint: for the kernel
        (named 'kernel'); bias_initializer, bias_regularizer, bias_constraint: for the bias.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.DepthwiseConv1D(2, depth_multiplier=2)
        >>> layer(tf.ones([1, 5, 3])).shape, layer.kernel.shape
        (TensorShape([1, 4, 6]), TensorShape([2, 3, 2]))
    """

    rank = 1


class DepthwiseConv2D(_DepthwiseConv):
    """A depthwise 2-D convolution: each channel of [batch, height, width, channels]
    images convolved with its own `depth_multiplier` filters. Arguments as for
    DepthwiseConv1D, with pairs.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=2)
        >>> layer(tf.ones([1, 5, 5, 3])).shape, layer.kernel.shape
        (TensorShape([1, 3, 3, 6]), TensorShape([3, 3, 3, 2]))
    """

    rank = 2


class _SeparableConv(_BaseConv):
    """A depthwise convolution, then a pointwise (kernel size 1) one mixing the channels."""

    def __init__(self, filters: int, kernel_size, strides=1, padding: str = "valid",
                 data_format=None, dilation_rate=1, depth_multiplier: int = 1, activation=None,
                 use_bias: bool = True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, pointwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, **kwargs) -> None:
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate,
                         activation, use_bias, depthwise_initializer, bias_initializer,
                         depthwise_regularizer, bias_regularizer, activity_regularizer,
                         depthwise_constraint, bias_constraint, **kwargs)
        self.filters = _positive(filters, "filters")
        self.depth_multiplier = _positive(depth_multiplier, "depth_multiplier")
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.pointwise_constraint = pointwise_constraint

    def build(self, input_shape) -> None:
        channels = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", shape=[*self.kernel_size, channels, self.depth_multiplier],
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", shape=[1] * self.rank + [channels * self.depth_multiplier,
                                                         self.filters],
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self.bias = self.add_weight("bias", shape=[self.filters],
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None

    def call(self, inputs):
        mixed = tf_nn.convolution(depthwise(self, inputs, self.depthwise_kernel),
                                  self.pointwise_kernel,
                                  data_format=tf_data_format(self.rank, self.data_format))
        return self._finish(mixed)

    def get_config(self) -> dict:
        return {**_depthwise_names(super().get_config()), "filters": self.filters,
                "depth_multiplier": self.depth_multiplier,
                "pointwise_initializer": initializers.serialize(self.pointwise_initializer),
                "pointwise_regularizer": regularizers.serialize(self.pointwise_regularizer),
                "pointwise_constraint": serialize_constraint(self.pointwise_constraint)}


class SeparableConv1D(_SeparableConv):
    """A depthwise then pointwise 1-D convolution: weights 'depthwise_kernel' [kernel_size,
    in_channels, depth_multiplier], 'pointwise_kernel' [1, in_channels * depth_multiplier,
    filters] and 'bias' [filters].

    Args:
        filters: the number of output channels.
        kernel_size, strides, dilation_rate: an int or a 1-tuple.
        padding: 'valid' (default) or 'same'.
        depth_multiplier: depthwise filters per input channel.
        depthwise_*, pointwise_*, bias_*: initializers, regularizers and constraints of the
        three weights; data_format, activation, use_bias: as for Conv1D.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.SeparableConv1D(4, 3)
        >>> layer(tf.ones([1, 6, 3])).shape, [w.shape for w in layer.weights]
        (TensorShape([1, 4, 4]), [TensorShape([3, 3, 1]), TensorShape([1, 3, 4]), TensorShape([4])])
    """

    rank = 1


class SeparableConv2D(_SeparableConv):
    """A depthwise then pointwise 2-D convolution. Arguments as for SeparableConv1D, with
    pairs.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.SeparableConv2D(4, 3, padding="same")(tf.ones([1, 6, 6, 3])).shape
        TensorShape([1, 6, 6, 4])
    """

    rank = 2
