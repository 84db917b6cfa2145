"""Gradient rules of conv_ops. Each gradient op's own rule is the adjoint pairing of the
other two, so derivatives of any order stay within these ops. Rules skip the inputs whose
gradient nobody needs (a first layer's images, say): each is a full convolution."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .conv_ops import (AvgPool, AvgPoolGrad, Conv2D, Conv2DBackpropFilter, Conv2DBackpropInput,
                       MaxPoolGrad, MaxPoolGradGrad)
from .op_util import shape_of


def _conv_attrs(op) -> dict:
    return {k: op.attrs[k] for k in ("strides", "dilations", "pads")}


def _pool_attrs(op) -> dict:
    return {k: op.attrs[k] for k in ("ksize", "strides", "pads")}


@RegisterGradient("Conv2D")
def _conv2d_grad(op, g):
    x, w = op.inputs
    attrs = _conv_attrs(op)
    return (Conv2DBackpropInput(w, g, input_sizes=shape_of(x), **attrs)
            if op.needs_gradient(0) else None,
            Conv2DBackpropFilter(x, g, filter_sizes=shape_of(w), **attrs)
            if op.needs_gradient(1) else None)


@RegisterGradient("Conv2DBackpropInput")
def _conv2d_backprop_input_grad(op, gg):
    w, g = op.inputs
    attrs = _conv_attrs(op)
    return (Conv2DBackpropFilter(gg, g, filter_sizes=shape_of(w), **attrs)
            if op.needs_gradient(0) else None,
            Conv2D(gg, w, **attrs) if op.needs_gradient(1) else None)


@RegisterGradient("Conv2DBackpropFilter")
def _conv2d_backprop_filter_grad(op, gw):
    x, g = op.inputs
    attrs = _conv_attrs(op)
    return (Conv2DBackpropInput(gw, g, input_sizes=shape_of(x), **attrs)
            if op.needs_gradient(0) else None,
            Conv2D(x, gw, **attrs) if op.needs_gradient(1) else None)


@RegisterGradient("MaxPool")
def _max_pool_grad(op, g):
    return MaxPoolGrad(op.inputs[0], op.outputs[0], g, **_pool_attrs(op))


@RegisterGradient("MaxPoolGrad")
def _max_pool_grad_grad(op, gg):
    # Linear in the upstream gradient; the routing is piecewise constant in the input.
    x, y, _ = op.inputs
    return None, None, MaxPoolGradGrad(x, y, gg, **_pool_attrs(op))


@RegisterGradient("MaxPoolGradGrad")
def _max_pool_grad_grad_grad(op, ggg):
    x, y, _ = op.inputs
    return None, None, MaxPoolGrad(x, y, ggg, **_pool_attrs(op))


@RegisterGradient("AvgPool")
def _avg_pool_grad(op, g):
    return AvgPoolGrad(g, input_sizes=shape_of(op.inputs[0]), **_pool_attrs(op))


@RegisterGradient("AvgPoolGrad")
def _avg_pool_grad_grad(op, gg):
    return AvgPool(gg, **_pool_attrs(op))
