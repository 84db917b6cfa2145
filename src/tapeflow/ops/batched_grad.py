"""How the gradient rules of these ops handle a batch of upstream gradients (vectorized
Jacobians; see framework/batched_registry.py), and hand-written batched rules for speed.
"""
from __future__ import annotations

import math
import string

from ..framework.batched_registry import (BATCH, RegisterBatchedGradient, batch_by_stacking,
                                          batch_transparent)
from .array_ops import Reshape, Transpose
from .math_ops import MatMul
from .op_util import dtype_of, shape_of

batch_transparent("AddV2", "Sub", "Mul", "RealDiv", "Pow", "Neg", "Square", "Sqrt", "Exp", "Log",
                  "Tanh", "Sigmoid", "Cast", "Identity", "ReadVariableOp", "BroadcastTo", "Relu",
                  "ReluGrad", "SparseSoftmaxCrossEntropyWithLogits", "IdentityN", "SelectV2",
                  "AddN", "Abs", "Sign", "Reciprocal", "Rsqrt", "Expm1", "Log1p", "Sin", "Cos",
                  "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
                  "Atan2", "Maximum", "Minimum", "DivNoNan", "FloorMod", "SquaredDifference",
                  "Erf", "Erfc", "Lgamma", "Digamma", "Polygamma", "Real", "Imag", "Conj",
                  "Angle", "ComplexAbs", "Complex", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad")
batch_by_stacking("Sum", "Mean", "ConcatV2", "SplitV", "Softmax", "ExpandDims", "Squeeze", "Pack",
                  "Unpack", "ReverseV2", "Roll", "Max", "Min", "Prod", "ReduceLogSumExp",
                  "Cumsum", "Cumprod")
batch_by_stacking("Transpose", perms=("perm",))
batch_by_stacking("Tile", leading={"reps": 1})
batch_by_stacking("PadV2", "MirrorPad", "MirrorPadGrad", leading={"paddings": (0, 0)})
batch_by_stacking("Slice", leading={"begin": 0, "size": BATCH})
batch_by_stacking("StridedSlice", leading={"index": slice(None)})
batch_by_stacking("StridedSliceGrad", leading={"index": slice(None), "shape": BATCH})
batch_by_stacking("GatherV2", transform=lambda attrs: attrs if attrs["batch_dims"] == 0 else None)


def _einsum_stacked(attrs: dict) -> dict:
    """A fresh letter in front of every operand and of the output: the stacking axis."""
    equation = attrs["equation"]
    letter = next(c for c in string.ascii_letters if c not in equation)
    lhs, out = equation.split("->")
    return {**attrs, "equation": ",".join(letter + term for term in lhs.split(","))
            + "->" + letter + out}


batch_by_stacking("Einsum", axes=(), transform=_einsum_stacked)


@RegisterBatchedGradient("Reshape")
def _batched_reshape_grad(op, g):
    """Faster than stacking, which would broadcast the input for its shape alone."""
    return Reshape(g, shape_of(g)[:1] + shape_of(op.inputs[0])), None


@RegisterBatchedGradient("BatchMatMulV2")
def _batched_matmul_grad(op, g):
    """Without transposes, a 2-D operand meets the whole batch in one matrix product."""
    if op.attrs or dtype_of(g).kind == "c":
        return op.op.grad(op, g)
    a, b = op.inputs
    skip = op.skip_input_indices
    grad_a = None if 0 in skip else _matmul_2d(g, b, transpose_rhs=True)
    if 1 in skip:
        return grad_a, None
    # a^T g, computed as (g^T a)^T so that a 2-D `a` meets the batch in one product.
    grad_b = _matmul_2d(Transpose(g, perm=_swap_last(len(shape_of(g)))), a, transpose_rhs=False)
    return grad_a, Transpose(grad_b, perm=_swap_last(len(shape_of(grad_b))))


def _matmul_2d(lhs, rhs, transpose_rhs: bool):
    """lhs @ rhs (or rhs^T); a 2-D rhs takes all of lhs's leading axes in one product."""
    if len(shape_of(rhs)) != 2:
        return MatMul(lhs, rhs, transpose_b=transpose_rhs)
    shape = shape_of(lhs)
    rows = math.prod(shape[:-1])  # not -1: with no columns, -1 would be ambiguous
    out = MatMul(Reshape(lhs, (rows, shape[-1])), rhs, transpose_b=transpose_rhs)
    return Reshape(out, shape[:-1] + shape_of(out)[-1:])


def _swap_last(rank: int) -> tuple:
    return tuple(range(rank - 2)) + (rank - 1, rank - 2)
