"""Ops that create tensors: zeros, ones, fill, eye, range, linspace, one_hot, meshgrid.

Gradient rules (Fill) and no-gradient declarations live in `array_grad.py`.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.context import state
from ..framework.execute import execute
from ..framework.graph_def import graph_def_form
from ..framework.registry import LINEAR, define_op
from ..framework.tensor import Tensor, constant, convert_to_tensor
from ..framework.variables import Variable
from .array_ops import broadcast_to, reshape
from .dispatch import add_dispatch_support
from .op_util import (as_input, binary_inputs, dims_values, dtype_of, index_input, int_value,
                      known_only_when_run, normalize_axis)


def _fill(value, dims):
    return np.full(dims, value, dtype=value.dtype)


def _zeros_like(x, dtype):
    if dtype.kind == "O":  # a string's zero is b""
        return np.full(x.shape, b"", dtype)
    return np.zeros_like(x, dtype=dtype)


def _ones_like(x, dtype):
    if dtype.kind == "O":
        raise TypeError("a string tensor has no ones")
    return np.ones_like(x, dtype=dtype)


def _one_hot(indices, on_value, off_value, depth, axis):
    hot = indices[..., None] == np.arange(depth, dtype=indices.dtype)
    out = np.where(hot, on_value, off_value)
    return out if axis == -1 else np.moveaxis(out, -1, axis)


def _range(start, limit, delta):
    if delta == 0:
        raise errors.InvalidArgumentError(None, "Range", f"Range: Requires delta != 0: {delta}")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise errors.InvalidArgumentError(
            None, "Range", f"Range: Requires start {'<=' if delta > 0 else '>='} limit when "
            f"delta {'>' if delta > 0 else '<'} 0: {start}/{limit}")
    return np.arange(start, limit, delta, dtype=start.dtype)


def _linspace(start, stop, num, axis):
    return np.linspace(start, stop, num, axis=axis, dtype=start.dtype)


Fill = define_op("Fill", _fill, family=LINEAR)
ZerosLike = define_op("ZerosLike", _zeros_like)
OnesLike = define_op("OnesLike", _ones_like)


def _same_dtype(op) -> str:
    if op.attrs.get("dtype") is not None and np.dtype(op.attrs["dtype"]) != np.dtype(
            op.inputs[0].dtype.as_numpy_dtype):
        raise errors.UnimplementedError(
            None, op.type, f"node {op.name!r}: TF's {op.type} gives its input's dtype, not "
            f"{np.dtype(op.attrs['dtype']).name}")
    return op.type


for _op in (ZerosLike, OnesLike):  # as GraphDef nodes: the dtype is the input's
    graph_def_form(_op.name, tf_type=_same_dtype, drop=("dtype",))
OneHot = define_op("OneHot", _one_hot)
Range = define_op("Range", _range)
LinSpace = define_op("LinSpace", _linspace)
# As GraphDef nodes: TF takes the dims of a fill and the depth of a one-hot as inputs.
graph_def_form("Fill", inputs={"dims": "dims"})
graph_def_form("OneHot", inputs={"depth": "depth"})



def zero_gradient(x):
    """Zeros like x (raw array or Tensor) from a gradient rule, as an op, so it needs no value
    while a graph is built: where TF's rule returns zeros_like rather than None, the
    gradient is connected and zero (relu's second order); also the zero half of a complex."""
    return ZerosLike(x, dtype=dtype_of(x))


def _constant(value: np.ndarray, name) -> Tensor:
    """`value` as a Tensor, or as a Const node named `name` while a graph is built."""
    graph = state.graph
    return Tensor(value) if graph is None else graph.constant(value, name=name)


def zeros(shape, dtype=dtypes.float32, name=None, layout=None) -> Tensor:
    """A tensor of `shape` filled with zeros.

    Raises:
        InvalidArgumentError: a negative or non-integer dimension.
        ResourceExhaustedError: the tensor does not fit in memory.

    Example:
        >>> import tapeflow as tf
        >>> tf.zeros([2, 3], tf.int32).numpy()
        array([[0, 0, 0],
               [0, 0, 0]], dtype=int32)
    """
    return _filled(shape, 0, dtype, name)


def ones(shape, dtype=dtypes.float32, name=None, layout=None) -> Tensor:
    """A tensor of `shape` filled with ones.

    Raises:
        InvalidArgumentError: a negative or non-integer dimension.
        ResourceExhaustedError: the tensor does not fit in memory.

    Example:
        >>> import tapeflow as tf
        >>> tf.ones([2]).numpy()
        array([1., 1.], dtype=float32)
    """
    return _filled(shape, 1, dtype, name)


def _filled(shape, value, dtype, name) -> Tensor:
    """A constant of `shape` full of `value`, or a fill op when the graph computes the
    shape; an allocation too large is TF's ResourceExhaustedError."""
    dtype = dtypes.as_dtype(dtype)
    np_dtype = dtype._np
    if dtype is dtypes.string:  # a string's zero is b""; 1 is no string (TF's TypeError)
        if value != 0:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype string")
        value = b""
    if known_only_when_run(shape):
        return fill(shape, np.asarray(value, np_dtype))
    dims = dims_values("Fill", shape)
    try:
        array = np.full(dims, value, np_dtype)
    except MemoryError as e:
        raise errors.out_of_memory("Fill", e) from None
    return _constant(array, name)


def _like(op, input, dtype, value, name):  # noqa: A002
    """`op` on `input`; while a graph is built and `input`'s shape is fully known, a
    constant of that shape full of `value` instead, as in TF: it does not depend on
    `input`, so a function's input placeholder does not reach it (a variable's initial
    value computed from it can be lifted out of the function)."""
    x = as_input(input)
    target = x.dtype if dtype is None else dtypes.as_dtype(dtype)
    if state.graph is not None and x.shape.is_fully_defined() and target != dtypes.variant:
        return _filled(x.shape.as_list(), value, target, name)
    return execute(op, (x,), {"dtype": target._np})


@add_dispatch_support(elementwise=1)
def zeros_like(input, dtype=None, name=None, layout=None) -> Tensor:  # noqa: A002
    """Zeros with the shape (and, unless `dtype` is given, the dtype) of `input`.

    Not differentiable: the gradient with respect to `input` is None.

    Example:
        >>> import tapeflow as tf
        >>> tf.zeros_like(tf.constant([[1, 2]])).numpy()
        array([[0, 0]], dtype=int32)
    """
    return _like(ZerosLike, input, dtype, 0, name)


@add_dispatch_support(elementwise=1)
def ones_like(input, dtype=None, name=None, layout=None) -> Tensor:  # noqa: A002
    """Ones with the shape (and, unless `dtype` is given, the dtype) of `input`.

    Not differentiable: the gradient with respect to `input` is None.

    Example:
        >>> import tapeflow as tf
        >>> tf.ones_like(tf.constant([1.5, 2.5])).numpy()
        array([1., 1.], dtype=float32)
    """
    return _like(OnesLike, input, dtype, 1, name)


def fill(dims, value, name=None, layout=None) -> Tensor:
    """A tensor of shape `dims` filled with the scalar `value` (whose dtype it takes).

    The gradient with respect to `value` is the sum of the upstream gradient.

    Raises:
        InvalidArgumentError: `value` is not a scalar, or a dimension is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.fill([2, 2], 9).numpy()
        array([[9, 9],
               [9, 9]], dtype=int32)
    """
    v = as_input(value)
    if v.ndim:
        raise errors.InvalidArgumentError(
            None, "Fill", f"Fill: value must be a scalar, got shape {v.shape.as_list()}")
    if known_only_when_run(dims):
        return broadcast_to(v, dims)
    return execute(Fill, (v,), {"dims": dims_values("Fill", dims)})



def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None) -> Tensor:
    """An identity matrix (ones on the diagonal), optionally repeated over `batch_shape`.

    Raises:
        InvalidArgumentError: a size that is negative or not an integer.
        ResourceExhaustedError: the matrix does not fit in memory.

    Example:
        >>> import tapeflow as tf
        >>> tf.eye(2, 3, dtype=tf.int32).numpy()
        array([[1, 0, 0],
               [0, 1, 0]], dtype=int32)
    """
    if known_only_when_run([num_rows, num_columns, batch_shape]):
        return _eye_computed(num_rows, num_columns, batch_shape, dtypes.as_dtype(dtype))
    rows = int_value("Eye", num_rows, "num_rows")
    cols = rows if num_columns is None else int_value("Eye", num_columns, "num_columns")
    dims_values("Eye", [rows, cols])  # InvalidArgumentError for a negative size
    batch = () if batch_shape is None else dims_values("Eye", batch_shape)
    try:
        matrix = np.eye(rows, cols, dtype=dtypes.as_dtype(dtype)._np)
        return _constant(np.array(np.broadcast_to(matrix, batch + matrix.shape)), name)
    except (MemoryError, ValueError) as e:  # NumPy's ValueError: "array is too big"
        raise errors.out_of_memory("Eye", e) from None


