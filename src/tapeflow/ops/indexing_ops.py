"""Slicing, NumPy-style indexing, n-d gathers and scatters, masks and `where`.

Each op is one `define_op` row; its gradient rule lives in `indexing_grad.py`.
"""
from __future__ import annotations

import builtins
import numbers

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.graph_def import graph_def_form
from ..framework.graph_tensor import SymbolicValue
from ..framework.shape_inference import constant_shape, moved_elements
from ..framework.registry import BATCH, LINEAR, TRANSPARENT, Stacking, define_op
from ..framework.string_values import as_value
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from ..framework.tensor_shape import TensorShape
from .array_ops import expand_dims, reshape, squeeze, stack, tile, unstack
from .array_ops import shape as array_ops_shape
from .dispatch import add_dispatch_support
from .gather_ops import gather
from .op_util import (NO_ATTRS, as_input, binary_inputs, index_input, int_value, int_values,
                      normalize_axis)

newaxis = None
_py_slice = builtins.slice


# -- kernels ---------------------------------------------------------------------------------
def _slice(x, begin, size):
    return x[tuple(_py_slice(b, b + s) for b, s in zip(begin, size))]


def _strided_slice(x, index):
    return as_value(x[index])


def _strided_slice_grad(g, shape, index):
    out = np.zeros(shape, dtype=g.dtype)
    out[index] = g
    return out


class Bound:
    """In the index of a dynamic strided slice: the value of its bound input `position`."""

    __slots__ = ("position",)

    def __init__(self, position: int) -> None:
        self.position = position

    def __repr__(self) -> str:
        return f"Bound({self.position})"


def _resolved(spec: tuple, bounds) -> tuple:
    def value(part):
        return int(bounds[part.position]) if type(part) is Bound else part
    return tuple([_py_slice(value(s.start), value(s.stop), value(s.step))
                  if type(s) is _py_slice else value(s) for s in spec])


def _dynamic_strided_slice(x, *bounds, spec):
    if len(spec) == 1 and type(spec[0]) is Bound:  # x[t], as a loop reads its steps
        return as_value(x[int(bounds[spec[0].position])])
    return as_value(x[_resolved(spec, bounds)])


def _dynamic_strided_slice_grad(g, shape, *bounds, spec):
    out = np.zeros(tuple(int(d) for d in shape), dtype=g.dtype)
    out[_resolved(spec, bounds)] = g
    return out


def _nd_positions(op_name: str, indices, shape: tuple) -> tuple:
    """The last axis of `indices` as a tuple of index arrays into `shape`, range-checked."""
    depth = indices.shape[-1]
    if depth > len(shape):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: index innermost dimension length must be <= params rank; "
            f"saw: {depth} vs. {len(shape)}")
    limits = np.asarray(shape[:depth], dtype=np.int64)
    bad = (indices < 0) | (indices >= limits)
    if bad.any():
        where = tuple(np.argwhere(bad.any(axis=-1))[0])
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: indices{list(where)} = {indices[where].tolist()} does not "
            f"index into param shape {list(shape)}")
    return tuple(np.moveaxis(indices, -1, 0))


def _check_updates(op_name: str, indices, updates, shape: tuple) -> None:
    expected = indices.shape[:-1] + tuple(shape[indices.shape[-1]:])
    if updates.shape != expected:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: updates must have shape indices.shape[:-1] + "
            f"shape[indices.shape[-1]:] = {list(expected)}, got {list(updates.shape)}")


def _gather_nd(params, indices):
    return params[_nd_positions("GatherNd", indices, params.shape)]


def _unique(positions: tuple, shape: tuple) -> bool:
    """Whether no index tuple of `positions` (into `shape`) repeats."""
    flat = np.ravel_multi_index(positions, shape[:len(positions)])
    return np.unique(flat).size == flat.size


def _scatter_nd(indices, updates, shape):
    _check_updates("ScatterNd", indices, updates, shape)
    out = np.zeros(shape, dtype=updates.dtype)
    positions = _nd_positions("ScatterNd", indices, shape)
    if _unique(positions, shape):  # no index twice: a plain (much faster) assignment
        out[positions] = updates
    else:
        np.add.at(out, positions, updates)
    return out


