"""`tf.xla.experimental`: `compile` and `jit_scope`.

tapeflow has no XLA; `compile` traces the computation into a graph and runs it as one
compiled plan (what `tf.function(jit_compile=True)` does too), and `jit_scope` marks a
region that the plan already covers.
"""
from __future__ import annotations

import contextlib

from ..autograph.api import function
from ..framework.context import executing_eagerly
from ..framework.tensor import convert_to_tensor

__all__ = ["compile", "jit_scope"]


def compile(computation, inputs=None):  # noqa: A001  (TF's name)
    """Runs `computation(*inputs)` compiled and returns its outputs as TF does.

    Args:
        computation: a Python function returning tensors, a structure of them, or None.
        inputs: a list of its arguments (tensors or values convertible to them), or None.

    Returns:
        A list: `[output]` for one tensor, the outputs as a list for a tuple or list of
        them (nested structures kept); a dict is returned as a dict. In a graph, None
        gives the no-op operation.

    Raises:
        TypeError: eagerly, the computation returned None.

    Example:
        >>> import tapeflow as tf
        >>> tf.xla.experimental.compile(lambda a, b: a * b, inputs=[tf.constant(2.0), 3.0])
        [<tf.Tensor: shape=(), dtype=float32, numpy=6.0>]
    """
    args = [convert_to_tensor(x) for x in (inputs or [])]
    if executing_eagerly():
        outputs = function(computation, autograph=False, jit_compile=True)(*args)
    else:
        outputs = computation(*args)
    if outputs is None:
        if executing_eagerly():
            raise TypeError("xla.experimental.compile: the computation returned None; return "
                            "zero or more tensors")
        from ..ops.control_flow_ops import no_op
        return no_op()
    if isinstance(outputs, dict):
        return outputs
    if isinstance(outputs, (list, tuple)):
        return list(outputs)
    return [outputs]


@contextlib.contextmanager
def jit_scope(compile_ops=True, separate_compiled_gradients=False):
    """Marks ops built inside for compilation; inside `tf.function` they already run as
    one compiled plan.

    Args:
        compile_ops: whether to compile the ops (a bool, or a callable taking an op's
            node definition).
        separate_compiled_gradients: compile gradients apart from the forward ops.

    Raises:
        RuntimeError: used eagerly (TF supports it only inside tf.function).

    Example:
        >>> import tapeflow as tf
        >>> @tf.function
        ... def f(x):
        ...     with tf.xla.experimental.jit_scope():
        ...         return x + 1
        >>> float(f(tf.constant(1.0)))
        2.0
    """
    if executing_eagerly():
        raise RuntimeError("xla.experimental.jit_scope is not supported when eager execution "
                           "is enabled. Try use it inside tf.function.")
    yield
