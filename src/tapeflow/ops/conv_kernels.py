"""N-d NumPy kernels of convolution and pooling, shared by the 1-, 2- and 3-D ops.

Arrays are channels-last, [batch, *spatial, channels]; padding arrives resolved to one
(before, after) pair per spatial axis. Every kernel is a strided window view plus one
batched matmul (convolutions) or one reduction (pooling). Grouped convolutions follow from
the shapes: `groups = in_channels // filters.shape[-2]`, the channels of group g being the
g-th block of the input's and of the output's channels (depthwise convolutions are the
case of one input channel per group).
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided


def output_sizes(input_sizes, kernel, strides, dilations, pads) -> tuple:
    """The spatial sizes of a window view (a convolution's or a pool's output); None where
    an input size is None (unknown while a graph is built). `pads` may be "SAME"."""
    if pads == "SAME":
        return tuple(None if size is None else -(-size // s)
                     for size, s in zip(input_sizes, strides))
    return tuple(None if size is None else max((size + before + after - (k - 1) * d - 1) // s
                                               + 1, 0)
                 for size, k, s, d, (before, after)
                 in zip(input_sizes, kernel, strides, dilations, pads))


def same_pads(input_sizes, kernel, strides, dilations) -> tuple:
    """The (before, after) pairs "SAME" padding takes for these input sizes: the output
    has ceil(size / stride) positions, the extra padding after."""
    totals = [max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
              for size, k, s, d in zip(input_sizes, kernel, strides, dilations)]
    return tuple((t // 2, t - t // 2) for t in totals)


def window_pads(pads, input_sizes, kernel, strides, dilations) -> tuple:
    """A kernel's `pads` attr as (before, after) pairs: as given, or "SAME" (set where the
    input's spatial sizes were unknown while the graph was built) resolved for the sizes the
    input has when it runs."""
    if pads == "SAME":
        return same_pads(tuple(input_sizes), tuple(kernel), strides, dilations)
    return pads


def _windows(x, kernel, strides, dilations):
    """A read-only view [batch, *out, *kernel, channels] of the sliding windows of `x`."""
    nd = len(kernel)
    out = output_sizes(x.shape[1:-1], kernel, strides, dilations, ((0, 0),) * nd)
    step = x.strides[1:-1]
    return as_strided(x, (x.shape[0], *out, *kernel, x.shape[-1]),
                      (x.strides[0], *(t * s for t, s in zip(step, strides)),
                       *(t * d for t, d in zip(step, dilations)), x.strides[-1]),
                      writeable=False)


def _pad(x, pads, value=0):
    if not any(before or after for before, after in pads):
        return x
    return np.pad(x, ((0, 0), *pads, (0, 0)), constant_values=value)


def _pad_or_crop(x, pads):
    """Pads (positive amounts) or crops (negative amounts) the spatial axes."""
    x = x[(slice(None),) + tuple(slice(max(-before, 0), size - max(-after, 0))
                                 for size, (before, after) in zip(x.shape[1:-1], pads))]
    return _pad(x, tuple((max(before, 0), max(after, 0)) for before, after in pads))


def _spread(g, input_sizes, kernel, strides, dilations, pads):
    """The output gradient `g` dilated by the strides and padded so that its stride-1 windows,
    read against the flipped kernel, sum to the input gradient (the adjoint of windowing)."""
    if max(strides) > 1:
        dilated = np.zeros((g.shape[0], *((n - 1) * s + 1 for n, s in zip(g.shape[1:-1], strides)),
                            g.shape[-1]), g.dtype)
        dilated[(slice(None),) + tuple(slice(None, None, s) for s in strides)] = g
        g = dilated
    spread_pads = tuple(((k - 1) * d - before, size + before - length)
                        for size, k, d, (before, _), length
                        in zip(input_sizes, kernel, dilations, pads, g.shape[1:-1]))
    return _pad_or_crop(g, spread_pads)


def _group_columns(windows, groups: int):
    """Windows [batch, *out, *kernel, channels] as im2col columns per group:
    [groups, batch * prod(out), prod(kernel) * channels_per_group] (one copy)."""
    nd = (windows.ndim - 2) // 2
    rows = int(np.prod(windows.shape[:1 + nd]))
    taps = int(np.prod(windows.shape[1 + nd:-1]))
    per_group = windows.shape[-1] // groups
    columns = windows.reshape(rows, taps, groups, per_group)
    return columns.transpose(2, 0, 1, 3).reshape(groups, rows, taps * per_group)


def _correlate(windows, filters):
    """Windows [batch, *out, *kernel, C] times filters [*kernel, C / groups, O]."""
    groups = windows.shape[-1] // filters.shape[-2]
    per_group = filters.reshape(-1, groups, filters.shape[-1] // groups).transpose(1, 0, 2)
    products = _group_columns(windows, groups) @ per_group  # [groups, rows, O / groups]
    return products.transpose(1, 0, 2).reshape(windows.shape[:(windows.ndim) // 2]
                                                + (filters.shape[-1],))


def conv(x, filters, strides, dilations, pads):
    pads = window_pads(pads, x.shape[1:-1], filters.shape[:-2], strides, dilations)
    return _correlate(_windows(_pad(x, pads), filters.shape[:-2], strides, dilations), filters)


def _scatter_backprop_input(filters, out_backprop, input_sizes, strides, dilations, pads):
    """The input gradient as col2im: a matmul gives every tap's contribution at every
    output position, then each tap's block is added into the (padded) input at its offset,
    strided. Cheaper than windowing the spread gradient when the input has fewer channels
    than the output (a transposed convolution to few channels). Runs over batch chunks of
    a few million products, laid out tap by tap."""
    kernel, (per_group, out_channels) = filters.shape[:-2], filters.shape[-2:]
    groups, out_sizes = input_sizes[-1] // per_group, out_backprop.shape[1:-1]
    positions, taps = int(np.prod(out_sizes)), int(np.prod(kernel))
    per_tap = filters.reshape(taps, per_group, groups, out_channels // groups) \
        .transpose(2, 0, 1, 3).reshape(groups, taps * per_group, out_channels // groups)
    spans = tuple((n - 1) * s + (k - 1) * d + 1
                  for n, s, k, d in zip(out_sizes, strides, kernel, dilations))
    full = tuple(max(span, before + size)
                 for span, (before, _), size in zip(spans, pads, input_sizes[1:-1]))
    batch = out_backprop.shape[0]
    total = np.zeros((batch, *full, groups, per_group), np.result_type(filters, out_backprop))
    windows = [tuple(slice(o * d, o * d + (n - 1) * s + 1, s)
                     for o, d, n, s in zip(offsets, dilations, out_sizes, strides))
               for offsets in np.ndindex(*kernel)]
    chunk = max(1, (1 << 22) // max(1, positions * taps * input_sizes[-1]))
    for lo in range(0, batch, chunk):
        part = out_backprop[lo:lo + chunk]
        n = part.shape[0]
        grads = part.reshape(n * positions, groups, out_channels // groups).transpose(1, 2, 0)
        # [groups, taps * C/g, rows]: each tap's block is a run of rows (no copy needed)
        products = (per_tap @ grads).reshape(groups, taps, per_group, n, *out_sizes)
        target = total[lo:lo + n]
        for tap, window in enumerate(windows):
            target[(slice(None),) + window] += np.moveaxis(products[:, tap], (0, 1), (-2, -1))
    crop = tuple(slice(before, before + size)
                 for (before, _), size in zip(pads, input_sizes[1:-1]))
    return total[(slice(None),) + crop].reshape(input_sizes)


def conv_backprop_input(filters, out_backprop, input_sizes, strides, dilations, pads):
    kernel, (per_group, out_channels) = filters.shape[:-2], filters.shape[-2:]
    input_sizes = tuple(int(n) for n in input_sizes)
    pads = window_pads(pads, input_sizes[1:-1], kernel, strides, dilations)
    if input_sizes[-1] * np.prod(out_backprop.shape[1:-1]) \
            < out_channels * np.prod(input_sizes[1:-1]):
        return _scatter_backprop_input(filters, out_backprop, tuple(input_sizes), strides,
                                       dilations, pads)
    groups = input_sizes[-1] // per_group
    spread = _spread(out_backprop, input_sizes[1:-1], kernel, strides, dilations, pads)
    flipped = filters[(slice(None, None, -1),) * len(kernel)]
    adjoint = flipped.reshape(kernel + (per_group, groups, out_channels // groups)) \
        .swapaxes(-3, -1).reshape(kernel + (out_channels // groups, input_sizes[-1]))
    return _correlate(_windows(spread, kernel, (1,) * len(kernel), dilations), adjoint)


def conv_backprop_filter(x, out_backprop, filter_sizes, strides, dilations, pads):
    kernel, (per_group, out_channels) = tuple(filter_sizes[:-2]), filter_sizes[-2:]
    groups = x.shape[-1] // per_group
    pads = window_pads(pads, x.shape[1:-1], kernel, strides, dilations)
    columns = _group_columns(_windows(_pad(x, pads), kernel, strides, dilations), groups)
    grads = out_backprop.reshape(columns.shape[1], groups, out_channels // groups) \
        .transpose(1, 0, 2)
    products = columns.transpose(0, 2, 1) @ grads  # [groups, taps * per_group, O / groups]
    return products.transpose(1, 0, 2).reshape(filter_sizes)


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _window_axes(nd: int) -> tuple:
    return tuple(range(1 + nd, 1 + 2 * nd))


def max_pool(x, ksize, strides, pads):
    pads = window_pads(pads, x.shape[1:-1], ksize, strides, (1,) * len(ksize))
    windows = _windows(_pad(x, pads, _lowest(x.dtype)), ksize, strides, (1,) * len(ksize))
    return windows.max(axis=_window_axes(len(ksize)))


def window_argmax(x, ksize, strides, dilations, pads, bias=None):
    """For each output of a max over windows (of `x` plus `bias` [*ksize, channels] when
    given), the flat index into `x` of the maximum and its tap (flat index into the window);
    ties go to the first in row-major window order, as TF's CPU kernels do."""
    nd = len(ksize)
    pads = window_pads(pads, x.shape[1:-1], ksize, strides, dilations)
    windows = _windows(_pad(x, pads, _lowest(x.dtype)), ksize, strides, dilations)
    out = windows.shape[1:1 + nd]
    taps = windows.reshape(windows.shape[:1 + nd] + (-1, x.shape[-1]))
    best = (taps if bias is None else taps + bias.reshape(-1, x.shape[-1])).argmax(axis=-2)
    offsets = np.unravel_index(best, ksize)
    positions = []
    for axis, (size, stride, rate, offset, (before, _)) in enumerate(
            zip(x.shape[1:-1], strides, dilations, offsets, pads)):
        starts = np.arange(out[axis]).reshape((-1,) + (1,) * (nd - axis))
        positions.append(np.clip(starts * stride + offset * rate - before, 0, size - 1))
    batch = np.arange(x.shape[0]).reshape((-1,) + (1,) * (nd + 1))
    return np.ravel_multi_index((batch, *positions, np.arange(x.shape[-1])), x.shape), best