def _tensor_scatter_update(tensor, indices, updates):
    _check_updates("TensorScatterUpdate", indices, updates, tensor.shape)
    out = tensor.copy()
    out[_nd_positions("TensorScatterUpdate", indices, tensor.shape)] = updates
    return out


def _tensor_scatter_combine(op_name: str, ufunc):
    def kernel(tensor, indices, updates):
        _check_updates(op_name, indices, updates, tensor.shape)
        out = tensor.copy()
        positions = _nd_positions(op_name, indices, tensor.shape)
        if _unique(positions, tensor.shape):  # no index twice: a plain (much faster) update
            out[positions] = ufunc(out[positions], updates)
        else:
            ufunc.at(out, positions, updates)
        return out
    return kernel


def _where(condition):
    return np.argwhere(condition).astype(np.int64)


def _select(condition, t, e):
    """TF 1's Select: no broadcasting; `condition` is a scalar, shaped as `t`, or a vector
    choosing whole rows of `t` and `e`."""
    def refuse(message):
        raise errors.InvalidArgumentError(None, "Select", f"Select: {message} (condition "
                                          f"{list(np.shape(condition))}, then "
                                          f"{list(np.shape(t))}, else {list(np.shape(e))})")
    if np.shape(t) != np.shape(e):
        refuse("'then' and 'else' must have the same shape")
    if np.ndim(condition) == 1 and np.ndim(t) != 1:
        if np.ndim(t) == 0:
            refuse("'then' must be at least a vector when 'condition' is a vector")
        if len(condition) != len(t):
            refuse("the rows of 'then' must match the size of 'condition'")
        condition = np.reshape(condition, (-1,) + (1,) * (np.ndim(t) - 1))
    elif np.ndim(condition) != 0 and np.shape(condition) != np.shape(t):
        refuse("'condition' must be a scalar, a vector of rows, or shaped as 'then'")
    return np.where(condition, t, e)


Slice = define_op("Slice", _slice, family=LINEAR,
                  batching=Stacking(leading={"begin": 0, "size": BATCH}))
StridedSlice = define_op("StridedSlice", _strided_slice, family=LINEAR,
                         batching=Stacking(leading={"index": slice(None)}))
StridedSlice.value_fn = moved_elements(_strided_slice)
StridedSliceGrad = define_op("StridedSliceGrad", _strided_slice_grad, family=LINEAR,
                             batching=Stacking(leading={"index": slice(None), "shape": BATCH}))
# Slices whose bounds are scalar integer tensors known only when the graph runs (`xs[t]` in
# a while_loop); the index is rebuilt from them on each run.
DynamicStridedSlice = define_op("DynamicStridedSlice", _dynamic_strided_slice, family=LINEAR)
DynamicStridedSliceGrad = define_op("DynamicStridedSliceGrad", _dynamic_strided_slice_grad,
                                    family=LINEAR)


