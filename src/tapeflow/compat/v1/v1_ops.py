"""TF1 names and signatures of ops: the `keep_dims` reductions, `to_float`, `arg_max`,
`div`, the `random_*` samplers, scatters into variables and `py_func`.
"""
from __future__ import annotations

import functools

from ...framework import dtypes as _dtypes
from ...framework.graph import GraphKeys, get_default_graph
from ...framework.tensor import convert_to_tensor
from ...ops import random_ops, reduction_ops
from ...ops import math_ops
from ...ops.array_ops import expand_dims
from ...ops.comparison_ops import not_equal
from ...ops.control_flow_ops import group, no_op
from ...ops.indexing_ops import tensor_scatter_nd_add, tensor_scatter_nd_update
from ...ops.script_ops import numpy_function

__all__ = ["set_random_seed", "random_normal", "random_uniform", "truncated_normal",
           "local_variables", "tables_initializer",
           "scatter_update", "scatter_add", "py_func", "to_float", "to_double", "to_int32",
           "to_int64", "count_nonzero", "arg_max", "arg_min", "div",
           "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
           "reduce_all", "reduce_any", "reduce_logsumexp"]

set_random_seed = random_ops.set_seed
random_normal = random_ops.normal
random_uniform = random_ops.uniform
truncated_normal = random_ops.truncated_normal


def _reduction(reduce):
    @functools.wraps(reduce)
    def v1(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
           keep_dims=None):
        if axis is not None and reduction_indices is not None:
            raise ValueError("Can not specify both 'axis' and 'reduction_indices'.")
        if keepdims is not None and keep_dims is not None:
            raise ValueError("Can not specify both 'keepdims' and 'keep_dims'.")
        axis = reduction_indices if axis is None else axis
        keepdims = bool(keep_dims if keepdims is None else keepdims)
        return reduce(input_tensor, axis=axis, keepdims=keepdims, name=name)
    v1.__doc__ = (f"`{reduce.__name__}` with TF1's `reduction_indices` and `keep_dims`.\n\n"
                  "    Raises:\n        ValueError: both an argument and its TF1 alias.\n")
    return v1


reduce_sum = _reduction(math_ops.reduce_sum)
reduce_mean = _reduction(math_ops.reduce_mean)
reduce_max = _reduction(reduction_ops.reduce_max)
reduce_min = _reduction(reduction_ops.reduce_min)
reduce_prod = _reduction(reduction_ops.reduce_prod)
reduce_all = _reduction(reduction_ops.reduce_all)
reduce_any = _reduction(reduction_ops.reduce_any)
reduce_logsumexp = _reduction(reduction_ops.reduce_logsumexp)


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=_dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):
    """The number of non-zero elements along `axis` (int64 by default).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> int(tf1.count_nonzero([[0, 1], [2, 3]]))
        3
        >>> tf1.count_nonzero([[0, 1], [2, 3]], axis=1, keep_dims=True).numpy().tolist()
        [[1], [2]]
    """
    x = convert_to_tensor(input_tensor if input is None else input)
    nonzero = math_ops.cast(not_equal(x, math_ops.cast(0, x.dtype)), dtype)
    return reduce_sum(nonzero, axis, keepdims, name, reduction_indices, keep_dims)


def to_float(x, name="ToFloat"):
    """`cast(x, float32)`."""
    return math_ops.cast(x, _dtypes.float32, name=name)


def to_double(x, name="ToDouble"):
    """`cast(x, float64)`."""
    return math_ops.cast(x, _dtypes.float64, name=name)


def to_int32(x, name="ToInt32"):
    """`cast(x, int32)`.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> tf1.to_int32([1.7, -2.2]).numpy()
        array([ 1, -2], dtype=int32)
    """
    return math_ops.cast(x, _dtypes.int32, name=name)


def to_int64(x, name="ToInt64"):
    """`cast(x, int64)`."""
    return math_ops.cast(x, _dtypes.int64, name=name)


def arg_max(input, dimension, output_type=_dtypes.int64, name=None):
    """`argmax` under TF1's name and argument names."""
    return reduction_ops.argmax(input, dimension, output_type=output_type, name=name)


def arg_min(input, dimension, output_type=_dtypes.int64, name=None):
    """`argmin` under TF1's name and argument names."""
    return reduction_ops.argmin(input, dimension, output_type=output_type, name=name)


def div(x, y, name=None):
    """TF1 division: integer operands divide with floor (Python 2 semantics), floats
    divide exactly.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> int(tf1.div(7, 2)), float(tf1.div(7.0, 2.0))
        (3, 3.5)
    """
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    if x.dtype.is_integer:
        return math_ops.floordiv(x, y, name=name)
    return math_ops.truediv(x, y, name=name)


def local_variables(scope=None) -> list:
    """The local variables (metrics' counters) of the default graph."""
    return get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def tables_initializer(name="init_all_tables"):
    """An operation initializing the lookup tables: there are none, a no-op."""
    tables = get_default_graph().get_collection(GraphKeys.TABLE_INITIALIZERS)
    return group(*tables, name=name) if tables else no_op(name=name)


def scatter_update(ref, indices, updates, use_locking=True, name=None):
    """Sets the rows `indices` of variable `ref` to `updates`; returns its new value.

    Example:
        >>> import tapeflow as tf
        >>> v = tf.Variable([1.0, 2.0, 3.0])
        >>> tf.compat.v1.scatter_update(v, [0, 2], [9.0, 8.0]).numpy()
        array([9., 2., 8.], dtype=float32)
    """
    index = expand_dims(convert_to_tensor(indices), -1)
    return ref.assign(tensor_scatter_nd_update(ref, index, updates), name=name)


def scatter_add(ref, indices, updates, use_locking=False, name=None):
    """Adds `updates` to the rows `indices` of variable `ref`; returns its new value.

    Example:
        >>> import tapeflow as tf
        >>> v = tf.Variable([1.0, 2.0, 3.0])
        >>> tf.compat.v1.scatter_add(v, [0, 0], [1.0, 2.0]).numpy()
        array([4., 2., 3.], dtype=float32)
    """
    index = expand_dims(convert_to_tensor(indices), -1)
    return ref.assign(tensor_scatter_nd_add(ref, index, updates), name=name)


def py_func(func, inp, Tout, stateful=True, name=None):
    """Runs `func` on the NumPy values of `inp` (not differentiable): TF1's `py_func`.

    Returns:
        A tensor when `Tout` is one dtype, else a list of tensors.

    Example:
        >>> import numpy as np
        >>> import tapeflow.compat.v1 as tf1
        >>> tf1.py_func(np.sort, [[3.0, 1.0]], tf1.float32).numpy()
        array([1., 3.], dtype=float32)
    """
    return numpy_function(func, inp, Tout, stateful, name)
