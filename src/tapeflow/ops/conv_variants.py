"""Convolutions built from the convolution ops of `conv_ops.py`: TF's generic `conv`, the
backprop functions (the gradient ops called directly), atrous and rank-generic transposed
convolutions. Gradients come from the ops' rules."""
from __future__ import annotations

import numpy as np

from ..framework.execute import execute
from ..framework.tensor import Tensor
from .array_ops import Reshape
from .conv_ops import (CONV_OPS, FLOATS, _conv, channel_first, check_rank, conv1d_transpose,
                       conv2d, conv2d_transpose, conv3d_transpose, fail,
                       from_channels_last, resolve_padding, spatial, spatial_sizes,
                       to_channels_last, typed_inputs)
from .op_util import as_input, int_values
from .shape_ops import required_space_to_batch_paddings
from .space_ops import batch_to_space, space_to_batch_nd

__all__ = ["atrous_conv2d", "atrous_conv2d_transpose", "conv", "conv2d_backprop_filter_v2",
           "conv2d_backprop_input_v2", "conv_transpose", "depthwise_conv2d_backprop_filter",
           "depthwise_conv2d_backprop_input", "with_space_to_batch"]


def _explicit_pairs(padding, explicit_paddings, rank: int):
    """TF's 'EXPLICIT' padding with a flat list of 2 * rank ints, as [before, after] pairs."""
    if padding != "EXPLICIT":
        return padding
    flat = [int(p) for p in explicit_paddings]
    if len(flat) != 2 * rank:
        raise fail("Conv", f"explicit_paddings must hold {2 * rank} values, got {flat}.")
    return [flat[i:i + 2] for i in range(0, len(flat), 2)]


def conv(input, filter, strides, padding, explicit_paddings=(),  # noqa: A002  (TF's names)
         data_format="CHANNELS_LAST", dilations=(), batch_dims=1, groups=1, name=None) -> Tensor:
    """TF's generic convolution op: 2 or 3 spatial dimensions after `batch_dims` batch
    dimensions; grouped when `groups` > 1 (the filter's input depth is channels / groups).
    Beyond TF (whose Conv op has no gradient, and no CPU kernel for channels-first or
    grouped inputs), it is differentiable and takes every layout: it runs conv2d / conv3d.

    Args:
        input: [batch..., spatial..., channels] ("CHANNELS_LAST") or [batch..., channels,
            spatial...] ("CHANNELS_FIRST").
        filter: [spatial..., channels / groups, out_channels].
        strides, dilations: one int per dimension of `input` (batch and channel ones 1);
            dilations default to 1.
        padding: "SAME", "VALID" or "EXPLICIT" (then `explicit_paddings`, a flat list of a
            [before, after] pair per dimension of `input`).

    Returns:
        The convolution, with `input`'s batch dimensions and layout.

    Raises:
        InvalidArgumentError: a number of spatial dimensions other than 2 or 3, or what
            conv2d / conv3d reject.

    Example:
        >>> import tapeflow as tf
        >>> tf.conv(tf.ones([2, 1, 4, 4, 2]), tf.ones([3, 3, 2, 3]), [1, 1, 1, 1], "VALID",
        ...         batch_dims=2).shape
        TensorShape([2, 1, 2, 2, 3])
    """
    x = as_input(input)
    nd = x.ndim - batch_dims - 1
    if nd not in (2, 3):
        raise fail("Conv", f"The input must have 2 or 3 spatial dimensions but got {nd} "
                   f"(input shape {list(x.shape)}, batch_dims {batch_dims}).")
    if data_format not in ("CHANNELS_LAST", "CHANNELS_FIRST"):
        raise fail("Conv", f"data_format must be CHANNELS_LAST or CHANNELS_FIRST, got "
                   f"{data_format!r}.")
    batch = tuple(x.shape[:batch_dims])
    merged = Reshape(x, (-1,) + tuple(x.shape[batch_dims:]))
    rank = nd + 2
    strides = list(strides)[batch_dims - 1:] if len(strides) > rank else strides
    dilations = (list(dilations)[batch_dims - 1:] if len(dilations) > rank else dilations) \
        or None
    layout = ("NHWC", "NCHW") if nd == 2 else ("NDHWC", "NCDHW")
    fmt = layout[data_format == "CHANNELS_FIRST"]
    pads = _explicit_pairs(padding, explicit_paddings, x.ndim)
    if isinstance(pads, list):
        pads = pads[batch_dims - 1:]
    w = as_input(filter)
    if groups != 1 and w.shape[-2] * groups != merged.shape[1 if fmt[1] == "C" else -1]:
        raise fail("Conv", f"the filter's input depth {w.shape[-2]} times groups {groups} must "
                   f"be the input's channels (input shape {list(x.shape)}).")
    y = _conv(nd, merged, w, strides, pads, fmt, dilations)
    return Reshape(y, batch + tuple(y.shape[1:]))