def _strided_slice_spec(op) -> dict:
    """A NumPy index (ints, slices, Ellipsis, None) as TF's begin/end/strides and masks."""
    begin, end, strides = [], [], []
    masks = dict.fromkeys(("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                           "shrink_axis_mask"), 0)
    index = op.attrs["index"]
    for i, item in enumerate(index if isinstance(index, tuple) else (index,)):
        bit = 1 << i
        if item is Ellipsis:
            masks["ellipsis_mask"] |= bit
            item = (0, 0, 1)
        elif item is None:
            masks["new_axis_mask"] |= bit
            item = (0, 0, 1)
        elif isinstance(item, _py_slice):
            if item.start is None:
                masks["begin_mask"] |= bit
            if item.stop is None:
                masks["end_mask"] |= bit
            item = (item.start or 0, item.stop or 0, 1 if item.step is None else item.step)
        else:
            masks["shrink_axis_mask"] |= bit
            item = (int(item), int(item) + 1, 1)
        begin.append(int(item[0]))
        end.append(int(item[1]))
        strides.append(int(item[2]))
    return {"begin": begin, "end": end, "strides": strides, **masks}


# As GraphDef nodes: TF takes the bounds as inputs (and a strided slice's index as bounds,
# strides and masks).
graph_def_form("Slice", inputs={"begin": "begin", "size": "size"})
graph_def_form("StridedSlice", inputs={k: (lambda op, k=k: _strided_slice_spec(op)[k])
                                       for k in ("begin", "end", "strides")},
               attrs={k: (lambda op, k=k: _strided_slice_spec(op)[k])
                      for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                "shrink_axis_mask")}, drop=("index",))



def _dynamic_strided_slice_dims(inputs, attrs) -> list:
    """The static shape of a DynamicStridedSlice: a slice with a run-time bound has an
    unknown length; the others are as NumPy's."""
    x = inputs[0]
    dims = x._dims
    spec = attrs["spec"]
    if dims is None:
        return [(x._value.dtype, None)]
    used = sum(1 for s in spec if s is not None and s is not Ellipsis)
    out, dim = [], 0
    for s in spec:
        if s is Ellipsis:
            out.extend(dims[dim:dim + len(dims) - used])
            dim += len(dims) - used
        elif s is None:
            out.append(1)
        elif type(s) is _py_slice:
            d = dims[dim]
            static = d is not None and not any(type(p) is Bound for p in (s.start, s.stop, s.step))
            out.append(len(range(*s.indices(d))) if static else None)
            dim += 1
        else:
            dim += 1
    return [(x._value.dtype, tuple(out) + tuple(dims[dim:]))]


DynamicStridedSlice.shape_fn = _dynamic_strided_slice_dims
# The shape of the sliced input, as far as the graph knows it.
DynamicStridedSliceGrad.shape_fn = lambda inputs, attrs: [
    (inputs[0]._value.dtype, constant_shape(inputs[1]))]
GatherNd = define_op("GatherNd", _gather_nd, family=LINEAR)
ScatterNd = define_op("ScatterNd", _scatter_nd, family=LINEAR)
TensorScatterUpdate = define_op("TensorScatterUpdate", _tensor_scatter_update, family=LINEAR)
TensorScatterAdd = define_op("TensorScatterAdd",
                             _tensor_scatter_combine("TensorScatterAdd", np.add), family=LINEAR)
TensorScatterSub = define_op("TensorScatterSub",
                             _tensor_scatter_combine("TensorScatterSub", np.subtract),
                             family=LINEAR)
TensorScatterMax = define_op("TensorScatterMax",
                             _tensor_scatter_combine("TensorScatterMax", np.maximum))
TensorScatterMin = define_op("TensorScatterMin",
                             _tensor_scatter_combine("TensorScatterMin", np.minimum))
Where = define_op("Where", _where)
SelectV2 = define_op("SelectV2", np.where, family=LINEAR, batching=TRANSPARENT)
Select = define_op("Select", _select, family=LINEAR)


# -- slicing ---------------------------------------------------------------------------------
def slice(input_, begin, size, name=None) -> Tensor:  # noqa: A001  (TF's public name)
    """The block of `input_` starting at `begin` with extent `size` (-1: to the end).

    Raises:
        InvalidArgumentError: `begin`/`size` do not have one entry per dimension, or the block
            does not fit in the input.

    Example:
        >>> import tapeflow as tf
        >>> tf.slice(tf.constant([[1, 2, 3], [4, 5, 6]]), [0, 1], [2, -1]).numpy()
        array([[2, 3],
               [5, 6]], dtype=int32)
    """
    x = as_input(input_)
    shape = x.shape.as_list()
    begin = int_values("Slice", begin, "begin")
    size = int_values("Slice", size, "size")
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise errors.InvalidArgumentError(
            None, "Slice", f"Slice: Expected begin and size arguments to be 1-D tensors of size "
            f"{x.ndim}, but got {len(begin)} and {len(size)} entries")
    size = [d - b if s == -1 else s for b, s, d in zip(begin, size, shape)]
    for i, (b, s, d) in enumerate(zip(begin, size, shape)):
        if not 0 <= b <= d or not 0 <= s <= d - b:
            raise errors.InvalidArgumentError(
                None, "Slice", f"Slice: Expected begin[{i}] in [0, {d}] and size[{i}] in "
                f"[0, {d - b}], but got {b} and {s} (input shape {shape})")
    return execute(Slice, (x,), {"begin": tuple(begin), "size": tuple(size)})


def _checked_index(shape: list, spec: list) -> tuple:
    """A NumPy basic index from `spec` (slices, ints, Ellipsis, None), validated as TF does."""
    if shape is None:  # unknown rank: checked when the graph runs
        return tuple(spec)
    ellipses = sum(1 for s in spec if s is Ellipsis)
    if ellipses > 1:
        raise errors.InvalidArgumentError(
            None, "StridedSlice", "StridedSlice: Multiple ellipses in slice spec not allowed")
    used = sum(1 for s in spec if s is not None and s is not Ellipsis)
    if used > len(shape):
        raise errors.InvalidArgumentError(
            None, "StridedSlice", f"StridedSlice: Index out of range using input dim {used - 1}; "
            f"input has only {len(shape)} dims (shape {shape})")
    dim = 0
    for s in spec:
        if s is Ellipsis:
            dim += len(shape) - used
        elif s is None:
            continue
        elif type(s) is int or type(s) is Bound:
            if type(s) is int and shape[dim] is not None and not -shape[dim] <= s < shape[dim]:
                raise errors.InvalidArgumentError(
                    None, "StridedSlice", f"StridedSlice: slice index {s} of dimension {dim} out "
                    f"of bounds (shape {shape})")
            dim += 1
        else:
            if s.step == 0:
                raise errors.InvalidArgumentError(
                    None, "StridedSlice", f"StridedSlice: strides[{dim}] must be non-zero")
            dim += 1
    return tuple(spec)


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None) -> Tensor:
    """Generalised Python slicing: entry i of `begin`/`end`/`strides` with the i-th bit of
    each mask is `begin[i]:end[i]:strides[i]`, `:` (begin/end mask), `...`, `tf.newaxis`,
    or the single index `begin[i]` (shrink mask).

    Raises:
        InvalidArgumentError: a zero stride, an index out of bounds, several ellipses, or
            more indices than dimensions.

    Example:
        >>> import tapeflow as tf
        >>> t = tf.constant([[1, 2, 3], [4, 5, 6]])
        >>> tf.strided_slice(t, [1, -1], [2, 0], [1, -1], end_mask=2, shrink_axis_mask=1).numpy()
        array([6, 5, 4], dtype=int32)
    """
    x = as_input(input_)
    begin = int_values("StridedSlice", begin, "begin")
    end = int_values("StridedSlice", end, "end")
    strides = ([1] * len(begin) if strides is None
               else int_values("StridedSlice", strides, "strides"))
    if not len(begin) == len(end) == len(strides):
        raise errors.InvalidArgumentError(
            None, "StridedSlice", f"StridedSlice: begin, end and strides must have one length, "
            f"got {len(begin)}, {len(end)} and {len(strides)}")
    spec = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            spec.append(Ellipsis)
        elif new_axis_mask & bit:
            spec.append(None)
        elif shrink_axis_mask & bit:
            spec.append(b)
        else:
            spec.append(_py_slice(None if begin_mask & bit else b,
                                  None if end_mask & bit else e, s))
    return execute(StridedSlice, (x,), {"index": _checked_index(x.shape.as_list(), spec)})


