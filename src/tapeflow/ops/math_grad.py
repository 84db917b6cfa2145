"""Gradient rules of math_ops. Each works on raw arrays and on Tensors alike (see registry)."""
from __future__ import annotations

import math

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
    return (g * y if op.needs_gradient(0) else None), (g * x if op.needs_gradient(1) else None)


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


# (transpose_a, transpose_b) -> for each input, the product giving its gradient:
# (left, right, transpose_left, transpose_right) over the names a, b and g (upstream).
_MATMUL_GRADS = {
    (False, False): (("g", "b", False, True), ("a", "g", True, False)),
    (False, True): (("g", "b", False, False), ("g", "a", True, False)),
    (True, False): (("b", "g", False, True), ("a", "g", False, False)),
    (True, True): (("b", "g", True, True), ("g", "a", True, True)),
}


@RegisterGradient("BatchMatMulV2")
def _matmul_grad(op, g):
    a, b = op.inputs
    attrs = op.attrs
    ta = attrs.get("transpose_a", False) or attrs.get("adjoint_a", False)
    tb = attrs.get("transpose_b", False) or attrs.get("adjoint_b", False)
    named = {"a": a, "b": b, "g": g}
    skip = op.skip_input_indices
    return tuple(None if i in skip else
                 MatMul(named[left], named[right], transpose_a=t_left, transpose_b=t_right)
                 for i, (left, right, t_left, t_right) in enumerate(_MATMUL_GRADS[ta, tb]))


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
    count = math.prod([shape[a] for a in op.attrs["axis"]])
    return _sum_grad(op, g / count)


@RegisterGradient("Cast")
def _cast_grad(op, g):
    source = dtype_of(op.inputs[0])
    target = op.attrs["dtype"]
    if source.kind in "fc" and target.kind in "fc":
        return Cast(g, dtype=source)
    return None


no_gradient("Round")
