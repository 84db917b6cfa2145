"""Reductions beyond sum and mean, and the cumulative scans: kernels and public functions.

Each op is one `define_op` row; the gradient rules are in `reduction_grad.py`.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.graph_def import axes_input, graph_def_form
from ..framework.registry import LINEAR, STACKED, define_op
from ..framework.tensor import Tensor
from .comparison_ops import not_equal
from .complex_ops import conj, real
from .dispatch import add_dispatch_support
from .math_ops import (BOOL, FLOAT, NUMERIC, REAL, cast, function_doc, reduce_mean, reduce_sum,
                       reduction, require_dtype, sqrt, square)
from .op_util import as_input, normalize_axes


# -- kernels -------------------------------------------------------------------------------
def _prod(x, axis, keepdims):
    return np.multiply.reduce(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


def _euclidean_norm(x, axis, keepdims):
    squares = np.add.reduce(x * np.conj(x), axis=axis, dtype=x.dtype, keepdims=keepdims)
    return np.sqrt(squares).astype(x.dtype, copy=False)  # integers truncate, as in TF


def _lowest(dtype):
    return -np.inf if dtypes.kind(dtype) == "f" else np.iinfo(dtype).min


def _highest(dtype):
    return np.inf if dtypes.kind(dtype) == "f" else np.iinfo(dtype).max


def _extreme(ufunc, identity):
    def kernel(x, axis, keepdims):
        if x.size == 0:  # TF answers the reduction's identity where NumPy raises
            return ufunc.reduce(x, axis=axis, keepdims=keepdims, initial=identity(x.dtype))
        return ufunc.reduce(x, axis=axis, keepdims=keepdims)
    return kernel


def _all(x, axis, keepdims):
    return np.all(x, axis=axis, keepdims=keepdims)


def _any(x, axis, keepdims):
    return np.any(x, axis=axis, keepdims=keepdims)


def _argmax(x, axis, output_type):
    return np.argmax(_nan_as(x, -np.inf), axis=axis).astype(output_type, copy=False)


def _argmin(x, axis, output_type):
    return np.argmin(_nan_as(x, np.inf), axis=axis).astype(output_type, copy=False)


def _nan_as(x, value):
    """x with nan replaced by `value`: TF's argmax and argmin compare, so a nan never wins
    (NumPy's would)."""
    if dtypes.kind(x.dtype) not in "fc":
        return x
    nan = np.isnan(x)
    return np.where(nan, value, x) if nan.any() else x


def _logsumexp(x, axis, keepdims):
    # Shifting by the (finite) maximum keeps exp from overflowing at large |x|.
    shift = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    shift = np.where(np.isfinite(shift), shift, 0)
    total = np.add.reduce(np.exp(x - shift), axis=axis, dtype=x.dtype, keepdims=True)
    out = np.log(total) + shift
    return out if keepdims else np.squeeze(out, axis=axis)


def _scan(ufunc, identity):
    def kernel(x, axis, exclusive=False, reverse=False):
        if reverse:
            x = np.flip(x, axis)
        if exclusive:
            lead = (slice(None),) * axis
            out = np.empty_like(x)
            out[lead + (slice(0, 1),)] = identity
            ufunc.accumulate(x[lead + (slice(None, -1),)], axis=axis, dtype=x.dtype,
                             out=out[lead + (slice(1, None),)])
        else:
            out = ufunc.accumulate(x, axis=axis, dtype=x.dtype)
        return np.flip(out, axis) if reverse else out
    return kernel


Prod = define_op("Prod", _prod, batching=STACKED)
Max = define_op("Max", _extreme(np.maximum, _lowest), batching=STACKED)
Min = define_op("Min", _extreme(np.minimum, _highest), batching=STACKED)
All = define_op("All", _all)
Any = define_op("Any", _any)
ArgMax = define_op("ArgMax", _argmax)
ArgMin = define_op("ArgMin", _argmin)
# TF composes reduce_logsumexp from eight ops; one primitive is faster and as stable.
ReduceLogSumExp = define_op("ReduceLogSumExp", _logsumexp, batching=STACKED)
EuclideanNorm = define_op("EuclideanNorm", _euclidean_norm)
Cumsum = define_op("Cumsum", _scan(np.add, 0), family=LINEAR, batching=STACKED)
Cumprod = define_op("Cumprod", _scan(np.multiply, 1), batching=STACKED)
# log(cumsum(exp(x))) without overflow: one logaddexp scan.
CumulativeLogsumexp = define_op("CumulativeLogsumexp", _scan(np.logaddexp, -np.inf),
                                batching=STACKED)
# As GraphDef nodes: TF takes the axes as an input and names keepdims keep_dims.
for _name in ("Max", "Min", "Prod", "All", "Any", "EuclideanNorm"):
    graph_def_form(_name, inputs={"reduction_indices": axes_input},
                   attrs={"keep_dims": "keepdims"}, drop=("axis",))
for _name in ("ArgMax", "ArgMin"):
    graph_def_form(_name, inputs={"dimension": "axis"})
for _name in ("Cumsum", "Cumprod"):
    graph_def_form(_name, inputs={"axis": "axis"})


# -- public functions ------------------------------------------------------------------------
reduce_prod = reduction(Prod, "reduce_prod", "The product", NUMERIC,
                        "array([ 2., 12.], dtype=float32)")
reduce_max = reduction(Max, "reduce_max", "The maximum (tied maxima share the gradient "
                       "equally)", REAL, "array([2., 4.], dtype=float32)")
reduce_min = reduction(Min, "reduce_min", "The minimum (tied minima share the gradient "
                       "equally)", REAL, "array([1., 3.], dtype=float32)")
reduce_all = reduction(All, "reduce_all", "The logical AND", BOOL, "array([False,  True])")
reduce_any = reduction(Any, "reduce_any", "The logical OR", BOOL, "array([ True,  True])")
reduce_logsumexp = reduction(ReduceLogSumExp, "reduce_logsumexp", "log(sum(exp(x))), computed "
                             "without overflow,", FLOAT, "array([2.3133, 4.3133], dtype=float32)")
reduce_euclidean_norm = reduction(
    EuclideanNorm, "reduce_euclidean_norm", "sqrt(sum(x * conj(x))) (truncated for integers; "
    "its gradient at a zero norm is nan)", NUMERIC, "array([2.236068, 5.      ], dtype=float32)")


def _single_axis(op_name: str, axis, ndim: int) -> int:
    axes = normalize_axes(op_name, axis, ndim)
    if len(axes) != 1:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: axis must be a single integer, got {axis!r}.")
    return axes[0]


def _arg_reduction(op, public_name: str, summary: str, result: str):
    def fn(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
        x = require_dtype(op.name, as_input(input), "fiub")
        index_type = dtypes.as_dtype(output_type)
        if index_type not in (dtypes.int32, dtypes.int64):
            raise errors.InvalidArgumentError(
                None, op.name, f"{op.name}: output_type must be int32 or int64, got "
                f"{index_type.name}.")
        axis = _single_axis(op.name, 0 if axis is None else axis, x.ndim)
        return execute(op, (x,), {"axis": axis, "output_type": index_type._np})
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = function_doc(
        f"The index of the {summary} along `axis` (the first one at ties); no gradient.",
        "input: a real or bool tensor.\n        axis: the axis to reduce, in [-rank, rank); "
        "None means 0.\n        output_type: int32 or int64 (the default).",
        "A tensor of `output_type` without the reduced axis.", "InvalidArgumentError: the axis "
        "is out of range or empty, or a dtype is not supported.",
        f"{public_name}(tf.constant([[1.0, 5.0], [7.0, 2.0]]), axis=1).numpy()", result)
    return fn


argmax = _arg_reduction(ArgMax, "argmax", "largest value", "array([1, 0])")
argmin = _arg_reduction(ArgMin, "argmin", "smallest value", "array([0, 1])")


def _scan_function(op, public_name: str, summary: str, result: str, kinds: str = NUMERIC,
                   example: str = "tf.constant([1, 2, 3])"):
    def fn(x, axis=0, exclusive=False, reverse=False, name=None):
        x = require_dtype(op.name, as_input(x), kinds)
        attrs = {"axis": _single_axis(op.name, axis, x.ndim), "exclusive": bool(exclusive),
                 "reverse": bool(reverse)}
        return execute(op, (x,), attrs)
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = function_doc(
        f"The cumulative {summary} along `axis` (op `{op.name}`).",
        f"x: a {'numeric' if kinds == NUMERIC else 'floating'} tensor of rank >= 1.\n"
        "        axis: the axis to scan, in [-rank, rank)."
        "\n        exclusive: leave each element out of its own result.\n        reverse: scan "
        "from the end.", "A tensor of x's shape and dtype.", "InvalidArgumentError: the axis is "
        "out of range or the dtype is not supported.",
        f"{public_name}({example}, exclusive=True).numpy()", result)
    return fn


cumsum = _scan_function(Cumsum, "cumsum", "sum", "array([0, 1, 3], dtype=int32)")
cumprod = _scan_function(Cumprod, "cumprod", "product", "array([1, 1, 2], dtype=int32)")
cumulative_logsumexp = _scan_function(
    CumulativeLogsumexp, "cumulative_logsumexp", "log-sum-exp (computed without overflow)",
    "array([  -inf, 0.    , 0.6931], dtype=float32)", FLOAT, "tf.constant([0.0, 0.0, 0.0])")


def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64,  # noqa: A002
                  name=None) -> Tensor:
    """The number of non-zero (or True) elements along `axis` (all axes when None).

    Args:
        input: a tensor of any dtype.
        axis: None, an int or a list of ints in [-rank, rank).
        keepdims: keep reduced axes with length 1.
        dtype: the dtype of the counts (int64 by default).

    Raises:
        InvalidArgumentError: an axis is out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.count_nonzero(tf.constant([[0.0, 1.0], [2.0, 3.0]]), axis=1).numpy()
        array([1, 2])
    """
    x = as_input(input)
    nonzero = cast(not_equal(x, np.zeros((), x.dtype._np)), dtypes.int64)
    return cast(reduce_sum(nonzero, axis, keepdims=bool(keepdims)), dtype)


def _variance(public_name: str, input_tensor, axis, keepdims):
    x = as_input(input_tensor)
    if x.dtype.is_bool:  # TF's reduce_mean rejects it first
        raise errors.InvalidArgumentError(
            None, "Mean", f"Mean: got a bool tensor of shape {list(x.shape)} ({public_name}).")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"{public_name}: input must be real or complex floating, got a "
                        f"{x.dtype.name} tensor of shape {list(x.shape)}.")
    diff = x - reduce_mean(x, axis, keepdims=True)
    squared = real(diff * conj(diff)) if x.dtype.is_complex else square(diff)
    return reduce_mean(squared, axis, keepdims=keepdims)


@add_dispatch_support
def reduce_variance(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """The variance, mean(|x - mean(x)|**2), along `axis` (all axes when None).

    Args:
        input_tensor: a floating or complex tensor.
        axis: None, an int or a list of ints in [-rank, rank).
        keepdims: keep reduced axes with length 1.

    Returns:
        A tensor of the input's real dtype (complex input gives a real variance).

    Raises:
        TypeError: the input is integer or bool.
        InvalidArgumentError: an axis is out of range.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.math.reduce_variance(tf.constant([1.0, 3.0])))
        1.0
    """
    return _variance("reduce_variance", input_tensor, axis, keepdims)


@add_dispatch_support
def reduce_std(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """sqrt(reduce_variance(input_tensor, axis, keepdims)): the standard deviation.

    Args:
        input_tensor, axis, keepdims: as for `reduce_variance`.

    Returns:
        A tensor of the input's real dtype. Its gradient is nan where all values along
        `axis` are equal (sqrt'(0) = inf), as in TF.

    Raises:
        TypeError, InvalidArgumentError: as `reduce_variance` does.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.math.reduce_std(tf.constant([1.0, 5.0])))
        2.0
    """
    return sqrt(_variance("reduce_std", input_tensor, axis, keepdims))
