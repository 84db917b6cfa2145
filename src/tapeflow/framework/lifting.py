"""Lifting: a value a function graph computes, computed again outside the function.

A `tf.Variable` created while a tf.function is traced lives outside the function (an
ordinary eager Variable the function captures), so its initial value must exist outside
too. When that value is a tensor of the function's graph (`tf.Variable(tf.zeros([n]))`,
an initializer called in the trace), `lift` runs the operations that produce it again, in
the context `init_scope` gives: eagerly (or in the TF1 graph around the function). Its
inputs are what the graph's placeholders stand for: the outer tensor of a capture, or the
argument of the call being traced (`FuncGraph.lift_sources`), so an initial value computed
from the first call's arguments is computed from them. A placeholder with neither (a trace
for a TensorSpec) makes the value unliftable.
"""
from __future__ import annotations

from .execute import execute
from .graph_tensor import SymbolicTensor
from .tensor import Tensor
from .variables import Variable

__all__ = ["UnliftableError", "lift"]


class UnliftableError(Exception):
    """A value a function graph computes depends on an input of the function that has no
    value outside it, so it cannot be computed outside the function."""


def _in_function(x) -> bool:
    return isinstance(x, SymbolicTensor) and x._op._graph.building_function


def lift(value):
    """`value` computed outside any function being traced; call it under `init_scope`.

    Args:
        value: anything. A tensor of a function graph is computed again from the
            operations producing it; anything else is returned as it is.

    Returns:
        An eager tensor (or a tensor of the graph `init_scope` reaches) with the value.

    Raises:
        UnliftableError: the value depends on an input placeholder with no source, or on
            an operation that writes a variable; the message shows the path.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.framework.lifting import lift
        >>> @tf.function
        ... def f():
        ...     x = tf.fill([2], 3.0) * 2.0
        ...     with tf.init_scope():
        ...         return lift(x).numpy()
        >>> f().numpy()
        array([6., 6.], dtype=float32)
    """
    if not _in_function(value):
        return value
    lifted: dict = {}
    consumer: dict = {value._id: None}  # the tensor that needed each one: the error's path
    stack = [(value, False)]
    while stack:
        tensor, ready = stack.pop()
        if tensor._id in lifted:
            continue
        op = tensor._op
        if op.type == "Placeholder":
            source = op._graph.placeholder_source(tensor)
            if source is None:
                raise UnliftableError(_unliftable(value, tensor, consumer, "depends on the "
                                                  "function input"))
            if not _in_function(source) or source._id in lifted:
                lifted[tensor._id] = lifted.get(source._id, source)
            else:
                consumer.setdefault(source._id, tensor)
                stack.extend([(tensor, True), (source, False)])
            continue
        if all(o._const is not None for o in op._outputs):  # a constant, or folded
            for o in op._outputs:
                lifted[o._id] = Tensor(o._const)
            continue
        pending = [x for x in op._inputs if _in_function(x) and x._id not in lifted]
        if not ready and pending:
            stack.append((tensor, True))
            for x in pending:
                consumer.setdefault(x._id, tensor)
                stack.append((x, False))
            continue
        inputs = [lifted.get(x._id, x) for x in op._inputs]
        for o, result in zip(op._outputs, _run(op, inputs, value, tensor, consumer)):
            lifted[o._id] = result
    return lifted[value._id]


def _run(op, inputs: list, value, tensor, consumer) -> tuple:
    """The outputs of `op` run on `inputs` in the current context."""
    if op.type == "ReadVariableOp":
        return (inputs[0].read_value(),)
    if inputs and isinstance(inputs[0], Variable):
        raise UnliftableError(_unliftable(value, tensor, consumer, "writes a variable in"))
    out = execute(op._op_def, tuple(inputs), op._attrs)
    return out if isinstance(out, tuple) else (out,)


def _unliftable(value, found, consumer: dict, why: str) -> str:
    path, tensor = [], found
    while tensor is not None:
        path.append(f"{tensor._op.name} ({tensor._op.type})")
        tensor = consumer.get(tensor._id)
    return (f"Unable to lift {value!r} out of the function {value._op._graph.name!r}: it "
            f"{why} {found._op!r}, via {' <- '.join(reversed(path))}. Compute the initial "
            "value from values that exist outside the function, or call the function with "
            "tensors (not TensorSpecs) the first time.")
