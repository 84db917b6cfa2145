"""tf.compat.v1: TF1's graph-mode API over the same ops and gradient rules.

`import tapeflow.compat.v1 as tf` then `tf.disable_eager_execution()` runs TF1 code: ops
build the default graph, `tf.Variable` makes graph variables, `tf.Session` runs them. Every
name of the top-level `tapeflow` namespace is available here too.

Example:
    >>> import tapeflow.compat.v1 as tf1
    >>> with tf1.Graph().as_default():
    ...     x = tf1.placeholder(tf1.float32, shape=[None])
    ...     y = tf1.reduce_sum(x * x)
    ...     dy = tf1.gradients(y, x)[0]
    ...     with tf1.Session() as sess:
    ...         print(sess.run([y, dy], feed_dict={x: [1.0, 2.0]}))
    [5.0, array([2., 4.], dtype=float32)]
"""
from __future__ import annotations

import importlib

import numpy as np

from ...eager.graph_gradients import gradients as _gradients
from ...eager.graph_gradients import hessians as _hessians
from ...client.session import (IndexedSlicesValue, InteractiveSession, Session,
                               SparseTensorValue)
from ...eager.backprop import UnconnectedGradients
from ...framework import dtypes as _dtypes
from ...framework.context import executing_eagerly, get_default_session
from ...framework.device import device_v1 as device
from ...framework.graph import (Graph, GraphKeys, disable_eager_execution,
                                enable_eager_execution, get_default_graph, reset_default_graph)
from ...framework.registry import no_gradient
from ...framework.tensor_shape import TensorShape
from ...ops.control_flow_ops import control_dependencies, group, no_op
from ...ops.math_ops import log
from ...ops.state_ops import assign, assign_add, assign_sub
from ...ops.array_ops import placeholder_with_default
from ...ops.indexing_ops import where as where_v2
from ...ops.indexing_ops import where_v1 as where
from . import gfile, io, layers, losses, metrics, nn, ragged, summary, train
from .v1_ops import (arg_max, arg_min, count_nonzero, div, local_variables,
                     py_func, random_normal, random_uniform, reduce_all,
                     reduce_any, reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
                     reduce_prod, reduce_sum, scatter_add, scatter_update, set_random_seed,
                     tables_initializer, to_double, to_float, to_int32, to_int64,
                     truncated_normal)
from .scopes import (AUTO_REUSE, VariableScope, constant_initializer, get_variable,
                     get_variable_scope, glorot_normal_initializer, glorot_uniform_initializer,
                     ones_initializer, random_normal_initializer, random_uniform_initializer,
                     truncated_normal_initializer, variable_scope, variance_scaling_initializer,
                     zeros_initializer)

__all__ = ["Session", "InteractiveSession", "IndexedSlicesValue", "SparseTensorValue",
           "placeholder", "gradients", "where", "where_v2",
           "hessians",
           "global_variables_initializer", "variables_initializer", "global_variables",
           "trainable_variables", "local_variables_initializer", "initialize_all_variables",
           "disable_eager_execution", "enable_eager_execution", "disable_v2_behavior",
           "get_default_graph", "get_default_session", "reset_default_graph", "Graph", "GraphKeys", "assign",
           "assign_add", "assign_sub", "control_dependencies", "group", "no_op",
           "get_collection", "add_to_collection", "name_scope", "train", "gfile", "io",
           "log", "NoGradient",
           "NotDifferentiable", "AUTO_REUSE", "VariableScope", "constant_initializer",
           "get_variable", "get_variable_scope", "glorot_normal_initializer",
           "glorot_uniform_initializer", "ones_initializer", "random_normal_initializer",
           "random_uniform_initializer", "truncated_normal_initializer", "variable_scope",
           "variance_scaling_initializer", "zeros_initializer",
           "arg_max", "arg_min", "count_nonzero", "div", "local_variables",
           "placeholder_with_default", "py_func", "random_normal", "random_uniform", "reduce_all",
           "reduce_any", "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min",
           "reduce_prod", "reduce_sum", "scatter_add", "scatter_update", "set_random_seed",
           "tables_initializer", "to_double", "to_float", "to_int32", "to_int64",
           "truncated_normal", "device", "layers", "losses", "metrics", "nn", "ragged",
           "summary"]

