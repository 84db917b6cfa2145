"""Graph-mode gradients: `gradients`, `hessians`, and GradientTape inside a graph.

The backward pass walks the graph's operations in reverse and calls the SAME gradient
rules as eager mode, on a view whose inputs and outputs are the symbolic tensors, so each
rule adds its ops to the graph through `execute`. A rule that needs a value, or a
dimension unknown while the graph is built (`shape_of` of a `[None, 3]` tensor, a mask
from `value_of`), raises SymbolicValueError; that rule then runs when the graph runs,
inside one EagerPyFunc node (ops/script_ops.py), which is itself differentiable.
"""
from __future__ import annotations

import numpy as np

from .eager.backprop import UnconnectedGradients, _count_error, as_unconnected, unbroadcast
from .eager.tape import OpRecord, is_trainable
from .framework import errors
from .framework.context import state
from .framework.graph_tensor import SymbolicValue
from .framework.indexed_slices import IndexedSlices, aggregate, to_dense
from .framework.registry import NO_GRADIENT, get_op, gradient_rule
from .framework.tensor import Tensor, constant, convert_to_tensor
from .framework.variables import Variable
from .ops.op_util import shape_of, value_of
from .ops.script_ops import EagerPyFunc, spec_of

__all__ = ["AggregationMethod", "gradients", "hessians", "symbolic_backward", "tape_gradient",
           "filled_like"]


class AggregationMethod:
    """How the gradients reaching one tensor along several paths are summed.

    `ADD_N` (the `DEFAULT`) sums them all at once; `EXPERIMENTAL_TREE` pairwise, which holds
    fewer partial sums; `EXPERIMENTAL_ACCUMULATE_N` behaves like the tree. IndexedSlices
    are always aggregated by concatenation.

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     x = tf.constant(2.0)
        ...     g = tf.gradients(x * x + x * 3.0, x,
        ...                      aggregation_method=tf.AggregationMethod.EXPERIMENTAL_TREE)
        ...     print(tf.compat.v1.Session().run(g))
        [7.0]
    """

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


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
        records = [OpRecord(op._op_def, op._inputs, op._outputs, op._attrs) for op in graph._ops]
        grads = symbolic_backward(records, targets, upstream, xs, stop_ids, method)
        if unconnected is UnconnectedGradients.ZERO:
            grads = [filled_like(x, 0) if g is None else g for g, x in zip(grads, xs)]
    return grads


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
    from .ops.array_ops import ConcatV2, Reshape
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


def tape_gradient(tape, targets: list, sources: list, upstream: list,
                  unconnected: UnconnectedGradients) -> list:
    """GradientTape.gradient while a graph is built: the recorded ops' symbolic backward."""
    graph = state.graph
    targets = [graph._graph_input(t) if isinstance(t, Tensor) and not hasattr(t, "_op")
               and t._id not in {s._id for s in sources} else t for t in targets]
    grads = symbolic_backward(list(tape.entries), targets, upstream, sources, set(),
                              AggregationMethod.DEFAULT)
    if unconnected is UnconnectedGradients.ZERO:
        grads = [filled_like(s, 0) if g is None else g for g, s in zip(grads, sources)]
    return grads


def symbolic_backward(records: list, targets: list, upstream: list, sources: list,
                      stop_ids: set, method: int) -> list:
    """d(sum of targets)/d(source) for each source, as graph tensors (None if unconnected).

    `records` are OpRecords in a topological order (creation order); tensors are matched
    by `_id`, so a variable source collects the gradients of all its reads.
    """
    source_ids = {s._id for s in sources}
    relevant = set(source_ids)
    for rec in records:
        for x in rec.inputs:
            if x._id in relevant:
                relevant.update([o._id for o in rec.outputs if is_trainable(o)])
                break
    pending: dict = {}
    for t, g in zip(targets, upstream):
        if not is_trainable(t) or t._id not in relevant:
            continue
        g = filled_like(t, 1) if g is None else _as_gradient(g, t)
        pending.setdefault(t._id, []).append(g)
    found: dict = {}
    for rec in reversed(records):
        outputs = rec.outputs
        if not any(o._id in pending for o in outputs):
            continue
        out_grads = []
        for o in outputs:
            grads = pending.pop(o._id, None)
            g = None if grads is None else _aggregate(grads, method)
            if g is not None and o._id in source_ids:
                found[o._id] = g
            out_grads.append(None if o._id in stop_ids else g)
        if all(g is None for g in out_grads) or not any(o._id in relevant for o in outputs):
            continue
        op_def = rec.op
        rule = gradient_rule(op_def)
        if rule is NO_GRADIENT:
            continue
        if len(outputs) > 1:
            out_grads = [filled_like(o, 0) if g is None else g for o, g in zip(outputs, out_grads)]
        if not op_def.grad_takes_indexed_slices:
            out_grads = [to_dense(g) if type(g) is IndexedSlices else g for g in out_grads]
        rec._needed = relevant
        in_grads = _call_rule(rule, rec, out_grads)
        inputs = rec.inputs
        for x, g in zip(inputs, in_grads):
            if g is None or x._id not in relevant:
                continue
            pending.setdefault(x._id, []).append(_unbroadcast(g, x, len(inputs) == 1))
    result = []
    for s in sources:
        g = found.get(s._id)
        if g is None and s._id in pending:
            g = _aggregate(pending[s._id], method)
        result.append(g)
    return result


