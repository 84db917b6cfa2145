"""Input handling shared by every public op function: conversion, dtype checks, axes, integer
arguments (shapes, sizes, indices)."""
from __future__ import annotations

import functools
import math

import numpy as np

from ..framework import errors
from ..framework import dtypes, promotion
from ..framework.graph_tensor import SymbolicValue
from ..framework.shape_inference import full_value
from ..framework.tensor import (CONVERSION_FUNCTIONS, Tensor, WeakTensor, array_from_python,
                                constant, convert_to_tensor, registered_override)
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable

NO_ATTRS: dict = {}
_INDEX_DTYPES = frozenset(np.dtype(t) for t in (np.int16, np.int32, np.int64))


def is_input(x) -> bool:
    """Whether an op takes `x` as it is: a Tensor or a Variable, unless a conversion function
    is registered for its subclass (a tf.Variable subclass backed by something else)."""
    return type(x) is Tensor or isinstance(x, (Tensor, Variable)) and not (
        CONVERSION_FUNCTIONS and registered_override(x))


def as_input(x):
    """A Tensor or Variable as is; anything else is converted (by a registered conversion
    function where one takes its type)."""
    if type(x) is Tensor or type(x) is Variable or is_input(x):  # (common cases inline)
        return x
    return convert_to_tensor(x)


# Python scalars already converted, by (value, dtype char) for floats and (value, dtype char,
# int) for ints (1 == 1.0, and an int's constant must not answer for a float): tensors are
# immutable, so one constant serves every `x * 1.01` (the operators look here first).
# Cleared when it grows past a few hundred entries.
SCALARS: dict = {}


def _like(value, like, op_name: str) -> Tensor:
    """`value` (not a tensor) converted to the dtype of tensor `like`, as TF's weak scalars."""
    np_dtype = like._value.dtype
    kind = type(value)
    if kind is float or kind is int:
        key = (value, np_dtype.char) if kind is float else (value, np_dtype.char, int)
        cached = SCALARS.get(key)
        if cached is not None:
            return cached
        if np_dtype.kind in "fc" or kind is int and np_dtype.kind in "iu":
            if len(SCALARS) > 512:
                SCALARS.clear()
            cached = SCALARS[key] = Tensor(_scalar_array(value, np_dtype, op_name))
            return cached
    if CONVERSION_FUNCTIONS and any(isinstance(value, base) for base, _ in CONVERSION_FUNCTIONS) \
            or hasattr(value, "__tf_tensor__"):  # (a type converting itself, asked for the dtype)
        return convert_to_tensor(value, like.dtype)
    if promotion.mode in promotion.LATTICE_MODES and promotable(value, np_dtype):
        # A Python number of another kind than the tensor's (a float with integers, an int
        # with bools), or NumPy data of another dtype: the dtype-conversion mode promotes
        # them (binary_inputs catches this).
        raise TypeError(f"{op_name}: {value!r} and a {like.dtype.name} tensor need promotion")
    # NumPy data is cast to the tensor's dtype; Python data must be representable in it.
    return Tensor(_scalar_array(value, like.dtype, op_name))


def _scalar_array(value, dtype, op_name: str) -> np.ndarray:
    try:
        return array_from_python(value, dtypes.as_dtype(dtype))
    except (TypeError, OverflowError):
        raise TypeError(f"{op_name}: cannot convert {value!r} to a tensor of dtype "
                        f"{dtypes.as_dtype(dtype).name}") from None