def _backprop_attrs(op_name: str, image_shape, filter_shape, strides, padding,
                    explicit_paddings, data_format, dilations) -> tuple:
    first = channel_first(op_name, data_format, 2)
    pads = _explicit_pairs(padding, explicit_paddings, 4)
    strides = spatial(op_name, strides, "strides", first, 2)
    dilations = spatial(op_name, dilations, "dilations", first, 2)
    sizes = spatial_sizes(image_shape, first)
    return first, {"strides": strides, "dilations": dilations, "pads": resolve_padding(
        op_name, pads, sizes, tuple(filter_shape[:2]), strides, dilations, first)}


def _image_sizes(shape, first: bool) -> tuple:
    shape = tuple(int(d) for d in shape)
    return (shape[0], *shape[2:], shape[1]) if first else shape


def conv2d_backprop_input_v2(input, filter, out_backprop, strides, padding,  # noqa: A002
                             use_cudnn_on_gpu=True, explicit_paddings=(), data_format="NHWC",
                             dilations=(1, 1, 1, 1), name=None) -> Tensor:
    """The gradient of conv2d with respect to its input, shaped like `input` (whose values
    are not used): op Conv2DBackpropInput. (TF has kernels for it only on GPUs.)

    Args:
        input: a tensor of the conv2d input's shape.
        filter: the conv2d filter, [height, width, in_channels / groups, out_channels].
        out_backprop: the gradient of the conv2d output.
        strides, padding, explicit_paddings, data_format, dilations: conv2d's.

    Returns:
        A tensor of `input`'s shape.

    Raises:
        InvalidArgumentError: ranks, dtypes or sizes that do not fit a conv2d.

    Example:
        >>> import tapeflow as tf
        >>> dx = tf.conv2d_backprop_input_v2(tf.zeros([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]),
        ...                                  tf.ones([1, 2, 2, 1]), [1, 1, 1, 1], "VALID")
        >>> dx.numpy()[0, :, :, 0]
        array([[1., 2., 1.],
               [2., 4., 2.],
               [1., 2., 1.]], dtype=float32)
    """
    return _backprop_input(tuple(as_input(input).shape), filter, out_backprop, strides,
                           padding, explicit_paddings, data_format, dilations)


def _backprop_input(x_shape, filter, out_backprop, strides, padding,  # noqa: A002
                    explicit_paddings, data_format, dilations) -> Tensor:
    op = CONV_OPS[2][1]
    w, dy = typed_inputs(op.name, FLOATS, filter, out_backprop)
    check_rank(op.name, "out_backprop", dy, 4)
    first, attrs = _backprop_attrs(op.name, x_shape, w.shape, strides, padding,
                                   explicit_paddings, data_format, dilations)
    return from_channels_last(execute(op, (w, to_channels_last(dy, first)), dict(
        attrs, input_sizes=_image_sizes(x_shape, first))), first)


def conv2d_backprop_filter_v2(input, filter, out_backprop, strides, padding,  # noqa: A002
                              use_cudnn_on_gpu=True, explicit_paddings=(), data_format="NHWC",
                              dilations=(1, 1, 1, 1), name=None) -> Tensor:
    """The gradient of conv2d with respect to its filter, shaped like `filter` (whose values
    are not used): op Conv2DBackpropFilter. (TF has kernels for it only on GPUs.)

    Returns:
        A tensor of `filter`'s shape.

    Raises:
        InvalidArgumentError: ranks, dtypes or sizes that do not fit a conv2d.

    Example:
        >>> import tapeflow as tf
        >>> dw = tf.conv2d_backprop_filter_v2(tf.ones([1, 3, 3, 1]), tf.zeros([2, 2, 1, 1]),
        ...                                   tf.ones([1, 2, 2, 1]), [1, 1, 1, 1], "VALID")
        >>> dw.numpy()[:, :, 0, 0]
        array([[4., 4.],
               [4., 4.]], dtype=float32)
    """
    return _backprop_filter(input, tuple(as_input(filter).shape), out_backprop, strides,
                            padding, explicit_paddings, data_format, dilations)


