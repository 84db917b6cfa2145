"""Hand-written batched gradient rules (vectorized Jacobians; see
framework/batched_registry.py), where they are faster than the batching an op declares.
"""
from __future__ import annotations

import math

from ..framework.batched_registry import RegisterBatchedGradient
from .array_ops import Reshape, Transpose
from .math_ops import MatMul
from .op_util import dtype_of, shape_of


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
