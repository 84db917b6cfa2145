"""Convolution and pooling (tf.nn): strided window views plus one matmul or reduction.

Kernels work in NHWC with the padding already resolved to explicit (before, after) pairs,
so forward ops and their gradient ops share one set of attrs: `strides`, `dilations` and
`pads` (conv) or `ksize`, `strides` and `pads` (pooling). Gradient rules are in
`conv_grad.py`; each gradient op has its own rule, so every order of derivative works.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import LINEAR, MULTILINEAR, define_op
from ..framework.tensor import Tensor
from .array_ops import Reshape, Transpose
from .op_util import as_input, binary_inputs

__all__ = ["avg_pool", "avg_pool1d", "avg_pool2d", "conv1d", "conv2d", "conv2d_transpose",
           "max_pool", "max_pool1d", "max_pool2d"]

_TO_NHWC = (0, 2, 3, 1)
_TO_NCHW = (0, 3, 1, 2)


def _windows(x, kernel, strides, dilations):
    """A read-only view (N, OH, OW, KH, KW, C) of the sliding windows of NHWC `x`."""
    n, h, w, c = x.shape
    (kh, kw), (sh, sw), (dh, dw) = kernel, strides, dilations
    oh = max((h - (kh - 1) * dh - 1) // sh + 1, 0)
    ow = max((w - (kw - 1) * dw - 1) // sw + 1, 0)
    s0, s1, s2, s3 = x.strides
    return as_strided(x, (n, oh, ow, kh, kw, c), (s0, s1 * sh, s2 * sw, s1 * dh, s2 * dw, s3),
                      writeable=False)


def _pad(x, pads, value=0):
    (top, bottom), (left, right) = pads
    if not (top or bottom or left or right):
        return x
    return np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)), constant_values=value)


def _pad_or_crop(x, pads):
    """Pads (positive amounts) or crops (negative amounts) the two spatial axes."""
    (top, bottom), (left, right) = pads
    x = x[:, max(-top, 0):x.shape[1] - max(-bottom, 0), max(-left, 0):x.shape[2] - max(-right, 0)]
    return _pad(x, ((max(top, 0), max(bottom, 0)), (max(left, 0), max(right, 0))))


def _spread(g, input_hw, kernel, strides, dilations, pads):
    """The output gradient `g` dilated by the strides and padded so that its stride-1 windows,
    read against the flipped kernel, sum to the input gradient (the adjoint of windowing)."""
    n, oh, ow, c = g.shape
    sh, sw = strides
    if sh > 1 or sw > 1:
        dilated = np.zeros((n, (oh - 1) * sh + 1, (ow - 1) * sw + 1, c), g.dtype)
        dilated[:, ::sh, ::sw] = g
        g = dilated
    spread_pads = tuple(((k - 1) * d - before, size + before - length)
                        for size, k, d, (before, _), length
                        in zip(input_hw, kernel, dilations, pads, g.shape[1:3]))
    return _pad_or_crop(g, spread_pads)


def _correlate(windows, filters):
    """Windows (N, OH, OW, KH, KW, C) times filters (KH, KW, C, O): one im2col copy, one matmul."""
    n, oh, ow, kh, kw, c = windows.shape
    columns = windows.reshape(n * oh * ow, kh * kw * c)
    return (columns @ filters.reshape(kh * kw * c, -1)).reshape(n, oh, ow, filters.shape[-1])


def _conv2d(x, filters, strides, dilations, pads):
    return _correlate(_windows(_pad(x, pads), filters.shape[:2], strides, dilations), filters)


def _conv2d_backprop_input(filters, out_backprop, input_sizes, strides, dilations, pads):
    kernel = filters.shape[:2]
    spread = _spread(out_backprop, input_sizes[1:3], kernel, strides, dilations, pads)
    flipped = filters[::-1, ::-1].swapaxes(2, 3)
    return _correlate(_windows(spread, kernel, (1, 1), dilations), flipped)


def _conv2d_backprop_filter(x, out_backprop, filter_sizes, strides, dilations, pads):
    windows = _windows(_pad(x, pads), filter_sizes[:2], strides, dilations)
    n, oh, ow = windows.shape[:3]
    columns = windows.reshape(n * oh * ow, int(np.prod(filter_sizes[:3])))
    return (columns.T @ out_backprop.reshape(n * oh * ow, filter_sizes[3])).reshape(filter_sizes)


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _max_pool(x, ksize, strides, pads):
    return _windows(_pad(x, pads, _lowest(x.dtype)), ksize, strides, (1, 1)).max(axis=(3, 4))


def _pool_argmax(x, ksize, strides, pads):
    """The flat index into `x` of each output's window maximum; ties go to the first in
    row-major window order, as TF's CPU kernel does."""
    n, h, w, c = x.shape
    windows = _windows(_pad(x, pads, _lowest(x.dtype)), ksize, strides, (1, 1))
    oh, ow, kh, kw = windows.shape[1:5]
    di, dj = np.divmod(windows.reshape(n, oh, ow, kh * kw, c).argmax(axis=3), kw)
    rows = np.clip(np.arange(oh)[:, None, None] * strides[0] + di - pads[0][0], 0, h - 1)
    cols = np.clip(np.arange(ow)[:, None] * strides[1] + dj - pads[1][0], 0, w - 1)
    return ((np.arange(n)[:, None, None, None] * h + rows) * w + cols) * c + np.arange(c)


