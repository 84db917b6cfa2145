"""Elementwise math, reductions and matmul: kernels and the public TF-named functions.

Each op is one `define_op` row; its gradient rule lives in `math_grad.py`.
"""
from __future__ import annotations

import math

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from .op_util import NO_ATTRS, as_input, binary_inputs, normalize_axes


def _stable_sigmoid(x):
    # exp(-logaddexp(0, -x)) neither overflows for large |x| nor loses precision.
    return np.exp(-np.logaddexp(0, -x)).astype(x.dtype, copy=False)


def _matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False):
    if a.ndim < 2 or b.ndim < 2:
        raise errors.InvalidArgumentError(
            None, "MatMul", f"MatMul: both inputs need rank >= 2, got shapes {list(a.shape)} and "
            f"{list(b.shape)}; use tf.linalg.matvec or tf.expand_dims for vectors.")
    if transpose_a or adjoint_a:
        a = np.swapaxes(a, -1, -2)
        if adjoint_a:
            a = np.conj(a)
    if transpose_b or adjoint_b:
        b = np.swapaxes(b, -1, -2)
        if adjoint_b:
            b = np.conj(b)
    if a.shape[-1] != b.shape[-2]:
        raise errors.InvalidArgumentError(
            None, "MatMul", f"MatMul: Matrix size-incompatible: In[0]: {list(a.shape)}, In[1]: "
            f"{list(b.shape)} (after transposes); dtypes {a.dtype} and {b.dtype}.")
    return np.matmul(a, b)


