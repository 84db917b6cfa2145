"""`isotonic_regression`: the least-squares monotone fit of each row, by pooling adjacent
violators. An op finds the pooled segments; the output is each segment's mean, composed of
segment ops, so its gradient (the segment mean of the upstream gradient) comes from them."""
from __future__ import annotations

import collections

import numpy as np

from ..framework import dtypes
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from .array_ops import reshape, transpose
from .gather_ops import gather
from .math_ops import cast
from .op_util import as_input, normalize_axis
from .segment_ops import unsorted_segment_mean

__all__ = ["isotonic_regression"]

IsotonicRegressionResult = collections.namedtuple("IsotonicRegression",
                                                  ["output", "segments"])


def _segments(rows, decreasing):
    """Each row's pooled segments, numbered from 0 along the row."""
    segments = np.zeros(rows.shape, np.int32)
    for r, row in enumerate(rows):
        sums, counts = [], []
        for value in row:
            sums.append(float(value))
            counts.append(1)
            while len(sums) > 1 and (sums[-2] / counts[-2] < sums[-1] / counts[-1]
                                     if decreasing else
                                     sums[-2] / counts[-2] > sums[-1] / counts[-1]):
                total, count = sums.pop(), counts.pop()
                sums[-1] += total
                counts[-1] += count
        segments[r] = np.repeat(np.arange(len(counts)), counts)
    return segments


IsotonicSegments = define_op("IsotonicSegments", _segments)
no_gradient("IsotonicSegments")


def isotonic_regression(inputs, decreasing=True, axis=-1):
    """The non-increasing (or, with `decreasing=False`, non-decreasing) sequence closest to
    each row of `inputs` along `axis` in least squares: runs that violate the order are
    pooled into their mean. The gradient averages the upstream gradient over each pool.

    Args:
        inputs: a real tensor; integers become float64 (float32 up to 16 bits).
        decreasing: the direction of the fit.
        axis: the axis the rows run along.

    Returns:
        `(output, segments)`: the fit, and each element's pool number along its row (int32).

    Example:
        >>> import tapeflow as tf
        >>> output, segments = tf.nn.isotonic_regression([[1.0, 3.0, 2.0, 4.0]],
        ...                                              decreasing=False)
        >>> output.numpy().tolist(), segments.numpy().tolist()
        ([[1.0, 2.5, 2.5, 4.0]], [[0, 1, 1, 2]])
    """
    x = as_input(inputs)
    if x.dtype.is_integer:
        x = cast(x, dtypes.float32 if x.dtype.size <= 2 else dtypes.float64)
    axis = normalize_axis("IsotonicRegression", axis, x.ndim)
    perm = [d for d in range(x.ndim) if d != axis] + [axis]
    moved = transpose(x, perm)
    shape = moved.shape.as_list()
    rows = reshape(moved, [-1, shape[-1]])
    segments = execute(IsotonicSegments, (rows,), {"decreasing": bool(decreasing)})
    count, width = rows.shape.as_list()
    ids = segments + np.arange(count, dtype=np.int32)[:, None] * width
    means = unsorted_segment_mean(reshape(rows, [-1]), reshape(ids, [-1]), count * width)
    fit = reshape(gather(means, reshape(ids, [-1])), shape)
    inverse = np.argsort(perm).tolist()
    return IsotonicRegressionResult(transpose(fit, inverse),
                                    transpose(reshape(segments, shape), inverse))
