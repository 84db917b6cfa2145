"""Forward-mode (JVP) rules of nn_ops written by hand (the others follow from families)."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterJVP
from .creation_ops import OneHot
from .math_ops import Sum
from .nn_ops import ReluGrad, Softmax
from .op_util import dtype_of, shape_of


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
    """Tangents of the loss and of its fused gradient, softmax(logits) - one_hot(labels)."""
    logits, labels = op.inputs
    last = len(shape_of(logits)) - 1
    dtype = dtype_of(logits)
    one_hot = OneHot(labels, np.ones((), dtype), np.zeros((), dtype), depth=shape_of(logits)[-1],
                     axis=-1)
    probs = Softmax(logits, axis=last)
    return (Sum((probs - one_hot) * t, axis=(last,), keepdims=False),
            probs * (t - Sum(t * probs, axis=(last,), keepdims=True)))
