"""Shape and layout ops: kernels and the public TF-named functions.

Each op is one `define_op` row; its gradient rule lives in `array_grad.py`.
"""
from __future__ import annotations

import math
import numbers
import os

import numpy as np

from ..framework import dtypes, errors
from ..framework.context import state
from ..framework.execute import execute
from ..framework.graph_def import graph_def_form
from ..framework.registry import (IDENTITY, LINEAR, SHAPE_ONLY, STACKED, TRANSPARENT, Stacking,
                                  define_op)
from ..framework.shape_inference import (constant_shape, full_value, moved_elements,
                                         passed_through, shape_text)
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .complex_ops import conj
from .dispatch import add_dispatch_support, dispatch_or_raise
from .op_util import (NO_ATTRS, add_reduce, as_input, binary_inputs, int_value, int_values,
                      known_dims, normalize_axis, same_dtype_inputs)

# -- kernels ---------------------------------------------------------------------------------
try:
    _PHYSICAL_MEMORY = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
except (AttributeError, ValueError, OSError):  # no sysconf (Windows): views are never refused
    _PHYSICAL_MEMORY = math.inf


def _identity(x):
    return x


def _placeholder_with_default(x, shape):
    return x


def _prevent_gradient(x, message):
    return x


def _identity_n(*xs):
    return xs


def _transpose(x, perm):
    return np.transpose(x, perm)


def _reshape(x, shape):
    shape = shape if type(shape) is tuple else tuple(shape.tolist())
    if shape and min(shape) < 0:
        _check_wildcards(shape)
    return x.reshape(shape)


def _check_wildcards(shape: tuple) -> None:
    """A reshape's target may hold one -1 (the size that fits) and no other negative size."""
    unknown = [i for i, d in enumerate(shape) if d == -1]
    for i, d in enumerate(shape):
        if d < -1:
            raise errors.InvalidArgumentError(
                None, "Reshape", f"Size {i} must be non-negative, not {d} (Reshape to "
                f"{list(shape)})")
    if len(unknown) > 1:
        raise errors.InvalidArgumentError(
            None, "Reshape", f"Only one input size may be -1, not both {unknown[0]} and "
            f"{unknown[1]} (Reshape to {list(shape)})")


def _broadcast_to(x, shape):
    shape = shape if type(shape) is tuple else tuple(shape.tolist())
    if x.shape == shape:
        return x
    if math.prod(shape) < 16384:
        # For small results a filled copy is several times cheaper than np.broadcast_to.
        out = np.empty(shape, x.dtype)
        out[...] = x
        return out
    if math.prod(shape) * x.itemsize > _PHYSICAL_MEMORY:  # TF allocates the result
        raise _TooLarge(shape, x.dtype)
    return np.broadcast_to(x, shape)


class _TooLarge(MemoryError):
    """A result larger than this machine's memory, which a broadcast view would hide."""

    def __init__(self, shape: tuple, dtype) -> None:
        super().__init__(f"{shape} of {dtype}")
        self.shape, self.dtype = shape, dtype


def _concat(*values, axis):
    return np.concatenate(values, axis=axis)


def _split(x, indices, axis):
    return tuple(np.split(x, indices, axis=axis))


def _pack(*values, axis):
    return np.stack(values, axis=axis)


def _unpack(x, axis, num=None):
    moved = np.moveaxis(x, axis, 0)
    return tuple(moved[i, ...] for i in range(len(moved))) if x.dtype.kind == "O" \
        else tuple(moved)


def _unpack_outputs(inputs, attrs):
    """`num` outputs when the op is given their count (a graph may not know the size of
    the axis); probed otherwise."""
    num, dims, axis = attrs.get("num"), inputs[0]._dims, attrs["axis"]
    if num is None:
        return None
    rest = None if dims is None else dims[:axis % len(dims)] + dims[axis % len(dims) + 1:]
    return [(inputs[0]._value.dtype, rest)] * num


def _pad(x, paddings, constant_values):
    if x.dtype.kind == "O":  # np.pad would turn a bytes fill into NumPy's fixed-width type
        out = np.full([d + a + b for d, (a, b) in zip(x.shape, paddings)], constant_values,
                      x.dtype)
        out[tuple(slice(a, a + d) for d, (a, _) in zip(x.shape, paddings))] = x
        return out
    return np.pad(x, paddings, mode="constant", constant_values=constant_values)


def _mirror_pad(x, paddings, mode):
    return np.pad(x, paddings, mode=mode.lower())


def _mirror_pad_grad(g, paddings, mode):
    """Folds the mirrored borders of `g` back onto the elements they copy."""
    offset = 1 if mode == "REFLECT" else 0
    for axis, (before, after) in enumerate(paddings):
        if not before and not after:
            continue
        moved = np.moveaxis(g, axis, 0)
        n = moved.shape[0] - before - after
        core = moved[before:before + n].copy()
        if before:
            core[offset:offset + before] += moved[:before][::-1]
        if after:
            core[n - offset - after:n - offset] += moved[before + n:][::-1]
        g = np.moveaxis(core, 0, axis)
    return g


