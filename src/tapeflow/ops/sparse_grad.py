"""Gradient rules of sparse_ops. Each works on raw arrays and on Tensors alike.

The values gather and scatter are each other's adjoints, so every function that moves
values through them gets first and higher derivatives for free. Ops that only compute
coordinates have no gradient; `SparseConcat` none either, as in TF.
"""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient, no_gradient
from .array_ops import Transpose
from .complex_ops import Conj
from .gather_ops import GatherV2
from .indexing_ops import GatherNd
from .math_ops import Sum
from .op_util import dtype_of
from .sparse_ops import SparseTensorDenseMatMul, SparseValuesGather, SparseValuesScatter

for _op in ("SparseCanonicalOrder", "SparseSlicePositions", "SparseUnion",
            "SparseFillEmptyRowsPositions", "SparseReduceGroups", "SparseReshape",
            "SparseConcat", "ListDiff"):
    no_gradient(_op)


def _conj(x):
    return Conj(x) if dtype_of(x).kind == "c" else x


def _adjoint(x):
    return _conj(Transpose(x, perm=(1, 0)))


def _column(indices, i: int):
    return GatherV2(indices, np.asarray(i, np.int64), axis=1, batch_dims=0)


@RegisterGradient("SparseTensorDenseMatMul")
def _sparse_dense_matmul_grad(op, g):
    indices, values, shape, b = op.inputs
    adjoint_a, adjoint_b = op.attrs["adjoint_a"], op.attrs["adjoint_b"]
    rows, cols = _column(indices, 0), _column(indices, 1)
    if adjoint_a:
        rows, cols = cols, rows
    op_b = _adjoint(b) if adjoint_b else b
    # d/dv of entry (r, c) of op(A): row r of g against row c of op(B).
    per_value = Sum(GatherV2(g, rows, axis=0, batch_dims=0) *
                    _conj(GatherV2(op_b, cols, axis=0, batch_dims=0)), axis=(1,), keepdims=False)
    grad_b = SparseTensorDenseMatMul(indices, values, shape, g, adjoint_a=not adjoint_a,
                                     adjoint_b=False)
    return (None, _conj(per_value) if adjoint_a else per_value, None,
            _adjoint(grad_b) if adjoint_b else grad_b)


@RegisterGradient("SparseToDense")
def _sparse_to_dense_grad(op, g):
    indices, _, values, _ = op.inputs
    values_grad = GatherNd(g, indices)
    total = Sum(g, axis=None, keepdims=False)
    return None, None, values_grad, total - Sum(values_grad, axis=None, keepdims=False)


@RegisterGradient("SparseValuesGather")
def _values_gather_grad(op, g):
    values, positions = op.inputs
    return SparseValuesScatter(g, positions, values), None


@RegisterGradient("SparseValuesScatter")
def _values_scatter_grad(op, g):
    return SparseValuesGather(g, op.inputs[1]), None, None