_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                     "scalar tf.int32/tf.int64 tensors are valid indices")


def _index_value(idx, bounds: list):
    """A Python int from an int, a NumPy integer or a scalar integer tensor; a scalar integer
    tensor known only when the graph runs is appended to `bounds` and stands as a Bound.

    Raises:
        TypeError: anything else.
    """
    if isinstance(idx, numbers.Integral):
        return int(idx)
    dtype = getattr(idx, "dtype", None)
    if isinstance(idx, (Tensor, Variable)):
        ok = dtype in (dtypes.int16, dtypes.int32, dtypes.int64) and idx.ndim == 0
    else:
        ok = dtype is not None and np.dtype(dtype).kind in "iu" and np.ndim(idx) == 0
    if not ok:
        raise TypeError(f"{_SLICE_TYPE_ERROR}, got {idx!r}")
    value = getattr(idx, "_value", idx)
    if isinstance(value, SymbolicValue):
        bounds.append(idx)
        return Bound(len(bounds) - 1)
    return int(value)


def _bound(value, bounds: list):
    return value if value is None or type(value) is int else _index_value(value, bounds)


def _getitem(tensor, slice_spec):
    """`tensor[slice_spec]` with TF's rules: basic indexing (ints, slices with any step,
    `...`, `tf.newaxis`, scalar integer tensors); a whole-spec boolean mask calls
    `tf.boolean_mask`. Lists and tuples are index tuples; other arrays are TypeError."""
    if isinstance(slice_spec, builtins.bool) or getattr(slice_spec, "dtype", None) is dtypes.bool \
            or (isinstance(slice_spec, np.ndarray) and slice_spec.dtype == np.bool_):
        return boolean_mask(tensor, slice_spec)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = (slice_spec,)
    spec, bounds = [], []
    for s in slice_spec:
        if type(s) is int or s is None or s is Ellipsis:
            spec.append(s)
        elif type(s) is _py_slice:
            spec.append(_py_slice(_bound(s.start, bounds), _bound(s.stop, bounds),
                                  _bound(s.step, bounds)))
        else:
            spec.append(_index_value(s, bounds))
    dims = tensor._value.dims if isinstance(tensor._value, SymbolicValue) else tensor._value.shape
    index = _checked_index(None if dims is None else list(dims), spec)
    if bounds:
        return execute(DynamicStridedSlice, (tensor, *bounds), {"spec": index})
    return execute(StridedSlice, (tensor,), {"index": index})


