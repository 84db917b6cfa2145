"""Graph-mode gradients: `gradients` and `hessians`.

The reverse interpreter (eager/backward.py) walks the graph's operations in reverse with the
graph domain: the SAME gradient rules as eager mode add their ops to the graph.
"""
from __future__ import annotations

import numpy as np

from ..framework.context import state
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from ..ops.array_ops import ConcatV2, Reshape
from .backward import AggregationMethod, UnconnectedGradients, as_unconnected, backward
from .domains import GraphDomain

__all__ = ["AggregationMethod", "gradients", "hessians"]

_METHODS = (AggregationMethod.ADD_N, AggregationMethod.EXPERIMENTAL_TREE,
            AggregationMethod.EXPERIMENTAL_ACCUMULATE_N)


def _as_list(x) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE) -> list:
    """Symbolic derivatives of the sum of `ys` with respect to each of `xs` (graph mode).

    Args:
        ys: a tensor or list of tensors to differentiate.
        xs: a tensor, variable, or list of them.
        grad_ys: upstream gradients, one per y (None entries, or None, mean ones).
        name: the name scope of the gradient ops.
        gate_gradients: accepted; the values do not depend on it.
        aggregation_method: an `AggregationMethod` value (None for DEFAULT).
        stop_gradients: tensors held constant: no gradient flows through them.
        unconnected_gradients: 'none' (None) or 'zero' (zeros) for an x the ys do not reach.

    Returns:
        A list with one gradient per x.

    Raises:
        RuntimeError: called while executing eagerly (use tf.GradientTape).
        ValueError: `grad_ys` of another length than `ys`, an unknown aggregation method,
            or a tensor from another graph.
        LookupError: an op on the path has no gradient rule.

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     a = tf.constant(0.0)
        ...     b = 2.0 * a
        ...     full = tf.gradients(a + b, [a, b])
        ...     held = tf.gradients(a + b, [a, b], stop_gradients=[a, b])
        ...     with tf.compat.v1.Session() as sess:
        ...         print(sess.run(full), sess.run(held))
        [3.0, 1.0] [1.0, 1.0]
    """
    graph = state.graph
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    unconnected = as_unconnected(unconnected_gradients)
    method = AggregationMethod.DEFAULT if aggregation_method is None else aggregation_method
    if method not in _METHODS:
        raise ValueError(f"Invalid aggregation_method specified {aggregation_method!r}; use "
                         "a tf.AggregationMethod value.")
    ys, xs = _as_list(ys), _as_list(xs)
    upstream = [None] * len(ys) if grad_ys is None else _as_list(grad_ys)
    if len(upstream) != len(ys):
        raise ValueError(f"Passed {len(upstream)} grad_ys for {len(ys)} ys")
    for x in xs:
        _check_source(graph, x)
    with graph.name_scope(name or "gradients"):
        targets = [graph._graph_input(_target(graph, y)) for y in ys]
        stop_ids = {graph._graph_input(_target(graph, s))._id for s in
                    _as_list(stop_gradients or [])}
        records = [(op._op_def, op._inputs, op._outputs, op._attrs) for op in graph._ops]
        return backward(records, targets, upstream, xs, GraphDomain(method), stop_ids=stop_ids,
                        unconnected=unconnected)


def _target(graph, y):
    if isinstance(y, (Tensor, Variable)):
        if isinstance(y, Variable):
            _check_source(graph, y)
        elif hasattr(y, "_op") and not graph._owns_graph(y.graph):
            raise ValueError(f"Tensor {y.name!r} is not an element of the current graph.")
        return y
    return convert_to_tensor(y)


def _check_source(graph, x) -> None:
    if isinstance(x, Variable):
        graph._check_variable(x)
        return
    if not isinstance(x, Tensor):
        raise TypeError(f"gradients() xs must be tensors or variables, got {x!r}")
    if not hasattr(x, "_op"):
        raise ValueError(f"gradients() xs must be tensors of the graph being built; got the "
                         f"eager tensor {x!r}.")
    if not graph._owns_graph(x.graph):
        raise ValueError(f"Tensor {x.name!r} is not an element of the current graph: xs and "
                         "ys must belong to the same graph.")


def hessians(ys, xs, gate_gradients=False, aggregation_method=None, name="hessians") -> list:
    """The Hessian of the sum of `ys` with respect to each of `xs` (graph mode).

    Each result has shape `x.shape + x.shape`. The shape of each x must be fully known.

    Raises:
        RuntimeError: called while executing eagerly.
        ValueError: an x whose shape is not fully known.

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     x = tf.constant([1.0, 2.0])
        ...     h = tf.hessians(tf.reduce_sum(x ** 3), x)[0]
        ...     print(tf.compat.v1.Session().run(h))
        [[ 6.  0.]
         [ 0. 12.]]
    """
    graph = state.graph
    if graph is None:
        raise RuntimeError("tf.hessians is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    xs = _as_list(xs)
    firsts = gradients(ys, xs, name=name, gate_gradients=gate_gradients,
                       aggregation_method=aggregation_method)
    result = []
    for x, g in zip(xs, firsts):
        if g is None:
            result.append(None)
            continue
        shape = tuple(x.shape.dims or ()) if x.shape.rank is not None else None
        if shape is None or None in shape:
            raise ValueError(f"hessians() needs the full shape of {x!r}; got {x.shape}.")
        size = int(np.prod(shape))
        flat = Reshape(g, (size,))
        dtype = x.dtype._np
        rows = []
        for j in range(size):
            row = gradients(flat, x, grad_ys=np.eye(1, size, j, dtype=dtype).reshape(size),
                            name=name, aggregation_method=aggregation_method,
                            unconnected_gradients="zero")[0]
            rows.append(Reshape(row, (1, size)))
        stacked = ConcatV2(*rows, axis=0) if len(rows) > 1 else rows[0]
        result.append(Reshape(stacked, shape + shape))
    return result
