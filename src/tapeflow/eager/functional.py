"""Functional derivatives beyond TF, exported by tf.autodiff: `jvp`, `vjp` and `linearize`
take a function and its arguments, as JAX's do; `hessian` and `hessian_vector_product`
differentiate a scalar function twice. Each is a few lines on top of GradientTape and
ForwardAccumulator.
"""
from __future__ import annotations

from ..framework import nest
from ..framework.context import state
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from .backprop import GradientTape, UnconnectedGradients
from .forwardprop import ForwardAccumulator, output_tangents, tangent_of
from .tape import is_trainable


def _as_primal(x):
    return x if isinstance(x, (Tensor, Variable)) else convert_to_tensor(x)


def jvp(f, primals, tangents):
    """Evaluates `f(*primals)` and its Jacobian-vector product in one forward pass.

    Args:
        f: a function of tensors returning a Tensor or a structure of them.
        primals: a list or tuple of arguments (tensors, variables or values).
        tangents: one tangent per argument, each of its argument's shape.

    Returns:
        `(outputs, output_tangents)`; an output that does not depend on the arguments
        gets a zero tangent.

    Raises:
        ValueError: primals and tangents of different lengths or shapes.

    Example:
        >>> import tapeflow as tf
        >>> y, dy = tf.autodiff.jvp(lambda x: x ** 3.0, [tf.constant(2.0)], [tf.constant(1.0)])
        >>> float(y), float(dy)
        (8.0, 12.0)
    """
    primals = [_as_primal(p) for p in primals]
    with ForwardAccumulator(primals, list(tangents)) as acc:
        outputs = f(*primals)
    return outputs, acc.jvp(outputs, unconnected_gradients="zero")


def vjp(f, *primals):
    """Evaluates `f(*primals)` and returns a function computing vector-Jacobian products.

    Args:
        f: a function of tensors returning a Tensor or a structure of them.
        *primals: its arguments.

    Returns:
        `(outputs, vjp_fn)`: `vjp_fn(cotangents)`, with cotangents shaped like the outputs,
        returns a tuple with one gradient per argument (zeros where unconnected). It may be
        called many times.

    Example:
        >>> import tapeflow as tf
        >>> y, vjp_fn = tf.autodiff.vjp(lambda a, b: a * b, tf.constant(2.0), tf.constant(5.0))
        >>> [float(g) for g in vjp_fn(tf.constant(1.0))]
        [5.0, 2.0]
    """
    primals = [_as_primal(p) for p in primals]
    with GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(primals)
        outputs = f(*primals)

    def vjp_fn(cotangents):
        return tuple(tape.gradient(outputs, primals, output_gradients=nest.flatten(cotangents),
                                   unconnected_gradients="zero"))

    return outputs, vjp_fn


def linearize(f, *primals):
    """Evaluates `f(*primals)` and returns its linearization there.

    `f` runs once; each call of the returned function replays the recorded ops' forward
    rules on new tangents, without recomputing `f`.

    Args:
        f: a function of tensors returning a Tensor or a structure of them.
        *primals: its arguments.

    Returns:
        `(outputs, jvp_fn)`: `jvp_fn(*tangents)`, one tangent per argument, returns the
        output tangents (zeros for outputs that do not depend on the arguments).

    Example:
        >>> import tapeflow as tf
        >>> y, jvp_fn = tf.autodiff.linearize(tf.exp, tf.constant(0.0))
        >>> float(jvp_fn(tf.constant(2.0))), float(jvp_fn(tf.constant(3.0)))
        (2.0, 3.0)
    """
    primals = [_as_primal(p) for p in primals]
    with GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(primals)
        outputs = f(*primals)
    records = list(tape._tape.entries)

    def jvp_fn(*tangents):
        known = {p._id: convert_to_tensor(t, dtype=p.dtype) for p, t in zip(primals, tangents)
                 if is_trainable(p)}
        raw = not state.recorders
        for op, inputs, outs, attrs in records:
            found = [known.get(x._id) for x in inputs]
            if any(t is not None for t in found):
                out = output_tangents(op, inputs, outs, attrs, found, raw)
                known.update((o._id, t) for o, t in zip(outs, out) if t is not None)
        return nest.map_structure(
            lambda o: tangent_of(known, o, UnconnectedGradients.ZERO), outputs)

    return outputs, jvp_fn


def hessian(f, x):
    """The Hessian of a scalar function `f` at `x`: shape `x.shape + x.shape`.

    The gradient is recorded by an outer tape, whose vectorized Jacobian differentiates it
    once more.

    Args:
        f: a function of one tensor returning a scalar Tensor.
        x: the point (a Tensor, Variable or value).

    Returns:
        A Tensor (zeros where `f` does not depend on `x`).

    Example:
        >>> import tapeflow as tf
        >>> tf.autodiff.hessian(lambda x: tf.reduce_sum(x ** 3.0), tf.constant([1.0, 2.0])).numpy()
        array([[ 6.,  0.],
               [ 0., 12.]], dtype=float32)
    """
    x = _as_primal(x)
    with GradientTape(watch_accessed_variables=False) as outer:
        outer.watch(x)
        with GradientTape(watch_accessed_variables=False) as inner:
            inner.watch(x)
            y = f(x)
        grad = inner.gradient(y, x, unconnected_gradients="zero")
    return outer.jacobian(grad, x, unconnected_gradients="zero")


def hessian_vector_product(f, x, v):
    """H(x) v for a scalar function `f`, forward over reverse: about the cost of a gradient
    or two, never forming the Hessian.

    Args:
        f: a function of `x` (a tensor or a structure of them) returning a scalar Tensor.
        x: the point: a Tensor, Variable or value, or a structure of them.
        v: the vector, structured like `x`.

    Returns:
        A structure like `x` (zeros where `f` does not depend on it).

    Example:
        >>> import tapeflow as tf
        >>> f = lambda v: tf.reduce_sum(v ** 3.0)
        >>> x, v = tf.constant([1.0, 2.0]), tf.constant([1.0, 0.0])
        >>> tf.autodiff.hessian_vector_product(f, x, v).numpy()
        array([6., 0.], dtype=float32)
    """
    x = nest.map_structure(_as_primal, x)
    with ForwardAccumulator(x, v) as acc:
        with GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(x)
            y = f(x)
        grad = tape.gradient(y, x, unconnected_gradients="zero")
    return acc.jvp(grad, unconnected_gradients="zero")
