"""Graph control: `group`, `no_op` and `control_dependencies` (no-ops when eager).

`cond` and `while_loop` trace functions, so they live in the eager layer
(eager/control_flow.py).
"""
from __future__ import annotations

import builtins
import contextlib

from ..framework import nest
from ..framework.context import state
from ..framework.graph import NoOp, Operation
from ..framework.graph_tensor import SymbolicTensor
from .array_ops import identity

__all__ = ["group", "no_op", "control_dependencies", "tuple"]


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


def tuple(tensors, control_inputs=None, name=None) -> list:  # noqa: A001  (TF's name)
    """`tensors` (None entries kept), each available only once all of them (and the
    `control_inputs` operations) are computed: in a graph, identities that depend on every
    one; eagerly, the tensors as they are.

    Raises:
        TypeError: `tensors` is not a list or tuple, or a control input is not an operation.

    Example:
        >>> import tapeflow as tf
        >>> a, b = tf.tuple([tf.constant(1.0), tf.constant(2.0)])
        >>> float(a + b)
        3.0
    """
    if not isinstance(tensors, (list, builtins.tuple)):
        raise TypeError(f"tuple: tensors must be a list or tuple, got {type(tensors).__name__}")
    graph = state.graph
    if graph is None:
        return list(tensors)
    deps = [t.op for t in tensors if isinstance(t, SymbolicTensor)]
    for op in control_inputs or []:
        if not isinstance(op, Operation):
            raise TypeError(f"tuple: control_inputs must be operations, got {op!r}")
        deps.append(op)
    with graph.control_dependencies(deps):
        return [None if t is None else identity(t) for t in tensors]

