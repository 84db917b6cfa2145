"""Gradient rules of nn_ops."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient
from .array_ops import Reshape
from .comparison_ops import Less
from .creation_ops import zero_gradient
from .math_ops import Abs, Cast, Exp, Sigmoid, Sum
from .nn_ops import EluGrad, LeakyReluGrad, LogSoftmax, Relu6Grad, ReluGrad, SeluGrad, Softmax
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
