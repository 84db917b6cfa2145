"""The gradient of `EagerPyFunc` (tf.py_function) and run-time VJPs.

The rule runs the node's Python function again under a GradientTape when the graph runs
(at once when called eagerly), in another EagerPyFunc node, so it can be differentiated
again, to any order. Control flow uses `runtime_vjp` for loops whose loop variables change
shape.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..framework.registry import RegisterGradient
from ..ops.script_ops import EagerPyFunc, as_tensor, spec_of
from .backprop import GradientTape

__all__ = ["runtime_vjp"]


def _trainable(x) -> bool:
    return dtypes.kind(spec_of(x)[0]) in "fc"


def runtime_vjp(fn, inputs, grads, variables=()) -> list:
    """Gradients of `fn(*inputs)` (a list of outputs) for upstream `grads`, computed by a
    GradientTape when the graph runs (at once when called eagerly).

    Returns one gradient per input (None for integer inputs) followed by one per variable.
    """
    count = len(inputs)
    wanted = [i for i, x in enumerate(inputs) if _trainable(x)]
    variables = tuple(variables)

    def vjp(*values):
        xs = [as_tensor(v) for v in values[:count]]
        upstream = [as_tensor(v) for v in values[count:]]
        watched = [xs[i] for i in wanted] + list(variables)
        with GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(watched)
            ys = list(fn(*xs))
        grads = tape.gradient(ys, watched, output_gradients=upstream)
        return [np.zeros(spec[1], spec[0]) if g is None and spec[1] is not None and
                None not in spec[1] else np.zeros_like(w._value) if g is None else g
                for g, w, spec in zip(grads, watched, specs)]

    specs = [spec_of(inputs[i]) for i in wanted] + [spec_of(v) for v in variables]
    symbolic = any(hasattr(x, "_id") for x in (*inputs, *grads))
    outs = EagerPyFunc(*inputs, *grads, *(variables if symbolic else ()), fn=vjp, Tout=specs,
                       variables=variables if symbolic else ())
    result: list = [None] * count
    for i, g in zip(wanted, outs):
        result[i] = g
    return result + list(outs[len(wanted):])


@RegisterGradient("EagerPyFunc")
def _eager_py_func_grad(op, *grads):
    variables = op.attrs.get("variables", ())
    inputs = op.inputs[:len(op.inputs) - len(variables)]
    return runtime_vjp(op.attrs["fn"], inputs, grads, variables)
