"""Convolution ops (tf.nn) and the op definitions of convolution and pooling.

The 2-D and 3-D ops share the N-d kernels of `conv_kernels.py`: they work channels-last
with the padding already resolved to explicit (before, after) pairs, so forward ops and
their gradient ops share one set of attrs: `strides`, `dilations` and `pads` (conv) or
`ksize`, `strides` and `pads` (pooling). 1-D ops are 2-D ones over a height of 1, as in TF;
depthwise and separable convolutions are grouped ones. Gradient rules are in `conv_grad.py`;
each gradient op has its own rule, so every order of derivative works. The public pooling
functions are in `pool_ops.py`.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.graph_def import window_form
from ..framework.registry import LINEAR, MULTILINEAR, define_op
from ..framework.shape_inference import constant_shape, full_value
from ..framework.tensor import Tensor
from . import conv_kernels as kernels
from .array_ops import Reshape, Transpose
from .op_util import as_input, binary_inputs

__all__ = ["conv1d", "conv1d_transpose", "conv2d", "conv2d_transpose", "conv3d",
           "conv3d_transpose", "convolution", "depthwise_conv2d", "separable_conv2d"]

Conv2D = define_op("Conv2D", kernels.conv, family=MULTILINEAR)
Conv2DBackpropInput = define_op("Conv2DBackpropInput", kernels.conv_backprop_input,
                                family=MULTILINEAR)
Conv2DBackpropFilter = define_op("Conv2DBackpropFilter", kernels.conv_backprop_filter,
                                 family=MULTILINEAR)
Conv3D = define_op("Conv3D", kernels.conv, family=MULTILINEAR)
Conv3DBackpropInputV2 = define_op("Conv3DBackpropInputV2", kernels.conv_backprop_input,
                                  family=MULTILINEAR)
Conv3DBackpropFilterV2 = define_op("Conv3DBackpropFilterV2", kernels.conv_backprop_filter,
                                   family=MULTILINEAR)
MaxPool = define_op("MaxPool", kernels.max_pool)
MaxPoolGrad = define_op("MaxPoolGrad", kernels.max_pool_grad)
MaxPoolGradGrad = define_op("MaxPoolGradGrad", kernels.max_pool_grad_grad)
MaxPool3D = define_op("MaxPool3D", kernels.max_pool)
MaxPool3DGrad = define_op("MaxPool3DGrad", kernels.max_pool_grad)
MaxPool3DGradGrad = define_op("MaxPool3DGradGrad", kernels.max_pool_grad_grad)
AvgPool = define_op("AvgPool", kernels.avg_pool, family=LINEAR)
AvgPoolGrad = define_op("AvgPoolGrad", kernels.avg_pool_grad, family=LINEAR)
AvgPool3D = define_op("AvgPool3D", kernels.avg_pool, family=LINEAR)
AvgPool3DGrad = define_op("AvgPool3DGrad", kernels.avg_pool_grad, family=LINEAR)

# By number of spatial dimensions: TF names the 2-D and 3-D ops apart; one kernel runs both.
CONV_OPS = {2: (Conv2D, Conv2DBackpropInput, Conv2DBackpropFilter),
            3: (Conv3D, Conv3DBackpropInputV2, Conv3DBackpropFilterV2)}
MAX_POOL_OPS = {2: (MaxPool, MaxPoolGrad, MaxPoolGradGrad),
                3: (MaxPool3D, MaxPool3DGrad, MaxPool3DGradGrad)}
AVG_POOL_OPS = {2: (AvgPool, AvgPoolGrad), 3: (AvgPool3D, AvgPool3DGrad)}


def _same_pads(op) -> tuple:
    """What "SAME" resolves to for a node's input and window."""
    x = op.inputs[0].shape.dims
    kernel = op.attrs["ksize"] if "ksize" in op.attrs else op.inputs[1].shape.dims[:-2]
    dilations = op.attrs.get("dilations", (1,) * len(kernel))
    return resolve_padding(op.type, "SAME", x[1:-1], kernel, op.attrs["strides"], dilations,
                           False)