def _shape(x, out_type):
    return np.array(x.shape, dtype=out_type)


def _size(x, out_type):
    return np.array(x.size, dtype=out_type)


def _rank(x):
    return np.array(x.ndim, dtype=np.int32)


def _ensure_shape(x, shape):
    if len(x.shape) != len(shape) or any(d is not None and d != e
                                         for d, e in zip(shape, x.shape)):
        raise errors.InvalidArgumentError(
            None, "EnsureShape", f"Shape of tensor {list(x.shape)} is not compatible with "
            f"expected shape {shape_text(shape)}.")
    return x


Identity = define_op("Identity", _identity, family=IDENTITY)
Identity.value_fn = passed_through
# TF registers no gradient for GuaranteeConst: differentiating through it is a LookupError.
GuaranteeConst = define_op("GuaranteeConst", _identity, family=IDENTITY)
# An identity whose gradient is a LookupError (TF's prevent_gradient): what a rule wraps a
# value in when differentiating it further is not supported.
PreventGradient = define_op("PreventGradient", _prevent_gradient, family=IDENTITY)
# An identity that checks the shape when it runs (a compiled plan must run it).
EnsureShape = define_op("EnsureShape", _ensure_shape, family=LINEAR, batching=TRANSPARENT)
EnsureShape.shape_fn = lambda inputs, attrs: [(inputs[0]._value.dtype, tuple(
    d if d is not None else e for d, e in zip(attrs["shape"], inputs[0]._dims))
    if inputs[0]._dims is not None else attrs["shape"])]
IdentityN = define_op("IdentityN", _identity_n, num_outputs=None, family=LINEAR,
                      batching=TRANSPARENT)
ReadVariableOp = define_op("ReadVariableOp", _identity, batching=TRANSPARENT)
PlaceholderWithDefault = define_op("PlaceholderWithDefault", _placeholder_with_default,
                                   family=IDENTITY)
PlaceholderWithDefault.shape_fn = lambda inputs, attrs: [(inputs[0]._value.dtype,
                                                          attrs["shape"])]
Reshape = define_op("Reshape", _reshape, family=LINEAR, view=True)


def _reshape_check(inputs, attrs):
    """TF's build-time check of a reshape's element count against a known shape (the
    shape is probed then); for a shape known in part (a concat or stack of `tf.shape`
    pieces and sizes), its known dimensions, a -1 found when the rest is known."""
    x, shape = inputs
    dims, target = x._dims, full_value(shape)
    if target is None:  # a shape computed in the graph: what is known of it
        partial = constant_shape(shape)
        if partial is None:
            return None
        if -1 in partial:
            rest = [d for d in partial if d != -1]
            size = None if dims is None or None in dims else math.prod(dims)
            fill = size // math.prod(rest) if size is not None and None not in rest and \
                partial.count(-1) == 1 and math.prod(rest) else None
            partial = tuple(fill if d == -1 else d for d in partial)
        return [(x._value.dtype, partial)]
    if dims is None or -1 in np.ravel(target):
        return None
    target = [int(d) for d in np.ravel(target)]
    known, wanted = math.prod(d for d in dims if d is not None), math.prod(target)
    where = f"for 'Reshape' with input shapes: {shape_text(dims)}, [{len(target)}]."
    if None not in dims and known != wanted:
        raise ValueError(f"Cannot reshape a tensor with {known} elements to shape "
                         f"{shape_text(target)} ({wanted} elements) {where}")
    if None in dims and known and wanted % known:
        raise ValueError(f"Dimension size must be evenly divisible by {known} but is {wanted} "
                         f"{where}")
    return None


Reshape.shape_fn = _reshape_check
BroadcastTo = define_op("BroadcastTo", _broadcast_to, family=LINEAR, batching=TRANSPARENT)


def _broadcast_to_dims(inputs, attrs):
    """The static shape of a broadcast_to to a shape computed in the graph (probed when
    the shape is a constant)."""
    x, shape = inputs
    partial = None if full_value(shape) is not None else constant_shape(shape)
    return None if partial is None else [(x._value.dtype, partial)]


BroadcastTo.shape_fn = _broadcast_to_dims


def broadcast_axes(gshape: tuple, shape: tuple) -> tuple:
    """The axes of a broadcast result of shape `gshape` (None for unknown dimensions) along
    which an operand of `shape` was broadcast: its gradient is summed over them."""
    lead = len(gshape) - len(shape)
    return tuple(range(lead)) + tuple(
        i + lead for i, d in enumerate(shape) if d == 1 and gshape[i + lead] != 1)