# -- gathers and scatters --------------------------------------------------------------------
@add_dispatch_support
def gather_nd(params, indices, batch_dims=0, name=None) -> Tensor:
    """Gathers elements or slices of `params` at the index tuples on the last axis of `indices`.

    The result has shape `indices.shape[:-1] + params.shape[indices.shape[-1]:]` (after
    `batch_dims` leading batch dimensions shared by both). The gradient is dense.

    Raises:
        InvalidArgumentError: an index tuple is out of range or not integers, or the tuples
            are longer than `params` has dimensions.

    Example:
        >>> import tapeflow as tf
        >>> tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[1, 0], [0, 1]]).numpy()
        array([3, 2], dtype=int32)
    """
    params = as_input(params)
    indices = index_input("GatherNd", indices)
    b = int(batch_dims)
    if b:
        if params.shape[:b] != indices.shape[:b] or indices.ndim <= b:
            raise errors.InvalidArgumentError(
                None, "GatherNd", f"GatherNd: the first {b} dimensions of params "
                f"{params.shape.as_list()} and indices {indices.shape.as_list()} must be equal")
        # Prefix each index tuple with its batch position and gather from params directly.
        grid = np.indices(indices.shape[:-1], dtype=indices.dtype._np)[:b]
        prefix = np.moveaxis(grid, 0, -1)
        indices = Tensor(np.concatenate([prefix, indices._value], axis=-1))
    if indices.ndim == 0:
        raise errors.InvalidArgumentError(
            None, "GatherNd", "GatherNd: indices must be at least a vector")
    return execute(GatherNd, (params, indices), NO_ATTRS)


def scatter_nd(indices, updates, shape, name=None) -> Tensor:
    """A zero tensor of `shape` with `updates` added at the index tuples in `indices`.

    Repeated indices add up. The gradient with respect to `updates` gathers the upstream
    gradient at `indices`.

    Raises:
        InvalidArgumentError: an index is out of range or not an integer, or `updates` does
            not have shape `indices.shape[:-1] + shape[indices.shape[-1]:]`.

    Example:
        >>> import tapeflow as tf
        >>> tf.scatter_nd([[1], [3], [1]], tf.constant([1.0, 2.0, 3.0]), [5]).numpy()
        array([0., 4., 0., 2., 0.], dtype=float32)
    """
    indices = index_input("ScatterNd", indices)
    dims = tuple(int_values("ScatterNd", shape, "shape"))
    return execute(ScatterNd, (indices, as_input(updates)), {"shape": dims})


def _tensor_scatter(op, tensor, indices, updates) -> Tensor:
    tensor, updates = binary_inputs(op.name, tensor, updates)
    return execute(op, (tensor, index_input(op.name, indices), updates), NO_ATTRS)


def tensor_scatter_nd_update(tensor, indices, updates, name=None) -> Tensor:
    """A copy of `tensor` with the slices at `indices` replaced by `updates`.

    Raises:
        InvalidArgumentError: indices out of range or not integers, mismatched shapes, or
            different dtypes of `tensor` and `updates`.

    Example:
        >>> import tapeflow as tf
        >>> tf.tensor_scatter_nd_update(tf.zeros([4]), [[2]], [7.0]).numpy()
        array([0., 0., 7., 0.], dtype=float32)
    """
    return _tensor_scatter(TensorScatterUpdate, tensor, indices, updates)


