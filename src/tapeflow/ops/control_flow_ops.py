"""Graph control: `group`, `no_op` and `control_dependencies` (no-ops when eager).

`cond` and `while_loop` trace functions, so they live in the eager layer
(eager/control_flow.py).
"""
from __future__ import annotations

import contextlib

from ..framework import nest
from ..framework.context import state
from ..framework.graph import NoOp, Operation
from ..framework.graph_tensor import SymbolicTensor

__all__ = ["group", "no_op", "control_dependencies"]


def group(*inputs, name=None):
    """An operation that runs all `inputs` (operations or tensors); None when eager.

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     v = tf.Variable(1.0)
        ...     step = tf.group(v.assign_add(1.0), v.assign_add(2.0))
        >>> step.type
        'NoOp'
    """
    graph = state.graph
    if graph is None:
        return None
    deps = [x.op if isinstance(x, SymbolicTensor) else x for x in nest.flatten(list(inputs))
            if x is not None]
    for dep in deps:
        if not isinstance(dep, Operation):
            raise TypeError(f"group: {dep!r} is not an operation or a tensor")
    with graph.control_dependencies(deps):
        return graph._add_operation(NoOp, (), {}, [], name=name or "NoOp")


def no_op(name=None):
    """An operation that does nothing (None when eager).

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     print(tf.no_op().type)
        NoOp
    """
    return group(name=name)


def control_dependencies(control_inputs):
    """Ops created inside run after `control_inputs` (a no-op context when eager).

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     v = tf.Variable(1.0)
        ...     bump = v.assign_add(1.0)
        ...     with tf.control_dependencies([bump]):
        ...         y = tf.identity(v.read_value())
        >>> [op.name for op in y.op.control_inputs]
        ['AssignAddVariableOp']
    """
    if state.graph is None:
        return contextlib.nullcontext()
    return state.graph.control_dependencies(control_inputs)