def _max_pool_grad(x, y, out_backprop, ksize, strides, pads):
    index = _pool_argmax(x, ksize, strides, pads)
    total = np.bincount(index.ravel(), weights=out_backprop.ravel(), minlength=x.size)
    return total.reshape(x.shape).astype(x.dtype, copy=False)


def _max_pool_grad_grad(x, y, grad, ksize, strides, pads):
    return grad.ravel()[_pool_argmax(x, ksize, strides, pads)]


def _pool_counts(input_hw, ksize, strides, pads, dtype):
    """How many input (not padding) elements each window holds, shape (1, OH, OW, 1)."""
    ones = np.ones((1,) + tuple(input_hw) + (1,), dtype)
    return _windows(_pad(ones, pads), ksize, strides, (1, 1)).sum(axis=(3, 4))


def _avg_pool(x, ksize, strides, pads):
    sums = _windows(_pad(x, pads), ksize, strides, (1, 1)).sum(axis=(3, 4))
    return sums / _pool_counts(x.shape[1:3], ksize, strides, pads, x.dtype)


def _avg_pool_grad(out_backprop, input_sizes, ksize, strides, pads):
    shares = out_backprop / _pool_counts(input_sizes[1:3], ksize, strides, pads,
                                         out_backprop.dtype)
    spread = _spread(shares, input_sizes[1:3], ksize, strides, (1, 1), pads)
    return _windows(spread, ksize, (1, 1), (1, 1)).sum(axis=(3, 4))


Conv2D = define_op("Conv2D", _conv2d, family=MULTILINEAR)
Conv2DBackpropInput = define_op("Conv2DBackpropInput", _conv2d_backprop_input, family=MULTILINEAR)
Conv2DBackpropFilter = define_op("Conv2DBackpropFilter", _conv2d_backprop_filter,
                                 family=MULTILINEAR)
MaxPool = define_op("MaxPool", _max_pool)
MaxPoolGrad = define_op("MaxPoolGrad", _max_pool_grad)
MaxPoolGradGrad = define_op("MaxPoolGradGrad", _max_pool_grad_grad)
AvgPool = define_op("AvgPool", _avg_pool, family=LINEAR)
AvgPoolGrad = define_op("AvgPoolGrad", _avg_pool_grad, family=LINEAR)


def _fail(op_name: str, message: str):
    return errors.InvalidArgumentError(None, op_name, f"{op_name}: {message}")


def _channel_first(op_name: str, data_format) -> bool:
    if data_format in ("NHWC", "NWC", None):
        return False
    if data_format in ("NCHW", "NCW"):
        return True
    raise _fail(op_name, f"Value for attr 'data_format' of {data_format!r} is not in the list "
                f"of allowed values: 'NHWC', 'NCHW'.")


def _spatial(op_name: str, value, what: str, channel_first: bool) -> tuple:
    """strides, dilations or ksize (an int or a list of 1, 2 or 4 ints) as (height, width)."""
    values = [int(v) for v in np.ravel(np.asarray(1 if value is None else value))]
    if len(values) == 1:
        values = values * 2
    elif len(values) == 4:
        outer = (values[0], values[1]) if channel_first else (values[0], values[3])
        if outer != (1, 1):
            raise errors.UnimplementedError(
                None, op_name, f"{op_name}: {what} in the batch and depth dimensions are not "
                f"supported, got {values}.")
        values = values[2:] if channel_first else values[1:3]
    elif len(values) != 2:
        raise ValueError(f"{op_name}: {what} should be an int or a list of length 1, 2 or 4, "
                         f"got {value!r}")
    if min(values) < 1:
        raise _fail(op_name, f"{what} must be positive, got {value!r}.")
    return tuple(values)