def tensor_scatter_nd_add(tensor, indices, updates, name=None) -> Tensor:
    """A copy of `tensor` with `updates` added at `indices` (repeated indices add up).

    Raises:
        InvalidArgumentError: as `tensor_scatter_nd_update`.

    Example:
        >>> import tapeflow as tf
        >>> tf.tensor_scatter_nd_add(tf.ones([3]), [[0], [0]], [1.0, 2.0]).numpy()
        array([4., 1., 1.], dtype=float32)
    """
    return _tensor_scatter(TensorScatterAdd, tensor, indices, updates)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None) -> Tensor:
    """A copy of `tensor` with `updates` subtracted at `indices` (repeated indices add up).

    Raises:
        InvalidArgumentError: as `tensor_scatter_nd_update`.

    Example:
        >>> import tapeflow as tf
        >>> tf.tensor_scatter_nd_sub(tf.ones([3]), [[0], [0]], [1.0, 2.0]).numpy()
        array([-2.,  1.,  1.], dtype=float32)
    """
    return _tensor_scatter(TensorScatterSub, tensor, indices, updates)


def tensor_scatter_nd_max(tensor, indices, updates, name=None) -> Tensor:
    """A copy of `tensor` where each slice at `indices` is the largest of itself and its
    updates. At ties the gradient is shared equally among the tied values.

    Raises:
        InvalidArgumentError: as `tensor_scatter_nd_update`.

    Example:
        >>> import tapeflow as tf
        >>> tf.tensor_scatter_nd_max(tf.ones([3]), [[0], [2]], [4.0, -1.0]).numpy()
        array([4., 1., 1.], dtype=float32)
    """
    return _tensor_scatter(TensorScatterMax, tensor, indices, updates)


def tensor_scatter_nd_min(tensor, indices, updates, name=None) -> Tensor:
    """A copy of `tensor` where each slice at `indices` is the smallest of itself and its
    updates. At ties the gradient is shared equally among the tied values.

    Raises:
        InvalidArgumentError: as `tensor_scatter_nd_update`.

    Example:
        >>> import tapeflow as tf
        >>> tf.tensor_scatter_nd_min(tf.ones([3]), [[0], [2]], [4.0, -1.0]).numpy()
        array([ 1.,  1., -1.], dtype=float32)
    """
    return _tensor_scatter(TensorScatterMin, tensor, indices, updates)


# -- masks and where -------------------------------------------------------------------------
@add_dispatch_support
def where(condition, x=None, y=None, name=None) -> Tensor:
    """With one argument, the coordinates of the true (non-zero) elements as an int64
    `[n, rank]` tensor; with three, `x` where `condition` holds, else `y` (broadcasting).

    As in TF, the unselected branch still receives zero times its local gradient, so a nan
    or inf there shows in the gradient: make that branch's input safe instead.

    Raises:
        ValueError: only one of `x` and `y` is given.
        InvalidArgumentError: `condition` is not bool, `x` and `y` differ in dtype, or the
            shapes do not broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.where([True, False, True]).numpy()
        array([[0],
               [2]])
        >>> tf.where([True, False], 1.0, 0.0).numpy()
        array([1., 0.], dtype=float32)
    """
    if x is None and y is None:
        return execute(Where, (as_input(condition),), NO_ATTRS)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return _run_select(SelectV2, condition, x, y)


def _run_select(op, condition, x, y) -> Tensor:
    """`op` (SelectV2 or TF 1's Select) of a bool `condition` and `x`, `y` of one dtype."""
    condition = as_input(condition)
    if not condition.dtype.is_bool:
        raise errors.InvalidArgumentError(
            None, op.name, f"{op.name}: condition must be a bool tensor, got "
            f"{condition.dtype.name}")
    x, y = binary_inputs(op.name, x, y)
    return execute(op, (condition, x, y), NO_ATTRS)