def _backprop_filter(input, w_shape, out_backprop, strides, padding,  # noqa: A002
                     explicit_paddings, data_format, dilations) -> Tensor:
    op = CONV_OPS[2][2]
    x, dy = typed_inputs(op.name, FLOATS, input, out_backprop)
    check_rank(op.name, "input", x, 4)
    first, attrs = _backprop_attrs(op.name, x.shape, w_shape, strides, padding,
                                   explicit_paddings, data_format, dilations)
    return execute(op, (to_channels_last(x, first), to_channels_last(dy, first)),
                   dict(attrs, filter_sizes=w_shape))


def _grouped(filter_shape) -> tuple:
    """A depthwise filter's [h, w, channels, multiplier] as a grouped conv's [h, w, 1, c * m]."""
    h, w, c, m = (int(d) for d in filter_shape)
    return h, w, 1, c * m


def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides,  # noqa: A002
                                    padding, data_format="NHWC", dilations=(1, 1, 1, 1),
                                    name=None) -> Tensor:
    """The gradient of depthwise_conv2d with respect to its input, of shape `input_sizes`.

    Args:
        input_sizes: the input's 4 dimensions, in data_format order.
        filter: [height, width, in_channels, channel_multiplier].
        out_backprop: the gradient of the depthwise_conv2d output.
        strides, padding, data_format, dilations: depthwise_conv2d's.

    Raises:
        InvalidArgumentError: ranks, dtypes or sizes that do not fit a depthwise_conv2d.

    Example:
        >>> import tapeflow as tf
        >>> dx = tf.nn.depthwise_conv2d_backprop_input([1, 2, 2, 2], tf.ones([1, 1, 2, 3]),
        ...                                            tf.ones([1, 2, 2, 6]), [1, 1, 1, 1],
        ...                                            "VALID")
        >>> dx.numpy()[0, 0, 0].tolist()
        [3.0, 3.0]
    """
    w = as_input(filter)
    check_rank("DepthwiseConv2dNativeBackpropInput", "filter", w, 4)
    grouped = Reshape(w, _grouped(w.shape))
    sizes = tuple(int_values("DepthwiseConv2dNativeBackpropInput", input_sizes, "input_sizes"))
    return _backprop_input(sizes, grouped, out_backprop, strides, padding, (), data_format,
                           dilations)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides,  # noqa: A002
                                     padding, data_format="NHWC", dilations=(1, 1, 1, 1),
                                     name=None) -> Tensor:
    """The gradient of depthwise_conv2d with respect to its filter, of shape `filter_sizes`
    ([height, width, in_channels, channel_multiplier]).

    Raises:
        InvalidArgumentError: ranks, dtypes or sizes that do not fit a depthwise_conv2d.

    Example:
        >>> import tapeflow as tf
        >>> dw = tf.nn.depthwise_conv2d_backprop_filter(tf.ones([1, 2, 2, 2]), [1, 1, 2, 3],
        ...                                             tf.ones([1, 2, 2, 6]), [1, 1, 1, 1],
        ...                                             "VALID")
        >>> dw.shape, float(dw[0, 0, 0, 0])
        (TensorShape([1, 1, 2, 3]), 4.0)
    """
    sizes = tuple(int_values("DepthwiseConv2dNativeBackpropFilter", filter_sizes,
                             "filter_sizes"))
    if len(sizes) != 4:
        raise fail("DepthwiseConv2dNativeBackpropFilter", f"filter_sizes must have 4 "
                   f"elements, got {list(sizes)}.")
    grads = _backprop_filter(input, _grouped(sizes), out_backprop, strides, padding, (),
                             data_format, dilations)
    return Reshape(grads, sizes)


def atrous_conv2d(value, filters, rate, padding, name=None) -> Tensor:
    """conv2d with holes: the filter taps `rate` pixels apart (a dilated convolution,
    stride 1).

    Args:
        value: [batch, height, width, in_channels].
        filters: [height, width, in_channels, out_channels].
        rate: a positive int.
        padding: "SAME" or "VALID".

    Raises:
        ValueError: a rate below 1.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.atrous_conv2d(tf.ones([1, 5, 5, 1]), tf.ones([2, 2, 1, 1]), 2, "VALID").shape
        TensorShape([1, 3, 3, 1])
    """
    if int(rate) < 1:
        raise ValueError(f"rate {rate} should be greater than 0.")
    return conv2d(value, filters, 1, padding, dilations=int(rate))


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding,
                            name=None) -> Tensor:
    """The transpose of atrous_conv2d: conv2d_transpose with the filter taps `rate` apart.

    Args:
        value: [batch, height, width, in_channels].
        filters: [height, width, out_channels, in_channels].
        output_shape: the 4 output dimensions.
        rate: a positive int; padding: "SAME" or "VALID".

    Raises:
        ValueError: a rate below 1, or a padding other than "SAME" and "VALID".

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.atrous_conv2d_transpose(tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]),
        ...                               [1, 5, 5, 1], 2, "VALID").shape
        TensorShape([1, 5, 5, 1])
    """
    if int(rate) < 1:
        raise ValueError(f"rate {rate} should be greater than 0.")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be either VALID or SAME: {padding}")
    return conv2d_transpose(value, filters, output_shape, 1, padding, dilations=int(rate))