def _sum_to_shape(g, shape):
    shape = shape if type(shape) is tuple else tuple(shape.tolist())
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    if lead > 0 and g.shape[lead:] == shape:  # broadcast along leading axes only (a bias)
        return add_reduce(g, tuple(range(lead)), False)
    axes = broadcast_axes(g.shape, shape)
    if axes:
        g = add_reduce(g, axes, False)
    return g.reshape(shape)


# A broadcast's gradient summed back to the operand's shape, as one op: inside a graph the
# shapes may be known only when it runs (TF computes the axes with BroadcastGradientArgs).
SumToShape = define_op("SumToShape", _sum_to_shape, family=LINEAR)
SumToShape.shape_fn = _broadcast_to_dims


Transpose = define_op("Transpose", _transpose, family=LINEAR,
                      batching=Stacking(perms=("perm",)))
ConcatV2 = define_op("ConcatV2", _concat, family=LINEAR, batching=STACKED)


def _concat_check(inputs, attrs) -> None:
    """TF's build-time check of a concat's known ranks and dimensions (the shape is
    probed)."""
    shapes = [x._dims for x in inputs]
    known = [s for s in shapes if s is not None]
    axis = attrs["axis"]
    for dims in known[1:]:
        first = known[0]
        if len(dims) != len(first):
            raise ValueError(f"Shape must be rank {len(first)} but is rank {len(dims)} for "
                             f"'ConcatV2' with input shapes: "
                             f"{', '.join(shape_text(s) for s in shapes)}.")
        for i, (d, e) in enumerate(zip(first, dims)):
            if i != axis % len(first) and d is not None and e is not None and d != e:
                raise ValueError(f"Dimension {i} in both shapes must be equal, but are {d} and "
                                 f"{e} for 'ConcatV2' with input shapes: "
                                 f"{', '.join(shape_text(s) for s in shapes)}.")
    return None


ConcatV2.shape_fn = _concat_check
ConcatV2.value_fn = moved_elements(_concat)
SplitV = define_op("SplitV", _split, num_outputs=None, family=LINEAR, batching=STACKED)


def _split_outputs(inputs, attrs):
    """The parts of a split whose axis a graph does not know the size of (probed
    otherwise): a count of equal parts, or the bounds of all parts before the last."""
    x, indices, axis = inputs[0], attrs["indices"], attrs["axis"]
    dims = x._dims
    if dims is not None and dims[axis] is not None:
        return None
    count = indices if isinstance(indices, int) else len(indices) + 1
    sizes = [None] * count if isinstance(indices, int) or dims is None else \
        [b - a for a, b in zip((0,) + indices, indices)] + [None]
    return [(x._value.dtype, None if dims is None else dims[:axis] + (size,) + dims[axis + 1:])
            for size in sizes]


SplitV.shape_fn = _split_outputs
ExpandDims = define_op("ExpandDims", np.expand_dims, family=LINEAR, batching=STACKED)
Squeeze = define_op("Squeeze", np.squeeze, family=LINEAR, batching=STACKED)
Pack = define_op("Pack", _pack, family=LINEAR, batching=STACKED)
Pack.value_fn = moved_elements(_pack)
Unpack = define_op("Unpack", _unpack, num_outputs=None, family=LINEAR, batching=STACKED)
Unpack.shape_fn = _unpack_outputs
Tile = define_op("Tile", np.tile, family=LINEAR, batching=Stacking(leading={"reps": 1}))
_PADDED = Stacking(leading={"paddings": (0, 0)})  # the stacking axis is not padded
# Affine, not linear: its JVP is written by hand.
PadV2 = define_op("PadV2", _pad, batching=_PADDED)
MirrorPad = define_op("MirrorPad", _mirror_pad, family=LINEAR, batching=_PADDED)
MirrorPadGrad = define_op("MirrorPadGrad", _mirror_pad_grad, family=LINEAR, batching=_PADDED)


def _padded_rank(inputs, attrs):
    """A pad of an input of unknown rank has one dimension per row of paddings."""
    x = inputs[0]
    return [(x._value.dtype, (None,) * len(attrs["paddings"]))] if x._dims is None else None


PadV2.shape_fn = MirrorPad.shape_fn = _padded_rank
ReverseV2 = define_op("ReverseV2", np.flip, family=LINEAR, batching=STACKED)
Roll = define_op("Roll", np.roll, family=LINEAR, batching=STACKED)
Shape = define_op("Shape", _shape, family=SHAPE_ONLY)
Size = define_op("Size", _size, family=SHAPE_ONLY)


