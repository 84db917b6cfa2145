"""Window maxima that say where they came from: `max_pool_with_argmax`, and grayscale
morphology `dilation2d` / `erosion2d`.

One op, WindowArgmax, finds each window's maximum (ties to the first in row-major order,
as TF's kernels); the values are then gathered, so their gradients route the upstream
gradient to that element (and filter tap), which is what TF's backprop ops do.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.tensor import Tensor
from . import conv_kernels as kernels
from .array_ops import reshape, reverse
from .conv_ops import check_rank, fail, resolve_padding, spatial
from .gather_ops import gather
from .math_ops import cast
from .op_util import as_input, binary_inputs

__all__ = ["dilation2d", "erosion2d", "max_pool_with_argmax"]


def _window_argmax(x, *bias, ksize, strides, dilations, pads):
    index, tap = kernels.window_argmax(x, ksize, strides, dilations, pads,
                                       bias[0] if bias else None)
    return index.astype(np.int64), tap.astype(np.int64)


WindowArgmax = define_op("WindowArgmax", _window_argmax, num_outputs=2)
no_gradient("WindowArgmax")

_REAL = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
         "uint16", "uint32", "uint64")


def _nhwc(data_format) -> None:
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         output_dtype=dtypes.int64, include_batch_in_index=False,
                         name=None) -> tuple:
    """2-D max pooling that also returns where each maximum is: the flat index
    ((b * height + y) * width + x) * channels + c, without the batch term unless
    `include_batch_in_index`. Ties go to the first element in row-major window order; the
    gradient reaches only that element, as in TF.

    Args:
        input: a 4-D NHWC real tensor.
        ksize, strides: an int or a list of 1, 2 or 4 ints.
        padding: "SAME" or "VALID".
        output_dtype: int32 or int64, the argmax's dtype.

    Returns:
        `(output, argmax)`.

    Raises:
        ValueError: a data_format other than NHWC.
        InvalidArgumentError: input not 4-D, or a bad dtype or padding.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([[[[1.0], [3.0]], [[2.0], [3.0]]]])
        >>> output, argmax = tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
        >>> float(output[0, 0, 0, 0]), int(argmax[0, 0, 0, 0])
        (3.0, 1)
    """
    _nhwc(data_format)
    x = as_input(input)
    if x.dtype.name not in _REAL:
        raise fail("MaxPoolWithArgmax", f"dtype {x.dtype.name} is not a real number type "
                   f"(shape {list(x.shape)}).")
    check_rank("MaxPoolWithArgmax", "input", x, 4)
    out_type = dtypes.as_dtype(output_dtype)
    if out_type not in (dtypes.int32, dtypes.int64):
        raise fail("MaxPoolWithArgmax", f"output_dtype must be int32 or int64, got "
                   f"{out_type.name}.")
    ksize = spatial("MaxPoolWithArgmax", ksize, "ksize", False, 2)
    strides = spatial("MaxPoolWithArgmax", strides, "strides", False, 2)
    pads = resolve_padding("MaxPoolWithArgmax", padding, x.shape[1:3], ksize, strides, (1, 1),
                           False, explicit=False)
    index, _ = execute(WindowArgmax, (x,), {"ksize": ksize, "strides": strides,
                                            "dilations": (1, 1), "pads": pads})
    output = gather(reshape(x, [-1]), index)
    if not include_batch_in_index:
        index = index % int(np.prod(x.shape[1:]))
    return output, cast(index, out_type)


def dilation2d(input, filters, strides, padding, data_format, dilations,  # noqa: A002
               name=None) -> Tensor:
    """Grayscale dilation: the max over each window of input + filters, per channel
    (out[b, y, x, c] = max over taps of input[b, y*s + i*r, x*s + j*r, c] + filters[i, j, c]).
    The gradient reaches the maximizing input element and filter tap (the first at ties).

    Args:
        input: [batch, height, width, depth], NHWC.
        filters: [filter_height, filter_width, depth].
        strides, dilations: lists of 4 ints (batch and depth entries 1).
        padding: "SAME" or "VALID".
        data_format: "NHWC".

    Raises:
        ValueError: a data_format other than NHWC.
        InvalidArgumentError: wrong ranks, depths that differ, or a bad padding or dtype.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([[[[0.0], [1.0], [2.0]]]])
        >>> tf.nn.dilation2d(x, tf.constant([[[0.0], [5.0]]]), [1, 1, 1, 1], "VALID", "NHWC",
        ...                  [1, 1, 1, 1]).numpy().ravel()
        array([6., 7.], dtype=float32)
    """
    _nhwc(data_format)
    x, w = binary_inputs("Dilation2D", input, filters)
    if x.dtype.name not in _REAL:
        raise fail("Dilation2D", f"dtype {x.dtype.name} is not a real number type.")
    check_rank("Dilation2D", "input", x, 4)
    check_rank("Dilation2D", "filter", w, 3)
    if w.shape[2] != x.shape[3]:
        raise fail("Dilation2D", f"input and filter must have the same depth: {x.shape[3]} vs "
                   f"{w.shape[2]}.")
    strides = spatial("Dilation2D", strides, "strides", False, 2)
    rates = spatial("Dilation2D", dilations, "dilations", False, 2)
    kernel = tuple(w.shape[:2])
    pads = resolve_padding("Dilation2D", padding, x.shape[1:3], kernel, strides, rates, False,
                           explicit=False)
    index, tap = execute(WindowArgmax, (x, w), {"ksize": kernel, "strides": strides,
                                                "dilations": rates, "pads": pads})
    depth = x.shape[3]
    return gather(reshape(x, [-1]), index) + gather(reshape(w, [-1]),
                                                    tap * depth + np.arange(depth))


def erosion2d(value, filters, strides, padding, data_format, dilations, name=None) -> Tensor:
    """Grayscale erosion: the min over each window of value - filters (with the filter
    reflected), computed as -dilation2d(-value, reflected filters).

    Args:
        value: [batch, height, width, depth], NHWC.
        filters: [filter_height, filter_width, depth].
        strides, dilations: lists of 4 ints; padding: "SAME" or "VALID".

    Raises:
        ValueError: a data_format other than NHWC.
        InvalidArgumentError: what dilation2d rejects.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([[[[0.0], [1.0], [2.0]]]])
        >>> tf.nn.erosion2d(x, tf.constant([[[0.0], [5.0]]]), [1, 1, 1, 1], "VALID", "NHWC",
        ...                 [1, 1, 1, 1]).numpy().ravel()
        array([-5., -4.], dtype=float32)
    """
    _nhwc(data_format)
    return -dilation2d(-as_input(value), reverse(as_input(filters), [0, 1]), strides, padding,
                       data_format, dilations)
