"""Gradient rules of image_ops. Each works on raw arrays and on Tensors alike.

The box ops (non-maximum suppression, drawing, sampled crops) have no rule, as in TF: a
gradient through their float outputs is a LookupError naming the op."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .image_ops import RESIZE_PAIRS
from .op_util import shape_of


def _register_resize(forward, backward) -> None:
    # A resize is linear: its gradient applies the transposed interpolation, and the
    # gradient of that is the resize again.
    @RegisterGradient(forward.name)
    def _resize_grad(op, g):
        attrs = {k: v for k, v in op.attrs.items() if k != "size"}
        return backward(g, image_size=tuple(shape_of(op.inputs[0])[-3:-1]), **attrs)

    @RegisterGradient(backward.name)
    def _resize_grad_grad(op, g):
        attrs = {k: v for k, v in op.attrs.items() if k != "image_size"}
        return forward(g, size=tuple(shape_of(op.inputs[0])[-3:-1]), **attrs)


for _forward, _backward in RESIZE_PAIRS:
    _register_resize(_forward, _backward)