def _split_sizes(op) -> list:
    bounds = op.attrs["indices"]
    size = op.inputs[0].shape[op.attrs["axis"]]
    if isinstance(bounds, int):
        return [size // bounds] * bounds
    edges = [0, *bounds, size]
    return [b - a for a, b in zip(edges, edges[1:])]


# As GraphDef nodes: what these ops hold as attributes, TF takes as inputs.
graph_def_form("Transpose", inputs={"perm": "perm"})
graph_def_form("ConcatV2", inputs={"axis": "axis"})
graph_def_form("ExpandDims", inputs={"dim": "axis"})
graph_def_form("Squeeze", attrs={"squeeze_dims": lambda op: list(op.attrs["axis"] or ())},
               drop=("axis",))
graph_def_form("Unpack", attrs={"num": lambda op: len(op.outputs)})
graph_def_form("SplitV", inputs={"size_splits": _split_sizes, "split_dim": "axis"},
               attrs={"num_split": lambda op: len(op.outputs)}, drop=("indices",))
graph_def_form("Tile", inputs={"multiples": "reps"})
graph_def_form("PadV2", inputs={"paddings": "paddings", "constant_values": lambda op: np.asarray(
    op.attrs["constant_values"], op.inputs[0].dtype.as_numpy_dtype)})
Rank = define_op("Rank", _rank, family=SHAPE_ONLY)
# A shape is known in part where its input's static shape is; a rank where it is known.
Shape.value_fn = lambda inputs, attrs: None if inputs[0]._dims is None else \
    tuple(inputs[0]._dims)
Rank.value_fn = lambda inputs, attrs: None if inputs[0]._dims is None else \
    np.array(len(inputs[0]._dims), np.int32)


# -- argument helpers ------------------------------------------------------------------------
def _shape_input(op_name: str, shape) -> Tensor:
    """`shape` as a 1-D integer tensor (int64 where a dimension does not fit int32).

    Raises:
        InvalidArgumentError: dimensions that are not integers, or not a list of them.
    """
    if isinstance(shape, Tensor):
        return shape
    if isinstance(shape, (list, tuple)) and any(isinstance(d, Tensor) for d in shape):
        # [n, -1]: packed as TF converts it, cast to int32 unless the first tensor is integer.
        first = next(d for d in shape if isinstance(d, Tensor))
        return convert_to_tensor(list(shape), None if first.dtype.is_integer else dtypes.int32)
    dims = getattr(shape, "as_list", lambda: shape)()
    values = int_values(op_name, dims, "shape")
    if np.ndim(dims) > 1:
        raise errors.invalid_argument(op_name, f"shape must be a list of integers, got {dims!r}")
    fits = all(-2 ** 31 <= d < 2 ** 31 for d in values)
    return Tensor(np.array(values, dtype=np.int32 if fits else np.int64))


# -- public functions ------------------------------------------------------------------------
def identity(input, name=None) -> Tensor:  # noqa: A002  (TF's argument name)
    """Returns a tensor with the same value; gradients pass through unchanged.

    Example:
        >>> import tapeflow as tf
        >>> tf.identity(tf.constant([1.0])).numpy()
        array([1.], dtype=float32)
    """
    return execute(Identity, (as_input(input),), NO_ATTRS)


def placeholder_with_default(input, shape, name=None) -> Tensor:  # noqa: A002
    """`input`, unless a Session run feeds the result another value of shape `shape`
    (None dimensions, or shape None, accept any size); gradients pass through.

    Raises:
        ValueError: `shape` does not fit the shape of `input`.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     rate = tf1.placeholder_with_default([0.5], [None])
        ...     sess = tf1.Session()
        ...     print(rate.shape, sess.run(rate), sess.run(rate, {rate: [0.1, 0.2]}))
        (None,) [0.5] [0.1 0.2]
    """
    input = as_input(input)  # noqa: A001
    shape = TensorShape(shape)
    if not shape.is_compatible_with(input.shape):
        raise ValueError(f"placeholder_with_default: the shape {shape} does not fit the "
                         f"default value's shape {input.shape}.")
    dims = None if shape.rank is None else tuple(shape.dims)
    return execute(PlaceholderWithDefault, (input,), {"shape": dims})


def identity_n(input, name=None) -> list:  # noqa: A002
    """Returns a list of tensors with the same values as the list `input`.

    Example:
        >>> import tapeflow as tf
        >>> a, b = tf.identity_n([tf.constant(1.0), tf.constant([2, 3])])
        >>> float(a), b.numpy()
        (1.0, array([2, 3], dtype=int32))
    """
    return list(execute(IdentityN, tuple(as_input(x) for x in input), NO_ATTRS))


def reshape(tensor, shape, name=None) -> Tensor:
    """The same elements in a new shape; one dimension may be -1 (inferred).

    Raises:
        InvalidArgumentError: the element counts differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.reshape(tf.constant([1, 2, 3, 4, 5, 6]), [2, -1]).shape
        TensorShape([2, 3])
    """
    return execute(Reshape, (as_input(tensor), _shape_input("Reshape", shape)), NO_ATTRS)


def broadcast_to(input, shape, name=None) -> Tensor:  # noqa: A002
    """`input` broadcast to `shape` following NumPy's rules.

    Example:
        >>> import tapeflow as tf
        >>> tf.broadcast_to(tf.constant([1, 2]), [2, 2]).numpy()
        array([[1, 2],
               [1, 2]], dtype=int32)
    """
    return execute(BroadcastTo, (as_input(input), _shape_input("BroadcastTo", shape)), NO_ATTRS)


def transpose(a, perm=None, conjugate=False, name="transpose") -> Tensor:
    """Permutes the axes of `a` (reverses them when `perm` is None).

    Example:
        >>> import tapeflow as tf
        >>> tf.transpose(tf.constant(0.0, shape=[2, 3, 4]), perm=[2, 0, 1]).shape
        TensorShape([4, 2, 3])
    """
    a = as_input(a)
    if perm is not None:
        perm = tuple(int(p) for p in np.asarray(perm))
    elif a.ndim is not None:
        perm = tuple(range(a.ndim))[::-1]  # (None, for unknown rank, reverses as well)
    out = execute(Transpose, (a,), {"perm": perm})
    if conjugate and a.dtype.is_complex:
        out = conj(out)
    return out


@add_dispatch_support
def expand_dims(input, axis, name=None) -> Tensor:  # noqa: A002
    """Inserts a dimension of length 1 at `axis`.

    Args:
        input: a tensor.
        axis: an int in [-rank - 1, rank]; negative counts from the end.

    Returns:
        A tensor of rank `rank + 1`.

    Raises:
        InvalidArgumentError: `axis` out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.expand_dims(tf.constant([1.0, 2.0]), -1).shape
        TensorShape([2, 1])
    """
    x = as_input(input)
    rank = None if x.ndim is None else x.ndim + 1
    return execute(ExpandDims, (x,), {"axis": normalize_axis("ExpandDims", axis, rank)})


def squeeze(input, axis=None, name=None) -> Tensor:  # noqa: A002
    """Removes dimensions of length 1: all of them, or those listed in `axis`.

    Raises:
        InvalidArgumentError: an axis is out of range or its dimension is not 1.

    Example:
        >>> import tapeflow as tf
        >>> tf.squeeze(tf.zeros([1, 2, 1]), axis=[-1]).shape
        TensorShape([1, 2])
    """
    x = as_input(input)
    shape = known_dims(x)
    if axis is None:
        # All the dimensions of 1; those a graph does not know yet are found when it runs.
        axes = None if shape is None or None in shape else \
            tuple(i for i, d in enumerate(shape) if d == 1)
    else:
        axes = tuple(normalize_axis("Squeeze", a, x.ndim)
                     for a in int_values("Squeeze", axis, "axis"))
        for a in axes if shape is not None else ():
            if shape[a] not in (1, None):
                raise errors.InvalidArgumentError(
                    None, "Squeeze", f"Squeeze: Can not squeeze dim[{a}], expected a dimension "
                    f"of 1, got {shape[a]} (input shape {shape})")
    return execute(Squeeze, (x,), {"axis": axes})


@add_dispatch_support
def concat(values, axis, name="concat") -> Tensor:
    """Joins tensors along an existing axis.

    Raises:
        InvalidArgumentError: ranks or other dimensions differ, dtypes differ, scalars are
            given, or `axis` is out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.concat([tf.zeros([2, 1]), tf.ones([2, 2])], axis=1).numpy()
        array([[0., 1., 1.],
               [0., 1., 1.]], dtype=float32)
    """
    values = same_dtype_inputs("ConcatV2", values)
    if not values:
        raise errors.invalid_argument("ConcatV2", "concat needs at least one tensor, got none")
    if len(values) == 1:
        return identity(values[0])
    ndim = values[0].ndim
    if ndim == 0:
        raise errors.InvalidArgumentError(
            None, "ConcatV2", "ConcatV2: Can't concatenate scalars (use tf.stack instead)")
    axis = normalize_axis("ConcatV2", axis, ndim)
    return execute(ConcatV2, tuple(values), {"axis": axis})


@add_dispatch_support
def stack(values, axis=0, name="stack") -> Tensor:
    """Stacks rank-R tensors of one shape into a rank-(R + 1) tensor along a new `axis`.

    Raises:
        InvalidArgumentError: the shapes or dtypes differ, or `axis` is out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1).numpy()
        array([[1, 3],
               [2, 4]], dtype=int32)
    """
    if isinstance(values, Tensor) or hasattr(values, "_as_tensor"):
        values = unstack(values)
    values = same_dtype_inputs("Pack", values)
    if not values:
        raise errors.invalid_argument("Pack", "stack needs at least one tensor, got none")
    first = values[0].shape
    for i, v in enumerate(values[1:], 1):
        if v.shape != first:
            raise errors.InvalidArgumentError(
                None, "Pack", f"Pack: Shapes of all inputs must match: values[0].shape = "
                f"{first.as_list()} != values[{i}].shape = {v.shape.as_list()}")
    rank = None if values[0].ndim is None else values[0].ndim + 1
    return execute(Pack, tuple(values), {"axis": normalize_axis("Pack", axis, rank)})


def parallel_stack(values, name="parallel_stack") -> Tensor:
    """`stack(values)` along a new first axis, for graphs: every input's shape must be fully
    known while the graph is built.

    Raises:
        RuntimeError: eagerly (as TF, which only builds it in graphs).
        ValueError: an input shape not fully known.

    Example:
        >>> import tapeflow as tf
        >>> f = tf.function(lambda a, b: tf.parallel_stack([a, b]))
        >>> f(tf.constant([1, 2]), tf.constant([3, 4])).numpy()
        array([[1, 2],
               [3, 4]], dtype=int32)
    """
    if state.graph is None:
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    values = [as_input(v) for v in values]
    for v in values:
        if not v.shape.is_fully_defined():
            raise ValueError(f"parallel_stack: every input's shape must be fully defined, got "
                             f"{v.shape}")
    return stack(values)


def guarantee_const(input, name=None) -> Tensor:  # noqa: A002  (TF's argument name)
    """`input`, promised constant for the graph's lifetime (a hint TF's compiler uses;
    tapeflow returns it as it is). Differentiating through it is a LookupError, as in TF.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.guarantee_const(tf.constant(2.0)))
        2.0
    """
    return execute(GuaranteeConst, (as_input(input),), NO_ATTRS)


def unstack(value, num=None, axis=0, name="unstack") -> list:
    """Splits a tensor into a list of tensors along `axis`, removing that axis.

    Raises:
        ValueError: `num` is given and differs from the dimension.
        InvalidArgumentError: `axis` is out of range.

    Example:
        >>> import tapeflow as tf
        >>> [t.numpy() for t in tf.unstack(tf.constant([[1, 2], [3, 4]]), axis=1)]
        [array([1, 3], dtype=int32), array([2, 4], dtype=int32)]
    """
    x = as_input(value)
    axis = normalize_axis("Unpack", axis, x.ndim)
    if num is not None and num != x.shape[axis]:
        raise ValueError(f"unstack: num={num} does not match dimension {axis} of the input "
                         f"(shape {x.shape.as_list()})")
    return list(execute(Unpack, (x,), {"axis": axis}))


def split(value, num_or_size_splits, axis=0, num=None, name="split") -> list:
    """Splits a tensor along `axis` into equal parts or parts of the given sizes.

    Args:
        value: the tensor to split.
        num_or_size_splits: a number of equal parts, or a list of sizes (one may be -1).
        axis: the axis to split.
        num: accepted for TF compatibility.

    Returns:
        A list of tensors.

    Raises:
        InvalidArgumentError: the count does not divide the dimension, or the sizes do not
            add up to it.
        ValueError: a count of 2**31 or more.

    Example:
        >>> import tapeflow as tf
        >>> [t.shape for t in tf.split(tf.zeros([5, 2]), [2, -1])]
        [TensorShape([2, 2]), TensorShape([3, 2])]
    """
    x = as_input(value)
    axis = normalize_axis("SplitV", axis, x.ndim)
    dim = None if x.ndim is None else x.shape[axis]
    equal = isinstance(num_or_size_splits, numbers.Integral) or not isinstance(
        num_or_size_splits, (list, tuple)) and np.ndim(
            getattr(num_or_size_splits, "_value", num_or_size_splits)) == 0
    if dim is None:  # a size known when the graph runs: equal parts, or the last one -1
        parts = int_values("SplitV", num_or_size_splits, "num_or_size_splits")
        if equal or parts[-1] == -1 and -1 not in parts[:-1]:
            bounds = parts[0] if equal else tuple(np.cumsum(parts[:-1]).tolist())
            return list(execute(SplitV, (x,), {"indices": bounds, "axis": axis}))
        raise ValueError(f"split: the size of dimension {axis} is unknown while the graph is "
                         f"built, so only equal parts or sizes ending in -1 fit, not {parts}")
    if equal:
        count = int_value("Split", num_or_size_splits, "num_or_size_splits")
        if count >= 2 ** 31:
            raise ValueError(f"split: Number of outputs is too big: {count}")
        if count <= 0 or dim % count:
            raise errors.InvalidArgumentError(
                None, "Split", f"Split: Number of ways to split should evenly divide the split "
                f"dimension, but got split_dim {axis} (size = {dim}) and num_split {count}")
        sizes = [dim // count] * count
    else:
        sizes = int_values("SplitV", num_or_size_splits, "size_splits")
        if sizes.count(-1) == 1:
            sizes[sizes.index(-1)] = dim - (sum(sizes) + 1)
        if sum(sizes) != dim or any(s < 0 for s in sizes):
            raise errors.InvalidArgumentError(
                None, "SplitV", f"SplitV: the sizes {sizes} must be non-negative and add up to "
                f"the size {dim} of dimension {axis} (at most one may be -1)")
    bounds = tuple(np.cumsum(sizes)[:-1].tolist())
    return list(execute(SplitV, (x,), {"indices": bounds, "axis": axis}))


@add_dispatch_support
def tile(input, multiples, name=None) -> Tensor:  # noqa: A002
    """Repeats `input` `multiples[i]` times along each axis i.

    Raises:
        InvalidArgumentError: `multiples` does not have one non-negative entry per axis.

    Example:
        >>> import tapeflow as tf
        >>> tf.tile(tf.constant([[1, 2]]), [2, 2]).numpy()
        array([[1, 2, 1, 2],
               [1, 2, 1, 2]], dtype=int32)
    """
    x = as_input(input)
    reps = int_values("Tile", multiples, "multiples")
    if x.ndim is not None and len(reps) != x.ndim or any(r < 0 for r in reps):
        raise errors.InvalidArgumentError(
            None, "Tile", f"Tile: Expected multiples argument to be a vector of length "
            f"{x.ndim} with non-negative entries but got {reps} (input shape "
            f"{x.shape.as_list()})")
    return execute(Tile, (x,), {"reps": tuple(reps)})


_PAD_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None) -> Tensor:
    """Pads a tensor: `paddings[d] = [before, after]` elements along each dimension d.

    Args:
        tensor: the tensor to pad.
        paddings: an integer array of shape [rank, 2].
        mode: "CONSTANT", "REFLECT" (mirror, edge excluded) or "SYMMETRIC" (mirror, edge
            included), in any case.
        constant_values: the fill value in CONSTANT mode.

    Returns:
        The padded tensor.

    Raises:
        ValueError: an unknown `mode`.
        InvalidArgumentError: `paddings` is not [rank, 2] non-negative integers, or a
            mirror padding is too large (REFLECT: < dim, SYMMETRIC: <= dim).

    Example:
        >>> import tapeflow as tf
        >>> tf.pad(tf.constant([1, 2, 3]), [[1, 2]], "REFLECT").numpy()
        array([2, 1, 2, 3, 2, 1], dtype=int32)
    """
    upper = mode.upper() if isinstance(mode, str) else mode
    if upper not in _PAD_MODES:
        raise ValueError(f'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", '
                         f'or "SYMMETRIC". Received `mode` = {mode}')
    x = as_input(tensor)
    op_name = "PadV2" if upper == "CONSTANT" else "MirrorPad"
    flat = int_values(op_name, paddings, "paddings")
    shape = known_dims(x)
    rows, columns = (np.shape(getattr(paddings, "_value", paddings)) + (None, None))[:2]
    if columns != 2 or x.ndim is not None and rows != x.ndim:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: paddings must be a matrix with 2 columns and one row "
            f"per input dimension: input shape {shape}, paddings {paddings!r}")
    pairs = tuple(zip(flat[0::2], flat[1::2]))
    if any(p < 0 for p in flat):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: Paddings must be non-negative, got {list(pairs)}")
    if upper == "CONSTANT":
        if x.dtype is dtypes.string and type(constant_values) is int and constant_values == 0:
            constant_values = b""  # the default pads strings with their zero, b""
        fill = binary_inputs(op_name, x, constant_values)[1]
        if fill.ndim:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: constant_values must be a scalar, got shape "
                f"{fill.shape.as_list()}")
        return execute(PadV2, (x,), {"paddings": pairs, "constant_values": fill._value[()]})
    most = 1 if upper == "REFLECT" else 0
    for d, (before, after) in zip(shape or (), pairs):
        if d is not None and max(before, after) > d - most:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: in {upper} mode each padding must be at most the "
                f"dimension size{' - 1' if most else ''}; got paddings {list(pairs)} for input "
                f"shape {shape}")
    return execute(MirrorPad, (x,), {"paddings": pairs, "mode": upper})