def _explicit_pads(op_name: str, padding, channel_first: bool) -> tuple:
    pairs = [list(p) if isinstance(p, (list, tuple)) else p for p in padding]
    if len(pairs) != 4 or any(not isinstance(p, list) or len(p) != 2 for p in pairs):
        raise ValueError(f"{op_name}: when padding is a list it must hold 4 [before, after] "
                         f"pairs, got {padding!r}")
    pairs = [[int(a), int(b)] for a, b in pairs]
    outer = pairs[:2] if channel_first else [pairs[0], pairs[3]]
    spatial = pairs[2:] if channel_first else pairs[1:3]
    if outer != [[0, 0], [0, 0]] or min(min(p) for p in spatial) < 0:
        raise _fail(op_name, f"explicit padding must be non-negative and zero in the batch and "
                    f"depth dimensions, got {padding!r}.")
    return tuple(tuple(p) for p in spatial)


def _resolve_padding(op_name: str, padding, input_hw, kernel, strides, dilations,
                     channel_first: bool, explicit: bool = True) -> tuple:
    """`padding` as ((top, bottom), (left, right)), checking the output is not empty."""
    if isinstance(padding, (list, tuple)):
        if not explicit:
            raise TypeError(f"{op_name}: expected a string for padding ('SAME' or 'VALID'), "
                            f"not {padding!r}")
        pads = _explicit_pads(op_name, padding, channel_first)
    elif padding == "VALID":
        pads = ((0, 0), (0, 0))
    elif padding == "SAME":
        totals = [max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
                  for size, k, s, d in zip(input_hw, kernel, strides, dilations)]
        pads = tuple((t // 2, t - t // 2) for t in totals)
    elif padding == "EXPLICIT":
        raise ValueError(f"{op_name}: 'EXPLICIT' is not a valid value for padding; to pad "
                         f"explicitly, pass a list of [before, after] pairs.")
    else:
        allowed = "'SAME', 'VALID', 'EXPLICIT'" if explicit else "'SAME', 'VALID'"
        raise _fail(op_name, f"Value for attr 'padding' of {padding!r} is not in the list of "
                    f"allowed values: {allowed}.")
    for size, k, s, d, (before, after) in zip(input_hw, kernel, strides, dilations, pads):
        effective = (k - 1) * d + 1
        if int((size + before + after - effective + s) / s) < 0:  # TF truncates toward 0
            raise _fail(op_name, f"Computed output size would be negative: input size {size}, "
                        f"padding {before}+{after}, effective filter size {effective}, stride "
                        f"{s}.")
    return pads


def _output_hw(input_hw, kernel, strides, dilations, pads) -> tuple:
    return tuple(max((size + before + after - (k - 1) * d - 1) // s + 1, 0)
                 for size, k, s, d, (before, after)
                 in zip(input_hw, kernel, strides, dilations, pads))


def _typed_inputs(op_name: str, allowed: tuple, *values) -> tuple:
    """The inputs as tensors of one dtype among `allowed` (dtype names), as TF's op defs."""
    tensors = binary_inputs(op_name, *values) if len(values) == 2 else (as_input(values[0]),)
    if tensors[0].dtype.name not in allowed:
        raise _fail(op_name, f"dtype {tensors[0].dtype.name} is not in the list of allowed "
                    f"values: {', '.join(allowed)} (shape {list(tensors[0].shape)}).")
    return tensors


_FLOATS = ("float16", "float32", "float64")
_CONV_TYPES = _FLOATS + ("int32",)
_MAX_POOL_TYPES = _FLOATS + ("int8", "int16", "int32", "int64", "uint8")


def _rank4(op_name: str, what: str, x) -> None:
    if x.ndim != 4:
        raise _fail(op_name, f"{what} must be 4-dimensional, got shape {list(x.shape)}.")


def _nhwc(x, channel_first: bool):
    return execute(Transpose, (x,), {"perm": _TO_NHWC}) if channel_first else x


def _from_nhwc(y, channel_first: bool):
    return execute(Transpose, (y,), {"perm": _TO_NCHW}) if channel_first else y


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None) -> Tensor:
    """The 2-D convolution (cross-correlation, as TF) of a batch of images with filters.

    Args:
        input: [batch, height, width, in_channels] ("NHWC") or [batch, in_channels, height,
            width] ("NCHW").
        filters: [filter_height, filter_width, in_channels, out_channels].
        strides: an int or a list of 1, 2 or 4 ints.
        padding: "SAME", "VALID", or a list of 4 [before, after] pairs in data_format order.
        dilations: an int or a list of 1, 2 or 4 ints (default 1).

    Returns:
        The convolution, [batch, out_height, out_width, out_channels] for "NHWC".

    Raises:
        InvalidArgumentError: wrong ranks, channel counts that differ, a padding value not in
            TF's list, a dtype other than float16/32/64 or int32, or a negative output size
            (an output size of 0 is an empty result, as in TF).
        UnimplementedError: strides or dilations in the batch/depth dimensions, or a grouped
            convolution.
        ValueError: a malformed explicit padding list or strides of the wrong length.

    Example:
        >>> import tapeflow as tf
        >>> images = tf.constant(1.0, shape=[1, 4, 4, 1])
        >>> y = tf.nn.conv2d(images, tf.constant(1.0, shape=[3, 3, 1, 2]), 1, padding="VALID")
        >>> y.shape, float(y.numpy()[0, 0, 0, 0])
        (TensorShape([1, 2, 2, 2]), 9.0)
    """
    x, w = _typed_inputs("Conv2D", _CONV_TYPES, input, filters)
    _rank4("Conv2D", "input", x)
    _rank4("Conv2D", "filter", w)
    first = _channel_first("Conv2D", data_format)
    channels = x.shape[1] if first else x.shape[3]
    if channels != w.shape[2]:
        if channels % w.shape[2] == 0:
            raise errors.UnimplementedError(
                None, "Conv2D", f"Conv2D: grouped convolution is not supported: input shape "
                f"{list(x.shape)}, filter shape {list(w.shape)}.")
        raise _fail("Conv2D", f"input depth must be evenly divisible by filter depth: "
                    f"{channels} vs {w.shape[2]} (input shape {list(x.shape)}, filter shape "
                    f"{list(w.shape)}).")
    attrs = _conv_attrs("Conv2D", _hw(x.shape, first), w.shape[:2], strides, padding,
                        dilations, first)
    return _from_nhwc(execute(Conv2D, (_nhwc(x, first), w), attrs), first)


def _hw(shape, channel_first: bool) -> tuple:
    return tuple(shape[2:] if channel_first else shape[1:3])


def _conv_attrs(op_name: str, input_hw, kernel, strides, padding, dilations,
                channel_first) -> dict:
    strides = _spatial(op_name, strides, "strides", channel_first)
    dilations = _spatial(op_name, dilations, "dilations", channel_first)
    pads = _resolve_padding(op_name, padding, input_hw, kernel, strides, dilations,
                            channel_first)
    return {"strides": strides, "dilations": dilations, "pads": pads}


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
    x, w = _typed_inputs("Conv2DBackpropInput", _CONV_TYPES, input, filters)
    _rank4("Conv2DBackpropInput", "input", x)
    _rank4("Conv2DBackpropInput", "filter", w)
    first = _channel_first("Conv2DBackpropInput", data_format)
    shape = [int(d) for d in np.ravel(np.asarray(getattr(output_shape, "_value", output_shape)))]
    if len(shape) != 4:
        raise _fail("Conv2DBackpropInput", f"output_shape must have 4 elements, got {shape}.")
    out_nhwc = tuple(shape[i] for i in _TO_NHWC) if first else tuple(shape)
    attrs = _conv_attrs("Conv2DBackpropInput", out_nhwc[1:3], w.shape[:2], strides, padding,
                        dilations, first)
    x_nhwc = _nhwc(x, first)
    expected = (out_nhwc[0],) + _output_hw(out_nhwc[1:3], w.shape[:2], attrs["strides"],
                                           attrs["dilations"], attrs["pads"]) + (w.shape[3],)
    if tuple(x_nhwc.shape) != expected or w.shape[2] != out_nhwc[3]:
        raise _fail("Conv2DBackpropInput", f"Size of out_backprop doesn't match computed: input "
                    f"shape {list(x.shape)}, filter shape {list(w.shape)}, output_shape "
                    f"{shape}; conv2d of output_shape would give {list(expected)} (NHWC).")
    attrs["input_sizes"] = out_nhwc
    return _from_nhwc(execute(Conv2DBackpropInput, (w, x_nhwc), attrs), first)


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None,  # noqa: A002
           name=None) -> Tensor:
    """The 1-D convolution of [batch, width, in_channels] with [width, in_channels, out_channels].

    Computed as a conv2d over a height of 1.

    Raises:
        InvalidArgumentError: wrong ranks or channel counts that differ.

    Example:
        >>> import tapeflow as tf
        >>> x, filters = tf.constant(1.0, shape=[2, 5, 3]), tf.constant(1.0, shape=[2, 3, 4])
        >>> tf.nn.conv1d(x, filters, stride=1, padding="SAME").shape
        TensorShape([2, 5, 4])
    """
    x, w = _typed_inputs("Conv2D", _CONV_TYPES, input, filters)
    if x.ndim != 3 or w.ndim != 3:
        raise _fail("Conv2D", f"conv1d needs a 3-D input and a 3-D filter, got shapes "
                    f"{list(x.shape)} and {list(w.shape)}.")
    first = _channel_first("Conv2D", data_format)
    stride = _spatial("Conv2D", stride, "stride", False)[0]
    dilation = _spatial("Conv2D", dilations, "dilations", False)[0]
    x4 = Reshape(x, (x.shape[0], x.shape[1], 1, x.shape[2]) if first else
                 (x.shape[0], 1, x.shape[1], x.shape[2]))
    y = conv2d(x4, Reshape(w, (1,) + tuple(w.shape)), strides=[1, stride], padding=padding,
               data_format="NCHW" if first else "NHWC", dilations=[1, dilation])
    return Reshape(y, (y.shape[0], y.shape[1], y.shape[3]) if first else
                   (y.shape[0], y.shape[2], y.shape[3]))


def _pool(op, allowed: tuple, input, ksize, strides, padding, data_format,  # noqa: A002
          explicit: bool):
    (x,) = _typed_inputs(op.name, allowed, input)
    _rank4(op.name, "input", x)
    first = _channel_first(op.name, data_format)
    ksize = _spatial(op.name, ksize, "ksize", first)
    strides = _spatial(op.name, strides, "strides", first)
    pads = _resolve_padding(op.name, padding, _hw(x.shape, first), ksize, strides, (1, 1), first,
                            explicit=explicit)
    attrs = {"ksize": ksize, "strides": strides, "pads": pads}
    return _from_nhwc(execute(op, (_nhwc(x, first),), attrs), first)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
               name=None) -> Tensor:
    """The maximum over each window; padding never wins. Its gradient goes to the first maximum
    of each window (row-major), as TF's CPU kernel does.

    Args:
        input: [batch, height, width, channels] ("NHWC") or channels first ("NCHW").
        ksize, strides: an int or a list of 1, 2 or 4 ints.
        padding: "SAME", "VALID", or a list of 4 [before, after] pairs.

    Raises:
        InvalidArgumentError: a rank other than 4, an unknown padding, or a negative output size.
        UnimplementedError: windows or strides in the batch or depth dimensions.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.constant([float(i) for i in range(16)]), [1, 4, 4, 1])
        >>> tf.reshape(tf.nn.max_pool2d(x, 2, 2, "VALID"), [-1]).numpy()
        array([ 5.,  7., 13., 15.], dtype=float32)
    """
    return _pool(MaxPool, _MAX_POOL_TYPES, input, ksize, strides, padding, data_format, True)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
               name=None) -> Tensor:
    """The mean over each window; with "SAME" padding it counts only the input elements.

    Args:
        input: [batch, height, width, channels] ("NHWC") or channels first ("NCHW").
        ksize, strides: an int or a list of 1, 2 or 4 ints.
        padding: "SAME" or "VALID".

    Raises:
        InvalidArgumentError: a rank other than 4, an unknown padding, or a non-float dtype.
        TypeError: a padding list (average pooling takes only "SAME" or "VALID").

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.constant([1.0, 2.0, 3.0, 4.0]), [1, 2, 2, 1])
        >>> tf.reshape(tf.nn.avg_pool2d(x, 2, 1, "SAME"), [-1]).numpy()
        array([2.5, 3. , 3.5, 4. ], dtype=float32)
    """
    return _pool(AvgPool, _FLOATS, input, ksize, strides, padding, data_format, False)