def _pool_argmax(x, ksize, strides, pads):
    return window_argmax(x, ksize, strides, (1,) * len(ksize), pads)[0]


def max_pool_grad(x, y, out_backprop, ksize, strides, pads):
    index = _pool_argmax(x, ksize, strides, pads)
    total = np.bincount(index.ravel(), weights=out_backprop.ravel(), minlength=x.size)
    return total.reshape(x.shape).astype(x.dtype, copy=False)


def max_pool_grad_grad(x, y, grad, ksize, strides, pads):
    return grad.ravel()[_pool_argmax(x, ksize, strides, pads)]


def _pool_counts(input_sizes, ksize, strides, pads, dtype):
    """How many input (not padding) elements each window holds, shape [1, *out, 1]."""
    ones = np.ones((1,) + tuple(input_sizes) + (1,), dtype)
    windows = _windows(_pad(ones, pads), ksize, strides, (1,) * len(ksize))
    return windows.sum(axis=_window_axes(len(ksize)))


def avg_pool(x, ksize, strides, pads):
    pads = window_pads(pads, x.shape[1:-1], ksize, strides, (1,) * len(ksize))
    windows = _windows(_pad(x, pads), ksize, strides, (1,) * len(ksize))
    return windows.sum(axis=_window_axes(len(ksize))) / _pool_counts(
        x.shape[1:-1], ksize, strides, pads, x.dtype)


def avg_pool_grad(out_backprop, input_sizes, ksize, strides, pads):
    nd, sizes = len(ksize), tuple(int(n) for n in input_sizes[1:-1])
    pads = window_pads(pads, sizes, ksize, strides, (1,) * nd)
    shares = out_backprop / _pool_counts(sizes, ksize, strides, pads, out_backprop.dtype)
    spread = _spread(shares, sizes, ksize, strides, (1,) * nd, pads)
    return _windows(spread, ksize, (1,) * nd, (1,) * nd).sum(axis=_window_axes(nd))
