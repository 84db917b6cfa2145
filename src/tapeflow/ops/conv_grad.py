"""Gradient rules of the convolution and pooling ops. Each gradient op has its own rule,
written with the other ops of its family, so derivatives of any order stay within them.
Rules skip the inputs whose gradient nobody needs (a first layer's images, say): each is a
full convolution. The 2-D and 3-D ops share rules; the rank picks the ops."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .conv_ops import AVG_POOL_OPS, CONV_OPS, MAX_POOL_OPS
from .creation_ops import zero_gradient
from .op_util import shape_of


def _conv_attrs(op) -> dict:
    return {k: op.attrs[k] for k in ("strides", "dilations", "pads")}


def _pool_attrs(op) -> dict:
    return {k: op.attrs[k] for k in ("ksize", "strides", "pads")}


# A convolution and its two gradient ops are the three faces of one bilinear form <output,
# conv(image, filter)>: each computes one slot from the other two, so the gradient of any of
# them with respect to one input slot is the op that computes that slot from the other input
# and the upstream gradient (standing in the produced slot).
_SLOTS = (("image", "filter", "output"), ("filter", "output", "image"),
          ("image", "output", "filter"))


def _compute_slot(ops: tuple, slot: str, values: dict, shapes: dict, attrs: dict):
    conv, backprop_input, backprop_filter = ops
    if slot == "output":
        return conv(values["image"], values["filter"], **attrs)
    if slot == "image":
        return backprop_input(values["filter"], values["output"], input_sizes=shapes["image"],
                              **attrs)
    return backprop_filter(values["image"], values["output"], filter_sizes=shapes["filter"],
                           **attrs)


def _conv_grad_rule(ops: tuple, slots: tuple):
    first, second, produced = slots

    def rule(op, upstream):
        attrs = _conv_attrs(op)
        shapes = {first: shape_of(op.inputs[0]), second: shape_of(op.inputs[1])}
        grads = tuple(
            _compute_slot(ops, slot, {other: op.inputs[1 - i], produced: upstream}, shapes,
                          attrs) if op.needs_gradient(i) else None
            for i, (slot, other) in enumerate(((first, second), (second, first))))
        # (a backprop-input op given the sizes as an input: they have no gradient)
        return grads + (None,) * (len(op.inputs) - 2)
    return rule


def _max_pool_rules(pool, grad, grad_grad) -> None:
    @RegisterGradient(pool.name)
    def _pool_grad(op, g):
        return grad(op.inputs[0], op.outputs[0], g, **_pool_attrs(op))

    @RegisterGradient(grad.name)
    def _grad_grad(op, gg):
        # Linear in the upstream gradient; the routing is piecewise constant in the input: a
        # connected zero there, as in TF.
        x, y, _ = op.inputs
        return zero_gradient(x), zero_gradient(y), grad_grad(x, y, gg, **_pool_attrs(op))

    @RegisterGradient(grad_grad.name)
    def _grad_grad_grad(op, ggg):
        x, y, _ = op.inputs
        return zero_gradient(x), zero_gradient(y), grad(x, y, ggg, **_pool_attrs(op))


def _avg_pool_rules(pool, grad) -> None:
    @RegisterGradient(pool.name)
    def _pool_grad(op, g):
        return grad(g, input_sizes=shape_of(op.inputs[0]), **_pool_attrs(op))

    @RegisterGradient(grad.name)
    def _grad_grad(op, gg):
        return pool(gg, **_pool_attrs(op))


for _nd in (2, 3):
    for _op, _slots in zip(CONV_OPS[_nd], _SLOTS):
        RegisterGradient(_op.name)(_conv_grad_rule(CONV_OPS[_nd], _slots))
    _max_pool_rules(*MAX_POOL_OPS[_nd])
    _avg_pool_rules(*AVG_POOL_OPS[_nd])
