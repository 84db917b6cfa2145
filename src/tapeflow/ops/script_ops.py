"""Python run inside a graph: `EagerPyFunc` (tf.py_function).

A node of this op calls a Python function on its input arrays when the graph runs. Its
gradient rule runs the same function under a GradientTape, so it lives in the eager layer
(eager/script_grad.py). Graph-mode gradients use this op for rules that need dimensions
unknown while the graph is built (tapeflow's own rules build masks and indices with ops; a
user's rule may still read values), and for the gradient of a `while_loop` whose loop
variables change shape.
"""
from __future__ import annotations

import functools

import numpy as np

from ..framework import dtypes, nest
from ..framework.execute import execute
from ..framework.graph_tensor import SymbolicValue
from ..framework.registry import define_op
from ..framework.tensor import Tensor, convert_to_tensor
from .op_util import value_of

__all__ = ["numpy_function", "py_function", "spec_of", "EagerPyFunc"]


def _eager_py_func(*values, fn, Tout, variables=(), into=None):
    # `into`: where a compiled plan computes the inputs (framework/plan.py).
    return tuple([value_of(o) for o in fn(*values[:len(values) - len(variables)])])


EagerPyFunc = define_op("EagerPyFunc", _eager_py_func, num_outputs=None)
EagerPyFunc.shape_fn = lambda inputs, attrs: list(attrs["Tout"])


def spec_of(x) -> tuple:
    """(numpy dtype, dims) of a Tensor, Variable or array; unknown dims are None."""
    value = getattr(x, "_value", x)
    if hasattr(x, "_dims"):
        return value.dtype, x._dims
    if isinstance(value, SymbolicValue):
        return value.dtype, value.dims
    return np.asarray(value).dtype if not hasattr(value, "dtype") else value.dtype, np.shape(value)


def as_tensor(x):
    """A Tensor as is; an array (what a plan hands a Python function) as a Tensor."""
    return x if isinstance(x, Tensor) else Tensor(np.asarray(x))


def py_function(func=None, inp=None, Tout=None, name=None):
    """Runs the Python function `func` on `inp` (tensors) eagerly, even inside a graph.

    Gradients flow through whatever tapeflow ops `func` uses. Without `inp` it wraps
    `func` (a function of tensors that runs as a py_function on each call); without `func`
    too it is a decorator: `@tf.py_function(Tout=tf.float32)`.

    Args:
        func: a function of tensors returning a tensor or a list of tensors.
        inp: the list of input tensors.
        Tout: the output dtype, or a list of them (required, by name in a decorator).

    Returns:
        A tensor, or a list of tensors when `Tout` is a list; without `inp`, the wrapped
        function (or, without `func`, the decorator).

    Raises:
        TypeError: no `Tout`.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.py_function(lambda t: t * t, [x], tf.float32)
        >>> float(y), float(tape.gradient(y, x))
        (9.0, 6.0)
        >>> @tf.py_function(Tout=tf.float32)
        ... def double(t):
        ...     return t * 2.0
        >>> float(tf.function(double)(tf.constant(4.0)))
        8.0
    """
    wrapped = _wrapped("py_function", py_function, func, inp, Tout, name)
    if wrapped is not None:
        return wrapped
    single = not isinstance(Tout, (list, tuple))
    out_dtypes = [dtypes.as_dtype(t) for t in ([Tout] if single else Tout)]

    def call(*values):
        outs = func(*[as_tensor(v) for v in values])
        outs = [outs] if single or not isinstance(outs, (list, tuple)) else list(outs)
        return [convert_to_tensor(o, dtype=d) for o, d in zip(outs, out_dtypes)]

    inputs = tuple([convert_to_tensor(x) for x in nest.flatten(inp)])
    outs = execute(EagerPyFunc, inputs, {"fn": call, "Tout": [(d._np, None) for d in out_dtypes]})
    return outs[0] if single else list(outs)


def _wrapped(public_name: str, script_function, func, inp, Tout, name):
    """For `py_function`/`numpy_function` called without `inp`: `func` wrapped as a
    function of its inputs, or (without `func`) a decorator making one; None when `inp` is
    given. TypeError without `Tout`."""
    if Tout is None:
        raise TypeError(f"{public_name}: missing required argument 'Tout'; as a decorator "
                        f"give it by name: @tf.{public_name}(Tout=dtype)")
    if inp is not None:
        return None
    if func is None:
        return lambda f: _wrapped(public_name, script_function, f, None, Tout, name)

    @functools.wraps(func)
    def run(*args):
        return script_function(func, list(args), Tout, name=name)
    return run


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Runs `func` on the NumPy values of `inp`, eagerly even inside a graph; not
    differentiable (func sees arrays, not tensors). Without `inp` it wraps `func`; with
    only `Tout` given it is a decorator.

    Args:
        func: a function of NumPy arrays returning an array or a list of them.
        inp: the list of input tensors.
        Tout: the output dtype, or a list of them.
        stateful: accepted (every call runs func).

    Returns:
        A tensor, or a list of tensors when `Tout` is a list.

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> tf.numpy_function(np.sort, [tf.constant([3.0, 1.0])], tf.float32).numpy()
        array([1., 3.], dtype=float32)
    """
    wrapped = _wrapped("numpy_function", functools.partial(numpy_function, stateful=stateful),
                       func, inp, Tout, name)
    if wrapped is not None:
        return wrapped

    def on_arrays(*tensors):
        return func(*[np.asarray(t._value) for t in tensors])
    return py_function(on_arrays, [convert_to_tensor(x) for x in inp], Tout, name=name)