def _widths(value, first: bool):
    """A 1-D ksize or strides (an int or a list of 1 or 3 ints) in 2-D form, height 1."""
    values = [int(v) for v in np.ravel(np.asarray(value))]
    if len(values) == 3:
        return values[:2] + [1] + values[2:] if first else values[:1] + [1] + values[1:]
    return [1] + values


def _pool1d(pool2d, input, ksize, strides, padding, data_format):  # noqa: A002
    """A 2-D pool over a height of 1: [batch, width, channels] ("NWC") or channels first."""
    x = as_input(input)
    op_name = "MaxPool" if pool2d is max_pool2d else "AvgPool"
    if x.ndim != 3:
        raise _fail(op_name, f"a 1-D pool needs a 3-D input, got shape {list(x.shape)}.")
    first = _channel_first(op_name, data_format)
    if isinstance(padding, (list, tuple)):
        padding = list(padding)
        padding.insert(2 if first else 1, [0, 0])
    height = 2 if first else 1
    y = pool2d(Reshape(x, x.shape[:height] + (1,) + x.shape[height:]), _widths(ksize, first),
               _widths(strides, first), padding, "NCHW" if first else "NHWC")
    return Reshape(y, y.shape[:height] + y.shape[height + 1:])


def max_pool1d(input, ksize, strides, padding, data_format="NWC",  # noqa: A002
               name=None) -> Tensor:
    """The maximum over each window of [batch, width, channels] (a max_pool2d of height 1).

    Args:
        input: [batch, width, channels] ("NWC") or channels first ("NCW").
        ksize, strides: an int or a list of 1 or 3 ints.
        padding: "SAME", "VALID", or a list of 3 [before, after] pairs.

    Raises:
        InvalidArgumentError: a rank other than 3, or what max_pool2d rejects.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.constant([1.0, 3.0, 2.0, 0.0]), [1, 4, 1])
        >>> tf.reshape(tf.nn.max_pool1d(x, 2, 2, "VALID"), [-1]).numpy()
        array([3., 2.], dtype=float32)
    """
    return _pool1d(max_pool2d, input, ksize, strides, padding, data_format)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC",  # noqa: A002
               name=None) -> Tensor:
    """The mean over each window of [batch, width, channels] (an avg_pool2d of height 1).

    Args:
        input: [batch, width, channels] ("NWC") or channels first ("NCW").
        ksize, strides: an int or a list of 1 or 3 ints.
        padding: "SAME" or "VALID".

    Raises:
        InvalidArgumentError: a rank other than 3, or what avg_pool2d rejects.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.constant([1.0, 2.0, 3.0, 5.0]), [1, 4, 1])
        >>> tf.reshape(tf.nn.avg_pool1d(x, 2, 1, "SAME"), [-1]).numpy()
        array([1.5, 2.5, 4. , 5. ], dtype=float32)
    """
    return _pool1d(avg_pool2d, input, ksize, strides, padding, data_format)