NoGradient = NotDifferentiable = no_gradient


def placeholder(dtype, shape=None, name=None):
    """A graph input fed through `Session.run(..., feed_dict={placeholder: value})`.

    Args:
        dtype: its dtype.
        shape: its shape; None dimensions (or shape=None) accept any size.
        name: the op name (default "Placeholder").

    Raises:
        RuntimeError: called while executing eagerly.

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        <tf.Tensor 'x:0' shape=(None, 3) dtype=float32>
    """
    if executing_eagerly():
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    return get_default_graph().placeholder(np.dtype(_dtypes.as_dtype(dtype).as_numpy_dtype),
                                           TensorShape(shape), name=name)


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """tf.gradients with TF1's extra `colocate_gradients_with_ops` (accepted, no effect).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     x = tf1.constant(3.0)
        ...     print(tf1.Session().run(tf1.gradients(x * x, x)))
        [6.0]
    """
    return _gradients(ys, xs, grad_ys, name, gate_gradients, aggregation_method,
                      stop_gradients, unconnected_gradients)


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """tf.hessians with TF1's argument order.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     x = tf1.constant(3.0)
        ...     print(tf1.Session().run(tf1.hessians(x * x * x, x)))
        [18.0]
    """
    return _hessians(ys, xs, gate_gradients, aggregation_method, name)


def global_variables(scope=None) -> list:
    """The variables of the default graph (whose names start with `scope` if given).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     v = tf1.Variable(1.0, name="v")
        ...     w = tf1.Variable(2.0, name="w", trainable=False)
        ...     print([x.name for x in tf1.global_variables()],
        ...           [x.name for x in tf1.trainable_variables()])
        ['v:0', 'w:0'] ['v:0']
    """
    return get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


def trainable_variables(scope=None) -> list:
    """The trainable variables of the default graph (see `global_variables`)."""
    return get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    """An operation running the initializers of `var_list` (see `global_variables_initializer`)."""
    return group(*[v.initializer for v in var_list], name=name)


def global_variables_initializer():
    """An operation initializing every variable of the default graph.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     v = tf1.Variable([1.0, 2.0])
        ...     sess = tf1.Session()
        ...     _ = sess.run(tf1.global_variables_initializer())
        ...     print(sess.run(v))
        [1. 2.]
    """
    return variables_initializer(global_variables())


initialize_all_variables = global_variables_initializer


def is_variable_initialized(variable):
    """A bool tensor: whether `variable` has a value (a graph variable: in the session that
    runs it; an eager one: always).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     v = tf1.Variable(1.0)
        ...     ready = tf1.is_variable_initialized(v)
        ...     sess = tf1.Session()
        ...     before = sess.run(ready)
        ...     _ = sess.run(v.initializer)
        ...     print(before, sess.run(ready))
        False True
    """
    from ...framework.graph_variables import GraphVariable
    if not isinstance(variable, GraphVariable):
        from ...framework.tensor import constant
        return constant(True)
    return variable.graph.variable_is_initialized(variable)


def local_variables_initializer():
    """An operation initializing the local variables (metrics' counters)."""
    return variables_initializer(get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES))


def get_collection(key, scope=None) -> list:
    """The items of the default graph's collection `key` (see `GraphKeys`)."""
    return get_default_graph().get_collection(key, scope)


def add_to_collection(name, value) -> None:
    """Appends `value` to the default graph's collection `name`."""
    get_default_graph().add_to_collection(name, value)


def name_scope(name, default_name=None, values=None):
    """Prefixes the names of ops created inside (in the default graph).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     with tf1.name_scope("layer"):
        ...         print(tf1.constant(1.0).name)
        layer/Const:0
    """
    return get_default_graph().name_scope(name or default_name)


def disable_v2_behavior() -> None:
    """TF1 behavior: here, graph building instead of eager execution."""
    disable_eager_execution()


from . import graph_util  # noqa: E402,F401  (tf.compat.v1.graph_util)


def __getattr__(name: str):
    top = importlib.import_module(__name__.rsplit(".", 2)[0])
    try:
        return getattr(top, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
