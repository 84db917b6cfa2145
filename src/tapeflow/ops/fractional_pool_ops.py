"""Fractional max and average pooling: pooling regions of random sizes (the ratio of input
to output, on average) along rows and columns. The region boundaries are drawn in Python
(NumPy's generator: they are not TF's draws, and inside tf.function they are drawn once,
when the function is traced); the pooling is composed of a gather and a reduction, so the
gradients come from those ops."""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.tensor import Tensor, constant
from .array_ops import concat, reshape
from .conv_ops import check_rank
from .gather_ops import gather
from .op_util import as_input
from .reduction_ops import reduce_max, reduce_sum

__all__ = ["fractional_avg_pool", "fractional_max_pool"]


def _ratios(pooling_ratio, maximum: bool) -> tuple:
    """The row and column ratios. As TF: max pooling takes one number for both and says
    ValueError; average pooling takes only a list of 4 (its op's checks)."""
    if not maximum:
        if not isinstance(pooling_ratio, (list, tuple, np.ndarray)):
            raise TypeError(f"Expected list for 'pooling_ratio' argument to "
                            f"'fractional_avg_pool' Op, not {pooling_ratio!r}.")
        ratios = [float(r) for r in pooling_ratio]
        if len(ratios) != 4 or min(ratios) < 1.0 or ratios[0] != 1.0 or ratios[3] != 1.0:
            raise errors.InvalidArgumentError(
                None, "FractionalAvgPool", f"FractionalAvgPool: pooling_ratio must hold 4 "
                f"values >= 1, the first and last 1.0, got {pooling_ratio}")
        return ratios[1], ratios[2]
    try:
        ratios = [float(r) for r in np.asarray(pooling_ratio, np.float64).ravel()]
    except (TypeError, ValueError):
        raise ValueError(f"`pooling_ratio` must be a number or a list of 4 numbers, got "
                         f"{pooling_ratio!r}") from None
    if len(ratios) == 1:
        ratios = [1.0, ratios[0], ratios[0], 1.0]
    if len(ratios) != 4 or ratios[0] != 1.0 or ratios[3] != 1.0:
        raise ValueError(f"`pooling_ratio` should have first and last elements with value 1.0. "
                         f"Received: pooling_ratio={pooling_ratio}")
    if min(ratios) < 1.0:
        raise ValueError(f"`pooling_ratio` elements should be >= 1.0. Received: "
                         f"pooling_ratio={pooling_ratio}")
    return ratios[1], ratios[2]


def _sequence(rng, size: int, out: int, pseudo_random: bool) -> np.ndarray:
    """Region boundaries 0 = s[0] < ... < s[out] = size."""
    if pseudo_random:
        alpha, u = size / out, rng.uniform()
        starts = np.ceil(alpha * (np.arange(out + 1) + u)) - np.ceil(alpha * u)
        starts[-1] = size
        return starts.astype(np.int64)
    steps = np.full(out, size // out)
    steps[:size % out] += 1
    rng.shuffle(steps)
    return np.concatenate([[0], np.cumsum(steps)]).astype(np.int64)


def _regions(sequence: np.ndarray, size: int, overlapping: bool) -> list:
    ends = sequence[1:] + (1 if overlapping else 0)
    return [np.arange(start, min(end, size)) for start, end in zip(sequence[:-1], ends)]


def _pool(value, pooling_ratio, pseudo_random, overlapping, seed, maximum: bool) -> tuple:
    x = as_input(value)
    check_rank("FractionalMaxPool" if maximum else "FractionalAvgPool", "value", x, 4)
    row_ratio, col_ratio = _ratios(pooling_ratio, maximum)
    batch, height, width, channels = x.shape.as_list()
    out_rows, out_cols = int(height / row_ratio), int(width / col_ratio)
    rng = np.random.default_rng(seed if seed else None)
    rows = _sequence(rng, height, out_rows, pseudo_random)
    cols = _sequence(rng, width, out_cols, pseudo_random)
    row_regions, col_regions = _regions(rows, height, overlapping), _regions(cols, width,
                                                                           overlapping)
    taps = max(map(len, row_regions)) * max(map(len, col_regions))
    # Each output's region as flat pixel indices, padded with the index of an extra pixel
    # (-inf for the max, 0 for the average).
    index = np.full((out_rows, out_cols, taps), height * width, np.int64)
    counts = np.zeros((out_rows, out_cols, 1), np.float64)
    for i, r in enumerate(row_regions):
        for j, c in enumerate(col_regions):
            flat = (r[:, None] * width + c[None, :]).ravel()
            index[i, j, :flat.size] = flat
            counts[i, j] = flat.size
    pixels = reshape(x, [-1, height * width, channels])
    filler = np.full((batch, 1, channels), -np.inf if maximum else 0,
                     x.dtype.as_numpy_dtype)
    windows = gather(concat([pixels, filler], axis=1), index, axis=1)  # [b, oh, ow, k, c]
    if maximum:
        output = reduce_max(windows, axis=3)
    else:
        output = reduce_sum(windows, axis=3) / counts.astype(x.dtype.as_numpy_dtype)
    return output, constant(rows), constant(cols)


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None) -> tuple:
    """Max pooling over regions of random sizes averaging `pooling_ratio` (Graham's
    fractional max pooling).

    Args:
        value: [batch, height, width, channels].
        pooling_ratio: a float >= 1, or 4 of them with the first and last 1.0.
        pseudo_random: region boundaries from one random offset (else shuffled steps).
        overlapping: each region also takes the next region's first row and column.
        seed: 0 for fresh boundaries at each call, else the seed of NumPy's generator.

    Returns:
        `(output, row_pooling_sequence, col_pooling_sequence)`: the pooled
        [batch, floor(height / ratio), floor(width / ratio), channels] tensor and the int64
        region boundaries.

    Raises:
        ValueError: ratios below 1, or not 1 along the batch and channels.
        InvalidArgumentError: value not 4-D.

    Example:
        >>> import tapeflow as tf
        >>> output, rows, cols = tf.nn.fractional_max_pool(tf.ones([1, 5, 10, 1]),
        ...                                                [1.0, 1.5, 2.5, 1.0], seed=3)
        >>> output.shape, int(rows[-1]), int(cols[-1])
        (TensorShape([1, 3, 4, 1]), 5, 10)
    """
    return _pool(value, pooling_ratio, pseudo_random, overlapping, seed, True)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None) -> tuple:
    """Average pooling over regions of random sizes averaging `pooling_ratio` (a list of
    4, the first and last 1.0), as fractional_max_pool's regions.

    Returns:
        `(output, row_pooling_sequence, col_pooling_sequence)`.

    Raises:
        TypeError: a pooling_ratio that is not a list.
        InvalidArgumentError: ratios below 1, not 1 along the batch and channels, or value
            not 4-D.

    Example:
        >>> import tapeflow as tf
        >>> output, _, _ = tf.nn.fractional_avg_pool(tf.ones([1, 4, 4, 2]), [1.0, 2.0, 2.0, 1.0])
        >>> output.numpy().ravel().tolist()
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    """
    return _pool(value, pooling_ratio, pseudo_random, overlapping, seed, False)