def _eye_computed(num_rows, num_columns, batch_shape, dtype) -> Tensor:
    """An identity matrix of sizes a graph computes: row index == column index."""
    from .array_ops import concat, expand_dims, shape
    from .comparison_ops import equal
    from .math_ops import cast

    rows = range(num_rows)
    cols = rows if num_columns is None else range(num_columns)
    matrix = cast(equal(expand_dims(rows, 1), expand_dims(cols, 0)), dtype)
    if batch_shape is None:
        return matrix
    return broadcast_to(matrix, concat([batch_shape, shape(matrix)], 0))


_RANGE_ORDER = (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64)


def range(start, limit=None, delta=1, dtype=None, name="range") -> Tensor:  # noqa: A001
    """The numbers from `start` up to (not including) `limit` in steps of `delta`.

    `range(n)` counts from 0. Without `dtype`, the widest of the arguments' types wins, as in
    TF: Python ints give int32, any Python float gives float32. Not differentiable.

    Raises:
        InvalidArgumentError: `delta` is 0, or its sign points away from `limit`.

    Example:
        >>> import tapeflow as tf
        >>> tf.range(5).numpy()
        array([0, 1, 2, 3, 4], dtype=int32)
        >>> tf.range(1, 2, 0.25).numpy()
        array([1.  , 1.25, 1.5 , 1.75], dtype=float32)
    """
    if limit is None:
        start, limit = 0, start
    target = None if dtype is None else dtypes.as_dtype(dtype)
    args = [x if isinstance(x, (Tensor, Variable)) else constant(x, dtype=target)
            for x in (start, limit, delta)]
    for x in args:
        if x.ndim or x.dtype not in _RANGE_ORDER:
            raise errors.InvalidArgumentError(
                None, "Range", f"Range: start, limit and delta must be int or float scalars, "
                f"got a {x.dtype.name} tensor of shape {x.shape.as_list()}")
    if target is None:
        target = max((x.dtype for x in args), key=_RANGE_ORDER.index)
    args = [Tensor(x._value.astype(target._np)) if x.dtype is not target else x for x in args]
    return execute(Range, tuple(args), {})


