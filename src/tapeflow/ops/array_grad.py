"""Gradient rules of array_ops and creation_ops. Each works on raw arrays and on Tensors."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient, no_gradient
from . import creation_ops  # noqa: F401  (defines the ops whose rules are below)
from .array_ops import (BroadcastTo, ConcatV2, MirrorPad, MirrorPadGrad, Pack, Reshape,
                        ReverseV2, Roll, Shape, SplitV, Transpose, Unpack)
from .indexing_ops import Slice
from .math_ops import Sum
from .op_util import dtype_of, shape_of


@RegisterGradient("EnsureShape")
def _ensure_shape_grad(op, g):
    return g


@RegisterGradient("Identity", takes_indexed_slices=True)
@RegisterGradient("PlaceholderWithDefault")
def _identity_grad(op, g):
    return g


@RegisterGradient("PreventGradient")
def _prevent_gradient_grad(op, g):
    raise LookupError(f"No gradient defined for operation 'PreventGradient': "
                      f"{op.attrs['message']}")


@RegisterGradient("IdentityN")
def _identity_n_grad(op, *grads):
    return grads


@RegisterGradient("ReadVariableOp", takes_indexed_slices=True)
def _read_variable_grad(op, g):
    return g


def _reshaped_like(g, x):
    """`g` reshaped to `x`'s shape: read with a Shape op when a graph does not know it."""
    if hasattr(x, "_op") and not x.shape.is_fully_defined():
        return Reshape(g, Shape(x, out_type=np.int64))
    return Reshape(g, shape_of(x))


@RegisterGradient("Reshape")
def _reshape_grad(op, g):
    return _reshaped_like(g, op.inputs[0]), None


@RegisterGradient("ExpandDims")
def _expand_dims_grad(op, g):
    return _reshaped_like(g, op.inputs[0])


@RegisterGradient("Squeeze")
def _squeeze_grad(op, g):
    return _reshaped_like(g, op.inputs[0])


@RegisterGradient("BroadcastTo")
def _broadcast_to_grad(op, g):
    # The engine sums the gradient back to the input's shape.
    return g, None


@RegisterGradient("SumToShape")
def _sum_to_shape_grad(op, g):
    return BroadcastTo(g, Shape(op.inputs[0], out_type=np.int64)), None


@RegisterGradient("Transpose")
def _transpose_grad(op, g):
    perm = op.attrs["perm"]
    return Transpose(g, perm=None if perm is None else tuple(np.argsort(perm).tolist()))


@RegisterGradient("ConcatV2")
def _concat_grad(op, g):
    axis = op.attrs["axis"]
    bounds = np.cumsum([shape_of(x)[axis] for x in op.inputs])[:-1]
    return tuple(SplitV(g, indices=tuple(bounds.tolist()), axis=axis))


@RegisterGradient("SplitV")
def _split_grad(op, *grads):
    return ConcatV2(*grads, axis=op.attrs["axis"])


@RegisterGradient("Pack")
def _pack_grad(op, g):
    return tuple(Unpack(g, axis=op.attrs["axis"], num=len(op.inputs)))


@RegisterGradient("Unpack")
def _unpack_grad(op, *grads):
    return Pack(*grads, axis=op.attrs["axis"])


@RegisterGradient("Tile")
def _tile_grad(op, g):
    shape = shape_of(op.inputs[0])
    reps = op.attrs["reps"]
    # Split each tiled axis into (repeat, original) and sum over the repeats.
    interleaved = tuple(d for pair in zip(reps, shape) for d in pair)
    return Sum(Reshape(g, interleaved), axis=tuple(range(0, 2 * len(shape), 2)), keepdims=False)


@RegisterGradient("PadV2")
def _pad_grad(op, g):
    begin = tuple(before for before, _ in op.attrs["paddings"])
    return Slice(g, begin=begin, size=shape_of(op.inputs[0]))


@RegisterGradient("MirrorPad")
def _mirror_pad_grad(op, g):
    return MirrorPadGrad(g, paddings=op.attrs["paddings"], mode=op.attrs["mode"])


@RegisterGradient("MirrorPadGrad")
def _mirror_pad_grad_grad(op, g):
    return MirrorPad(g, paddings=op.attrs["paddings"], mode=op.attrs["mode"])


@RegisterGradient("ReverseV2")
def _reverse_grad(op, g):
    return ReverseV2(g, axis=op.attrs["axis"])


@RegisterGradient("Roll")
def _roll_grad(op, g):
    return Roll(g, shift=tuple(-s for s in op.attrs["shift"]), axis=op.attrs["axis"])


@RegisterGradient("Fill")
def _fill_grad(op, g):
    return Sum(g, axis=tuple(range(len(shape_of(g)))), keepdims=False)


@RegisterGradient("LinSpace")
def _linspace_grad(op, g):
    # out = start + (stop - start) * t, t running from 0 to 1 along the new axis (TF's
    # linspace is composed of differentiable ops).
    shape = shape_of(g)
    axis = op.attrs["axis"] % len(shape)
    t = np.linspace(0.0, 1.0, op.attrs["num"], dtype=dtype_of(g))
    t = t.reshape(t.shape + (1,) * (len(shape) - axis - 1))
    return Sum(g * (1 - t), axis=(axis,), keepdims=False), Sum(g * t, axis=(axis,), keepdims=False)


for _op in ("Shape", "Size", "Rank", "ZerosLike", "OnesLike", "OneHot", "Range"):
    no_gradient(_op)