def reverse(tensor, axis, name=None) -> Tensor:
    """Reverses the order of elements along each axis in `axis`.

    Raises:
        InvalidArgumentError: an axis is out of range or repeated.

    Example:
        >>> import tapeflow as tf
        >>> tf.reverse(tf.constant([[1, 2], [3, 4]]), [1]).numpy()
        array([[2, 1],
               [4, 3]], dtype=int32)
    """
    x = as_input(tensor)
    axes = tuple(normalize_axis("ReverseV2", a, x.ndim)
                 for a in int_values("ReverseV2", axis, "axis"))
    if len(set(axes)) != len(axes):
        raise errors.InvalidArgumentError(
            None, "ReverseV2", f"ReverseV2: an axis is specified more than once in {axis!r}")
    return execute(ReverseV2, (x,), {"axis": axes})


def roll(input, shift, axis, name=None) -> Tensor:  # noqa: A002
    """Rolls elements `shift[i]` places along `axis[i]`; elements leaving one end re-enter at
    the other. Shifts along a repeated axis add up.

    Raises:
        InvalidArgumentError: `shift` and `axis` differ in length, or an axis is out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.roll(tf.constant([0, 1, 2, 3, 4]), shift=2, axis=0).numpy()
        array([3, 4, 0, 1, 2], dtype=int32)
    """
    x = as_input(input)
    shifts = int_values("Roll", shift, "shift")
    axes = int_values("Roll", axis, "axis")
    if len(shifts) != len(axes):
        raise errors.InvalidArgumentError(
            None, "Roll", f"Roll: shift and axis must have the same size, got {shifts} and {axes}")
    axes = [normalize_axis("Roll", a, x.ndim) for a in axes]
    return execute(Roll, (x,), {"shift": tuple(shifts), "axis": tuple(axes)})