def _transposed_same_pads(op) -> tuple:
    """What "SAME" resolves to for a transposed convolution: the forward convolution's of
    its output (`input_sizes`) and filter."""
    x = op.attrs["input_sizes"]
    return resolve_padding(op.type, "SAME", x[1:-1], op.inputs[0].shape.dims[:-2],
                           op.attrs["strides"], op.attrs["dilations"], False)


# As GraphDef nodes: TF's NHWC strides, ksize and dilations and a padding name.
for _op in (Conv2D, Conv3D):
    window_form(_op.name, None, _same_pads)
for _op in (Conv2DBackpropInput, Conv3DBackpropInputV2):
    window_form(_op.name, None, _transposed_same_pads)
for _op in (MaxPool, MaxPool3D, AvgPool, AvgPool3D):
    window_form(_op.name, lambda op: op.attrs["ksize"], _same_pads)


def fail(op_name: str, message: str):
    return errors.InvalidArgumentError(None, op_name, f"{op_name}: {message}")


_FORMATS = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}


def channel_first(op_name: str, data_format, nd: int) -> bool:
    """Whether `data_format` (TF's spelling for `nd` spatial dimensions) is channels first."""
    last, first = _FORMATS[nd]
    if data_format in (last, None):
        return False
    if data_format == first:
        return True
    raise fail(op_name, f"Value for attr 'data_format' of {data_format!r} is not in the list "
               f"of allowed values: {last!r}, {first!r}.")


def spatial(op_name: str, value, what: str, first: bool, nd: int) -> tuple:
    """strides, dilations or ksize (an int or a list of 1, nd or nd + 2 ints), per spatial
    dimension."""
    values = [int(v) for v in np.ravel(np.asarray(1 if value is None else value))]
    if len(values) == 1:
        values = values * nd
    elif len(values) == nd + 2:
        outer = (values[0], values[1]) if first else (values[0], values[-1])
        if outer != (1, 1):
            raise errors.UnimplementedError(
                None, op_name, f"{op_name}: {what} in the batch and depth dimensions are not "
                f"supported, got {values}.")
        values = values[2:] if first else values[1:-1]
    elif len(values) != nd:
        raise ValueError(f"{op_name}: {what} should be an int or a list of length 1, {nd} or "
                         f"{nd + 2}, got {value!r}")
    if min(values) < 1:
        raise fail(op_name, f"{what} must be positive, got {value!r}.")
    return tuple(values)


def _explicit_pads(op_name: str, padding, first: bool, nd: int) -> tuple:
    pairs = [list(p) if isinstance(p, (list, tuple)) else p for p in padding]
    if len(pairs) != nd + 2 or any(not isinstance(p, list) or len(p) != 2 for p in pairs):
        raise ValueError(f"{op_name}: when padding is a list it must hold {nd + 2} [before, "
                         f"after] pairs, got {padding!r}")
    pairs = [[int(a), int(b)] for a, b in pairs]
    outer = pairs[:2] if first else [pairs[0], pairs[-1]]
    inner = pairs[2:] if first else pairs[1:-1]
    if outer != [[0, 0], [0, 0]] or min(min(p) for p in inner) < 0:
        raise fail(op_name, f"explicit padding must be non-negative and zero in the batch and "
                   f"depth dimensions, got {padding!r}.")
    return tuple(tuple(p) for p in inner)


