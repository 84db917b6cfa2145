"""Gradient rules of reduction_ops. Each works on raw arrays and on Tensors alike."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient, no_gradient
from .array_ops import BroadcastTo, Reshape, Transpose
from .comparison_ops import Equal, Greater, Less, LogicalAnd
from .indexing_ops import SelectV2
from .math_grad import conj, keep_reduced_dims, reduced_axes
from .math_ops import Cast, Exp, Log, Sum
from .op_util import dtype_of, shape_of
from .reduction_ops import Cumprod, Cumsum, CumulativeLogsumexp


@RegisterGradient("Prod")
def _prod_grad(op, g):
    x = op.inputs[0]
    shape = shape_of(x)
    axes = reduced_axes(op.attrs, len(shape))
    g = BroadcastTo(keep_reduced_dims(g, shape, op.attrs), shape)
    # The product of all the other entries is (product before) * (product after): two
    # exclusive cumprods over the reduced axes gathered in front, so zeros need no division.
    others = tuple(i for i in range(len(shape)) if i not in axes)
    perm = axes + others
    rows = int(np.prod([shape[i] for i in axes]))
    columns = int(np.prod([shape[i] for i in others]))
    flat = Reshape(Transpose(x, perm=perm), (rows, columns))
    before = Cumprod(flat, axis=0, exclusive=True, reverse=False)
    after = Cumprod(flat, axis=0, exclusive=True, reverse=True)
    others_product = Reshape(conj(before * after), tuple(shape[i] for i in perm))
    return g * Transpose(others_product, perm=tuple(np.argsort(perm).tolist()))


def _extreme_grad(op, g):
    """TF's rule for Max and Min: tied extremes share the gradient equally."""
    x = op.inputs[0]
    shape = shape_of(x)
    y = keep_reduced_dims(op.outputs[0], shape, op.attrs)
    hits = Cast(Equal(y, x), dtype=dtype_of(g))
    share = hits / Sum(hits, axis=op.attrs["axis"], keepdims=True)
    return keep_reduced_dims(g, shape, op.attrs) * share


RegisterGradient("Max")(_extreme_grad)
RegisterGradient("Min")(_extreme_grad)


@RegisterGradient("ReduceLogSumExp")
def _logsumexp_grad(op, g):
    x = op.inputs[0]
    shape = shape_of(x)
    y = keep_reduced_dims(op.outputs[0], shape, op.attrs)
    return keep_reduced_dims(g, shape, op.attrs) * Exp(x - y)


@RegisterGradient("EuclideanNorm")
def _euclidean_norm_grad(op, g):
    x = op.inputs[0]
    shape = shape_of(x)
    norm = keep_reduced_dims(op.outputs[0], shape, op.attrs)
    return x * (keep_reduced_dims(g, shape, op.attrs) / norm)


@RegisterGradient("Cumsum")
def _cumsum_grad(op, g):
    attrs = op.attrs
    return Cumsum(g, axis=attrs["axis"], exclusive=attrs["exclusive"],
                  reverse=not attrs["reverse"])


@RegisterGradient("Cumprod")
def _cumprod_grad(op, g):
    # The sum over later outputs of g * output / x (TF's rule). Where x is 0 that is 0 / 0:
    # the first zero along the scan takes the same sum with itself held at 1; a later zero
    # gets 0 (every product it is in holds the first zero). Exact to first order; to second
    # order while a line holds at most one zero.
    axis, exclusive, reverse = op.attrs["axis"], op.attrs["exclusive"], op.attrs["reverse"]
    x, y = op.inputs[0], op.outputs[0]
    dtype = dtype_of(x)
    later = Cumsum(g * conj(y), axis=axis, exclusive=exclusive, reverse=not reverse)
    is_zero = Equal(x, np.zeros((), dtype))
    zero = Cast(is_zero, dtype=dtype)
    seen = Cumsum(zero, axis=axis, exclusive=False, reverse=reverse)
    is_first = LogicalAnd(is_zero, Equal(seen, np.ones((), dtype)))
    first = Cast(is_first, dtype=dtype)
    skipping = Cumprod(x * (1 - first) + first, axis=axis, exclusive=exclusive, reverse=reverse)
    at_first = Cumsum(g * conj(skipping), axis=axis, exclusive=exclusive, reverse=not reverse)
    return SelectV2(is_first, at_first, later / conj(x + zero) * (1 - zero))


@RegisterGradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op, g):
    # TF's rule: sum over later outputs of g * exp(x - output), the positive and negative
    # parts of g each scanned in log space (a finite lowest value stands for log 0).
    axis, exclusive, reverse = op.attrs["axis"], op.attrs["exclusive"], op.attrs["reverse"]
    x, y = op.inputs[0], op.outputs[0]
    dtype = dtype_of(g)
    zero, one = np.zeros((), dtype), np.ones((), dtype)
    lowest = np.asarray(np.finfo(dtype).min, dtype)

    def scanned(part, mask):
        log_part = SelectV2(mask, Log(SelectV2(mask, part, one)), lowest)
        return Exp(CumulativeLogsumexp(log_part - y, axis=axis, exclusive=exclusive,
                                       reverse=not reverse) + x)
    return scanned(g, Greater(g, zero)) - scanned(-g, Less(g, zero))


for _op in ("All", "Any", "ArgMax", "ArgMin"):
    no_gradient(_op)
