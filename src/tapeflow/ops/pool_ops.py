"""Pooling (tf.nn): the maximum or mean over sliding windows, in 1, 2 or 3 dimensions.

The 2-D and 3-D ops (defined in `conv_ops.py`) share N-d kernels; 1-D pools are 2-D ones
over a height of 1, as in TF.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.tensor import Tensor
from .array_ops import Reshape
from .conv_ops import (AVG_POOL_OPS, FLOATS, MAX_POOL_OPS, channel_first, check_rank, fail,
                       from_channels_last, resolve_padding, spatial, spatial_sizes,
                       to_channels_last, typed_inputs)
from .op_util import as_input

__all__ = ["avg_pool", "avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool", "max_pool1d",
           "max_pool2d", "max_pool3d", "pool"]

_MAX_POOL_TYPES = FLOATS + ("int8", "int16", "int32", "int64", "uint8")


def _pool(op, allowed: tuple, nd: int, input, ksize, strides, padding,  # noqa: A002
          data_format, explicit: bool):
    (x,) = typed_inputs(op.name, allowed, input)
    check_rank(op.name, "input", x, nd + 2)
    first = channel_first(op.name, data_format, nd)
    ksize = spatial(op.name, ksize, "ksize", first, nd)
    strides = spatial(op.name, strides, "strides", first, nd)
    pads = resolve_padding(op.name, padding, spatial_sizes(x.shape, first), ksize, strides,
                           (1,) * nd, first, explicit=explicit)
    attrs = {"ksize": ksize, "strides": strides, "pads": pads}
    return from_channels_last(execute(op, (to_channels_last(x, first),), attrs), first)


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
    return _pool(MAX_POOL_OPS[2][0], _MAX_POOL_TYPES, 2, input, ksize, strides, padding,
                 data_format, True)


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
    return _pool(AVG_POOL_OPS[2][0], FLOATS, 2, input, ksize, strides, padding, data_format,
                 False)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC",  # noqa: A002
               name=None) -> Tensor:
    """The maximum over each window of [batch, depth, height, width, channels] volumes.

    Args:
        input: rank 5, "NDHWC" or "NCDHW".
        ksize, strides: an int or a list of 1, 3 or 5 ints.
        padding: "SAME" or "VALID".

    Raises:
        InvalidArgumentError: a rank other than 5, an unknown padding, or a negative output size.
        TypeError: a padding list.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
        >>> tf.reshape(tf.nn.max_pool3d(x, 2, 2, "VALID"), [-1]).numpy()
        array([7.], dtype=float32)
    """
    return _pool(MAX_POOL_OPS[3][0], FLOATS, 3, input, ksize, strides, padding, data_format,
                 False)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC",  # noqa: A002
               name=None) -> Tensor:
    """The mean over each window of [batch, depth, height, width, channels] volumes; with
    "SAME" padding it counts only the input elements.

    Args:
        input: rank 5, "NDHWC" or "NCDHW".
        ksize, strides: an int or a list of 1, 3 or 5 ints.
        padding: "SAME" or "VALID".

    Raises:
        InvalidArgumentError: a rank other than 5, an unknown padding, or a non-float dtype.
        TypeError: a padding list.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
        >>> tf.reshape(tf.nn.avg_pool3d(x, 2, 2, "VALID"), [-1]).numpy()
        array([3.5], dtype=float32)
    """
    return _pool(AVG_POOL_OPS[3][0], FLOATS, 3, input, ksize, strides, padding, data_format,
                 False)


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
        raise fail(op_name, f"a 1-D pool needs a 3-D input, got shape {list(x.shape)}.")
    first = channel_first(op_name, data_format, 1)
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


_BY_RANK = {"MAX": {3: max_pool1d, 4: max_pool2d, 5: max_pool3d},
            "AVG": {3: avg_pool1d, 4: avg_pool2d, 5: avg_pool3d}}
_DEFAULT_FORMATS = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


def _pool_nd(kind: str, input, ksize, strides, padding, data_format):  # noqa: A002
    x = as_input(input)
    if x.ndim not in _DEFAULT_FORMATS:
        raise ValueError(f"The input's rank must be 3, 4 or 5, got shape {list(x.shape)} of "
                         f"rank {x.ndim}.")
    return _BY_RANK[kind][x.ndim](x, ksize, strides, padding,
                                  data_format or _DEFAULT_FORMATS[x.ndim])


def max_pool(input, ksize, strides, padding, data_format=None, name=None) -> Tensor:  # noqa: A002
    """max_pool1d, max_pool2d or max_pool3d, by the input's rank (3, 4 or 5).

    Raises:
        ValueError: a rank other than 3, 4 or 5.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.max_pool(tf.ones([1, 4, 4, 2]), 2, 2, "VALID").shape
        TensorShape([1, 2, 2, 2])
    """
    return _pool_nd("MAX", input, ksize, strides, padding, data_format)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None) -> Tensor:  # noqa: A002
    """avg_pool1d, avg_pool2d or avg_pool3d, by the input's rank (3, 4 or 5).

    Raises:
        ValueError: a rank other than 3, 4 or 5.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.avg_pool(tf.ones([1, 4, 2]), 2, 2, "VALID").shape
        TensorShape([1, 2, 2])
    """
    return _pool_nd("AVG", input, ksize, strides, padding, data_format)


def pool(input, window_shape, pooling_type, strides=None, padding="VALID",  # noqa: A002
         data_format=None, dilations=None, name=None) -> Tensor:
    """max_pool or avg_pool over `window_shape` windows ("MAX" or "AVG").

    Args:
        window_shape: one int per spatial dimension.
        pooling_type: "MAX" or "AVG".
        strides: one int per spatial dimension (default 1).
        dilations: 1 only (dilated pooling is not available).

    Raises:
        ValueError: an unknown pooling_type, a rank other than 3, 4 or 5, or dilations
            with "SAME" padding (as TF).
        UnimplementedError: dilations above 1 with "VALID" padding.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.pool(tf.ones([1, 4, 4, 4, 1]), [2, 2, 2], "AVG", strides=[2, 2, 2]).shape
        TensorShape([1, 2, 2, 2, 1])
    """
    if pooling_type not in _BY_RANK:
        raise ValueError(f"pool: pooling_type must be 'MAX' or 'AVG', got {pooling_type!r}")
    if dilations is not None and max(np.ravel(np.asarray(dilations))) > 1:
        if padding == "SAME":
            raise ValueError(f"pooling with 'SAME' padding is not implemented for "
                             f"`dilation_rate` > 1. Received: padding={padding} and "
                             f"dilation_rate={dilations}")
        raise errors.UnimplementedError(None, "pool", f"pool: dilated pooling (dilations="
                                        f"{dilations}) is not available.")
    return _pool_nd(pooling_type, input, window_shape, 1 if strides is None else strides,
                    padding, data_format)