def resolve_padding(op_name: str, padding, input_sizes, kernel, strides, dilations,
                    first: bool, explicit: bool = True) -> tuple:
    """`padding` as one (before, after) pair per spatial axis, checking the output is not
    empty."""
    nd = len(input_sizes)
    if isinstance(padding, (list, tuple)):
        if not explicit:
            raise TypeError(f"{op_name}: expected a string for padding ('SAME' or 'VALID'), "
                            f"not {padding!r}")
        pads = _explicit_pads(op_name, padding, first, nd)
    elif padding == "VALID":
        pads = ((0, 0),) * nd
    elif padding == "SAME":
        totals = [max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
                  for size, k, s, d in zip(input_sizes, kernel, strides, dilations)]
        pads = tuple((t // 2, t - t // 2) for t in totals)
    elif padding == "EXPLICIT":
        raise ValueError(f"{op_name}: 'EXPLICIT' is not a valid value for padding; to pad "
                         f"explicitly, pass a list of [before, after] pairs.")
    else:
        allowed = "'SAME', 'VALID', 'EXPLICIT'" if explicit else "'SAME', 'VALID'"
        raise fail(op_name, f"Value for attr 'padding' of {padding!r} is not in the list of "
                   f"allowed values: {allowed}.")
    for size, k, s, d, (before, after) in zip(input_sizes, kernel, strides, dilations, pads):
        effective = (k - 1) * d + 1
        if int((size + before + after - effective + s) / s) < 0:  # TF truncates toward 0
            raise fail(op_name, f"Computed output size would be negative: input size {size}, "
                       f"padding {before}+{after}, effective filter size {effective}, stride "
                       f"{s}.")
    return pads


def typed_inputs(op_name: str, allowed: tuple, *values) -> tuple:
    """The inputs as tensors of one dtype among `allowed` (dtype names), as TF's op defs."""
    tensors = binary_inputs(op_name, *values) if len(values) == 2 else (as_input(values[0]),)
    if tensors[0].dtype.name not in allowed:
        raise fail(op_name, f"dtype {tensors[0].dtype.name} is not in the list of allowed "
                   f"values: {', '.join(allowed)} (shape {list(tensors[0].shape)}).")
    return tensors


FLOATS = ("float16", "float32", "float64")
_CONV_TYPES = FLOATS + ("int32",)


def check_rank(op_name: str, what: str, x, rank: int) -> None:
    if x.ndim != rank:
        raise fail(op_name, f"{what} must be {rank}-dimensional, got shape {list(x.shape)}.")


def to_channels_last(x, first: bool):
    if not first:
        return x
    return execute(Transpose, (x,), {"perm": (0,) + tuple(range(2, x.ndim)) + (1,)})


def from_channels_last(y, first: bool):
    if not first:
        return y
    return execute(Transpose, (y,), {"perm": (0, y.ndim - 1) + tuple(range(1, y.ndim - 1))})


def spatial_sizes(shape, first: bool) -> tuple:
    return tuple(shape[2:] if first else shape[1:-1])


def _conv_attrs(op_name: str, input_sizes, kernel, strides, padding, dilations, first: bool,
                explicit: bool = True) -> dict:
    nd = len(input_sizes)
    strides = spatial(op_name, strides, "strides", first, nd)
    dilations = spatial(op_name, dilations, "dilations", first, nd)
    pads = resolve_padding(op_name, padding, input_sizes, kernel, strides, dilations, first,
                           explicit)
    return {"strides": strides, "dilations": dilations, "pads": pads}


def _conv(nd: int, input, filters, strides, padding, data_format, dilations,  # noqa: A002
          explicit: bool = True) -> Tensor:
    """The N-d (grouped) convolution, after TF's checks."""
    op = CONV_OPS[nd][0]
    x, w = typed_inputs(op.name, _CONV_TYPES, input, filters)
    check_rank(op.name, "input", x, nd + 2)
    check_rank(op.name, "filter", w, nd + 2)
    first = channel_first(op.name, data_format, nd)
    channels = x.shape[1] if first else x.shape[-1]
    if w.shape[-2] == 0 or channels % w.shape[-2] or w.shape[-1] % (channels // w.shape[-2]):
        raise fail(op.name, f"input depth must be evenly divisible by filter depth, and the "
                   f"filter count by the number of groups: {channels} vs {w.shape[-2]} (input "
                   f"shape {list(x.shape)}, filter shape {list(w.shape)}).")
    attrs = _conv_attrs(op.name, spatial_sizes(x.shape, first), w.shape[:-2], strides, padding,
                        dilations, first, explicit)
    return from_channels_last(execute(op, (to_channels_last(x, first), w), attrs), first)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None) -> Tensor:
    """The 2-D convolution (cross-correlation, as TF) of a batch of images with filters.

    A filter depth that divides the input depth makes a grouped convolution: input channels
    are split into `in_channels / filter_depth` groups, each convolved with its own block of
    `out_channels / groups` filters.

    Args:
        input: [batch, height, width, in_channels] ("NHWC") or [batch, in_channels, height,
            width] ("NCHW").
        filters: [filter_height, filter_width, in_channels / groups, out_channels].
        strides: an int or a list of 1, 2 or 4 ints.
        padding: "SAME", "VALID", or a list of 4 [before, after] pairs in data_format order.
        dilations: an int or a list of 1, 2 or 4 ints (default 1).

    Returns:
        The convolution, [batch, out_height, out_width, out_channels] for "NHWC".

    Raises:
        InvalidArgumentError: wrong ranks, channel counts that do not divide, a padding value
            not in TF's list, a dtype other than float16/32/64 or int32, or a negative output
            size (an output size of 0 is an empty result, as in TF).
        UnimplementedError: strides or dilations in the batch/depth dimensions.
        ValueError: a malformed explicit padding list or strides of the wrong length.

    Example:
        >>> import tapeflow as tf
        >>> images = tf.constant(1.0, shape=[1, 4, 4, 1])
        >>> y = tf.nn.conv2d(images, tf.constant(1.0, shape=[3, 3, 1, 2]), 1, padding="VALID")
        >>> y.shape, float(y.numpy()[0, 0, 0, 0])
        (TensorShape([1, 2, 2, 2]), 9.0)
    """
    return _conv(2, input, filters, strides, padding, data_format, dilations)


def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None,  # noqa: A002
           name=None) -> Tensor:
    """The 3-D convolution of a batch of volumes with filters (grouped as conv2d's).

    Args:
        input: [batch, depth, height, width, in_channels] ("NDHWC") or channels first
            ("NCDHW").
        filters: [filter_depth, filter_height, filter_width, in_channels / groups,
            out_channels].
        strides: a list of 5 (or 3) ints; dilations likewise (default 1).
        padding: "SAME" or "VALID".

    Returns:
        The convolution, [batch, out_depth, out_height, out_width, out_channels] for "NDHWC".

    Raises:
        InvalidArgumentError: wrong ranks, channel counts that do not divide, a bad padding
            or dtype, or a negative output size.
        TypeError: a padding list (conv3d takes only "SAME" or "VALID").

    Example:
        >>> import tapeflow as tf
        >>> x, w = tf.ones([1, 4, 4, 4, 1]), tf.ones([2, 2, 2, 1, 3])
        >>> y = tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "VALID")
        >>> y.shape, float(y.numpy()[0, 0, 0, 0, 0])
        (TensorShape([1, 3, 3, 3, 3]), 8.0)
    """
    return _conv(3, input, filters, strides, padding, data_format, dilations, explicit=False)


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None,  # noqa: A002
           name=None) -> Tensor:
    """The 1-D convolution of [batch, width, in_channels] with [width, in_channels / groups,
    out_channels], computed as a conv2d over a height of 1.

    Raises:
        InvalidArgumentError: wrong ranks or channel counts that do not divide.

    Example:
        >>> import tapeflow as tf
        >>> x, filters = tf.constant(1.0, shape=[2, 5, 3]), tf.constant(1.0, shape=[2, 3, 4])
        >>> tf.nn.conv1d(x, filters, stride=1, padding="SAME").shape
        TensorShape([2, 5, 4])
    """
    x, w, first = _inputs_1d("Conv2D", "conv1d", input, filters, data_format)
    y = conv2d(_with_height(x, first), Reshape(w, (1,) + tuple(w.shape)),
               strides=[1, spatial("Conv2D", stride, "stride", False, 1)[0]],
               padding=_padding_with_height(padding, first),
               data_format=_FORMATS[2][first],
               dilations=[1, spatial("Conv2D", dilations, "dilations", False, 1)[0]])
    return _without_height(y, first)


