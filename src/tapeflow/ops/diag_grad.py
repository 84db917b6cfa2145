"""Gradient rules of diag_ops: each op's adjoint is its partner (diag and diag_part, band_part
itself). Each works on raw arrays and on Tensors alike."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .diag_ops import Diag, DiagPart, MatrixBandPart, MatrixDiag, MatrixDiagPart
from .op_util import shape_of


@RegisterGradient("MatrixDiagV3")
def _matrix_diag_grad(op, g):
    return MatrixDiagPart(g, k=op.attrs["k"])


@RegisterGradient("MatrixDiagPartV3")
def _matrix_diag_part_grad(op, g):
    rows, cols = shape_of(op.inputs[0])[-2:]
    return MatrixDiag(g, k=op.attrs["k"], num_rows=rows, num_cols=cols, padding_value=0)


@RegisterGradient("MatrixBandPart")
def _band_part_grad(op, g):
    return MatrixBandPart(g, **op.attrs)


@RegisterGradient("Diag")
def _tensor_diag_grad(op, g):
    return DiagPart(g)


@RegisterGradient("DiagPart")
def _tensor_diag_part_grad(op, g):
    return Diag(g)
