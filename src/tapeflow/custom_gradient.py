"""stop_gradient, custom_gradient, and the two built on it: grad_pass_through, recompute_grad."""
from __future__ import annotations

import functools
import inspect

from .framework import nest
from .framework.composite_tensor import CompositeTensor
from .framework.context import state, switched
from .framework.execute import execute, record_operation
from .framework.registry import IDENTITY, RegisterGradient, define_op, no_gradient
from .framework.tensor import Tensor, constant
from .framework.variables import Variable
from .ops.array_ops import _identity
from .ops.op_util import NO_ATTRS, as_input

__all__ = ["stop_gradient", "custom_gradient", "grad_pass_through", "recompute_grad"]

StopGradient = define_op("StopGradient", _identity, family=IDENTITY)
no_gradient("StopGradient")


def _results(*values, num_results, **attrs):
    return values[len(values) - num_results:]


# Eagerly only recorded. In a graph, a node taking the inputs, the variables read and f's
# results, passing the results on: gradients go to the inputs and variables, not into f.
CustomGradient = define_op("CustomGradient", _results, num_outputs=None, grad_takes_tensors=True)
CustomGradient.shape_fn = lambda inputs, attrs: [
    (x._value.dtype, x._dims) for x in inputs[len(inputs) - attrs["num_results"]:]]


def stop_gradient(input, name=None) -> Tensor:  # noqa: A002  (TF's argument name)
    """Returns `input` unchanged, but no gradient flows through it.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant(2.0)
        >>> with tf.GradientTape() as t:
        ...     t.watch(x)
        ...     y = x * tf.stop_gradient(x)
        >>> float(t.gradient(y, x))
        2.0
    """
    return execute(StopGradient, (as_input(input),), NO_ATTRS)


class _VariableWatcher:
    """A recorder that only notes which variables are read (for custom_gradient)."""

    def __init__(self) -> None:
        self.variables: dict = {}

    def _variable_accessed(self, variable) -> None:
        if variable._trainable:
            self.variables[variable._id] = variable

    def _record_operation(self, op, inputs, outputs, attrs) -> None:
        pass


def _accepts_variables(fn) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in params)


def custom_gradient(f=None):
    """Decorator: `f(*args)` returns `(y, grad_fn)`; `grad_fn(*dy)` gives the gradients.

    `grad_fn` returns one gradient per argument of `f`. When `f` reads variables that are
    not arguments, `grad_fn` must take `variables=` and return `(arg_grads, var_grads)`.

    Raises:
        TypeError: `f` reads variables but `grad_fn` takes no `variables` argument.
        ValueError: `grad_fn` returns the wrong number of gradients.

    Example:
        >>> import tapeflow as tf
        >>> @tf.custom_gradient
        ... def halve_grad(x):
        ...     return tf.identity(x), lambda dy: dy * 0.5
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as t:
        ...     t.watch(x)
        ...     y = halve_grad(x) * 5.0
        >>> float(t.gradient(y, x))
        2.5
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        if state.graph is not None:
            # In a graph the arguments are tensors before `f` runs (as TF's are): a variable
            # passed in, or an object that converts to one, is read here, so it is an
            # input of `f`, not a variable `f` reads.
            args = nest.map_structure(
                lambda a: a if isinstance(a, CompositeTensor) else as_input(a), args)
        watcher = _VariableWatcher()
        with switched(recorders=[watcher]):
            result, grad_fn = f(*args, **kwargs)
        inputs = tuple(as_input(a) for a in nest.flatten(args))
        input_ids = {x._id for x in inputs}
        variables = [v for i, v in sorted(watcher.variables.items()) if i not in input_ids]
        if variables and not _accepts_variables(grad_fn):
            raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument "
                            "'variables', since function uses variables: "
                            f"{[v.name for v in variables]}")
        if state.graph is not None:
            results = tuple(as_input(r) for r in nest.flatten(result))
            outputs = execute(CustomGradient, inputs + tuple(variables) + results,
                              {"grad_fn": grad_fn, "num_inputs": len(inputs),
                               "variables": variables, "num_results": len(results)})
            return nest.pack_sequence_as(result, list(outputs))
        flat = [r._value if isinstance(r, (Tensor, Variable)) else constant(r)._value
                for r in nest.flatten(result)]
        outputs = tuple(Tensor(value) for value in flat)
        if state.recorders:
            record_operation(CustomGradient, inputs + tuple(variables), outputs,
                             {"grad_fn": grad_fn, "num_inputs": len(inputs),
                              "variables": variables})
        return nest.pack_sequence_as(result, list(outputs))

    return decorated


@RegisterGradient("CustomGradient")
def _custom_gradient_grad(op, *grads):
    grad_fn, count, variables = op.attrs["grad_fn"], op.attrs["num_inputs"], op.attrs["variables"]
    if variables:
        input_grads, variable_grads = grad_fn(*grads, variables=variables)
        variable_grads = list(variable_grads)
        if len(variable_grads) != len(variables):
            raise ValueError(f"Must return gradient for each variable from @custom_gradient "
                             f"grad_fn: {len(variables)} variables, {len(variable_grads)} "
                             "gradients.")
    else:
        input_grads, variable_grads = grad_fn(*grads), []
    input_grads = [None] if input_grads is None else nest.flatten(input_grads)
    if len(input_grads) != count:
        raise ValueError(f"custom_gradient function expected to return {count} gradients, but "
                         f"returned {len(input_grads)} instead.")
    return [None if g is None else as_input(g) for g in input_grads] + variable_grads + \
        [None] * op.attrs.get("num_results", 0)


def grad_pass_through(f):
    """Wraps `f` so the gradient passes to its inputs as if it were the identity.

    Variables read inside `f` get no gradient. Useful for straight-through estimators.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.Variable(1.0, name="x")
        >>> z = tf.Variable(3.0, name="z")
        >>> with tf.GradientTape() as tape:
        ...     y = tf.grad_pass_through(x.assign)(z ** 2)
        >>> float(y), float(tape.gradient(y, z)), float(x)
        (9.0, 6.0, 9.0)
    """
    @custom_gradient
    def passes_through(*args, **kwargs):
        def grad(*upstream, variables=None):
            if variables:
                return upstream, [None] * len(variables)
            return upstream
        return f(*args, **kwargs), grad

    return functools.wraps(f)(passes_through) if hasattr(f, "__name__") else passes_through


def recompute_grad(f):
    """Wraps `f` so its forward pass is not recorded and is re-run for the gradient.

    Trades computation for memory: nothing inside `f` is kept between the passes.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.recompute_grad(lambda x: tf.tanh(x) * x)
        >>> x = tf.constant(0.5)
        >>> with tf.GradientTape() as t:
        ...     t.watch(x)
        ...     y = g(x)
        >>> round(float(t.gradient(y, x)), 5)
        0.85534
    """
    from .eager.backprop import GradientTape

    @custom_gradient
    def recomputed(*args, **kwargs):
        def grad(*upstream, variables=None):
            inputs = [as_input(a) for a in args]
            watched = inputs + list(variables or [])
            with GradientTape(watch_accessed_variables=False) as tape:
                tape.watch(watched)
                result = f(*inputs, **kwargs)
            grads = tape.gradient(result, watched, output_gradients=list(upstream))
            if variables:
                return grads[:len(inputs)], grads[len(inputs):]
            return grads

        return f(*args, **kwargs), grad

    return functools.wraps(f)(recomputed) if hasattr(f, "__name__") else recomputed