def _inputs_1d(op_name: str, function: str, input, filters, data_format) -> tuple:  # noqa: A002
    """The input and filter of a 1-D convolution (both rank 3), and whether the input is
    channels first."""
    x, w = typed_inputs(op_name, _CONV_TYPES, input, filters)
    if x.ndim != 3 or w.ndim != 3:
        raise fail(op_name, f"{function} needs a 3-D input and a 3-D filter, got shapes "
                   f"{list(x.shape)} and {list(w.shape)}.")
    return x, w, channel_first(op_name, data_format, 1)


def _with_height(x, first: bool):
    """A [batch, width, channels] tensor (or channels first) as an image of height 1 (the
    batch size may be unknown while a graph is built)."""
    axis = 2 if first else 1
    return Reshape(x, (-1,) + tuple(x.shape[1:axis]) + (1,) + tuple(x.shape[axis:]))


def _without_height(y, first: bool):
    axis = 2 if first else 1
    return Reshape(y, (-1,) + tuple(y.shape[1:axis]) + tuple(y.shape[axis + 1:]))


def _padding_with_height(padding, first: bool):
    if not isinstance(padding, (list, tuple)):
        return padding
    padding = list(padding)
    padding.insert(2 if first else 1, [0, 0])
    return padding


def _known_size(d):
    """A size given as a number or a scalar tensor: what is known of it (None if nothing)."""
    if not hasattr(d, "_id"):
        return d
    known = full_value(d)
    return None if known is None else int(known)