def binary_inputs(op_name: str, x, y) -> tuple:
    """Both operands as tensors of one dtype; a non-tensor takes the other's dtype (NumPy
    data is cast to it, Python data must fit it), as TF's ops convert their inputs. Under
    another dtype-conversion mode than "off", what "off" refuses is promoted instead
    (`promoted_inputs`).

    Raises:
        InvalidArgumentError: two tensors of different dtypes (no implicit promotion).
        TypeError: Python data that does not fit the other operand's dtype.
    """
    tx = type(x) is Tensor or type(x) is Variable or is_input(x)  # (common cases inline)
    ty = type(y) is Tensor or type(y) is Variable or is_input(y)
    if tx and ty:
        if x._value.dtype != y._value.dtype:
            if promotion.mode in promotion.LATTICE_MODES:
                return promoted_inputs(op_name, x, y)
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: cannot compute {op_name} as input #1 (zero-based) was "
                f"expected to be a {x.dtype.name} tensor but is a {y.dtype.name} tensor "
                f"(shapes {list(x.shape)} and {list(y.shape)}). Cast one with tf.cast.")
        return x, y
    try:
        if tx:
            return x, _like(y, x, op_name)
        if ty:
            return _like(x, y, op_name), y
    except TypeError:
        if promotion.mode not in promotion.LATTICE_MODES or not promotable(x if ty else y):
            raise
        return promoted_inputs(op_name, x, y)
    x = as_input(x)
    return x, _like(y, x, op_name)


def weak_operand(value) -> bool:
    """Whether a unary op's result on `value` is weak: a WeakTensor, or Python numbers under
    the "all" and "safe" modes."""
    return type(value) is WeakTensor or promotion.mode in promotion.LATTICE_MODES and \
        promotion.python_type(value) is not None


def promotable(value, np_dtype=None) -> bool:
    """Whether the dtype-conversion mode promotes `value` with a tensor (of `np_dtype`):
    Python numbers (weak; lists of them too), or NumPy data (strong, of its own dtype) of
    another dtype."""
    return type(value) is bool or promotion.python_type(value) is not None or isinstance(
        value, (np.ndarray, np.generic)) and value.dtype != np_dtype


def _operand(x) -> tuple:
    """(dtype name, weak) of a binary op's operand: a tensor's dtype (weak for a WeakTensor),
    NumPy data's (strong), or the weak type of a Python number (int32, float32 or
    complex128)."""
    if isinstance(x, (Tensor, Variable)):
        return x.dtype.name, type(x) is WeakTensor
    if isinstance(x, (np.ndarray, np.generic)):
        return dtypes.as_dtype(x.dtype).name, False
    if type(x) is bool:
        return "bool", False
    return promotion.python_type(x)


def promoted_inputs(op_name: str, x, y) -> tuple:
    """The operands of different dtypes (tensors, or a tensor and a Python number) promoted
    along the lattice of weak and strong dtypes ("all" and "safe" modes; "safe" only where
    no precision can be lost). Both are WeakTensors when the result is weak, so the op's
    result is one too.

    Raises:
        TypeError: "safe" refuses the promotion.
    """
    a, b = _operand(x), _operand(y)
    name, weak = promotion.result_type(a, b)
    if promotion.mode == "safe" and not promotion.is_safe(a, b, (name, weak)):
        raise TypeError(
            f"{op_name}: the \"safe\" dtype-conversion mode refuses to promote "
            f"{a[0]}{' (weak)' if a[1] else ''} and {b[0]}{' (weak)' if b[1] else ''} to "
            f"{name}; cast an operand explicitly or use the \"all\" mode.")
    dtype = dtypes.as_dtype(name)
    return tuple([_promoted_operand(v, dtype, weak) for v in (x, y)])


def _promoted_operand(v, dtype, weak: bool):
    """`v` in `dtype`: a tensor through the Cast op (recorded, and a node in a graph), data
    as a constant; an eager result is a WeakTensor when `weak` (with the tensor's identity,
    so tapes follow it)."""
    from .math_ops import cast  # (math_ops stands on this module)
    if isinstance(v, (Tensor, Variable)):
        v = cast(v, dtype)
    elif isinstance(v, (np.ndarray, np.generic)):
        v = Tensor(np.asarray(v).astype(dtype._np))
    else:
        v = Tensor(array_from_python(v, dtype))
    if weak and type(v) is Tensor:
        return WeakTensor(v._value, v._id)
    if not weak and type(v) is WeakTensor:
        return Tensor(v._value, v._id)
    return v


