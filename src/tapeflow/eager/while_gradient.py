"""The gradient of a `While` node (see control_flow.py's docstring).

Traced, it is graph ops: the forward loop keeps, stacked, the loop variables and the
intermediate values each iteration's backward reads, and a second loop runs the body's
backward operations over them in reverse. Loop variables whose shapes may change between
iterations take the run-time gradient instead (`runtime_vjp`).
"""
from __future__ import annotations

import numpy as np

from ..framework import nest
from ..framework.context import state
from ..framework.execute import execute
from ..framework.graph_tensor import SymbolicTensor
from ..framework.registry import RegisterGradient
from ..framework.tensor import convert_to_tensor
from ..ops.array_ops import expand_dims, shape, stack
from ..ops.creation_ops import zeros, zeros_like
from ..ops.indexing_ops import Bound, ScatterNd, tensor_scatter_nd_add
from ..ops.math_ops import floormod
from ..ops.op_util import value_of
from .control_flow import While, _graph_while, while_loop
from .domains import dense
from .function import ConcreteFunction
from .script_grad import runtime_vjp
from .tape import is_trainable


@RegisterGradient("While")
def _while_grad(op, *grads):
    if state.graph is not None:
        traced = _traced_while_grad(op, grads)
        if traced is not None:
            return traced
    attrs = op.attrs
    count, captured = attrs["count"], attrs["captured"]
    cond_fn, body_fn, limit = attrs["cond_fn"], attrs["body_fn"], attrs["maximum_iterations"]
    keep, collect = attrs.get("keep", ()), attrs.get("collect", 0)

    def forward(*values):
        loop, extra = list(values[:count]), list(values[count:count + captured])
        kept = [[] for _ in keep]
        collected = [[] for _ in range(collect)]
        i = 0
        while (limit is None or i < limit) and bool(value_of(
                nest.flatten(cond_fn._call_flat(loop + extra))[0])):
            for history, k in zip(kept, keep):
                history.append(loop[k])
            out = nest.flatten(body_fn._call_flat(loop + extra))
            for history, x in zip(collected, out[count:]):
                history.append(x)
            loop = out[:count]
            i += 1
        if len(attrs["specs"]) == count:
            return loop
        return [*loop, convert_to_tensor(i), *[
            stack(h) if h else zeros((0,) + tuple(values[k].shape), values[k].dtype)
            for h, k in zip(kept, keep)], *[
            stack(h) if h else zeros([0 if d is None else d for d in dims], dtype)
            for h, (dtype, dims) in zip(collected, attrs["specs"][len(attrs["specs"]) - collect:])]]
    return runtime_vjp(forward, op.inputs[:count + captured], grads, attrs["variables"])