def linspace(start, stop, num, name=None, axis=0) -> Tensor:
    """`num` evenly spaced values from `start` to `stop`, both included.

    `start` and `stop` may be tensors of one shape (the values then run along `axis`).
    Integer inputs give float64, as in TF. Differentiable in `start` and `stop`.

    Raises:
        InvalidArgumentError: `num` is negative, `axis` is out of range, or the shapes of
            `start` and `stop` do not broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.linspace(0.0, 1.0, 5).numpy()
        array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float32)
    """
    start, stop = binary_inputs("LinSpace", start, stop)
    if not start.dtype.is_floating:
        start, stop = (Tensor(x._value.astype(np.float64)) for x in (start, stop))
    count = int_value("LinSpace", num, "num")
    if count < 0:
        raise errors.InvalidArgumentError(
            None, "LinSpace", f"LinSpace: Requires num >= 0, got {count}")
    try:
        ndim = len(np.broadcast_shapes(start._value.shape, stop._value.shape)) + 1
    except ValueError:
        raise errors.invalid_argument(
            "LinSpace", f"Incompatible shapes: start {start.shape.as_list()} vs. stop "
            f"{stop.shape.as_list()}") from None
    a = normalize_axis("LinSpace", axis, ndim)
    return execute(LinSpace, (start, stop), {"num": count, "axis": a})


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None,
            name=None) -> Tensor:
    """A one-hot encoding: `on_value` where the new axis equals the index, else `off_value`.

    Indices outside [0, depth) give a row of `off_value`. The dtype is `dtype`, else that of
    `on_value`/`off_value`, else float32. Not differentiable.

    Args:
        indices: an integer tensor.
        depth: the length of the new axis.
        on_value, off_value: scalars (default 1 and 0).
        axis: where the new axis goes (default -1, last).
        dtype: the output dtype.

    Raises:
        TypeError: `on_value` and `off_value` (or `dtype`) disagree in dtype.
        InvalidArgumentError: non-integer indices, a negative `depth`, or `axis` out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.one_hot([0, 2], 3).numpy()
        array([[1., 0., 0.],
               [0., 0., 1.]], dtype=float32)
    """
    idx = index_input("OneHot", indices)
    target = None if dtype is None else dtypes.as_dtype(dtype)
    given = [None if v is None else convert_to_tensor(v, dtype_hint=target)
             for v in (on_value, off_value)]
    kinds = [v.dtype for v in given if v is not None]
    if target is None:
        target = kinds[0] if kinds else dtypes.float32
    if any(d is not target for d in kinds):
        raise TypeError(f"one_hot: the dtypes of on_value and off_value "
                        f"{[d.name for d in kinds]} must match each other and dtype "
                        f"{target.name}")
    on = Tensor(np.ones((), target._np)) if given[0] is None else given[0]
    off = Tensor(np.zeros((), target._np)) if given[1] is None else given[1]
    count = int_value("OneHot", depth, "depth")
    if count < 0:
        raise errors.invalid_argument("OneHot", f"depth must be non-negative, got: {count}")
    a = -1 if axis is None else int(axis)
    if a < -1 or (idx.ndim is not None and a > idx.ndim):  # (an unknown rank: when it runs)
        raise errors.InvalidArgumentError(
            None, "OneHot", f"OneHot: Expected axis to be -1 or between [0, {idx.ndim}], but "
            f"got {a}")
    return execute(OneHot, (idx, on, off), {"depth": count, "axis": a})


def meshgrid(*args, **kwargs) -> list:
    """Coordinate grids from 1-D tensors (`indexing='xy'`, Cartesian, or `'ij'`, matrix).

    With 'xy' the first two output dimensions are swapped, as in NumPy.

    Raises:
        ValueError: an unknown `indexing` or keyword.

    Example:
        >>> import tapeflow as tf
        >>> X, Y = tf.meshgrid([1, 2, 3], [4, 5])
        >>> X.numpy()
        array([[1, 2, 3],
               [1, 2, 3]], dtype=int32)
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid: unexpected keyword arguments {sorted(kwargs)}")
    if indexing not in ("xy", "ij"):
        raise ValueError("meshgrid: indexing parameter must be either 'xy' or 'ij'")
    vectors = [reshape(as_input(a), [-1]) for a in args]
    sizes = [v.shape[0] for v in vectors]
    ndim = len(vectors)
    if indexing == "xy" and ndim > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for i, v in enumerate(vectors):
        position = (1 - i if i < 2 else i) if indexing == "xy" and ndim > 1 else i
        shape = [1] * ndim
        shape[position] = v.shape[0]
        grids.append(broadcast_to(reshape(v, shape), sizes))
    return grids