def hinted_inputs(op_name: str, x, y) -> tuple:
    """The operands of TF's add and matmul: x converted on its own, y with x's dtype only as
    a hint (its own default dtype when it does not fit), so that differing dtypes are an
    InvalidArgumentError where `multiply` would raise a TypeError.

    Raises:
        InvalidArgumentError: the two dtypes differ.
    """
    if not (type(x) is Tensor or type(x) is Variable or is_input(x)):
        x = as_input(x)
    if type(y) is Tensor or type(y) is Variable or is_input(y):
        if x._value.dtype is y._value.dtype:
            return x, y
        return binary_inputs(op_name, x, y)
    try:
        return x, _like(y, x, op_name)
    except TypeError:
        if promotion.mode in promotion.LATTICE_MODES and promotable(y):
            return promoted_inputs(op_name, x, y)
        return binary_inputs(op_name, x, as_input(y))


def shape_of(x) -> tuple:
    """The static shape of a Tensor, Variable or raw array, as a tuple."""
    value = getattr(x, "_value", x)
    try:
        return value.shape
    except AttributeError:
        return np.shape(value)


def known_only_when_run(dims) -> bool:
    """Whether a shape argument holds graph tensors whose values the graph does not know
    while it is built (sizes computed in a loop, `tf.shape` of a partly known tensor)."""
    if isinstance(dims, TensorShape):
        return False
    parts = dims if isinstance(dims, (list, tuple)) else [dims]
    return any(isinstance(getattr(d, "_value", None), SymbolicValue) and full_value(d) is None
               for d in parts)


def known_dims(x):
    """The static dimensions of a tensor, variable or array as a tuple (None entries where
    a graph does not know them), or None when even the rank is unknown."""
    shape = getattr(x, "shape", None)
    if shape is None or not hasattr(shape, "rank"):
        return np.shape(getattr(x, "_value", x))
    return None if shape.rank is None else tuple(shape.as_list())


def partly_known_dims(x):
    """The dimensions of graph tensor `x` when some are unknown while the graph is built
    (its rank known), else None: rules then read its shape with a Shape op."""
    dims = getattr(x, "_dims", None) if hasattr(x, "_op") else None
    return dims if dims is not None and None in dims else None


def normalize_axes(op_name: str, axis, ndim: int) -> tuple:
    """`axis` (None, an int, a list or an integer tensor) as a tuple of non-negative axes;
    for an input of unknown rank (`ndim` None), the axes as given, None for all.

    Raises:
        InvalidArgumentError: an axis outside [-ndim, ndim).
    """
    if ndim is None:  # unknown rank: the axes as given (None: all), checked when it runs
        return None if axis is None else tuple(int_values(op_name, axis, "axis"))
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is int:  # the common case, without a round trip through NumPy
        return (_checked_axis(op_name, axis, ndim),)
    if isinstance(axis, (Tensor, Variable)):
        axis = axis.numpy()
    values = np.ravel(_python_bools_as_ints(axis, np.asarray(axis)))
    if values.size and values.dtype.kind not in "iu":
        raise TypeError(f"{op_name}: axis must be integers, got {axis!r}")
    return tuple([_checked_axis(op_name, a, ndim) for a in values.tolist()])


def _python_bools_as_ints(value, array: np.ndarray) -> np.ndarray:
    """`array` (made from `value`) as integers when `value` is Python bools (`True`, `[True]`):
    TF converts an integer argument given as Python data to int32, and a Python bool is an
    int; NumPy bool arrays and bool tensors stay bools (and are refused)."""
    if array.dtype.kind == "b" and not isinstance(value, (np.ndarray, np.generic, Tensor)):
        return array.astype(np.int32)
    return array


def _checked_axis(op_name: str, a: int, ndim: int) -> int:
    if not -ndim <= a < max(ndim, 1):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: invalid reduction dimension {a} for input with "
            f"{ndim} dimensions (axis must be in [{-ndim}, {ndim})).")
    return a % ndim if ndim else 0


