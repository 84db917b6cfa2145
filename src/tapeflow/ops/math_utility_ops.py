"""tf.math's utilities: invert_permutation (an op), and functions composed of other ops, whose
gradients come from those: polyval, accumulate_n, zero_fraction, the monotonicity tests, the
approximate top-k (computed exactly) and Sobol sequences (SciPy's generator, imported on
first use)."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape, as_shape
from ..framework.variables import Variable
from .array_ops import identity, reshape, size, transpose
from .comparison_ops import less, less_equal
from .creation_ops import zeros_like
from .math_ops import add_n, cast, divide, subtract
from .op_util import NO_ATTRS, as_input, int_value, normalize_axis
from .reduction_ops import count_nonzero, reduce_all
from .sort_ops import top_k
from .special_ops import scipy_module


def _invert_permutation(x):
    n = x.shape[0] if x.ndim == 1 else 0
    if x.ndim != 1 or np.any((x < 0) | (x >= n)) or np.unique(x).size != n:
        raise errors.InvalidArgumentError(
            None, "InvertPermutation", f"InvertPermutation: x must be a 1-D permutation of "
            f"0..n-1, got {x.tolist()} (shape {list(x.shape)}, dtype {x.dtype})")
    out = np.empty_like(x)
    out[x] = np.arange(n, dtype=x.dtype)
    return out


InvertPermutation = define_op("InvertPermutation", _invert_permutation)


def invert_permutation(x, name=None) -> Tensor:
    """The inverse permutation y of x: y[x[i]] = i (op `InvertPermutation`, no gradient).

    Args:
        x: a 1-D int32 or int64 tensor holding each of 0..n-1 once.

    Returns:
        A tensor of x's shape and dtype.

    Raises:
        InvalidArgumentError: another dtype or rank, or x is not a permutation.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.invert_permutation(tf.constant([3, 4, 0, 2, 1])).numpy()
        array([2, 4, 3, 0, 1], dtype=int32)
    """
    x = as_input(x)
    if x.dtype not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(
            None, "InvertPermutation", f"InvertPermutation: x must be int32 or int64, got a "
            f"{x.dtype.name} tensor of shape {x.shape.as_list()}")
    return execute(InvertPermutation, (x,), NO_ATTRS)


def polyval(coeffs, x, name=None) -> Tensor:
    """The polynomial coeffs[0] * x**(n-1) + ... + coeffs[n-1] at x, by Horner's rule.

    Each coefficient is converted on its own (a Python float is float32), as in TF.

    Args:
        coeffs: a list of tensors (or numbers) broadcastable with x, highest degree first.
        x: a tensor.

    Returns:
        The broadcast value; zeros like x for an empty list.

    Raises:
        ValueError: coeffs is not a list.
        InvalidArgumentError: the dtypes differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.polyval([2.0, 0.0, 1.0], tf.constant([1.0, 3.0])).numpy()
        array([ 3., 19.], dtype=float32)
    """
    if not isinstance(coeffs, list):
        raise ValueError(f"polyval: argument coeffs must be a list, got {type(coeffs)}")
    x = as_input(x)
    if not coeffs:
        return zeros_like(x)
    terms = [as_input(c) for c in coeffs]
    p = terms[0]
    for c in terms[1:]:
        p = c + p * x
    return p


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None) -> Tensor:
    """The elementwise sum of a list of tensors of one shape and dtype (as add_n).

    Args:
        inputs: a non-empty list of tensors of one dtype and shape.
        shape: the expected shape of each input (optional).
        tensor_dtype: the expected dtype (optional).

    Returns:
        A tensor of the inputs' shape and dtype.

    Raises:
        ValueError: inputs is empty or not a list, the dtypes differ, or a shape disagrees.
        TypeError: tensor_dtype is not the inputs' dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.accumulate_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])]).numpy()
        array([4., 6.], dtype=float32)
    """
    def input_error():
        return ValueError("accumulate_n: inputs must be a list of at least one Tensor with the "
                          "same dtype and shape")
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise input_error()
    tensors = [x if isinstance(x, (Tensor, Variable)) else convert_to_tensor(x) for x in inputs]
    if any(x.dtype != tensors[0].dtype for x in tensors):
        raise input_error()
    merged = as_shape(shape) if shape is not None else TensorShape(None)
    for x in tensors:
        if not merged.is_compatible_with(x.shape):
            raise ValueError(f"accumulate_n: shapes {merged} and {x.shape} are not compatible")
        merged = merged.merge_with(x.shape)
    if tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) != tensors[0].dtype:
        raise TypeError(f"accumulate_n: tensor_dtype is {dtypes.as_dtype(tensor_dtype).name} but "
                        f"the inputs are {tensors[0].dtype.name}; cast them first")
    if len(tensors) == 1:
        return tensors[0] if name is None else identity(tensors[0])
    return add_n(tensors)


def zero_fraction(value, name=None) -> Tensor:
    """The fraction of entries of `value` that are zero, as a float32 scalar (nan when empty).

    Args:
        value: a tensor of any numeric dtype.

    Returns:
        A float32 scalar; no gradient.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.zero_fraction(tf.constant([0.0, 1.0, 0.0, 2.0])).numpy()
        np.float32(0.5)
    """
    value = as_input(value)
    total = cast(size(value, out_type=dtypes.int64), dtypes.float32)
    zeros = total - cast(count_nonzero(value), dtypes.float32)
    return divide(zeros, total)


def _differences(op_name: str, x) -> Tensor:
    x = reshape(as_input(x), [-1])
    if x.dtype.is_bool:
        raise TypeError(f"{op_name}: expected x to be numeric, got a {x.dtype.name} tensor")
    return subtract(x[1:], x[:-1])


def is_non_decreasing(x, name=None) -> Tensor:
    """Whether each entry of x (flattened) is >= the one before; True for fewer than two.

    Raises:
        TypeError: a bool tensor.
        InvalidArgumentError: a complex tensor.

    Example:
        >>> import tapeflow as tf
        >>> bool(tf.math.is_non_decreasing([1, 1, 2]))
        True
    """
    diff = _differences("is_non_decreasing", x)
    return reduce_all(less_equal(np.zeros((), diff.dtype._np), diff))


def is_strictly_increasing(x, name=None) -> Tensor:
    """Whether each entry of x (flattened) is > the one before; True for fewer than two.

    Raises:
        TypeError: a bool tensor.
        InvalidArgumentError: a complex tensor.

    Example:
        >>> import tapeflow as tf
        >>> bool(tf.math.is_strictly_increasing([1, 1, 2]))
        False
    """
    diff = _differences("is_strictly_increasing", x)
    return reduce_all(less(np.zeros((), diff.dtype._np), diff))


def _approx_top_k(largest: bool):
    public_name = "approx_max_k" if largest else "approx_min_k"

    def fn(operand, k, reduction_dimension=-1, recall_target=0.95,
           reduction_input_size_override=-1, aggregate_to_topk=True, name=None) -> list:
        x = as_input(operand)
        if x.dtype not in (dtypes.float16, dtypes.float32):
            raise errors.InvalidArgumentError(
                None, "ApproxTopK", f"{public_name}: operand must be float16 or float32 "
                f"(bfloat16 in TF), got a {x.dtype.name} tensor of shape {x.shape.as_list()}")
        if x.ndim == 0:
            raise errors.InvalidArgumentError(None, "ApproxTopK", f"{public_name}: operand "
                                              "must have rank >= 1, got a scalar")
        axis = normalize_axis("ApproxTopK", reduction_dimension, x.ndim)
        perm = list(range(x.ndim))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        moved = transpose(x, perm) if axis != x.ndim - 1 else x
        values, indices = top_k(moved if largest else -moved, int_value("ApproxTopK", k, "k"))
        if not largest:
            values = -values
        if axis != x.ndim - 1:
            values, indices = transpose(values, perm), transpose(indices, perm)
        return [values, indices]
    fn.__name__ = fn.__qualname__ = public_name
    which, order = ("largest", "descending") if largest else ("smallest", "ascending")
    fn.__doc__ = f"""The k {which} entries along `reduction_dimension`, in {order} order, and
    their indices (int32). Computed exactly (recall 1), which every recall_target allows; the
    gradient flows to the values as top_k's.

    Args:
        operand: a float16 or float32 tensor.
        k: how many entries to keep.
        reduction_dimension: the axis to search (default the last).
        recall_target, reduction_input_size_override, aggregate_to_topk: accepted for TF
            compatibility (the result is exact).

    Returns:
        A list [values, indices] with `k` entries along `reduction_dimension`.

    Raises:
        InvalidArgumentError: another dtype, a scalar, or k out of range.

    Example:
        >>> import tapeflow as tf
        >>> values, indices = tf.math.{public_name}(tf.constant([1.0, 3.0, 2.0]), 2)
        >>> values.numpy(), indices.numpy()
        {"(array([3., 2.], dtype=float32), array([1, 2], dtype=int32))" if largest else
         "(array([1., 2.], dtype=float32), array([0, 2], dtype=int32))"}
    """
    return fn


approx_max_k = _approx_top_k(True)
approx_min_k = _approx_top_k(False)


def sobol_sample(dim, num_results, skip=0, dtype=dtypes.float32, name=None) -> Tensor:
    """Points of the Sobol low-discrepancy sequence in [0, 1)^dim (Joe and Kuo's direction
    numbers, unscrambled), leaving out the origin and then `skip` more points, as TF.

    Needs SciPy (the `test` or `demo` extra), imported on first use.

    Args:
        dim: the dimension of each point, in [1, 21201].
        num_results: how many points, >= 1.
        skip: how many points of the sequence to skip, >= 0.
        dtype: float32 or float64.

    Returns:
        A [num_results, dim] tensor of `dtype`.

    Raises:
        InvalidArgumentError: a bad dim, num_results, skip or dtype.
        ImportError: SciPy is not installed.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.sobol_sample(2, 3).numpy()
        array([[0.5 , 0.5 ],
               [0.75, 0.25],
               [0.25, 0.75]], dtype=float32)
    """
    dtype = dtypes.as_dtype(dtype)
    dim = int_value("SobolSample", dim, "dim")
    count = int_value("SobolSample", num_results, "num_results")
    skip = int_value("SobolSample", skip, "skip")
    if dtype not in (dtypes.float32, dtypes.float64):
        raise errors.InvalidArgumentError(None, "SobolSample", f"SobolSample: dtype must be "
                                          f"float32 or float64, got {dtype.name}")
    if not 1 <= dim <= 21201 or count < 1 or skip < 0:
        raise errors.InvalidArgumentError(
            None, "SobolSample", f"SobolSample: need 1 <= dim <= 21201, num_results >= 1 and "
            f"skip >= 0; got dim={dim}, num_results={count}, skip={skip}")
    engine = scipy_module("stats").qmc.Sobol(dim, scramble=False)
    engine.fast_forward(skip + 1)
    return convert_to_tensor(engine.random(count).astype(dtype._np))