def _out_type(op_name: str, out_type) -> np.dtype:
    dtype = dtypes.as_dtype(out_type)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{op_name}: out_type must be int32 or int64, got {dtype.name}")
    return dtype._np


def shape(input, out_type=dtypes.int32, name=None) -> Tensor:  # noqa: A002
    """The shape of `input` as a 1-D integer tensor (int32 unless `out_type` says int64).

    Not differentiable. A SparseTensor's shape is its `dense_shape`.

    Example:
        >>> import tapeflow as tf
        >>> tf.shape(tf.zeros([2, 3])).numpy()
        array([2, 3], dtype=int32)
        >>> tf.shape(tf.sparse.eye(3)).numpy()
        array([3, 3], dtype=int32)
    """
    dtype = _out_type("Shape", dtypes.int32 if out_type is None else out_type)
    if isinstance(input, SparseTensor):
        from .math_ops import cast
        return cast(input.dense_shape, dtypes.as_dtype(dtype))
    try:
        x = as_input(input)
    except (TypeError, ValueError):  # a RaggedTensor or extension type: dispatch
        return dispatch_or_raise(shape, (input, out_type, name), {})
    return execute(Shape, (x,), {"out_type": dtype})


shape._tf_dispatch = True


@add_dispatch_support
def size(input, out_type=dtypes.int32, name=None) -> Tensor:  # noqa: A002
    """The number of elements of `input` as a scalar integer tensor. Not differentiable.

    Example:
        >>> import tapeflow as tf
        >>> int(tf.size(tf.zeros([2, 3])))
        6
    """
    dtype = _out_type("Size", dtypes.int32 if out_type is None else out_type)
    return execute(Size, (as_input(input),), {"out_type": dtype})