def int_values(op_name: str, value, what: str) -> list:
    """`value` (an int, a list, an array or an integer tensor) as a flat list of ints.

    A graph tensor gives the value the graph knows it to hold while it is built (a
    constant, or computed from static shapes: `tf.shape(x)[1]`). A list holding tensors is
    packed as TF converts it to an integer tensor: when the first tensor is not of an
    integer dtype, the tensors are cast (truncated) to integers.

    Raises:
        InvalidArgumentError: the values are not integers (e.g. floats), or a list's
            tensors have different dtypes (the first an integer one).
        SymbolicValueError: a graph tensor whose value is known only when the graph runs.
    """
    if isinstance(value, (Tensor, Variable)):
        value = _value_known(value)
    elif type(value) in (list, tuple) and any(isinstance(v, (Tensor, Variable)) for v in value):
        value = _packed_ints(op_name, value)
    elif hasattr(value, "as_list"):
        value = value.as_list()
    try:
        array = _python_bools_as_ints(value, np.asarray(value))
    except ValueError:
        array = np.asarray(None)
    if array.dtype.kind in "USO" and type(value) in (list, tuple) and \
            len({isinstance(v, str) for v in value}) > 1:
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    if array.dtype.kind == "O" or array.size and array.dtype.kind not in "iu":
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: {what} must be integers, got {value!r} of dtype "
            f"{array.dtype}")
    return [int(v) for v in array.ravel()]


def _value_known(x):
    """The array a tensor holds, or a graph tensor is known to hold while the graph is
    built; a graph tensor known only when it runs raises SymbolicValueError."""
    known = full_value(x) if hasattr(x, "_op") else None
    if known is not None:
        return known
    value = x._value
    if isinstance(value, SymbolicValue):
        np.asarray(value)  # (raises: the value is known only when the graph runs)
    return value


def _packed_ints(op_name: str, values):
    """A list holding tensors as TF packs it into an integer tensor (see int_values)."""
    tensors = [v for v in values if isinstance(v, (Tensor, Variable))]
    first = tensors[0].dtype
    out = []
    for v in values:
        if isinstance(v, (Tensor, Variable)):
            array = np.asarray(_value_known(v))
            if first.is_integer and v.dtype is not first:
                raise errors.InvalidArgumentError(
                    None, "Pack", f"{op_name}: cannot pack {values!r}: a {v.dtype.name} tensor "
                    f"among {first.name} ones (cast them first)")
            if array.dtype.kind not in "iub":
                array = np.real(array).astype(np.int64)
            out.append(array)
        else:
            out.append(v)
    return out


def int_value(op_name: str, value, what: str) -> int:
    """`value` (an int, or a scalar or one-element integer array or tensor) as an int.

    Raises:
        InvalidArgumentError: not an integer, or not one value.
    """
    values = int_values(op_name, value, what)
    if len(values) != 1:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: {what} must be a scalar integer, got {len(values)} "
            f"values (shape {list(np.shape(getattr(value, '_value', value)))})")
    return values[0]


def dims_values(op_name: str, shape) -> tuple:
    """`shape` (a list, a TensorShape or an integer tensor) as a tuple of dimensions.

    Raises:
        InvalidArgumentError: a negative or non-integer dimension.
    """
    dims = tuple(int_values(op_name, shape, "shape"))
    if any(d < 0 for d in dims):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: dimensions must be >= 0, got {list(dims)}")
    return dims


def normalize_axis(op_name: str, axis, ndim: int) -> int:
    """One axis in [-ndim, ndim) as a non-negative int (as given when `ndim` is None: a
    tensor of unknown rank).

    Raises:
        InvalidArgumentError: the axis is out of range or not an integer.
    """
    if type(axis) is int:
        a = axis
    else:
        values = int_values(op_name, axis, "axis")
        if len(values) != 1 or np.ndim(getattr(axis, "_value", axis)) > 1:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: axis must be a scalar, got {axis!r}")
        (a,) = values
    if ndim is None:  # unknown rank: checked when it runs
        return a
    if not -ndim <= a < ndim:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: Expected axis in the range [{-ndim}, {ndim}), but got "
            f"{a} (input rank {ndim})")
    return a % ndim


def index_input(op_name: str, indices):
    """`indices` as an integer tensor.

    Raises:
        InvalidArgumentError: the indices are not int16, int32 or int64 (e.g. floats).
    """
    indices = as_input(indices)
    if indices._value.dtype not in _INDEX_DTYPES:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: indices must be int16, int32 or int64, got a "
            f"{indices.dtype.name} tensor of shape {list(indices.shape)}")
    return indices