def where_v1(condition, x=None, y=None, name=None) -> Tensor:
    """TF 1's `where` (`tf.compat.v1.where`): with one argument, as `where`; with three,
    `x` where `condition` holds, else `y`, without broadcasting: `x` and `y` have one shape,
    and `condition` is a scalar, of that shape, or a vector selecting whole rows.

    Raises:
        ValueError: only one of `x` and `y` is given.
        InvalidArgumentError: `condition` is not bool, `x` and `y` differ in dtype or
            shape, or `condition`'s shape is none of the above.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> tf.compat.v1.where([True, False], x, -x).numpy()
        array([[ 1.,  2.],
               [-3., -4.]], dtype=float32)
    """
    if x is None or y is None:
        return where(condition, x, y, name)
    return _run_select(Select, condition, x, y)


@add_dispatch_support
def boolean_mask(tensor, mask, axis=None, name="boolean_mask") -> Tensor:
    """The elements (or slices) of `tensor` where `mask` is true, flattened along the mask.

    `mask` (rank k >= 1) must match `tensor.shape[axis:axis + k]`; the result has shape
    `tensor.shape[:axis] + [count] + tensor.shape[axis + k:]`. Equivalent to
    `tensor[mask]` in NumPy.

    Raises:
        ValueError: `mask` is a scalar or its shape does not match.

    Example:
        >>> import tapeflow as tf
        >>> tf.boolean_mask(tf.constant([[1, 2], [3, 4], [5, 6]]), [True, False, True]).numpy()
        array([[1, 2],
               [5, 6]], dtype=int32)
    """
    tensor, mask = as_input(tensor), as_input(mask)
    k = mask.ndim
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    a = 0 if axis is None else int_value("boolean_mask", axis, "axis")
    a = a + tensor.ndim if a < 0 else a
    shape = tensor.shape.as_list()
    if not 0 <= a <= tensor.ndim - k or \
            not TensorShape(shape[a:a + k]).is_compatible_with(mask.shape):
        raise ValueError(f"boolean_mask: Shapes {shape[a:a + k]} and {mask.shape.as_list()} are "
                         f"incompatible (tensor shape {shape}, mask shape "
                         f"{mask.shape.as_list()}, axis {a})")
    if None in shape:  # (in a graph) the sizes it does not know, when it runs
        sizes = unstack(array_ops_shape(tensor), num=len(shape))
        shape = [d if d is not None else sizes[i] for i, d in enumerate(shape)]
        flat = reshape(tensor, stack(shape[:a] + [-1] + shape[a + k:]))
    else:
        flat = reshape(tensor, shape[:a] + [int(np.prod(shape[a:a + k]))] + shape[a + k:])
    picks = squeeze(where(reshape(mask, [-1])), axis=[1])
    return gather(flat, picks, axis=a)


def repeat(input, repeats, axis=None, name=None) -> Tensor:  # noqa: A002
    """Repeats each element (or slice along `axis`) of `input` `repeats` times.

    Without `axis` the input is flattened first. `repeats` is one count or one per slice.

    Raises:
        InvalidArgumentError: a negative count, or a count list of the wrong length.

    Example:
        >>> import tapeflow as tf
        >>> tf.repeat(tf.constant([[1, 2], [3, 4]]), repeats=[1, 2], axis=0).numpy()
        array([[1, 2],
               [3, 4],
               [3, 4]], dtype=int32)
    """
    x = as_input(input)
    if axis is None:
        x, a = reshape(x, [-1]), 0
    else:
        a = normalize_axis("Repeat", axis, x.ndim)
    counts = int_values("Repeat", repeats, "repeats")
    n = x.shape[a]
    if any(c < 0 for c in counts) or len(counts) not in (1, n):
        raise errors.InvalidArgumentError(
            None, "Repeat", f"Repeat: repeats must be one non-negative count or one per element "
            f"along axis {a} (size {n}), got {counts}")
    widest = max(counts, default=0)
    # As TF: tile each slice to the largest count, then mask the extra copies away.
    tiled = tile(expand_dims(x, a + 1), [1] * (a + 1) + [widest] + [1] * (x.ndim - a - 1))
    if len(counts) == 1:
        return reshape(tiled, x.shape.as_list()[:a] + [n * widest] + x.shape.as_list()[a + 1:])
    keep = np.arange(widest) < np.asarray(counts)[:, None]
    return boolean_mask(tiled, Tensor(keep), axis=a)


def _install_getitem() -> None:
    Tensor.__getitem__ = _getitem
    Variable.__getitem__ = _getitem


_install_getitem()