@add_dispatch_support
def rank(input, name=None) -> Tensor:  # noqa: A002
    """The number of dimensions of `input` as a scalar int32 tensor. Not differentiable.

    Example:
        >>> import tapeflow as tf
        >>> int(tf.rank(tf.zeros([2, 3])))
        2
    """
    x = as_input(input)
    if state.graph is not None and x.shape.rank is not None:
        # In a graph a known rank is a constant (as in TF), even when dimensions are not.
        return state.graph.constant(np.int32(x.shape.rank))
    return execute(Rank, (x,), NO_ATTRS)


def ensure_shape(x, shape, name=None) -> Tensor:
    """`x`, checked to have a shape compatible with `shape` (None dimensions match any);
    in a graph its static shape becomes the merge of both.

    Raises:
        ValueError: in a graph, the static shapes are incompatible.
        InvalidArgumentError: when it runs, the shape is incompatible.

    Example:
        >>> import tapeflow as tf
        >>> tf.ensure_shape(tf.constant([1.0, 2.0]), [None]).numpy()
        array([1., 2.], dtype=float32)
    """
    x = as_input(x)
    wanted = TensorShape(shape)
    if wanted.rank is None:
        return x
    dims = tuple(wanted.as_list())
    static = x.shape
    if static.rank is not None and (static.rank != wanted.rank or any(
            d is not None and e is not None and d != e for d, e in zip(static.as_list(), dims))):
        if isinstance(x._value, np.ndarray):
            _ensure_shape(x._value, dims)
        raise ValueError(f"Shapes {shape_text(static.as_list())} and {shape_text(dims)} are "
                         f"incompatible for 'EnsureShape' (input shape {static}).")
    return execute(EnsureShape, (x,), {"shape": dims})


def get_static_value(tensor, partial=False):
    """The value of `tensor` as a NumPy array if it is known without running a graph (an
    eager tensor, a graph constant, or anything that is not a tensor), else None.

    Example:
        >>> import tapeflow as tf
        >>> tf.get_static_value(tf.constant([1, 2]))
        array([1, 2], dtype=int32)
    """
    if not isinstance(tensor, Tensor):
        return tensor
    value = tensor._value
    return value if isinstance(value, np.ndarray) else (
        np.asarray(value) if isinstance(value, np.generic) else None)
