"""Gradient rules of conv_ops. Each gradient op has its own rule, written with the other
ops of its family, so derivatives of any order stay within them. Rules skip the inputs whose
gradient nobody needs (a first layer's images, say): each is a full convolution."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .conv_ops import (AvgPool, AvgPoolGrad, Conv2D, Conv2DBackpropFilter, Conv2DBackpropInput,
                       MaxPoolGrad, MaxPoolGradGrad)
from .creation_ops import zero_gradient
from .op_util import shape_of


def _conv_attrs(op) -> dict:
    return {k: op.attrs[k] for k in ("strides", "dilations", "pads")}


def _pool_attrs(op) -> dict:
    return {k: op.attrs[k] for k in ("ksize", "strides", "pads")}


# Conv2D and its two gradient ops are the three faces of one bilinear form <output, conv(
# image, filter)>: each computes one slot from the other two, so the gradient of any of them
# with respect to one input slot is the op that computes that slot from the other input and
# the upstream gradient (standing in the produced slot).
_SLOTS = {"Conv2D": ("image", "filter", "output"),
          "Conv2DBackpropInput": ("filter", "output", "image"),
          "Conv2DBackpropFilter": ("image", "output", "filter")}


def _compute_slot(slot: str, values: dict, shapes: dict, attrs: dict):
    if slot == "output":
        return Conv2D(values["image"], values["filter"], **attrs)
    if slot == "image":
        return Conv2DBackpropInput(values["filter"], values["output"],
                                   input_sizes=shapes["image"], **attrs)
    return Conv2DBackpropFilter(values["image"], values["output"],
                                filter_sizes=shapes["filter"], **attrs)


def _conv_grad(op, upstream):
    first, second, produced = _SLOTS[op.type]
    attrs = _conv_attrs(op)
    shapes = {first: shape_of(op.inputs[0]), second: shape_of(op.inputs[1])}
    return tuple(
        _compute_slot(slot, {other: op.inputs[1 - i], produced: upstream}, shapes, attrs)
        if op.needs_gradient(i) else None
        for i, (slot, other) in enumerate(((first, second), (second, first))))


for _name in _SLOTS:
    RegisterGradient(_name)(_conv_grad)


@RegisterGradient("MaxPool")
def _max_pool_grad(op, g):
    return MaxPoolGrad(op.inputs[0], op.outputs[0], g, **_pool_attrs(op))


@RegisterGradient("MaxPoolGrad")
def _max_pool_grad_grad(op, gg):
    # Linear in the upstream gradient; the routing is piecewise constant in the input: a
    # connected zero there, as in TF.
    x, y, _ = op.inputs
    return zero_gradient(x), zero_gradient(y), MaxPoolGradGrad(x, y, gg, **_pool_attrs(op))


@RegisterGradient("MaxPoolGradGrad")
def _max_pool_grad_grad_grad(op, ggg):
    x, y, _ = op.inputs
    return zero_gradient(x), zero_gradient(y), MaxPoolGrad(x, y, ggg, **_pool_attrs(op))


@RegisterGradient("AvgPool")
def _avg_pool_grad(op, g):
    return AvgPoolGrad(g, input_sizes=shape_of(op.inputs[0]), **_pool_attrs(op))


@RegisterGradient("AvgPoolGrad")
def _avg_pool_grad_grad(op, gg):
    return AvgPool(gg, **_pool_attrs(op))