def _sum(x, axis, keepdims):
    return np.add.reduce(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


def _mean(x, axis, keepdims):
    if x.dtype.kind in "fc":
        return np.mean(x, axis=axis, dtype=x.dtype, keepdims=keepdims)
    count = math.prod([x.shape[a] for a in axis])
    total = np.add.reduce(x, axis=axis, dtype=np.int64, keepdims=keepdims)
    return (np.sign(total) * (np.abs(total) // max(count, 1))).astype(x.dtype)


def _cast(x, dtype):
    if x.dtype.kind == "c" and dtype.kind != "c":
        x = np.real(x)
    return x.astype(dtype)


Add = define_op("AddV2", np.add)
Sub = define_op("Sub", np.subtract)
Mul = define_op("Mul", np.multiply)
RealDiv = define_op("RealDiv", np.true_divide)
Pow = define_op("Pow", np.power)
Neg = define_op("Neg", np.negative)
Square = define_op("Square", np.square)
Sqrt = define_op("Sqrt", np.sqrt)
Exp = define_op("Exp", np.exp)
Log = define_op("Log", np.log)
Tanh = define_op("Tanh", np.tanh)
Sigmoid = define_op("Sigmoid", _stable_sigmoid)
Round = define_op("Round", np.round)
MatMul = define_op("BatchMatMulV2", _matmul)
Sum = define_op("Sum", _sum)
Mean = define_op("Mean", _mean)
Cast = define_op("Cast", _cast)


def _unary(op, public_name: str, summary: str):
    def fn(x, name=None):
        return execute(op, (as_input(x),), NO_ATTRS)
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = (f"{summary}, elementwise (op `{op.name}`).\n\n"
                  f"    Example:\n        >>> import tapeflow as tf\n"
                  f"        >>> tf.math.{public_name}(tf.constant([1.0])).shape\n"
                  f"        TensorShape([1])\n")
    return fn


def _binary(op, public_name: str, summary: str):
    def fn(x, y, name=None):
        return execute(op, binary_inputs(op.name, x, y), NO_ATTRS)
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = (f"{summary}, elementwise with broadcasting (op `{op.name}`).\n\n"
                  "    Raises:\n        InvalidArgumentError: the dtypes differ or the shapes "
                  "do not broadcast.\n\n"
                  f"    Example:\n        >>> import tapeflow as tf\n"
                  f"        >>> tf.math.{public_name}(tf.constant([1.0, 2.0]), 2.0).shape\n"
                  f"        TensorShape([2])\n")
    return fn


add = _binary(Add, "add", "x + y")
subtract = _binary(Sub, "subtract", "x - y")
multiply = _binary(Mul, "multiply", "x * y")
pow = _binary(Pow, "pow", "x ** y")  # noqa: A001  (TF's public name)
negative = _unary(Neg, "negative", "-x")
square = _unary(Square, "square", "x * x")
sqrt = _unary(Sqrt, "sqrt", "The square root of x")
exp = _unary(Exp, "exp", "e ** x")
log = _unary(Log, "log", "The natural logarithm of x")
tanh = _unary(Tanh, "tanh", "The hyperbolic tangent of x")
sigmoid = _unary(Sigmoid, "sigmoid", "1 / (1 + exp(-x)), computed stably")
round = _unary(Round, "round", "x rounded to the nearest integer, half to even")  # noqa: A001


def divide(x, y, name=None) -> Tensor:
    """x / y, elementwise; integer operands are divided as floats, as TF's truediv does.

    Example:
        >>> import tapeflow as tf
        >>> tf.divide(tf.constant(3), tf.constant(2))
        <tf.Tensor: shape=(), dtype=float64, numpy=1.5>
    """
    x, y = binary_inputs("RealDiv", x, y)
    if x.dtype.is_integer or x.dtype.is_bool:
        target = dtypes.float32 if x.dtype.size <= 2 else dtypes.float64
        x, y = cast(x, target), cast(y, target)
    return execute(RealDiv, (x, y), NO_ATTRS)


truediv = divide


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None) -> Tensor:
    """The matrix product a @ b over the last two axes, with broadcast batch axes.

    Raises:
        InvalidArgumentError: ranks below 2, size-incompatible matrices, or different dtypes.

    Example:
        >>> import tapeflow as tf
        >>> tf.matmul(tf.constant([[1.0, 2.0]]), tf.constant([[3.0], [4.0]])).shape
        TensorShape([1, 1])
    """
    a, b = binary_inputs("MatMul", a, b)
    attrs = NO_ATTRS
    if transpose_a or transpose_b or adjoint_a or adjoint_b:
        attrs = {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b),
                 "adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}
    return execute(MatMul, (a, b), attrs)


def _reduction(op, public_name: str, summary: str):
    def fn(input_tensor, axis=None, keepdims=False, name=None):
        x = as_input(input_tensor)
        axes = normalize_axes(op.name, axis, x.ndim)
        return execute(op, (x,), {"axis": axes, "keepdims": bool(keepdims)})
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = (f"{summary} of the elements along `axis` (all axes when None).\n\n"
                  "    Args:\n        input_tensor: the tensor to reduce.\n"
                  "        axis: None, an int or a list of ints in [-rank, rank).\n"
                  "        keepdims: keep reduced axes with length 1.\n\n"
                  "    Raises:\n        InvalidArgumentError: an axis is out of range.\n\n"
                  f"    Example:\n        >>> import tapeflow as tf\n"
                  f"        >>> tf.{public_name}(tf.constant([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]), axis=1).numpy()\n"
                  f"        array([{'3., 3.' if op.name == 'Sum' else '1., 1.'}], dtype=float32)\n")
    return fn


reduce_sum = _reduction(Sum, "reduce_sum", "The sum")
reduce_mean = _reduction(Mean, "reduce_mean", "The mean")


def cast(x, dtype, name=None) -> Tensor:
    """`x` converted to `dtype`; floats to integers truncate toward zero.

    Gradients flow only between floating (or complex) types.

    Example:
        >>> import tapeflow as tf
        >>> tf.cast(tf.constant([1.7, -1.7]), tf.int32).numpy()
        array([ 1, -1], dtype=int32)
    """
    x = as_input(x)
    dtype = dtypes.as_dtype(dtype)
    if x.dtype is dtype:
        return x if isinstance(x, Tensor) else x.read_value()
    return execute(Cast, (x,), {"dtype": dtype._np})


def _reflected(fn):
    return lambda self, other: fn(other, self)


def _install_operators() -> None:
    for cls in (Tensor, Variable):
        cls.__add__ = add
        cls.__radd__ = _reflected(add)
        cls.__sub__ = subtract
        cls.__rsub__ = _reflected(subtract)
        cls.__mul__ = multiply
        cls.__rmul__ = _reflected(multiply)
        cls.__truediv__ = divide
        cls.__rtruediv__ = _reflected(divide)
        cls.__pow__ = pow
        cls.__rpow__ = _reflected(pow)
        cls.__matmul__ = matmul
        cls.__rmatmul__ = _reflected(matmul)
        cls.__neg__ = negative


_install_operators()