def _output_shape(op_name: str, output_shape, x) -> list:
    """A transposed convolution's output_shape as ints; a batch size of None or -1 (beyond
    TF) stands for the input's, which may be unknown while a graph is built, as may be the
    batch entry of a shape computed in the graph (`tf.shape(x)[0]`).

    Raises:
        InvalidArgumentError: other entries of a graph-computed shape are not known while
            the graph is built.
    """
    if hasattr(output_shape, "_id"):
        shape = constant_shape(output_shape)
        if shape is None or None in shape[1:]:
            raise fail(op_name, f"output_shape must be known while the graph is built apart "
                       f"from its batch size; {output_shape!r} is known as "
                       f"{None if shape is None else list(shape)}.")
        shape = list(shape)
    else:
        entries = output_shape if isinstance(output_shape, (list, tuple)) else \
            np.ravel(np.asarray(output_shape, object))  # (a list may hold a graph's batch size)
        shape = list(output_shape.as_list() if hasattr(output_shape, "as_list") else
                     [_known_size(d) for d in entries])
    if shape and shape[0] in (None, -1):
        shape[0] = x.shape[0] if x.shape[0] is not None else -1
    return [int(d) for d in shape]


def _conv_transpose(nd: int, input, filters, output_shape, strides, padding,  # noqa: A002
                    data_format, dilations, explicit: bool = True) -> Tensor:
    op = CONV_OPS[nd][1]
    x, w = typed_inputs(op.name, _CONV_TYPES, input, filters)
    check_rank(op.name, "input", x, nd + 2)
    check_rank(op.name, "filter", w, nd + 2)
    first = channel_first(op.name, data_format, nd)
    shape = _output_shape(op.name, output_shape, x)
    if len(shape) != nd + 2:
        raise fail(op.name, f"output_shape must have {nd + 2} elements, got {shape}.")
    out_last = (shape[0], *shape[2:], shape[1]) if first else tuple(shape)
    attrs = _conv_attrs(op.name, out_last[1:-1], w.shape[:-2], strides, padding, dilations,
                        first, explicit)
    x_last = to_channels_last(x, first)
    expected = (out_last[0],) + kernels.output_sizes(
        out_last[1:-1], w.shape[:-2], attrs["strides"], attrs["dilations"], attrs["pads"]) \
        + (w.shape[-1],)
    if tuple(x_last.shape)[1:] != expected[1:] or x_last.shape[0] not in (expected[0], None) \
            or w.shape[-2] != out_last[-1]:
        raise fail(op.name, f"Size of out_backprop doesn't match computed: input shape "
                   f"{list(x.shape)}, filter shape {list(w.shape)}, output_shape {shape}; the "
                   f"convolution of output_shape would give {list(expected)} (channels last).")
    attrs["input_sizes"] = out_last
    return from_channels_last(execute(op, (w, x_last), attrs), first)


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NHWC", dilations=None, name=None) -> Tensor:
    """The transpose (gradient) of conv2d: maps conv2d outputs back to inputs of `output_shape`.

    Args:
        input: [batch, height, width, in_channels] ("NHWC").
        filters: [filter_height, filter_width, out_channels, in_channels].
        output_shape: the 4 output dimensions, in data_format order.
        strides, padding, dilations: as for the conv2d this is the transpose of.

    Raises:
        InvalidArgumentError: wrong ranks, or shapes for which conv2d of `output_shape` would
            not give the shape of `input`.

    Example:
        >>> import tapeflow as tf
        >>> x, filters = tf.constant(1.0, shape=[1, 2, 2, 1]), tf.constant(1.0, shape=[3, 3, 1, 1])
        >>> tf.nn.conv2d_transpose(x, filters, output_shape=[1, 4, 4, 1], strides=2).shape
        TensorShape([1, 4, 4, 1])
    """
    return _conv_transpose(2, input, filters, output_shape, strides, padding, data_format,
                           dilations)


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NDHWC", dilations=None, name=None) -> Tensor:
    """The transpose (gradient) of conv3d: maps conv3d outputs back to inputs of `output_shape`.

    Args:
        input: [batch, depth, height, width, in_channels] ("NDHWC").
        filters: [filter_depth, filter_height, filter_width, out_channels, in_channels].
        output_shape: the 5 output dimensions, in data_format order.
        strides, padding ("SAME" or "VALID"), dilations: as for the conv3d this is the
            transpose of.

    Raises:
        InvalidArgumentError: wrong ranks, or shapes for which conv3d of `output_shape` would
            not give the shape of `input`.

    Example:
        >>> import tapeflow as tf
        >>> x, filters = tf.ones([1, 2, 2, 2, 1]), tf.ones([3, 3, 3, 4, 1])
        >>> tf.nn.conv3d_transpose(x, filters, [1, 4, 4, 4, 4], strides=2).shape
        TensorShape([1, 4, 4, 4, 4])
    """
    return _conv_transpose(3, input, filters, output_shape, strides, padding, data_format,
                           dilations, explicit=False)


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NWC", dilations=None, name=None) -> Tensor:
    """The transpose (gradient) of conv1d, computed as conv2d_transpose over a height of 1.

    Args:
        input: [batch, width, in_channels] ("NWC") or channels first ("NCW").
        filters: [filter_width, out_channels, in_channels].
        output_shape: the 3 output dimensions, in data_format order.
        strides, padding, dilations: as for the conv1d this is the transpose of.

    Raises:
        InvalidArgumentError: wrong ranks, or shapes that conv1d of `output_shape` would not
            give.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.conv1d_transpose(tf.ones([1, 3, 2]), tf.ones([3, 4, 2]), [1, 6, 4], 2).shape
        TensorShape([1, 6, 4])
    """
    x, w, first = _inputs_1d("Conv2DBackpropInput", "conv1d_transpose", input, filters,
                             data_format)
    shape = _output_shape("Conv2DBackpropInput", output_shape, x)
    if len(shape) != 3:
        raise fail("Conv2DBackpropInput", f"output_shape must have 3 elements, got {shape}.")
    y = conv2d_transpose(
        _with_height(x, first), Reshape(w, (1,) + tuple(w.shape)),
        shape[:2 if first else 1] + [1] + shape[2 if first else 1:],
        [1, spatial("Conv2DBackpropInput", strides, "strides", first, 1)[0]],
        _padding_with_height(padding, first), _FORMATS[2][first],
        [1, spatial("Conv2DBackpropInput", dilations, "dilations", first, 1)[0]])
    return _without_height(y, first)