def _call_rule(rule, rec: OpRecord, out_grads: list) -> list:
    try:
        in_grads = rule(rec, *out_grads)
    except errors.SymbolicValueError:
        return _runtime_rule(rule, rec, out_grads)
    return _one_per_input(rec.op, in_grads, len(rec.inputs))


def _one_per_input(op_def, in_grads, count: int) -> list:
    """A rule's result as a list of one gradient per input (ValueError naming the op)."""
    if count == 1 and not isinstance(in_grads, (tuple, list)):
        return [in_grads]
    if not isinstance(in_grads, (tuple, list)) or len(in_grads) != count:
        raise _count_error(op_def, in_grads, count)
    return list(in_grads)


def _runtime_rule(rule, rec: OpRecord, out_grads: list) -> list:
    """The rule as one EagerPyFunc node: it runs on the arrays when the graph runs."""
    op_def, attrs, needed = rec.op, rec.attrs, rec._needed
    inputs, outputs = list(rec.inputs), list(rec.outputs)
    n_in, n_out = len(inputs), len(outputs)
    wanted = [i for i, x in enumerate(inputs) if x._id in needed and is_trainable(x)]

    def run_rule(*values):
        if op_def.grad_takes_tensors:  # user code (a custom_gradient's grad_fn)
            values = [v if isinstance(v, Tensor) else Tensor(np.asarray(v)) for v in values]
        view = OpRecord(op_def, values[:n_in], values[n_in:n_in + n_out], attrs)
        view._tensors, view._needed = inputs, needed
        in_grads = _one_per_input(op_def, rule(view, *values[n_in + n_out:]), n_in)
        result = []
        for i in wanted:
            g = in_grads[i]
            if isinstance(g, IndexedSlices):
                g = convert_to_tensor(g)
            x = values[i]
            result.append(np.zeros_like(value_of(x)) if g is None else unbroadcast(g, shape_of(x)))
        return result

    specs = [spec_of(inputs[i]) for i in wanted]
    outs = EagerPyFunc(*inputs, *outputs, *out_grads, fn=run_rule, Tout=specs)
    in_grads: list = [None] * n_in
    for i, g in zip(wanted, outs):
        in_grads[i] = g
    return in_grads


def _dims(x):
    if hasattr(x, "_dims"):
        return x._dims
    value = getattr(x, "_value", x)
    if isinstance(value, SymbolicValue):
        return value.dims
    return tuple(x.shape.dims) if isinstance(x, Variable) else np.shape(value)


def _unbroadcast(g, x, single_input: bool):
    """`g` summed to the shape of input `x` (at run time when a dimension is unknown)."""
    if isinstance(g, IndexedSlices):
        return g
    xd, gd = _dims(x), _dims(g)
    if xd is not None and gd is not None and None not in xd and None not in gd:
        return g if gd == xd else unbroadcast(g, tuple(xd))
    if single_input and xd == gd:
        return g
    out = EagerPyFunc(g, x, fn=lambda gv, xv: [unbroadcast(gv, shape_of(xv))],
                      Tout=[(spec_of(g)[0], xd)])
    return out[0]


def filled_like(t, value):
    """A tensor shaped like `t` filled with `value` (an op when the shape is not known)."""
    dtype, dims = spec_of(t)
    if dims is not None and None not in dims:
        return constant(np.full(dims, value, dtype))
    out = EagerPyFunc(t, fn=lambda a: [np.full(np.shape(value_of(a)), value, dtype)],
                      Tout=[(dtype, dims)])
    return out[0]


def _as_gradient(g, t):
    if isinstance(g, IndexedSlices):
        return g
    g = convert_to_tensor(g, dtype=t.dtype)
    return state.graph._graph_input(g)


def _aggregate(grads: list, method: int):
    if len(grads) == 1:
        return grads[0]
    if any(isinstance(g, IndexedSlices) for g in grads):
        total = grads[0]
        for g in grads[1:]:
            total = aggregate(total, g)
        return total
    if method == AggregationMethod.ADD_N:
        add_n = _add_n_op()
        if add_n is not None:
            return add_n(*grads)
        total = grads[0]
        for g in grads[1:]:
            total = total + g
        return total
    while len(grads) > 1:
        paired = [a + b for a, b in zip(grads[::2], grads[1::2])]
        grads = paired + ([grads[-1]] if len(grads) % 2 else [])
    return grads[0]


def _add_n_op():
    try:
        return get_op("AddN")
    except LookupError:
        return None
