"""Gradient rules for a batch of upstream gradients (a leading batch axis), for vectorized
Jacobians. Rules that never look at the gradient's shape are declared transparent; the
others get a batched variant here: the plain rule with every axis moved one place right.
"""
from __future__ import annotations

import numpy as np

from ..framework.batched_registry import RegisterBatchedGradient, batch_transparent
from .array_ops import BroadcastTo, ConcatV2, Reshape, SplitV, Transpose
from .math_grad import _matmul_grad, _reduced_shape
from .math_ops import MatMul, Sum
from .op_util import shape_of

batch_transparent("AddV2", "Sub", "Mul", "RealDiv", "Pow", "Neg", "Square", "Sqrt", "Exp", "Log",
                  "Tanh", "Sigmoid", "Cast", "Identity", "ReadVariableOp", "BroadcastTo", "Relu",
                  "ReluGrad", "SparseSoftmaxCrossEntropyWithLogits")


@RegisterBatchedGradient("Reshape")
def _batched_reshape_grad(op, g):
    return Reshape(g, shape_of(g)[:1] + shape_of(op.inputs[0])), None


@RegisterBatchedGradient("Transpose")
def _batched_transpose_grad(op, g):
    inverse = np.argsort(op.attrs["perm"]) + 1
    return Transpose(g, perm=(0,) + tuple(inverse.tolist()))


def _batched_sum_grad(op, g):
    batch = shape_of(g)[:1]
    shape = shape_of(op.inputs[0])
    if not op.attrs["keepdims"]:
        g = Reshape(g, batch + _reduced_shape(shape, op.attrs["axis"]))
    return BroadcastTo(g, batch + shape)


RegisterBatchedGradient("Sum")(_batched_sum_grad)


@RegisterBatchedGradient("Mean")
def _batched_mean_grad(op, g):
    shape = shape_of(op.inputs[0])
    count = int(np.prod([shape[a] for a in op.attrs["axis"]]))
    return _batched_sum_grad(op, g) / count


@RegisterBatchedGradient("ConcatV2")
def _batched_concat_grad(op, g):
    axis = op.attrs["axis"]
    bounds = np.cumsum([shape_of(x)[axis] for x in op.inputs])[:-1]
    return tuple(SplitV(g, indices=tuple(bounds.tolist()), axis=axis + 1))


@RegisterBatchedGradient("SplitV")
def _batched_split_grad(op, *grads):
    return ConcatV2(*grads, axis=op.attrs["axis"] + 1)


@RegisterBatchedGradient("Softmax")
def _batched_softmax_grad(op, g):
    y = op.outputs[0]
    return (g - Sum(g * y, axis=(op.attrs["axis"] + 1,), keepdims=True)) * y


@RegisterBatchedGradient("BatchMatMulV2")
def _batched_matmul_grad(op, g):
    if op.attrs:
        return _matmul_grad(op, g)
    a, b = op.inputs
    skip = op.skip_input_indices
    grad_a = None if 0 in skip else _matmul_2d(g, b, transpose_rhs=True)
    if 1 in skip:
        return grad_a, None
    # a^T g, computed as (g^T a)^T so that a 2-D `a` meets the batch in one product.
    g_t = Transpose(g, perm=_swap_last(len(shape_of(g))))
    grad_b = _matmul_2d(g_t, a, transpose_rhs=False)
    return grad_a, Transpose(grad_b, perm=_swap_last(len(shape_of(grad_b))))


def _matmul_2d(lhs, rhs, transpose_rhs: bool):
    """lhs @ rhs (or rhs^T); a 2-D rhs takes all of lhs's leading axes in one product."""
    if len(shape_of(rhs)) != 2:
        return MatMul(lhs, rhs, transpose_b=transpose_rhs)
    shape = shape_of(lhs)
    out = MatMul(Reshape(lhs, (-1, shape[-1])), rhs, transpose_b=transpose_rhs)
    return Reshape(out, shape[:-1] + shape_of(out)[-1:])


def _swap_last(rank: int) -> tuple:
    return tuple(range(rank - 2)) + (rank - 1, rank - 2)