def depthwise_conv2d(input, filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None) -> Tensor:
    """Each input channel convolved with its own `channel_multiplier` filters: a conv2d with
    one group per input channel; output channel `c * channel_multiplier + m`.

    Args:
        input: [batch, height, width, in_channels] ("NHWC") or channels first ("NCHW").
        filter: [filter_height, filter_width, in_channels, channel_multiplier].
        strides: a list of 4 (or 1 or 2) ints.
        padding: "SAME", "VALID", or a list of 4 [before, after] pairs.
        dilations: a list of 2 ints (default 1).

    Returns:
        [batch, out_height, out_width, in_channels * channel_multiplier] for "NHWC".

    Raises:
        InvalidArgumentError: wrong ranks, or filter channels that differ from the input's.

    Example:
        >>> import tapeflow as tf
        >>> y = tf.nn.depthwise_conv2d(tf.ones([1, 3, 3, 2]), tf.ones([3, 3, 2, 2]),
        ...                            [1, 1, 1, 1], "VALID")
        >>> y.shape, y.numpy().ravel().tolist()
        (TensorShape([1, 1, 1, 4]), [9.0, 9.0, 9.0, 9.0])
    """
    x, w = typed_inputs("DepthwiseConv2dNative", _CONV_TYPES, input, filter)
    check_rank("DepthwiseConv2dNative", "input", x, 4)
    check_rank("DepthwiseConv2dNative", "filter", w, 4)
    first = channel_first("DepthwiseConv2dNative", data_format, 2)
    channels = x.shape[1] if first else x.shape[3]
    if w.shape[2] != channels:
        raise fail("DepthwiseConv2dNative", f"input and filter must have the same depth: "
                   f"{channels} vs {w.shape[2]} (input shape {list(x.shape)}, filter shape "
                   f"{list(w.shape)}).")
    grouped = Reshape(w, (w.shape[0], w.shape[1], 1, w.shape[2] * w.shape[3]))
    return conv2d(x, grouped, strides, padding, data_format or "NHWC", dilations)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,  # noqa: A002
                     data_format=None, dilations=None, name=None) -> Tensor:
    """A depthwise convolution followed by a 1x1 convolution mixing the channels.

    Args:
        input: [batch, height, width, in_channels] ("NHWC") or channels first ("NCHW").
        depthwise_filter: [filter_height, filter_width, in_channels, channel_multiplier].
        pointwise_filter: [1, 1, in_channels * channel_multiplier, out_channels].
        strides, padding, dilations: those of the depthwise convolution.

    Returns:
        [batch, out_height, out_width, out_channels] for "NHWC".

    Raises:
        InvalidArgumentError: what depthwise_conv2d and conv2d reject.
        ValueError: a pointwise filter not of shape [1, 1, ...].

    Example:
        >>> import tapeflow as tf
        >>> y = tf.nn.separable_conv2d(tf.ones([1, 3, 3, 2]), tf.ones([3, 3, 2, 2]),
        ...                            tf.ones([1, 1, 4, 5]), [1, 1, 1, 1], "VALID")
        >>> y.shape, float(y.numpy()[0, 0, 0, 0])
        (TensorShape([1, 1, 1, 5]), 36.0)
    """
    pointwise = as_input(pointwise_filter)
    if pointwise.ndim != 4 or tuple(pointwise.shape[:2]) != (1, 1):
        raise ValueError(f"separable_conv2d: the pointwise filter must have shape [1, 1, "
                         f"in_channels * channel_multiplier, out_channels], got "
                         f"{list(pointwise.shape)}")
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format,
                                 dilations)
    return conv2d(depthwise, pointwise, 1, "VALID", data_format or "NHWC")


def convolution(input, filters, strides=None, padding="VALID", data_format=None,  # noqa: A002
                dilations=None, name=None) -> Tensor:
    """conv1d, conv2d or conv3d, by the input's rank (3, 4 or 5).

    Args:
        strides, dilations: an int or one int per spatial dimension (default 1).
        padding: "SAME" or "VALID" (or explicit pairs where the N-d op takes them).
        data_format: None (channels last) or TF's name for the rank ("NCW", "NCHW", ...).

    Raises:
        ValueError: an input rank other than 3, 4 or 5.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.convolution(tf.ones([1, 5, 5, 5, 2]), tf.ones([3, 3, 3, 2, 4])).shape
        TensorShape([1, 3, 3, 3, 4])
    """
    x = as_input(input)
    if x.ndim == 3:
        return conv1d(x, filters, 1 if strides is None else strides, padding,
                      data_format or "NWC", dilations)
    if x.ndim in (4, 5):
        return _conv(x.ndim - 2, x, filters, 1 if strides is None else strides, padding,
                     data_format, dilations, explicit=x.ndim == 4)
    raise ValueError(f"convolution: the input's rank must be 3, 4 or 5, got shape "
                     f"{list(x.shape)}.")
