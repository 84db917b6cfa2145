"""Forward-mode (JVP) rules of nn_ops."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterJVP
from .math_ops import Sum
from .nn_ops import ReluGrad, Softmax
from .op_util import dtype_of, shape_of, value_of


@RegisterJVP("Relu")
def _relu_jvp(op, t):
    return ReluGrad(t, op.outputs[0])


@RegisterJVP("ReluGrad")
def _relu_grad_jvp(op, tg, ty):
    # Linear in g; y only selects, with zero slope.
    return None if tg is None else ReluGrad(tg, op.inputs[1])


@RegisterJVP("Softmax")
def _softmax_jvp(op, t):
    y = op.outputs[0]
    return y * (t - Sum(t * y, axis=(op.attrs["axis"],), keepdims=True))


@RegisterJVP("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent_jvp(op, t, _):
    logits, labels = op.inputs
    last = len(shape_of(logits)) - 1
    one_hot = np.eye(shape_of(logits)[-1], dtype=dtype_of(logits))[value_of(labels)]
    return Sum((Softmax(logits, axis=last) - one_hot) * t, axis=(last,), keepdims=False)
