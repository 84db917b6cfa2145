"""Elementwise arithmetic and functions, sum and mean, matmul and cast: kernels, the public
TF-named functions (with the factories that write most of them) and the arithmetic operators.

Each op is one `define_op` row; its gradient rule lives in `math_grad.py`. Comparisons and
logical ops are in `comparison_ops.py`, complex numbers in `complex_ops.py`, the other
reductions and the scans in `reduction_ops.py`, norms in `norm_ops.py`, clipping in
`clip_ops.py` and the SciPy-backed special functions in `special_ops.py`.
"""
from __future__ import annotations

import functools
import math
import sys
import types

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.graph_def import axes_input, graph_def_form, matmul_form
from ..framework.indexed_slices import IndexedSlices
from ..framework.sparse_tensor import SparseTensor
from ..framework.shape_inference import passed_through, shape_text
from ..framework.registry import (ELEMENTWISE, LINEAR, MULTILINEAR, STACKED, TRANSPARENT,
                                  define_op)
from ..framework.string_values import as_value
from ..framework.tensor import Tensor, WeakTensor, convert_to_tensor
from ..framework.variables import Variable
from .dispatch import (add_dispatch_support, dispatch_or_raise, register_binary_elementwise_api,
                       register_unary_elementwise_api)
from .op_util import (ACCUMULATE_IN_FLOAT32, NO_ATTRS, SCALARS, add_reduce, as_input,
                      binary_inputs, hinted_inputs, in_float32, weak_operand,
                      normalize_axes)

# The dtypes an op accepts, as NumPy kind codes. TF rejects the others where NumPy would
# silently promote (sin of an int32) or reinterpret (logical_and of floats).
FLOAT, INEXACT, REAL, NUMERIC, ANY, BOOL = "f", "fc", "fiu", "fiuc", "fiucb", "b"
STRING = "O"  # string tensors hold object arrays of bytes
_KIND_NAMES = {"f": "floating", "c": "complex", "i": "integer", "u": "unsigned integer",
               "b": "bool", "O": "string"}


def require_dtype(op_name: str, x, kinds: str):
    """Returns `x` when its dtype is of one of the NumPy `kinds`.

    Raises:
        InvalidArgumentError: another dtype, naming the op, the dtype and the shape.
    """
    np_dtype = x._value.dtype
    if np_dtype.kind not in kinds and dtypes.kind(np_dtype) not in kinds:
        raise dtype_error(op_name, x, kinds)
    return x


def dtype_error(op_name: str, x, kinds: str) -> errors.InvalidArgumentError:
    allowed = ", ".join(_KIND_NAMES[k] for k in kinds)
    return errors.InvalidArgumentError(
        None, op_name, f"{op_name}: got a {x.dtype.name} tensor of shape {list(x.shape)}; "
        f"{op_name} takes {allowed} tensors only.")


# -- kernels -------------------------------------------------------------------------------
def _stable_sigmoid(x):
    if x.dtype.kind == "c":
        return 1 / (1 + np.exp(-x))
    # From e = exp(-|x|) <= 1: 1 / (1 + e) for x >= 0 and e / (1 + e) below neither
    # overflow nor lose precision (and take a third of logaddexp's time).
    e = np.exp(-np.abs(x))
    r = 1 / (1 + e)
    return np.where(x >= 0, r, e * r)


def _rsqrt(x):
    return np.reciprocal(np.sqrt(x))


# The gradients of sqrt, rsqrt and reciprocal from their output y, as TF's SqrtGrad,
# RsqrtGrad and ReciprocalGrad kernels: 0 wherever dy is 0, even where the slope is inf or
# nan, so `where(x > 0, sqrt(x), 0)` has a finite gradient at 0.
def _zero_where_dy_is(dy, out):
    if np.count_nonzero(dy) == dy.size:  # the common case: one cheap pass
        return out
    return np.where(dy == 0, np.zeros_like(out), out)


def _sqrt_grad(y, dy):
    return _zero_where_dy_is(dy, 0.5 * dy / (np.conj(y) if y.dtype.kind == "c" else y))


def _rsqrt_grad(y, dy):
    y = np.conj(y) if y.dtype.kind == "c" else y
    return _zero_where_dy_is(dy, -0.5 * dy * (y * y * y))


def _reciprocal_grad(y, dy):
    y = np.conj(y) if y.dtype.kind == "c" else y
    return _zero_where_dy_is(dy, -dy * (y * y))


def _check_divisor(op_name: str, y) -> None:
    if not np.all(y):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: integer division by zero (divisor of dtype {y.dtype} "
            f"and shape {list(np.shape(y))}).")


def _floor_div(x, y):
    if x.dtype.kind in "iu":
        _check_divisor("FloorDiv", y)
        return np.floor_divide(x, y)
    return np.floor(np.true_divide(x, y))


def _floor_mod(x, y):
    if x.dtype.kind in "iu":
        _check_divisor("FloorMod", y)
    return np.mod(x, y)