def _pool_nd(pool1d, pool2d, input, ksize, strides, padding, data_format):  # noqa: A002
    x = as_input(input)
    if x.ndim == 3:
        return pool1d(x, ksize, strides, padding, data_format or "NWC")
    if x.ndim == 4:
        return pool2d(x, ksize, strides, padding, data_format or "NHWC")
    if x.ndim == 5:
        raise errors.UnimplementedError(None, pool2d.__name__, "3-D pooling (a rank 5 input) "
                                        "is not available.")
    raise ValueError(f"The input's rank must be 3, 4 or 5, got shape {list(x.shape)} of rank "
                     f"{x.ndim}.")


def max_pool(input, ksize, strides, padding, data_format=None, name=None) -> Tensor:  # noqa: A002
    """max_pool1d for a rank 3 input, max_pool2d for rank 4.

    Raises:
        ValueError: a rank other than 3, 4 or 5.
        UnimplementedError: rank 5 (3-D pooling).

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.max_pool(tf.ones([1, 4, 4, 2]), 2, 2, "VALID").shape
        TensorShape([1, 2, 2, 2])
    """
    return _pool_nd(max_pool1d, max_pool2d, input, ksize, strides, padding, data_format)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None) -> Tensor:  # noqa: A002
    """avg_pool1d for a rank 3 input, avg_pool2d for rank 4.

    Raises:
        ValueError: a rank other than 3, 4 or 5.
        UnimplementedError: rank 5 (3-D pooling).

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.avg_pool(tf.ones([1, 4, 2]), 2, 2, "VALID").shape
        TensorShape([1, 2, 2])
    """
    return _pool_nd(avg_pool1d, avg_pool2d, input, ksize, strides, padding, data_format)