def _traced_while_grad(op, grads):
    """The gradient of a While node as graph ops: the forward loop (or a second run of it)
    keeps, stacked, the loop variables each iteration started from and the intermediate
    values its backward reads, then a loop runs the body's traced backward graph over them
    in reverse, one slice per iteration. A captured tensor the body reads one row of (a
    TensorArray's `read(t)`) gets its gradient rows collected by that loop and added into
    place once after it, not a dense gradient per iteration. None when a loop variable's
    shape may change from one iteration to the next (the run-time gradient handles those).

    A While that keeps or collects values has its gradient the same way: the upstream
    gradient of history row j joins the gradient of the loop variables iteration j started
    from, that of collected row j the body's upstream gradient of that value."""
    attrs = op.attrs
    count, n_cap = attrs["count"], attrs["captured"]
    cond_fn, body_fn = attrs["cond_fn"], attrs["body_fn"]
    own_keep, collect = attrs.get("keep", ()), attrs.get("collect", 0)
    loop_in = list(op.inputs[:count])
    captured = list(op.inputs[count:count + n_cap])
    variables = list(attrs["variables"])
    dims = [dims for _, dims in attrs["specs"][:count]]
    # Unknown dimensions are fine where the loop variable keeps the shape it entered with
    # (the iterations then stack); a relaxed shape invariant may change it.
    if any(d is None or None in d and d != x._dims for d, x in zip(dims, loop_in)):
        return None
    loop_t = [k for k in range(count) if is_trainable(loop_in[k])]
    cap_t = [c for c in range(n_cap) if is_trainable(captured[c])
             and op.needs_gradient(count + c)]
    upstream_collected = list(grads[len(grads) - collect:]) if collect else []
    extra_t = [e for e, g in enumerate(upstream_collected) if g is not None]
    backward, reads, saved, rows = _body_backward(body_fn, count, loop_t,
                                                  [count + c for c in cap_t], extra_t)
    cap_rows = [c for c in cap_t if count + c in rows]
    cap_dense = [c for c in cap_t if count + c not in rows]
    keep = tuple(k for k in range(count) if k in reads)
    saving = body_fn if not saved else ConcreteFunction(
        body_fn.graph, list(body_fn.inputs), list(body_fn.outputs) + saved,
        always=body_fn._always, name=f"{body_fn.name}_saving")
    specs = list(attrs["specs"][:count]) + [(np.dtype(np.int32), ())] + \
        [(attrs["specs"][k][0], (None,) + tuple(dims[k])) for k in keep] + \
        [(dtype, None if d is None else (None, *d))
         for dtype, d in saving._output_specs[count:]]
    kept = _keeping(op.outputs[0]._op, keep, specs, saving, collect + len(saved))
    if kept is None:  # the loop runs again, keeping what the backward reads
        kept = execute(While, (*loop_in, *captured, *variables),
                       {**attrs, "keep": keep, "specs": specs, "body_fn": saving,
                        "collect": collect + len(saved)})
    steps, history = kept[count], dict(zip(keep, kept[count + 1:count + 1 + len(keep)]))
    saved_history = kept[count + 1 + len(keep) + collect:]
    upstream_history = dict(zip(own_keep, grads[count + 1:count + 1 + len(own_keep)]))
    own = {v._id: i for i, v in enumerate(body_fn.variables)}
    n_loop, n_dense, n_vars = len(loop_t), len(cap_dense), len(body_fn.variables)

    def reverse_body(j, *rest):
        g_loop = rest[:n_loop]
        g_cap = rest[n_loop:n_loop + n_dense]
        g_var = rest[n_loop + n_dense:]
        j = j - 1
        inputs = [history[k][j] if k in history else loop_in[k] for k in range(count)]
        upstream = list(g_loop) + [dense(upstream_collected[e])[j] for e in extra_t]
        result = _inlined(backward, inputs + captured + [h[j] for h in saved_history] +
                          upstream)
        new_loop = result[:n_loop]
        for n, k in enumerate(loop_t):
            if upstream_history.get(k) is not None:
                new_loop[n] = new_loop[n] + dense(upstream_history[k])[j]
        new_cap = [a + g for a, g in zip(g_cap, result[n_loop:n_loop + n_dense])]
        var_grads = result[n_loop + n_dense:n_loop + n_dense + n_vars]
        new_var = [a + var_grads[own[v._id]] if v._id in own else a
                   for a, v in zip(g_var, variables)]
        return [j, *new_loop, *new_cap, *new_var, *result[n_loop + n_dense + n_vars:]]

    start = [steps, *[dense(grads[k]) if grads[k] is not None else zeros_like(loop_in[k])
                      for k in loop_t],
             *[zeros_like(captured[c]) for c in cap_dense],
             *[zeros(v.shape, v.dtype) for v in variables]]
    done, _, rows_found = _graph_while(lambda j, *rest: j > 0, reverse_body, start, False,
                                       None, None, collect=2 * len(cap_rows)) \
        if cap_rows else (while_loop(lambda j, *rest: j > 0, reverse_body, start), None, [])
    done = done[1:]
    in_grads: list = [None] * (count + n_cap)
    for k, g in zip(loop_t, done[:n_loop]):
        in_grads[k] = g
    for c, g in zip(cap_dense, done[n_loop:n_loop + n_dense]):
        in_grads[count + c] = g
    for n, c in enumerate(cap_rows):
        values, index = rows_found[2 * n], rows_found[2 * n + 1]
        index = expand_dims(floormod(index, shape(captured[c], out_type=index.dtype)[0]), -1)
        dims = captured[c].shape
        in_grads[count + c] = ScatterNd(index, values, shape=tuple(dims.as_list())) \
            if dims.is_fully_defined() else \
            tensor_scatter_nd_add(zeros_like(captured[c]), index, values)
    return in_grads + list(done[n_loop + n_dense:])


def _inlined(fn, args: list) -> list:
    """The outputs of the ConcreteFunction `fn` on `args`, its operations added to the
    graph being built (so that a loop body's own operations are what a While runs, and
    what it may update in place), or a call of it when one of them writes a variable."""
    if any(not hasattr(x, "_op") for op in fn._plan.ops if op.type != "ReadVariableOp"
           for x in op._inputs):
        result = fn._call_flat(args)
        return list(result) if isinstance(result, (list, tuple)) else [result]
    mapped = {x._id: a for x, a in zip(fn.inputs, args)}
    for op in fn._plan.ops:
        outs = op._outputs
        if outs and all(o._id in mapped for o in outs):  # fed
            continue
        if outs and all(o._const is not None for o in outs):
            for o in outs:
                mapped[o._id] = convert_to_tensor(o._const)
        elif op.type == "ReadVariableOp":
            mapped[outs[0]._id] = state.graph._graph_input(op._inputs[0])
        elif op.type != "NoOp":
            results = execute(op._op_def, tuple(mapped[x._id] for x in op._inputs),
                              dict(op._attrs))
            for o, r in zip(outs, results if isinstance(results, (tuple, list)) else
                            (results,)):
                mapped[o._id] = r
    return [mapped[o._id] for o in fn.outputs]