def _truncate_div(x, y):
    if x.dtype.kind in "iu":
        _check_integer_divisor("TruncateDiv", y)
        return (np.abs(x) // np.abs(y) * np.sign(x) * np.sign(y)).astype(x.dtype)
    return np.trunc(np.true_divide(x, y))


def _truncate_mod(x, y):
    if x.dtype.kind in "iu":
        _check_integer_divisor("TruncateMod", y)
    return np.fmod(x, y)


def _check_integer_divisor(op_name: str, y) -> None:
    # TF's truncating kernels report an integer division by zero as an internal error.
    if not np.all(y):
        raise errors.InternalError(None, op_name, f"{op_name}: integer division by zero "
                                   f"(divisor of dtype {y.dtype} and shape {list(np.shape(y))}).")


def _squared_difference(x, y):
    d = np.subtract(x, y)
    return d * np.conj(d) if d.dtype.kind == "c" else d * d


def _div_no_nan(x, y):
    out = np.zeros_like(x, shape=np.broadcast_shapes(np.shape(x), np.shape(y)))
    return np.divide(x, y, out=out, where=y != 0)


def _add_n(*inputs):
    return functools.reduce(np.add, inputs)


def _matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
            out=None):
    if transpose_a or adjoint_a:
        a = a.swapaxes(-1, -2) if a.ndim > 1 else a
        if adjoint_a and a.dtype.kind == "c":
            a = a.conj()
    if transpose_b or adjoint_b:
        b = b.swapaxes(-1, -2) if b.ndim > 1 else b
        if adjoint_b and b.dtype.kind == "c":
            b = b.conj()
    if a.ndim < 2 or b.ndim < 2 or a.shape[-1] != b.shape[-2]:
        raise _matmul_error(a, b)
    if a.dtype.char in ACCUMULATE_IN_FLOAT32:
        return in_float32(_matmul, a, b)
    if out is not None:
        return np.matmul(a, b, out=out)
    if a.ndim > 2 and b.ndim == 2 and a.flags.c_contiguous:
        # A stack of products with one matrix (a Dense layer on a sequence, its input
        # gradient): one product of the stacked rows, 1.3-1.6x faster than NumPy's product
        # per matrix of the stack (measured from 16x64x64 @ 64x64 to 32x50x32 @ 32x256).
        rows = a.reshape(math.prod(a.shape[:-1]), a.shape[-1])
        return (rows @ b).reshape(a.shape[:-1] + b.shape[-1:])
    return a @ b


def _matmul_error(a, b) -> errors.InvalidArgumentError:
    if a.ndim < 2 or b.ndim < 2:
        return errors.InvalidArgumentError(
            None, "MatMul", f"MatMul: both inputs need rank >= 2, got shapes {list(a.shape)} and "
            f"{list(b.shape)}; use tf.linalg.matvec or tf.expand_dims for vectors.")
    return errors.InvalidArgumentError(
        None, "MatMul", f"MatMul: Matrix size-incompatible: In[0]: {list(a.shape)}, In[1]: "
        f"{list(b.shape)} (after transposes); dtypes {a.dtype} and {b.dtype}.")