def same_dtype_inputs(op_name: str, values) -> list:
    """A list of values as tensors of one dtype; Python values take the first tensor's dtype.

    Raises:
        InvalidArgumentError: two tensors have different dtypes.
    """
    values = list(values)
    first = next((v for v in values if isinstance(v, (Tensor, Variable))), None)
    dtype = None if first is None else first.dtype
    out = []
    for v in values:
        if isinstance(v, (Tensor, Variable)):
            if v.dtype is not dtype:
                raise errors.InvalidArgumentError(
                    None, op_name, f"{op_name}: all inputs must have one dtype, got "
                    f"{dtype.name} and {v.dtype.name}; cast them first.")
            out.append(v)
        else:
            out.append(convert_to_tensor(v, dtype=dtype))  # (a list holding tensors is packed)
            dtype = out[-1].dtype
    return out


def value_of(x):
    """The NumPy value of a Tensor or Variable; a raw array as is."""
    return getattr(x, "_value", x)


def dtype_of(x) -> np.dtype:
    """The NumPy dtype of a Tensor, Variable or raw array (a graph tensor's too)."""
    value = getattr(x, "_value", x)
    try:
        return value.dtype
    except AttributeError:
        return np.asarray(value).dtype


# -- the one sum reduction (Sum, Mean, SumToShape, softmax) ---------------------------------
# Below this many elements NumPy's own reduction over leading axes is as fast as the BLAS
# product (measured); a bias's gradient is usually that small.
LEADING_AXES_BLAS_MIN = 32768


@functools.lru_cache(maxsize=64)
def _ones(size: int, dtype) -> np.ndarray:
    return np.ones(size, dtype)


# Sums, means, matrix products and softmax of bfloat16 (ml_dtypes' type, char 'E') accumulate in
# float32 and round once at the end, as TF's kernels do: in NumPy's bfloat16 every partial sum
# would round (a sum of range(300) gives 45312, TF 44800).
ACCUMULATE_IN_FLOAT32 = frozenset("E")


def in_float32(kernel, *arrays, **attrs):
    """`kernel(*arrays, **attrs)` computed on float32 copies of `arrays` (of a dtype in
    `ACCUMULATE_IN_FLOAT32`), its result rounded once to their dtype."""
    dtype = arrays[0].dtype
    out = kernel(*[a.astype(np.float32) for a in arrays], **attrs)
    return out.astype(dtype)


def add_reduce(x, axis, keepdims):
    """np.add.reduce of `x` over `axis` in its own dtype. Over the last axis alone, or over
    leading axes (in whatever order they lie in memory), of a contiguous float32/float64
    array (a normalization's rows, a bias's gradient) the sum is one product with a vector
    of ones, which BLAS does several times faster than NumPy's reduction (row by row, or
    row after row)."""
    if axis is not None and x.dtype in _BLAS_FLOATS and x.size >= 4096:
        axes = sorted(a % x.ndim for a in axis)
        if axes == [x.ndim - 1] and x.shape[-1] <= 256 and x.flags.c_contiguous:
            total = x.reshape(-1, x.shape[-1]) @ _ones(x.shape[-1], x.dtype)
            return total.reshape(x.shape[:-1] + (1,) * keepdims)
        lead = len(axes)
        if axes == list(range(lead)) and lead < x.ndim and x.size >= LEADING_AXES_BLAS_MIN:
            rows = math.prod(x.shape[:lead])
            if not x.flags.c_contiguous:  # summed axes in memory order, if that is contiguous
                x = x.transpose(sorted(range(lead), key=lambda a: -x.strides[a]) +
                                list(range(lead, x.ndim)))
            if rows <= 65536 and x.flags.c_contiguous:
                total = _ones(rows, x.dtype) @ x.reshape(rows, -1)
                return total.reshape((1,) * lead * keepdims + x.shape[lead:])
    if x.dtype.char in ACCUMULATE_IN_FLOAT32:
        return in_float32(add_reduce, x, axis=axis, keepdims=keepdims)
    return np.add.reduce(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