def _keeping(forward, keep: tuple, specs: list, body_fn, collect: int):
    """The outputs of the forward While node `forward` made to keep the history `keep`
    and collect what `body_fn` (the node's body with the intermediate values the backward
    reads as extra outputs) computes too (its count of steps, then the stacked loop
    variables, then the stacked values), or None when it cannot.

    A node of the graph being built that keeps nothing yet is changed in place when
    nothing records the backward pass: plans compiled before bound its attributes and
    outputs as they were and are unaffected; those compiled after run the loop once,
    keeping the history, instead of twice."""
    # A recorder (an outer tape) saw the node with its first outputs only: gradients it
    # sends through the history would not reach the node, so it is left as it is.
    if forward._graph is not state.graph or len(forward._attrs["specs"]) > \
            forward._attrs["count"] or state.recorders:
        return None
    count = forward._attrs["count"]
    forward._attrs = {**forward._attrs, "keep": keep, "specs": specs, "body_fn": body_fn,
                      "collect": collect}
    forward._outputs = forward._outputs + tuple(
        SymbolicTensor(forward, count + i, dtype, dims)
        for i, (dtype, dims) in enumerate(specs[count:]))
    return forward._outputs


def _row_gradient(g):
    """[row, index] when the gradient `g` is zeros but for the row `index` (that of a read
    `x[index]` of a tensor the loop body captured), else None."""
    op = getattr(g, "_op", None)
    if op is None or op.type != "DynamicStridedSliceGrad":
        return None
    spec = op._attrs["spec"]
    if len(spec) != 1 or type(spec[0]) is not Bound or len(op._inputs) != 3:
        return None
    return [op._inputs[0], op._inputs[2]]


def _body_backward(body_fn, count: int, loop_t: list, cap_t: list, extra_t: list) -> tuple:
    """The backward graph of a loop body reduced to what the loop's gradient uses: a
    function of (the body's inputs, the intermediate values it reads, the upstream
    gradients of the trainable loop variables and of the collected values `extra_t`)
    returning the gradients of those loop variables, of the captured inputs `cap_t`
    (positions among the body's inputs) read densely, of the body's variables (zeros where
    the body does not reach them), then [row, index] for each captured input read by one
    row. Also returns the positions of the loop variables it reads, the intermediate
    values it reads (computed by the forward body, of fully known shape) and the
    positions of the captured inputs read by row."""
    info = body_fn._gradient_info()
    graph = body_fn.graph
    n_in = len(body_fn.inputs)
    rows, row_values, wanted = [], [], []

    def zeros_for(x):  # of a static shape without reading x (the loop then need not keep it)
        return zeros(x.shape, x.dtype) if x.shape.is_fully_defined() else zeros_like(x)

    with graph.as_default():
        for i in loop_t:
            wanted.append(info.grads[i] if info.grads[i] is not None
                          else zeros_for(body_fn.inputs[i]))
        for i in cap_t:
            row = _row_gradient(info.grads[i])
            if row is not None:
                rows.append(i)
                row_values += row
            else:
                wanted.append(info.grads[i] if info.grads[i] is not None
                              else zeros_for(body_fn.inputs[i]))
        wanted += [g if g is not None else zeros(v.shape, v.dtype)
                   for g, v in zip(info.grads[n_in:], body_fn.variables)]
        wanted = [convert_to_tensor(dense(g)) for g in wanted] + row_values
    upstream = [info.grad_inputs[k] for k in loop_t] + \
        [info.grad_inputs[count + e] for e in extra_t]
    # A variable's value is read again rather than kept once per iteration.
    saved = [t for t in info.saved if t._dims is not None and None not in t._dims
             and t._op.type != "ReadVariableOp"]

    def build(saved):
        return ConcreteFunction(graph, list(body_fn.inputs) + saved + upstream, wanted,
                                name=f"{body_fn.name}_backward")
    backward = build(saved)
    used = {x._id for o in backward._plan.ops for x in o._inputs} | \
        {x._id for x in backward.outputs}
    if any(t._id not in used for t in saved):
        saved = [t for t in saved if t._id in used]
        backward = build(saved)
    reads = {k for k in range(count) if body_fn.inputs[k]._id in used}
    return backward, reads, saved, rows