def _mean(x, axis, keepdims):
    count = math.prod([x.shape[a] for a in axis])
    if x.dtype.char in ACCUMULATE_IN_FLOAT32:
        return in_float32(_mean, x, axis=axis, keepdims=keepdims)
    if x.dtype.kind in "fc":
        return add_reduce(x, axis, keepdims) / x.dtype.type(count)
    total = np.add.reduce(x, axis=axis, dtype=np.int64, keepdims=keepdims)
    return (np.sign(total) * (np.abs(total) // max(count, 1))).astype(x.dtype)


def _cast(x, dtype):
    if x.dtype.kind == "c" and dtype.kind != "c":
        x = np.real(x)
    return x.astype(dtype)


# -- ops -------------------------------------------------------------------------------------
Add = define_op("AddV2", np.add, family=ELEMENTWISE)
Sub = define_op("Sub", np.subtract, family=ELEMENTWISE)
Mul = define_op("Mul", np.multiply, family=MULTILINEAR, batching=TRANSPARENT)
RealDiv = define_op("RealDiv", np.true_divide, family=ELEMENTWISE)
FloorDiv = define_op("FloorDiv", _floor_div, family=ELEMENTWISE)
FloorMod = define_op("FloorMod", _floor_mod, family=ELEMENTWISE)
# As in TF, TruncateDiv is not differentiable and TruncateMod has no gradient rule.
TruncateDiv = define_op("TruncateDiv", _truncate_div, family=ELEMENTWISE)
TruncateMod = define_op("TruncateMod", _truncate_mod, family=ELEMENTWISE)
Pow = define_op("Pow", np.power, family=ELEMENTWISE)
Maximum = define_op("Maximum", np.maximum, family=ELEMENTWISE)
Minimum = define_op("Minimum", np.minimum, family=ELEMENTWISE)
# Elementwise but not holomorphic: its JVP comes from the gradient rule, transposed.
SquaredDifference = define_op("SquaredDifference", _squared_difference, batching=TRANSPARENT)
DivNoNan = define_op("DivNoNan", _div_no_nan, family=ELEMENTWISE)
Atan2 = define_op("Atan2", np.arctan2, family=ELEMENTWISE)
AddN = define_op("AddN", _add_n, family=LINEAR, batching=TRANSPARENT)
Neg = define_op("Neg", np.negative, family=LINEAR, batching=TRANSPARENT)
Abs = define_op("Abs", np.abs, family=ELEMENTWISE)
# Elementwise but not holomorphic: its JVP comes from the gradient rule, transposed.
ComplexAbs = define_op("ComplexAbs", np.abs, batching=TRANSPARENT)
Sign = define_op("Sign", np.sign, family=ELEMENTWISE)
Square = define_op("Square", np.square, family=ELEMENTWISE)
Sqrt = define_op("Sqrt", np.sqrt, family=ELEMENTWISE)
Rsqrt = define_op("Rsqrt", _rsqrt, family=ELEMENTWISE)
Reciprocal = define_op("Reciprocal", np.reciprocal, family=ELEMENTWISE)
# Elementwise but antiholomorphic in y: their JVPs come from the gradient rules, transposed.
SqrtGrad = define_op("SqrtGrad", _sqrt_grad, batching=TRANSPARENT)
RsqrtGrad = define_op("RsqrtGrad", _rsqrt_grad, batching=TRANSPARENT)
ReciprocalGrad = define_op("ReciprocalGrad", _reciprocal_grad, batching=TRANSPARENT)
Exp = define_op("Exp", np.exp, family=ELEMENTWISE)
Expm1 = define_op("Expm1", np.expm1, family=ELEMENTWISE)
Log = define_op("Log", np.log, family=ELEMENTWISE)
Log1p = define_op("Log1p", np.log1p, family=ELEMENTWISE)
Sin = define_op("Sin", np.sin, family=ELEMENTWISE)
Cos = define_op("Cos", np.cos, family=ELEMENTWISE)
Tan = define_op("Tan", np.tan, family=ELEMENTWISE)
Asin = define_op("Asin", np.arcsin, family=ELEMENTWISE)
Acos = define_op("Acos", np.arccos, family=ELEMENTWISE)
Atan = define_op("Atan", np.arctan, family=ELEMENTWISE)
Sinh = define_op("Sinh", np.sinh, family=ELEMENTWISE)
Cosh = define_op("Cosh", np.cosh, family=ELEMENTWISE)
Tanh = define_op("Tanh", np.tanh, family=ELEMENTWISE)
Asinh = define_op("Asinh", np.arcsinh, family=ELEMENTWISE)
Acosh = define_op("Acosh", np.arccosh, family=ELEMENTWISE)
Atanh = define_op("Atanh", np.arctanh, family=ELEMENTWISE)
Sigmoid = define_op("Sigmoid", _stable_sigmoid, family=ELEMENTWISE)
Round = define_op("Round", np.round, family=ELEMENTWISE)
Floor = define_op("Floor", np.floor, family=ELEMENTWISE)
Ceil = define_op("Ceil", np.ceil, family=ELEMENTWISE)
MatMul = define_op("BatchMatMulV2", _matmul, family=MULTILINEAR)


def _matmul_check(inputs, attrs) -> None:
    """TF's build-time check of a matmul's known inner dimensions (the shape is probed)."""
    a, b = (x._dims for x in inputs)
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return None
    inner_a = a[-2] if attrs.get("transpose_a") or attrs.get("adjoint_a") else a[-1]
    inner_b = b[-1] if attrs.get("transpose_b") or attrs.get("adjoint_b") else b[-2]
    if inner_a is not None and inner_b is not None and inner_a != inner_b:
        raise ValueError(f"Dimensions must be equal, but are {inner_a} and {inner_b} for "
                         f"'MatMul' with input shapes: {shape_text(a)}, {shape_text(b)}.")
    return None


MatMul.shape_fn = _matmul_check
Sum = define_op("Sum", add_reduce, family=LINEAR, batching=STACKED)
Mean = define_op("Mean", _mean, family=LINEAR, batching=STACKED)
Cast = define_op("Cast", _cast, family=LINEAR, batching=TRANSPARENT)
# As GraphDef nodes: TF takes the axes as an input and names keepdims keep_dims.
for _name in ("Sum", "Mean"):
    graph_def_form(_name, inputs={"reduction_indices": axes_input},
                   attrs={"keep_dims": "keepdims"}, drop=("axis",))
graph_def_form("Cast", drop=("dtype",))  # TF's DstT is the output's dtype
matmul_form(MatMul)
Cast.value_fn = passed_through  # (only integer outputs: a cast between integer types)


# -- public functions ------------------------------------------------------------------------
def _describe(kinds: str) -> str:
    return " or ".join(_KIND_NAMES[k] for k in kinds)


def _adopt(fn, public_name: str):
    """Names a generated function and places it in the module that called its factory (as
    collections.namedtuple does), where help() and doctest look for it."""
    fn.__name__ = fn.__qualname__ = public_name
    fn.__module__ = sys._getframe(2).f_globals.get("__name__", __name__)


def function_doc(summary: str, args: str, returns: str, raises: str, call: str,
                 result: str, namespace: str = "math") -> str:
    """The docstring of a generated public function: Args, Returns, Raises and a doctest
    `tf.<namespace>.<call>` (`tf.<call>` for namespace "") printing `result`."""
    path = f"tf.{namespace}." if namespace else "tf."
    return (f"{summary}\n\n    Args:\n        {args}\n\n    Returns:\n        {returns}\n\n"
            f"    Raises:\n        {raises}\n\n    Example:\n        >>> import tapeflow as tf"
            f"\n        >>> {path}{call}\n        {result}\n")


def no_kernel_error(op_name: str, x) -> errors.NotFoundError:
    """TF's error for a dtype its op accepts but has no kernel for."""
    return errors.NotFoundError(None, op_name, f"{op_name}: no kernel for dtype {x.dtype.name} "
                                f"(shape {list(x.shape)}).")


def weakly(fn, x):
    """`fn` of a weak operand `x` (`weak_operand`), as a WeakTensor (with the result's
    identity, so tapes follow it)."""
    result = fn(Tensor(x._value, x._id) if type(x) is WeakTensor else convert_to_tensor(x))
    return WeakTensor(result._value, result._id) if type(result) is Tensor else result


def unary_function(op, public_name: str, summary: str, kinds: str, example: str,
                   result: str, returns: str = "x's dtype", no_kernel: str = "",
                   namespace: str = "math"):
    """The public function of unary op `op`; dtypes of NumPy `no_kernel` kinds are accepted by
    TF's op but have no kernel (NotFoundError), other kinds outside `kinds` are rejected."""
    def fn(x, name=None):
        if type(x) is not Tensor:
            if weak_operand(x):
                return weakly(fn, x)
            try:
                x = as_input(x)
            except (TypeError, ValueError):  # a RaggedTensor or extension type: dispatch
                return dispatch_or_raise(fn, (x,), {"name": name})
        kind = x._value.dtype.kind
        if kind not in kinds and dtypes.kind(x._value.dtype) not in kinds:
            raise no_kernel_error(op.name, x) if kind in no_kernel else dtype_error(op.name, x,
                                                                                   kinds)
        return execute(op, (x,), NO_ATTRS)
    _adopt(fn, public_name)
    register_unary_elementwise_api(fn)
    fn.__doc__ = function_doc(
        f"{summary}, elementwise (op `{op.name}`).",
        f"x: a {_describe(kinds)} tensor, or a value convertible to one.",
        f"A tensor of x's shape and {returns}.", "InvalidArgumentError: x has another dtype.",
        f"{public_name}(tf.constant({example})).numpy()", result, namespace)
    return fn


def binary_function(op, public_name: str, summary: str, kinds: str, example: str, result: str,
                    returns: str = "the inputs' dtype", convert=binary_inputs,
                    namespace: str = "math", strings: bool = False):
    """TF's public function of binary op `op` on tensors of NumPy `kinds`; with `strings`,
    string tensors too (checked off the numbers' path)."""
    reflected = convert is binary_inputs  # `0.01 * g` converts 0.01 as `g * 0.01` would

    def fn(x, y, name=None):
        # `x * 1.01` (or `0.01 * g`): the scalar's cached constant, found here without
        # another call.
        # (A WeakTensor comes only from converting: the cached constants skip the check.)
        if type(y) is float and type(x) is Tensor:
            scalar = SCALARS.get((y, x._value.dtype.char))
            if scalar is None:
                inputs = convert(op.name, x, y)
                if type(inputs[0]) is WeakTensor:  # promoted to a weak dtype ("all"/"safe")
                    return _weak_result(op, kinds, inputs)
            else:
                inputs = (x, scalar)
        elif reflected and type(x) is float and type(y) is Tensor:
            scalar = SCALARS.get((x, y._value.dtype.char))
            if scalar is None:
                inputs = convert(op.name, x, y)
                if type(inputs[0]) is WeakTensor:
                    return _weak_result(op, kinds, inputs)
            else:
                inputs = (scalar, y)
        else:
            try:
                inputs = convert(op.name, x, y)
            except (TypeError, ValueError):  # a RaggedTensor or extension type: dispatch
                return dispatch_or_raise(fn, (x, y), {"name": name})
            if type(inputs[0]) is WeakTensor:
                return _weak_result(op, kinds, inputs)
        np_dtype = inputs[0]._value.dtype
        if np_dtype.kind not in kinds and dtypes.kind(np_dtype) not in kinds:
            if strings and np_dtype.kind == "O":
                return string_result(execute(op, inputs, NO_ATTRS))
            raise dtype_error(op.name, inputs[0], kinds + STRING if strings else kinds)
        return execute(op, inputs, NO_ATTRS)
    _adopt(fn, public_name)
    register_binary_elementwise_api(fn)
    fn.__doc__ = function_doc(
        f"{summary}, elementwise with broadcasting (op `{op.name}`).",
        f"x, y: {_describe(kinds)} tensors of one dtype (a Python number takes the other's "
        "dtype).", f"A tensor of the broadcast shape and {returns}.",
        "InvalidArgumentError: the dtypes differ or are not supported, or the shapes do not "
        "broadcast.", f"{public_name}({example}).numpy()", result, namespace)
    return fn


def string_result(t):
    """`t`, the result of a NumPy function on string arrays, with a 0-d result an array
    again (a ufunc gives an object array's element itself for 0-d inputs)."""
    value = getattr(t, "_value", None)
    if type(value) is bytes:
        t._value = as_value(value)
    return t


def execute_binary(op, kinds: str, x, y) -> Tensor:
    """Runs a two-input op whose public function is written out (TF's argument names)."""
    x, y = binary_inputs(op.name, x, y)
    if type(x) is WeakTensor:
        return _weak_result(op, kinds, (x, y))
    return execute(op, (require_dtype(op.name, x, kinds), y), NO_ATTRS)


def _weak_result(op, kinds: str, inputs: tuple) -> Tensor:
    """The op on WeakTensor inputs (promoted under the "all" or "safe" mode): a WeakTensor."""
    x = require_dtype(op.name, inputs[0], kinds)
    result = execute(op, (x, inputs[1]), NO_ATTRS)
    return WeakTensor(result._value, result._id) if type(result) is Tensor else result


_V = "tf.constant([1.0, 4.0]), tf.constant([2.0, 2.0])"
add = binary_function(Add, "add", "x + y (strings are concatenated)", NUMERIC, _V,
                      "array([3., 6.], dtype=float32)", convert=hinted_inputs, strings=True)
subtract = binary_function(Sub, "subtract", "x - y", NUMERIC, _V,
                           "array([-1., 2.], dtype=float32)")
multiply = binary_function(Mul, "multiply", "x * y", NUMERIC, _V,
                           "array([2., 8.], dtype=float32)")
pow = binary_function(Pow, "pow", "x ** y", NUMERIC, _V,  # noqa: A001  (TF's public name)
                      "array([ 1., 16.], dtype=float32)")
floormod = binary_function(FloorMod, "floormod", "The remainder of floor division, with the "
                           "sign of y (Python's %)", REAL, "tf.constant([-7, 7]), 3",
                           "array([2, 1], dtype=int32)")
mod = floormod
truncatediv = binary_function(TruncateDiv, "truncatediv", "x / y rounded toward zero; not "
                              "differentiable", REAL, "tf.constant([7, -7]), 2",
                              "array([ 3, -3], dtype=int32)", namespace="")
truncatemod = binary_function(TruncateMod, "truncatemod", "The remainder of division rounded "
                              "toward zero, with the sign of x (C's fmod); it has no gradient "
                              "rule", REAL, "tf.constant([7, -7]), 2", "array([ 1, -1], "
                              "dtype=int32)", namespace="")
maximum = binary_function(Maximum, "maximum", "The larger of x and y; at ties the gradient "
                          "goes to x", REAL, _V, "array([2., 4.], dtype=float32)")
minimum = binary_function(Minimum, "minimum", "The smaller of x and y; at ties the gradient "
                          "goes to x", REAL, _V, "array([1., 2.], dtype=float32)")
squared_difference = binary_function(SquaredDifference, "squared_difference",
                                     "(x - y) * conj(x - y)", NUMERIC, _V,
                                     "array([1., 4.], dtype=float32)")

negative = unary_function(Neg, "negative", "-x", NUMERIC, "[1.0, -2.0]",
                          "array([-1., 2.], dtype=float32)")
sign = unary_function(Sign, "sign", "-1, 0 or 1 by the sign of x (x / |x| for complex); its "
                      "gradient is zero", NUMERIC, "[-3.0, 0.0, 2.0]",
                      "array([-1., 0., 1.], dtype=float32)")
square = unary_function(Square, "square", "x * x", NUMERIC, "[3.0]", "array([9.], dtype=float32)")
sqrt = unary_function(Sqrt, "sqrt", "The square root of x; its gradient at 0 is inf", INEXACT,
                      "[4.0]", "array([2.], dtype=float32)")
rsqrt = unary_function(Rsqrt, "rsqrt", "1 / sqrt(x)", INEXACT, "[4.0]",
                       "array([0.5], dtype=float32)")
reciprocal = unary_function(Reciprocal, "reciprocal", "1 / x", INEXACT, "[4.0]",
                            "array([0.25], dtype=float32)", no_kernel="iu")
exp = unary_function(Exp, "exp", "e ** x", INEXACT, "[0.0]", "array([1.], dtype=float32)")
expm1 = unary_function(Expm1, "expm1", "exp(x) - 1, accurate for small x", INEXACT, "[0.0, 1.0]",
                       "array([0. , 1.7183], dtype=float32)")
log = unary_function(Log, "log", "The natural logarithm of x", INEXACT, "[1.0]",
                     "array([0.], dtype=float32)")
log1p = unary_function(Log1p, "log1p", "log(1 + x), accurate for small x", INEXACT, "[0.0, 1.0]",
                       "array([0. , 0.6931], dtype=float32)")
sin = unary_function(Sin, "sin", "The sine of x", INEXACT, "[0.0, 1.0]",
                     "array([0. , 0.8415], dtype=float32)")
cos = unary_function(Cos, "cos", "The cosine of x", INEXACT, "[0.0, 1.0]",
                     "array([1. , 0.5403], dtype=float32)")
tan = unary_function(Tan, "tan", "The tangent of x", INEXACT, "[0.0, 1.0]",
                     "array([0. , 1.5574], dtype=float32)")
asin = unary_function(Asin, "asin", "The inverse sine of x", INEXACT, "[0.0, 1.0]",
                      "array([0. , 1.5708], dtype=float32)")
acos = unary_function(Acos, "acos", "The inverse cosine of x", INEXACT, "[1.0, 0.0]",
                      "array([0. , 1.5708], dtype=float32)")
atan = unary_function(Atan, "atan", "The inverse tangent of x", INEXACT, "[0.0, 1.0]",
                      "array([0. , 0.7854], dtype=float32)")
sinh = unary_function(Sinh, "sinh", "The hyperbolic sine of x", INEXACT, "[0.0, 1.0]",
                      "array([0. , 1.1752], dtype=float32)")
cosh = unary_function(Cosh, "cosh", "The hyperbolic cosine of x", INEXACT, "[0.0, 1.0]",
                      "array([1. , 1.5431], dtype=float32)")
tanh = unary_function(Tanh, "tanh", "The hyperbolic tangent of x", INEXACT, "[0.0, 1.0]",
                      "array([0. , 0.7616], dtype=float32)")
asinh = unary_function(Asinh, "asinh", "The inverse hyperbolic sine of x", INEXACT, "[0.0, 1.0]",
                       "array([0. , 0.8814], dtype=float32)")
acosh = unary_function(Acosh, "acosh", "The inverse hyperbolic cosine of x", INEXACT, "[1.0, 2.0]",
                       "array([0. , 1.317], dtype=float32)")
atanh = unary_function(Atanh, "atanh", "The inverse hyperbolic tangent of x", INEXACT, "[0.0, 0.5]",
                       "array([0. , 0.5493], dtype=float32)")
sigmoid = unary_function(Sigmoid, "sigmoid", "1 / (1 + exp(-x)), computed stably", INEXACT, "[0.0]",
                         "array([0.5], dtype=float32)")
round = unary_function(  # noqa: A001  (TF's public name)
    Round, "round", "x rounded to the nearest integer, half to even; no gradient", REAL,
    "[0.5, 1.5, 2.7]", "array([0., 2., 3.], dtype=float32)", no_kernel="c")
floor = unary_function(Floor, "floor", "The largest integer <= x; no gradient", FLOAT,
                       "[-1.5, 1.5]", "array([-2., 1.], dtype=float32)")
ceil = unary_function(Ceil, "ceil", "The smallest integer >= x; no gradient", FLOAT, "[-1.5, 1.5]",
                      "array([-1., 2.], dtype=float32)")


def divide(x, y, name=None) -> Tensor:
    """x / y, elementwise; integer operands are divided as floats, as TF's truediv does.

    Raises:
        InvalidArgumentError: the dtypes differ or the shapes do not broadcast.
        TypeError: bool operands.

    Example:
        >>> import tapeflow as tf
        >>> tf.divide(tf.constant(3), tf.constant(2))
        <tf.Tensor: shape=(), dtype=float64, numpy=1.5>
    """
    try:
        inputs = _true_division_inputs("RealDiv", x, y)
    except (TypeError, ValueError):  # a RaggedTensor or extension type: dispatch
        return dispatch_or_raise(divide, (x, y), {"name": name})
    return execute(RealDiv, inputs, NO_ATTRS)


truediv = register_binary_elementwise_api(divide)


@add_dispatch_support(elementwise=2)
def divide_no_nan(x, y, name=None) -> Tensor:
    """x / y, and 0 wherever y is 0, elementwise with broadcasting (op `DivNoNan`); integer
    operands are divided as floats, as by `divide`.

    Raises:
        InvalidArgumentError: the dtypes differ or the shapes do not broadcast.
        TypeError: bool operands.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.divide_no_nan(tf.constant([3.0, 3.0]), tf.constant([2.0, 0.0])).numpy()
        array([1.5, 0. ], dtype=float32)
    """
    return execute(DivNoNan, _true_division_inputs("DivNoNan", x, y), NO_ATTRS)


@add_dispatch_support(elementwise=2)
def realdiv(x, y, name=None) -> Tensor:
    """x / y for floating or complex tensors, elementwise with broadcasting (op `RealDiv`).

    Raises:
        NotFoundError: integer operands (TF has no CPU kernel for them; use `divide`).
        InvalidArgumentError: other dtypes, dtypes that differ, or shapes that do not
            broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.realdiv(tf.constant([7.0, 1.0]), 2.0).numpy()
        array([3.5, 0.5], dtype=float32)
    """
    x, y = binary_inputs("RealDiv", x, y)
    if x._value.dtype.kind in "iu":
        raise no_kernel_error("RealDiv", x)
    return execute(RealDiv, (require_dtype("RealDiv", x, INEXACT), y), NO_ATTRS)


def scalar_mul(scalar, x, name=None):
    """scalar * x, for a 0-D `scalar` converted to x's dtype; IndexedSlices stay sparse.

    Args:
        scalar: a 0-D value.
        x: a tensor or IndexedSlices.

    Returns:
        A tensor (or IndexedSlices) like x.

    Raises:
        ValueError: `scalar` is not 0-D.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.scalar_mul(2, tf.constant([1.0, 2.5])).numpy()
        array([2., 5.], dtype=float32)
    """
    if isinstance(x, IndexedSlices):
        return IndexedSlices(scalar_mul(scalar, x.values), x.indices, x.dense_shape)
    x = as_input(x)
    scalar = convert_to_tensor(scalar, dtype=x.dtype)
    if scalar.shape.rank != 0:
        raise ValueError(f"scalar_mul: the input scalar must be a 0-D value, got shape "
                         f"{scalar.shape.as_list()}.")
    return multiply(scalar, x)


def _true_division_inputs(op_name: str, x, y) -> tuple:
    """The operands of TF's true division: integers as floats (float32 up to 16 bits, else
    float64); bools are a TypeError."""
    x, y = binary_inputs(op_name, x, y)
    if x.dtype.is_bool:
        raise TypeError(f"{op_name}: invalid dtype bool (shapes {list(x.shape)} and "
                        f"{list(y.shape)}); cast to a number first.")
    if x.dtype.is_integer:
        target = dtypes.float32 if x.dtype.size <= 2 else dtypes.float64
        x, y = cast(x, target), cast(y, target)
    return x, y


def floordiv(x, y, name=None) -> Tensor:
    """floor(x / y), elementwise with broadcasting (op `FloorDiv`, Python's `//`); no gradient.

    Args:
        x, y: real tensors of one dtype (a Python number takes the other's dtype).

    Returns:
        A tensor of the broadcast shape and the inputs' dtype.

    Raises:
        NotFoundError: the inputs are complex (TF has no kernel for them).
        InvalidArgumentError: the dtypes differ, an integer divisor is 0, or the shapes do
            not broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.floordiv(tf.constant([7, -7]), 2).numpy()
        array([ 3, -4], dtype=int32)
    """
    try:
        x, y = binary_inputs("FloorDiv", x, y)
    except (TypeError, ValueError):  # a RaggedTensor or extension type: dispatch
        return dispatch_or_raise(floordiv, (x, y), {"name": name})
    if x.dtype.is_complex:
        raise no_kernel_error("FloorDiv", x)
    return execute_binary(FloorDiv, REAL, x, y)


register_binary_elementwise_api(floordiv)


def atan2(y, x, name=None) -> Tensor:
    """The angle of the point (x, y) from the x axis, in [-pi, pi] (op `Atan2`); note the
    order of the arguments, y first.

    Args:
        y, x: floating tensors of one dtype, broadcast together.

    Raises:
        InvalidArgumentError: the dtypes differ or are not floating.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.atan2(tf.constant([1.0]), tf.constant([1.0])).numpy()
        array([0.7854], dtype=float32)
    """
    return execute_binary(Atan2, FLOAT, y, x)


def abs(x, name=None) -> Tensor:  # noqa: A001  (TF's public name)
    """|x|, elementwise; for complex x the modulus, of the matching real dtype.

    The gradient at 0 is 0 (TF: grad * sign(x)).

    Raises:
        InvalidArgumentError: x is bool.

    Example:
        >>> import tapeflow as tf
        >>> tf.abs(tf.constant([-2, 3])).numpy()
        array([2, 3], dtype=int32)
        >>> float(tf.abs(tf.constant(3 + 4j)))
        5.0
    """
    if type(x) is not Tensor and weak_operand(x):
        return weakly(abs, x)
    try:
        x = as_input(x)
    except (TypeError, ValueError):  # a RaggedTensor or extension type: dispatch
        return dispatch_or_raise(abs, (x,), {"name": name})
    if x.dtype.is_complex:
        return execute(ComplexAbs, (x,), NO_ATTRS)
    return execute(Abs, (require_dtype("Abs", x, REAL),), NO_ATTRS)


register_unary_elementwise_api(abs)


@add_dispatch_support
def add_n(inputs, name=None) -> Tensor:
    """The elementwise sum of a list of tensors of one shape and dtype (no broadcasting).

    Args:
        inputs: a non-empty list of tensors or IndexedSlices (made dense); Python values
            take the first tensor's dtype.

    Returns:
        A tensor of the common shape and dtype; a single input is returned as it is.

    Raises:
        ValueError: `inputs` is empty or not a list.
        InvalidArgumentError: the shapes or dtypes differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.add_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])]).numpy()
        array([4., 6.], dtype=float32)
    """
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("add_n: inputs must be a non-empty list of tensors of one shape "
                         f"and dtype, got {inputs!r}.")
    inputs = [convert_to_tensor(x) if isinstance(x, IndexedSlices) else x for x in inputs]
    # Each input is converted on its own, as in TF: a dtype mismatch is then an error.
    tensors = [as_input(x) for x in inputs]
    first = tensors[0]
    tensors = [binary_inputs("AddN", first, x)[1] for x in tensors]
    if len(tensors) == 1:
        return convert_to_tensor(tensors[0])
    shapes = {tuple(t.shape.as_list()) for t in tensors}
    if len(shapes) != 1:
        raise errors.InvalidArgumentError(
            None, "AddN", f"AddN: inputs must have the same shape, got shapes "
            f"{[t.shape.as_list() for t in tensors]} (dtype {first.dtype.name}).")
    return execute(AddN, tuple(tensors), NO_ATTRS)


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
    a, b = hinted_inputs("MatMul", a, b)
    require_dtype("MatMul", a, NUMERIC)
    name = name or "MatMul"  # a graph's node is named after TF's op, batched or not
    attrs = NO_ATTRS
    if transpose_a or transpose_b or adjoint_a or adjoint_b:
        attrs = {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b),
                 "adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}
    return execute(MatMul, (a, b), attrs)


def reduction(op, public_name: str, summary: str, kinds: str, result: str):
    """The public `tf.reduce_*` function of reduction op `op` (attrs `axis`, `keepdims`)."""
    def fn(input_tensor, axis=None, keepdims=False, name=None):
        try:
            x = as_input(input_tensor)
        except (TypeError, ValueError):  # a RaggedTensor or extension type: dispatch
            return dispatch_or_raise(fn, (input_tensor, axis, keepdims, name), {})
        x = require_dtype(op.name, x, kinds)
        axes = normalize_axes(op.name, axis, x.ndim)
        return execute(op, (x,), {"axis": axes, "keepdims": bool(keepdims)})
    _adopt(fn, public_name)
    fn._tf_dispatch = True
    example = ("tf.constant([[True, False], [True, True]])" if kinds == BOOL
               else "tf.constant([[1.0, 2.0], [3.0, 4.0]])")
    fn.__doc__ = function_doc(
        f"{summary} of the elements along `axis` (all axes when None).",
        f"input_tensor: a {_describe(kinds)} tensor.\n        axis: None, an int or a list of "
        "ints in [-rank, rank).\n        keepdims: keep reduced axes with length 1.",
        "A tensor of the input's dtype.", "InvalidArgumentError: an axis is out of range or "
        "repeated, or the dtype is not supported.", f"{public_name}({example}, axis=1).numpy()",
        result)
    return fn


reduce_sum = reduction(Sum, "reduce_sum", "The sum", NUMERIC, "array([3., 7.], dtype=float32)")
reduce_mean = reduction(Mean, "reduce_mean", "The mean", NUMERIC,
                        "array([1.5, 3.5], dtype=float32)")


def cast(x, dtype, name=None) -> Tensor:
    """`x` converted to `dtype`; floats to integers truncate toward zero.

    Gradients flow only between floating (or complex) types. A SparseTensor or
    IndexedSlices is cast value by value (its indices kept).

    Example:
        >>> import tapeflow as tf
        >>> tf.cast(tf.constant([1.7, -1.7]), tf.int32).numpy()
        array([ 1, -1], dtype=int32)
        >>> tf.cast(tf.sparse.eye(2), tf.int32).values.numpy()
        array([1, 1], dtype=int32)
    """
    if type(x) is not Tensor:
        if isinstance(x, (SparseTensor, IndexedSlices)):  # cast their values, as TF
            values = cast(x.values, dtype)
            return x.with_values(values) if isinstance(x, SparseTensor) else \
                IndexedSlices(values, x.indices, x.dense_shape)
        try:
            x = as_input(x)
        except (TypeError, ValueError):  # a RaggedTensor or extension type: dispatch
            return dispatch_or_raise(cast, (x, dtype), {"name": name})
    dtype = dtypes.as_dtype(dtype)
    if x.dtype is dtype:
        return x if isinstance(x, Tensor) else x.read_value()
    if x.dtype is dtypes.string or dtype is dtypes.string:
        raise errors.UnimplementedError(
            None, "Cast", f"Cast {x.dtype.name} to {dtype.name} is not supported (shape "
            f"{list(x.shape)}); tf.strings.to_number and tf.strings.as_string convert.")
    return execute(Cast, (x,), {"dtype": dtype._np})


register_unary_elementwise_api(cast)


# -- operators -------------------------------------------------------------------------------
def _named(fn, name: str):
    """`fn` as the operator `__name__`: in a graph its node is named `name` (TF's names:
    `x + y` is node "add", `x * y` "mul"). A function whose last parameter is `name=None`
    is copied with `name` as that default, so the operator is the function itself, with no
    frame of its own on the eager hot path."""
    code = fn.__code__
    if fn.__defaults__ and fn.__defaults__[-1] is None and not fn.__kwdefaults__ and \
            code.co_varnames[code.co_argcount - 1] == "name":
        operator = types.FunctionType(code, fn.__globals__, fn.__name__,
                                      fn.__defaults__[:-1] + (name,), fn.__closure__)
        operator.__qualname__, operator.__doc__ = fn.__qualname__, fn.__doc__
        return operator

    def operator(self, other):
        return fn(self, other, name=name)
    return operator


def _reflected(fn, name: str):
    def operator(self, other):
        return fn(other, self, name=name)
    return operator


def install_operators(reflected: dict, plain: dict) -> None:
    """Makes Python operators of Tensor and Variable call public functions: `__name__` (and
    `__rname__` for those in `reflected`) for each name in the dicts; the binary ones name
    their graph nodes after the operator (Variable._operators records Variable's, which a
    subclass with its own `value` applies to that value)."""
    operators = {}
    for name, fn in reflected.items():
        operators[f"__{name}__"] = _named(fn, name)
        operators[f"__r{name}__"] = _reflected(fn, name)
    for name, fn in plain.items():
        operators[f"__{name}__"] = fn
    for name, operator in operators.items():
        setattr(Tensor, name, operator)
        setattr(Variable, name, operator)
    Variable._operators.update(operators)


install_operators({"add": add, "sub": subtract, "mul": multiply, "truediv": divide,
                   "floordiv": floordiv, "mod": floormod, "pow": pow, "matmul": matmul},
                  {"neg": negative, "abs": abs})


def _radd(self, other, name="add"):
    # `other + x` converts other with x's dtype (a TypeError), unlike `x + other` (TF's add).
    return string_result(execute_binary(Add, NUMERIC + STRING, other, self))


Tensor.__radd__ = Variable.__radd__ = Variable._operators["__radd__"] = _radd