def conv_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                   data_format=None, dilations=None, name=None) -> Tensor:
    """conv1d_transpose, conv2d_transpose or conv3d_transpose, by the rank of
    `output_shape` (3, 4 or 5).

    Raises:
        ValueError: an output_shape of another length.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.conv_transpose(tf.ones([1, 3, 2]), tf.ones([3, 4, 2]), [1, 6, 4], 2).shape
        TensorShape([1, 6, 4])
    """
    if hasattr(output_shape, "_id"):  # a tensor: its static length (it may be computed)
        rank = output_shape.shape[0] if output_shape.shape.rank == 1 else None
    elif isinstance(output_shape, (list, tuple)):  # (entries may be tensors: a graph's batch)
        rank = len(output_shape)
    else:
        rank = len(np.ravel(np.asarray(output_shape, object)))
    transposes = {3: conv1d_transpose, 4: conv2d_transpose, 5: conv3d_transpose}
    if rank not in transposes:
        raise ValueError(f"output_shape must be of length 3, 4 or 5 but was {rank}.")
    defaults = {3: "NWC", 4: "NHWC", 5: "NDHWC"}
    return transposes[rank](input, filters, output_shape, strides, padding,
                            data_format or defaults[rank], dilations)


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,  # noqa: A002
                        spatial_dims=None, data_format=None):
    """Runs `op` with a dilation: the input is rearranged by space_to_batch with blocks of
    `dilation_rate`, `op(converted, num_spatial_dims, "VALID")` runs on it, and
    batch_to_space puts the result back (the padding of "SAME" follows `filter_shape`).

    Args:
        input: a tensor with spatial dimensions `spatial_dims` (default 1..N, or 2..N+1 for
            data formats starting "NC").
        dilation_rate: N positive ints; all 1 runs `op(input, N, padding)` directly.
        padding: "SAME" or "VALID".
        op: `op(input, num_spatial_dims, padding)`.
        filter_shape: the filter's N spatial sizes, needed for "SAME".

    Raises:
        ValueError: "SAME" without filter_shape, a bad padding, or a rate below 1.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.ones([3, 3, 1, 1])
        >>> y = tf.nn.with_space_to_batch(tf.ones([1, 6, 6, 1]), [2, 2], "VALID",
        ...                               lambda x, n, p: tf.nn.conv2d(x, w, 1, p))
        >>> y.shape
        TensorShape([1, 2, 2, 1])
    """
    x = as_input(input)
    rates = int_values("WithSpaceToBatch", dilation_rate, "dilation_rate")
    count = len(rates)
    if min(rates) < 1:
        raise ValueError(f"dilation_rate must be positive, got {rates}")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"Invalid padding method {padding!r}")
    if max(rates) == 1:
        return op(x, count, padding)
    first = 2 if data_format is not None and data_format.startswith("NC") else 1
    dims = list(range(first, first + count)) if spatial_dims is None else \
        [int(d) for d in spatial_dims]
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError(f"`filter_shape` must be specified for `padding='SAME'`. "
                             f"Received: filter_shape=None and padding={padding}")
        totals = [(f - 1) * r for f, r in zip(
            int_values("WithSpaceToBatch", filter_shape, "filter_shape"), rates)]
        base = [[t // 2, t - t // 2] for t in totals]
    else:
        base = [[0, 0]] * count
    # Blocks over every dimension from 1 to the last spatial one, 1 where not spatial.
    span = range(1, max(dims) + 1)
    block = [rates[dims.index(d)] if d in dims else 1 for d in span]
    base = [base[dims.index(d)] if d in dims else [0, 0] for d in span]
    sizes = [x.shape[d] for d in span]
    paddings, crops = required_space_to_batch_paddings(sizes, block, base)
    converted = space_to_batch_nd(x, block, paddings)
    return batch_to_space(op(converted, count, "VALID"), block, crops)

