"""Gradient rules of nn_ops."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient
from .array_ops import ConcatV2, Reshape, Transpose
from .comparison_ops import Less
from .creation_ops import zero_gradient
from .math_ops import Abs, Cast, Exp, MatMul, Sigmoid, Sum, Tanh
from .nn_ops import (EluGrad, LeakyReluGrad, LogSoftmax, LSTMGatesGrad, Relu6Grad, ReluGrad,
                     SeluGrad, Softmax)
from .op_util import dtype_of, shape_of


@RegisterGradient("Relu")
def _relu_grad(op, g):
    return ReluGrad(g, op.outputs[0])


@RegisterGradient("ReluGrad")
def _relu_grad_grad(op, gg):
    # d/dg of where(y > 0, g, 0) is the same mask; the mask has slope zero in y (connected).
    return ReluGrad(gg, op.inputs[1]), zero_gradient(op.inputs[1])


@RegisterGradient("Softmax")
def _softmax_grad(op, g):
    y = op.outputs[0]
    axis = op.attrs["axis"]
    return (g - Sum(g * y, axis=(axis,), keepdims=True)) * y


def _xent_logits_grad(op, g, grad_backprop):
    """The logits gradient of a fused cross entropy, TF's rule: `g` (the loss gradient with a
    class axis) times the backprop output, softmax - labels. A second derivative arrives as
    the gradient of that output and goes through the softmax; a constant zero one (the usual
    case) adds nothing."""
    grad_logits = g * op.outputs[1]
    if not _constant_zero(grad_backprop):
        probs = Softmax(op.inputs[0], axis=len(shape_of(op.inputs[0])) - 1)
        last = len(shape_of(grad_backprop)) - 1  # the class axis, after any batch axis
        grad_logits = grad_logits + (grad_backprop - Sum(grad_backprop * probs, axis=(last,),
                                                         keepdims=True)) * probs
    return grad_logits


def _constant_zero(g) -> bool:
    """Whether `g` is zeros that depend on nothing: an unrecorded array, or a graph constant
    (the engine's filler for an output nobody differentiates). A recorded eager tensor may
    be a real gradient that happens to be zero, whose own derivative still counts."""
    value = g if not hasattr(g, "_id") else getattr(g, "_const", None)
    return value is not None and not value.any()


@RegisterGradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent_grad(op, grad_loss, grad_backprop):
    g = Reshape(grad_loss, shape_of(grad_loss) + (1,))
    return _xent_logits_grad(op, g, grad_backprop), None


@RegisterGradient("SoftmaxCrossEntropyWithLogits")
def _softmax_xent_grad(op, grad_loss, grad_backprop):
    g = Reshape(grad_loss, shape_of(grad_loss) + (1,))
    grad_labels = -g * LogSoftmax(op.inputs[0], axis=len(shape_of(op.inputs[0])) - 1) \
        if op.needs_gradient(1) else None
    return _xent_logits_grad(op, g, grad_backprop), grad_labels


@RegisterGradient("LogSoftmax")
def _log_softmax_grad(op, g):
    axis = op.attrs["axis"]
    return g - Sum(g, axis=(axis,), keepdims=True) * Exp(op.outputs[0])


def _negative_mask(y):
    """1 where y < 0, else 0, in y's dtype: a mask, through which no gradient flows."""
    dtype = dtype_of(y)
    return Cast(Less(y, np.zeros((), dtype)), dtype=dtype)


@RegisterGradient("Relu6")
def _relu6_grad(op, g):
    return Relu6Grad(g, op.inputs[0])


@RegisterGradient("Relu6Grad")
def _relu6_grad_grad(op, gg):
    return Relu6Grad(gg, op.inputs[1]), zero_gradient(op.inputs[1])


def _register_exponential_unit(name: str, grad_op) -> None:
    """Elu and Selu: the rule reads the output; the gradient op's own rule is linear in the
    upstream gradient and, below zero, linear in the output."""
    @RegisterGradient(name)
    def _unit_grad(op, g):
        return grad_op(g, op.outputs[0])

    @RegisterGradient(grad_op.name)
    def _unit_grad_grad(op, gg):
        g, y = op.inputs
        return grad_op(gg, y), gg * g * _negative_mask(y)


_register_exponential_unit("Elu", EluGrad)
_register_exponential_unit("Selu", SeluGrad)


@RegisterGradient("LeakyRelu")
def _leaky_relu_grad(op, g):
    return LeakyReluGrad(g, op.inputs[0], alpha=op.attrs["alpha"])


@RegisterGradient("LeakyReluGrad")
def _leaky_relu_grad_grad(op, gg):
    return LeakyReluGrad(gg, op.inputs[1], alpha=op.attrs["alpha"]), zero_gradient(op.inputs[1])


@RegisterGradient("Softplus")
def _softplus_grad(op, g):
    return g * Sigmoid(op.inputs[0])


@RegisterGradient("Softsign")
def _softsign_grad(op, g):
    denominator = 1 + Abs(op.inputs[0])
    return g / (denominator * denominator)


@RegisterGradient("BiasAdd")
def _bias_add_grad(op, g):
    value = op.inputs[0]
    channel = 1 if op.attrs["data_format"] == "NCHW" else len(shape_of(value)) - 1
    axes = tuple(a for a in range(len(shape_of(value))) if a != channel)
    return g, Sum(g, axis=axes, keepdims=False) if op.needs_gradient(1) else None


def _transposed(op, matrix):
    """`matrix` transposed, for a product: a Transpose node (a graph loop computes it once,
    contiguous), or in a backward pass over raw arrays a contiguous copy made once for
    every record of that pass reading the same array (a recurrent kernel read at every
    step). At an LSTM's sizes a product with a transposed view is ~1.6x slower."""
    memo = op.memo
    if memo is None:
        return Transpose(matrix, perm=(1, 0))
    # Keyed by identity, holding the array: it is alive, so not mutated (copy-on-write).
    entry = memo.get(id(matrix))
    if entry is None or entry[0] is not matrix:
        entry = memo[id(matrix)] = (matrix, np.ascontiguousarray(matrix.T))
    return entry[1]


@RegisterGradient("LSTMGates")
def _lstm_gates_grad(op, dh, dc, dgates):
    _, h_prev, recurrent_kernel, c_prev = op.inputs
    dz, dc_prev = LSTMGatesGrad(op.outputs[2], c_prev, op.outputs[1], dh, dc, dgates)
    return (dz, MatMul(dz, _transposed(op, recurrent_kernel))
            if op.needs_gradient(1) else None,
            MatMul(h_prev, dz, adjoint_a=True) if op.needs_gradient(2) else None, dc_prev)


@RegisterGradient("LSTMGatesGrad")
def _lstm_gates_grad_grad(op, uz, u_prev):
    # LSTMGatesGrad written out: with gates a = [i, f, g, o], t = tanh(c) and the slopes
    # s = [i(1-i), f(1-f), 1-g^2, o(1-o)]: d = dc + dh o (1 - t^2);
    # dz = ([d g, d c_prev, d i, dh t] + dgates) s; dc_prev = d f. Its gradient by the
    # chain rule through each term.
    gates, c_prev, c, dh, dc, dgates = op.inputs
    u = shape_of(gates)[-1] // 4
    axis = len(shape_of(gates)) - 1
    i, f, g, o = gates[..., :u], gates[..., u:2 * u], gates[..., 2 * u:3 * u], gates[..., 3 * u:]
    si, sf, sg, so = i * (1 - i), f * (1 - f), 1 - g * g, o * (1 - o)
    ui, uf, ug, uo = uz[..., :u], uz[..., u:2 * u], uz[..., 2 * u:3 * u], uz[..., 3 * u:]
    t = Tanh(c)
    st = 1 - t * t
    d = dc + dh * o * st
    pre_i, pre_f = d * g + dgates[..., :u], d * c_prev + dgates[..., u:2 * u]
    pre_g, pre_o = d * i + dgates[..., 2 * u:3 * u], dh * t + dgates[..., 3 * u:]
    d_d = ui * si * g + uf * sf * c_prev + ug * sg * i + u_prev * f   # the gradient of d
    grad_gates = ConcatV2(ui * pre_i * (1 - 2 * i) + ug * sg * d,
                          uf * pre_f * (1 - 2 * f) + u_prev * d,
                          ui * si * d - ug * pre_g * 2 * g,
                          uo * pre_o * (1 - 2 * o) + d_d * dh * st, axis=axis)
    grad_c = (d_d * dh * o * -2 * t + uo * so * dh) * st
    grad_dh = d_d * o * st + uo * so * t
    grad_dgates = ConcatV2(ui * si, uf * sf, ug * sg, uo * so, axis=axis)
    return grad_gates, uf * sf * d, grad_c, grad_dh, d_d, grad_dgates
