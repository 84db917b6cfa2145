"""Histograms over equal-width bins: `histogram_fixed_width` (op HistogramFixedWidth) and
`histogram_fixed_width_bins`. Their results are counts and indices: no gradients."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.tensor import Tensor
from .op_util import binary_inputs, int_value

__all__ = ["histogram_fixed_width", "histogram_fixed_width_bins"]


def _bins(values, value_range, nbins: int):
    """Each value's bin: values below the range go to the first, above it to the last."""
    low, high = value_range[0], value_range[1]
    if not low < high:
        raise errors.InvalidArgumentError(
            None, "HistogramFixedWidth", f"HistogramFixedWidth: value_range should satisfy "
            f"value_range[0] < value_range[1], but got {value_range.tolist()}")
    scaled = (values.astype(np.float64) - low) / (float(high) - float(low))
    return np.clip(np.floor(scaled * nbins), 0, nbins - 1).astype(np.int64)


def _histogram(values, value_range, nbins, dtype):
    return np.bincount(_bins(values, value_range, nbins).ravel(), minlength=nbins).astype(dtype)


def _histogram_bins(values, value_range, nbins, dtype):
    return _bins(values, value_range, nbins).astype(dtype)


HistogramFixedWidth = define_op("HistogramFixedWidth", _histogram)
HistogramFixedWidthBins = define_op("HistogramFixedWidthBins", _histogram_bins)
no_gradient("HistogramFixedWidth")
no_gradient("HistogramFixedWidthBins")


def _inputs(op_name: str, values, value_range, nbins, dtype) -> tuple:
    values, value_range = binary_inputs(op_name, values, value_range)
    if not (values.dtype.is_floating or values.dtype.is_integer):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: values must be integers or floats, got "
            f"{values.dtype.name} (shape {list(values.shape)})")
    if value_range.shape.as_list() != [2]:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: value_range must have shape [2], got "
            f"{value_range.shape.as_list()}")
    bins = int_value(op_name, nbins, "nbins")
    if bins <= 0:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: nbins should be a positive number, but got '{bins}'")
    out = dtypes.as_dtype(dtype)
    if out not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{op_name}: dtype must be int32 or int64, got {out.name}")
    return (values, value_range), {"nbins": bins, "dtype": out._np}


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32,
                          name=None) -> Tensor:
    """Counts `values` in `nbins` equal bins spanning `value_range`; values outside it
    count in the first or last bin.

    Args:
        values: a numeric tensor of any shape.
        value_range: [low, high], of values' dtype, low < high.
        nbins: the number of bins (a positive int or scalar tensor).
        dtype: int32 or int64, the counts' dtype.

    Returns:
        A 1-D tensor of `nbins` counts.

    Raises:
        InvalidArgumentError: low >= high, nbins <= 0, or value_range not of shape [2].

    Example:
        >>> import tapeflow as tf
        >>> tf.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], [0.0, 5.0],
        ...                          nbins=5).numpy()
        array([2, 1, 1, 0, 2], dtype=int32)
    """
    inputs, attrs = _inputs("HistogramFixedWidth", values, value_range, nbins, dtype)
    return execute(HistogramFixedWidth, inputs, attrs)


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32,
                               name=None) -> Tensor:
    """The bin of each of `values` among `nbins` equal bins spanning `value_range`
    (values outside it go to the first or last bin).

    Returns:
        An integer tensor shaped like `values`.

    Raises:
        InvalidArgumentError: low >= high, nbins <= 0, or value_range not of shape [2].

    Example:
        >>> import tapeflow as tf
        >>> tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], [0.0, 5.0],
        ...                               nbins=5).numpy()
        array([0, 0, 1, 2, 4, 4], dtype=int32)
    """
    inputs, attrs = _inputs("HistogramFixedWidthBins", values, value_range, nbins, dtype)
    return execute(HistogramFixedWidthBins, inputs, attrs)
