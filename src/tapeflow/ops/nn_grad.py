"""Gradient rules of nn_ops."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient
from .array_ops import Reshape
from .math_ops import Sum
from .nn_ops import ReluGrad, Softmax
from .op_util import dtype_of, shape_of, value_of


@RegisterGradient("Relu")
def _relu_grad(op, g):
    return ReluGrad(g, op.outputs[0])


@RegisterGradient("ReluGrad")
def _relu_grad_grad(op, gg):
    # d/dg of where(y > 0, g, 0) is the same mask; y is a function of x with zero slope here.
    return ReluGrad(gg, op.inputs[1]), None


@RegisterGradient("Softmax")
def _softmax_grad(op, g):
    y = op.outputs[0]
    axis = op.attrs["axis"]
    return (g - Sum(g * y, axis=(axis,), keepdims=True)) * y


@RegisterGradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent_grad(op, g, unused_backprop_grad):
    logits, labels = op.inputs
    g = Reshape(g, shape_of(g) + (1,))
    if not hasattr(logits, "_id"):
        return g * op.outputs[1], None
    # Recorded: rebuild the fused gradient from Softmax so it can be differentiated again.
    classes = shape_of(logits)[-1]
    one_hot = np.eye(classes, dtype=dtype_of(logits))[value_of(labels)]
    return g * (Softmax(logits, axis=len(shape_of(logits)) - 1) - one_hot), None
