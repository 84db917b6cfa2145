"""Gradient rules of math_ops. Each works on raw arrays and on Tensors alike (see registry)."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient, no_gradient
from .array_ops import BroadcastTo, Reshape
from .math_ops import Cast, Log, MatMul, Pow
from .op_util import dtype_of, shape_of, value_of


@RegisterGradient("AddV2")
def _add_grad(op, g):
    return g, g


@RegisterGradient("Sub")
def _sub_grad(op, g):
    return g, -g


@RegisterGradient("Mul")
def _mul_grad(op, g):
    x, y = op.inputs
    return g * y, g * x


@RegisterGradient("RealDiv")
def _div_grad(op, g):
    x, y = op.inputs
    return g / y, -g * x / (y * y)


@RegisterGradient("Pow")
def _pow_grad(op, g):
    x, y = op.inputs
    z = op.outputs[0]
    gx = g * y * Pow(x, y - 1)
    # TF's convention: no gradient w.r.t. the exponent where the base is <= 0.
    safe_log = Log(_where_positive(x))
    gy = g * z * safe_log
    return gx, gy


def _where_positive(x):
    """x where x > 0, else 1 (whose log is 0): x times a constant mask."""
    positive = np.greater(value_of(x), 0).astype(dtype_of(x))
    return x * positive + (1 - positive)


@RegisterGradient("Neg")
def _neg_grad(op, g):
    return -g


@RegisterGradient("Square")
def _square_grad(op, g):
    return g * 2 * op.inputs[0]


@RegisterGradient("Sqrt")
def _sqrt_grad(op, g):
    return g * 0.5 / op.outputs[0]


@RegisterGradient("Exp")
def _exp_grad(op, g):
    return g * op.outputs[0]


@RegisterGradient("Log")
def _log_grad(op, g):
    return g / op.inputs[0]


@RegisterGradient("Tanh")
def _tanh_grad(op, g):
    y = op.outputs[0]
    return g * (1 - y * y)


@RegisterGradient("Sigmoid")
def _sigmoid_grad(op, g):
    y = op.outputs[0]
    return g * y * (1 - y)


@RegisterGradient("BatchMatMulV2")
def _matmul_grad(op, g):
    a, b = op.inputs
    ta = op.attrs.get("transpose_a", False) or op.attrs.get("adjoint_a", False)
    tb = op.attrs.get("transpose_b", False) or op.attrs.get("adjoint_b", False)
    if not ta and not tb:
        return MatMul(g, b, transpose_b=True), MatMul(a, g, transpose_a=True)
    if not ta and tb:
        return MatMul(g, b), MatMul(g, a, transpose_a=True)
    if ta and not tb:
        return MatMul(b, g, transpose_b=True), MatMul(a, g)
    return MatMul(b, g, transpose_a=True, transpose_b=True), MatMul(g, a, transpose_a=True,
                                                                   transpose_b=True)


def _reduced_shape(shape: tuple, axes: tuple) -> tuple:
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


@RegisterGradient("Sum")
def _sum_grad(op, g):
    shape = shape_of(op.inputs[0])
    if not op.attrs["keepdims"]:
        g = Reshape(g, _reduced_shape(shape, op.attrs["axis"]))
    return BroadcastTo(g, shape)


@RegisterGradient("Mean")
def _mean_grad(op, g):
    shape = shape_of(op.inputs[0])
    count = int(np.prod([shape[a] for a in op.attrs["axis"]]))
    return _sum_grad(op, g) / count


@RegisterGradient("Cast")
def _cast_grad(op, g):
    source = dtype_of(op.inputs[0])
    target = op.attrs["dtype"]
    if source.kind in "fc" and target.kind in "fc":
        return Cast(g, dtype=source)
    return None


no_gradient("Round")
