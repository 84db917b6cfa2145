"""Control flow: `cond` and `while_loop`.

Eagerly they are plain Python (a tape records the ops that ran). While a graph is built,
each branch, loop condition and loop body is traced into its own FuncGraph; the node (`If`,
`While`) runs the chosen compiled plans when the graph runs. The gradient of an `If` is
another `If` whose branches are the traced backward graphs of the forward branches
(differentiable again the same way). The gradient of a `While` makes the forward loop
keep, stacked once at the end, the loop variables each iteration started from and the
intermediate values of each iteration (only those the body's backward reads; a second
loop does it when the forward node cannot be changed), and adds a loop of graph ops
running the body's backward operations over them in reverse, one slice per iteration, so
memory grows linearly with the steps and nothing is computed twice. A captured tensor the
body reads one row of per iteration (a TensorArray's `read(t)`) gets its gradient as the
rows that loop collects, added into place once after it. A TensorArray written one row per
iteration is written in the loop's own copy of its buffer, in place. Loop variables whose
shapes may change between iterations (relaxed shape invariants, TensorArrays of dynamic
size) fall back to re-running the loop under a GradientTape at run time (`runtime_vjp`).
A TensorArray among the loop variables, or returned by a branch, travels as its buffer.
Tracing makes this part of the eager layer; `group`, `no_op` and `control_dependencies`
are graph ops (ops/control_flow_ops.py).
"""
from __future__ import annotations

import weakref

import numpy as np

from ..framework import errors, nest
from ..framework.composite_tensor import CompositeTensor, is_composite_spec
from ..framework.context import state
from ..framework.execute import execute
from ..framework.graph import FuncGraph
from ..framework.graph_def import graph_def_form
from ..framework.indexed_slices import IndexedSlices, to_dense
from ..framework.plan import Plan
from ..framework.registry import RegisterGradient, define_op
from ..framework.shape_inference import full_value
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.creation_ops import zeros, zeros_like
from ..ops.op_util import value_of
from ..ops.tensor_array_ops import IN_PLACE, TensorArray
from .function import ConcreteFunction
from .script_grad import runtime_vjp
from .tape import is_trainable

__all__ = ["cond", "while_loop"]


def _if_kernel(pred, *values, then_branch, else_branch, count, specs, variables):
    branch = then_branch if pred else else_branch
    return branch._plan(*values[:count])


def _while_kernel(*values, cond_fn, body_fn, count, captured, maximum_iterations, specs,
                  variables, keep=(), collect=0):
    loop = list(values[:count])
    extra = list(values[count:count + captured])
    trips = _trips.get(body_fn, 0)
    kept = [_History(trips) for _ in keep]
    collected = [_History(trips) for _ in range(collect)]
    body, updates, prelude = _in_place_plan(body_fn, count)
    fed = None  # the body's captured inputs and loop-invariant values, on the first iteration
    for k, _, _ in updates:  # the loop's own copy, which the updates then change
        loop[k] = loop[k].copy()
    owned = {k for k, _, _ in updates}
    cond, body = cond_fn._plan.inner(), body.inner()
    i = 0
    while (maximum_iterations is None or i < maximum_iterations) and cond(*loop, *extra)[0]:
        for history, k in zip(kept, keep):
            history.append(loop[k].copy() if k in owned else loop[k])
        if fed is None:
            fed = extra if prelude is None else \
                extra + [_contiguous(v) for v in prelude(*extra)]
        out = body(*loop, *fed)
        if updates:
            out = _updated(out, updates, count + collect)
        if collect:
            for history, x in zip(collected, out[count:count + collect]):
                history.append(x)
        loop = list(out[:count])
        i += 1
    if len(specs) == count:
        return tuple(loop)
    if keep or collect:
        _trips[body_fn] = i
    # The loop variables each iteration started from, and the values the body collects,
    # each as one array.
    return (*loop, np.asarray(i, np.int32),
            *[h.stacked((0,) + np.shape(values[k]), values[k].dtype)
              for h, k in zip(kept, keep)],
            *[h.stacked([0 if d is None else d for d in dims], dtype)
              for h, (dtype, dims) in zip(collected, specs[len(specs) - collect:])])


_trips = weakref.WeakKeyDictionary()  # body function: iterations of its last saving run


class _History:
    """The values a loop variable (or a collected value) takes, one per iteration, as one
    array: written row by row, while still in cache, into an array sized by the iterations
    of the loop's last run (`size`); kept in a list and stacked at the end where that does
    not fit (the first run, a longer run, values of changing shapes)."""

    __slots__ = ("rows", "buffer", "count", "size")

    def __init__(self, size: int) -> None:
        self.rows, self.buffer, self.count, self.size = [], None, 0, size

    def append(self, x) -> None:
        count, buffer = self.count, self.buffer
        if count == 0 and self.size and type(x) is np.ndarray:
            buffer = self.buffer = np.empty((self.size,) + x.shape, x.dtype)
        if buffer is not None:
            if count < len(buffer) and type(x) is np.ndarray and \
                    x.shape == buffer.shape[1:] and x.dtype == buffer.dtype:
                buffer[count] = x
                self.count = count + 1
                return
            self.rows, self.buffer = list(buffer[:count]), None
        self.rows.append(x)
        self.count = count + 1

    def stacked(self, empty_shape, dtype) -> np.ndarray:
        if self.buffer is not None:
            return self.buffer[:self.count]
        return np.stack(self.rows) if self.rows else np.zeros(empty_shape, dtype)


_in_place_plans = weakref.WeakKeyDictionary()  # body function: {count: (plan, updates, prelude)}


def _in_place_plan(body_fn, count: int) -> tuple:
    """The plan a While runs for `body_fn`, its in-place updates [(loop variable k,
    update, operand count)] and its prelude (or None).

    A loop variable the body gives back written one row (`ta.write(t, x)`, or that write's
    gradient) is written in its array in place: the plan returns the variable itself there
    and, after the other outputs, the write's operands, so that a TensorArray of T rows
    costs O(T) to fill, not a copy of it per row.

    In a body that changes no state, what depends on no loop variable (a variable read, its
    transpose) is the prelude: a plan of the captured inputs run once per loop, whose
    results the body plan takes after the captured inputs (contiguous, as the loop reads
    them every iteration)."""
    plans = _in_place_plans.setdefault(body_fn, {})
    if count in plans:
        return plans[count]
    placeholders = {x._id: k for k, x in enumerate(body_fn.inputs[:count])}
    outputs = list(body_fn.outputs)
    operands, updates = [], []
    for k, out in enumerate(outputs[:count]):
        op = out._op
        update = IN_PLACE.get(op._op_def)
        if update is None or placeholders.get(op._inputs[0]._id) != k or any(
                o is out for o in outputs[:k] + outputs[k + 1:]):
            continue
        outputs[k] = body_fn.inputs[k]
        operands += op._inputs[1:]
        updates.append((k, update, len(op._inputs) - 1))
    invariant = _invariant(body_fn, count, outputs + operands)
    if invariant:
        captured = body_fn.inputs[count:]
        prelude = Plan(body_fn.graph._ops, captured, invariant, name=f"{body_fn.name}_prelude")
        plan = Plan(body_fn.graph._ops, body_fn.inputs + invariant, outputs + operands,
                    body_fn._always, name=f"{body_fn.name}_hoisted")
    else:
        prelude = None
        plan = Plan(body_fn.graph._ops, body_fn.inputs, outputs + operands, body_fn._always,
                    name=f"{body_fn.name}_in_place") if updates else body_fn._plan
    plans[count] = plan, updates, prelude
    return plan, updates, prelude


def _invariant(body_fn, count: int, fetches: list) -> list:
    """The tensors of a body computed from its captured inputs alone that a loop-dependent
    operation (or a fetch) reads, when the body runs no stateful operation; else []."""
    ops = body_fn._plan.ops
    if any(op._stateful for op in ops):
        return []
    variant = {x._id for x in body_fn.inputs[:count]}
    fixed = {x._id for x in body_fn.inputs[count:]}
    computed: dict = {}
    for op in ops:
        if op.type == "Placeholder" or not op._inputs and not op._outputs:
            continue
        if any(x._id in variant for x in op._inputs) or op._control_inputs:
            variant.update(o._id for o in op._outputs)
        elif all(o._const is None for o in op._outputs):
            for o in op._outputs:
                computed[o._id] = o
    read = [x for op in ops if any(o._id in variant for o in op._outputs) for x in op._inputs]
    seen: dict = {}
    for x in read + list(fetches):
        if x._id in computed and x._id not in fixed:
            seen.setdefault(x._id, x)
    return list(seen.values())


def _contiguous(value):
    return value.copy() if type(value) is np.ndarray and not value.flags.c_contiguous else value


def _updated(out: tuple, updates: list, count: int) -> list:
    """The body's outputs with the in-place updates applied; an output that is a view of
    an updated array (a row read in the iteration) is copied before the array changes."""
    out = list(out)
    start = count
    for k, update, n in updates:
        buffer = out[k]
        for j in range(count):
            x = out[j]
            if j != k and getattr(x, "base", None) is not None and \
                    np.may_share_memory(x, buffer):
                out[j] = x.copy()
        out[k] = update(buffer, *out[start:start + n])
        start += n
    return out[:count]


If = define_op("If", _if_kernel, num_outputs=None)
If.shape_fn = lambda inputs, attrs: attrs["specs"]
While = define_op("While", _while_kernel, num_outputs=None)
While.shape_fn = lambda inputs, attrs: attrs["specs"]


def _input_shapes(op) -> list:
    return [x.shape if hasattr(x, "value_index") else TensorShape([]) for x in op.inputs]


def _while_type(op) -> str:
    attrs = op.attrs
    if attrs["maximum_iterations"] is not None or attrs.get("collect") or attrs.get("keep"):
        raise errors.UnimplementedError(
            None, "While", f"node {op.name!r}: a loop with maximum_iterations or gradient "
            "accumulators has no GraphDef form yet")
    return "While" if op._stateful else "StatelessWhile"


# As GraphDef nodes: TF's functional If and While (stateless forms for stateless
# branches), the branches FunctionDefs of the graph's library.
graph_def_form("If", tf_type=lambda op: "If" if op._stateful else "StatelessIf",
               attrs={"output_shapes": lambda op: [t.shape for t in op.outputs]},
               drop=("count", "specs", "variables"))
graph_def_form("While", tf_type=_while_type,
               attrs={"cond": "cond_fn", "body": "body_fn", "output_shapes": _input_shapes},
               drop=("count", "captured", "specs", "variables", "maximum_iterations",
                     "collect", "keep"))


def _trace(fn, name: str, args: list, arg_shapes: list) -> tuple:
    """Traces `fn(*placeholders)` into a FuncGraph under the current graph; every output
    becomes a tensor of the graph (an outer tensor returned as it is is captured now, so
    the captures are complete when the trace ends). Returns the graph, the placeholders
    and the output structure."""
    graph = FuncGraph(name, outer_graph=state.graph)
    with graph.as_default():
        placeholders = [graph.placeholder(a._value.dtype, shape) for a, shape in
                        zip(args, arg_shapes)]
        structure = nest.map_structure(lambda x: graph._graph_input(convert_to_tensor(x)),
                                       fn(*placeholders))
    return graph, placeholders, structure


def _captured_union(*traces) -> list:
    """The outer tensors any of the traced graphs captured, each once."""
    union: dict = {}
    for graph, _, _ in traces:
        for outer, _ in graph.captures.values():
            union.setdefault(outer._id, outer)
    return list(union.values())


def _finish(trace: tuple, captured: list, name: str):
    """A ConcreteFunction of a traced graph taking its placeholders, then one input per
    tensor of `captured` (unused inputs for those this graph did not capture); its
    assignments always run."""
    graph, placeholders, structure = trace
    inner_of = {outer._id: inner for outer, inner in graph.captures.values()}
    inner = [inner_of[outer._id] if outer._id in inner_of else
             graph.placeholder(outer._value.dtype, outer.shape, name="unused")
             for outer in captured]
    return ConcreteFunction(graph, placeholders + inner, structure,
                            always=[op for op in graph._ops if op._stateful], name=name)


def cond(pred, true_fn=None, false_fn=None, name=None):
    """`true_fn()` if `pred` else `false_fn()`; in a graph, an `If` node running one branch.

    Both branches must return the same structure of tensors with the same dtypes.

    Args:
        pred: a scalar boolean tensor (or Python bool).
        true_fn, false_fn: functions of no arguments.

    Returns:
        What the taken branch returns.

    Raises:
        TypeError: a branch is not callable, or the branches' dtypes differ.
        ValueError: the branches return different structures.

    Example:
        >>> import tapeflow as tf
        >>> @tf.function
        ... def f(x):
        ...     return tf.cond(x > 0.0, lambda: x * x, lambda: -x)
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = f(x)
        >>> float(y), float(tape.gradient(y, x))
        (9.0, 6.0)
    """
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("cond: true_fn and false_fn must be callable")
    if state.graph is None:
        return true_fn() if bool(pred) else false_fn()
    graph = state.graph
    pred = graph._graph_input(convert_to_tensor(pred))
    if pred.dtype.name != "bool" or pred.shape.rank not in (0, None):
        raise TypeError(f"cond: pred must be a scalar bool tensor, got {pred!r}")
    arrays: dict = {}  # flat output position: a TensorArray a branch returns there
    composites: list = []  # the branches' outputs, when they hold composite values

    def as_flows(branch):
        def run():
            out = branch()
            if any(_is_composite(v) for v in nest.flatten(out)):
                composites.append(out)  # passed through the If as their components
                out = nest.flatten(out, expand_composites=True)
            flat = nest.flatten(out)
            for i, v in enumerate(flat):
                if isinstance(v, TensorArray):
                    arrays.setdefault(i, v)
            return nest.pack_sequence_as(out, [v.flow if isinstance(v, TensorArray) else v
                                               for v in flat])
        return run

    traces = [_trace(as_flows(branch), label, [], []) for branch, label in
              ((true_fn, "cond_true"), (false_fn, "cond_false"))]
    _check_structure(traces[0][2], traces[1][2], "cond: true_fn and false_fn")
    captured = _captured_union(*traces)
    then_fn, else_fn = [_finish(trace, captured, label)
                        for trace, label in zip(traces, ("cond_true", "cond_false"))]
    specs = _merged_specs(then_fn, else_fn, "cond")
    variables = _variable_union(then_fn, else_fn)
    outs = execute(If, (pred, *captured, *variables),
                   {"then_branch": then_fn, "else_branch": else_fn, "count": len(captured),
                    "specs": specs, "variables": tuple(variables)})
    result = then_fn._pack(list(outs))
    if composites:
        if len(composites) != 2 or not _same_composites(*composites):
            raise ValueError("cond: true_fn and false_fn must return the same nested "
                             f"structure; got {composites[0]!r} and {composites[-1]!r}")
        result = nest.pack_sequence_as(composites[0], nest.flatten(result),
                                       expand_composites=True)
    if not arrays:
        return result
    flat = nest.flatten(result)
    return nest.pack_sequence_as(result, [arrays[i]._with(v) if i in arrays else v
                                          for i, v in enumerate(flat)])


def _is_composite(v) -> bool:
    return isinstance(v, CompositeTensor) and is_composite_spec(v._type_spec)


def _same_composites(a, b) -> bool:
    """Whether two branch outputs nest alike, with composites of one type where either
    has one."""
    flat_a, flat_b = nest.flatten(a), nest.flatten(b)
    return _structure(a) == _structure(b) and len(flat_a) == len(flat_b) and all(
        type(x) is type(y) for x, y in zip(flat_a, flat_b) if _is_composite(x) or
        _is_composite(y))


def _check_structure(a, b, what: str) -> None:
    if _structure(a) != _structure(b):
        raise ValueError(f"{what} must return the same nested structure; got {a!r} and {b!r}")


def _structure(x):
    if isinstance(x, dict):
        return ("dict", tuple((k, _structure(x[k])) for k in sorted(x)))
    if isinstance(x, (list, tuple)):
        return ("seq", tuple(_structure(i) for i in x))
    return None


def _merged_specs(a, b, what: str) -> list:
    specs = []
    for x, y in zip(a._output_specs, b._output_specs):
        if x[0] != y[0]:
            raise TypeError(f"{what}: the branches return different dtypes: {x[0]} and {y[0]}")
        if x[1] is None or y[1] is None or len(x[1]) != len(y[1]):
            specs.append((x[0], None))
        else:
            specs.append((x[0], tuple(d if d == e else None for d, e in zip(x[1], y[1]))))
    return specs


def _variable_union(*functions) -> list:
    union: dict = {}
    for f in functions:
        for v in f.variables:
            union.setdefault(v._id, v)
    return list(union.values())


@RegisterGradient("If")
def _if_grad(op, *grads):
    attrs = op.attrs
    count = attrs["count"]
    if state.graph is not None:
        return _traced_if_grad(op, grads)

    def forward(pred, *values):
        branch = attrs["then_branch"] if bool(value_of(pred)) else attrs["else_branch"]
        outputs = branch._call_flat(list(values[:count]))
        return [o for o in nest.flatten(outputs) if isinstance(o, Tensor)]
    return runtime_vjp(forward, op.inputs[:1 + count], grads, attrs["variables"])


def _traced_if_grad(op, grads) -> list:
    """The gradient of an If node as another If node: its branches are the traced backward
    graphs of the forward branches, so it is differentiable again in the same way."""
    attrs = op.attrs
    count = attrs["count"]
    captured = list(op.inputs[1:1 + count])
    variables = list(attrs["variables"])
    wanted = [i for i, x in enumerate(captured) if is_trainable(x)]
    grads = [g if not isinstance(g, IndexedSlices) else to_dense(g) for g in grads]
    args = captured + grads
    shapes = [x.shape for x in args]
    branches = [_finish(_trace(_backward_branch(attrs[key], count, wanted, variables),
                               label, args, shapes), [], label)
                for key, label in (("then_branch", "cond_true_grad"),
                                   ("else_branch", "cond_false_grad"))]
    specs = _merged_specs(*branches, "cond gradient")
    used = _variable_union(*branches)
    outs = execute(If, (op.inputs[0], *args, *used),
                   {"then_branch": branches[0], "else_branch": branches[1],
                    "count": len(args), "specs": specs, "variables": tuple(used)})
    in_grads: list = [None] * (1 + count)
    for i, g in zip(wanted, outs):
        in_grads[1 + i] = g
    return in_grads + list(outs[len(wanted):])


def _backward_branch(branch, count: int, wanted: list, variables: list):
    """A function of (the branch's inputs, upstream gradients) returning the gradients of
    the wanted inputs then of `variables` (zeros where the branch does not reach them)."""
    backward = branch._gradient_info().function
    own = {v._id: i for i, v in enumerate(branch.variables)}

    def fn(*args):
        result = backward._call_flat(list(args))
        result = list(result) if isinstance(result, (list, tuple)) else [result]
        out = []
        for i in wanted:
            g = result[i]
            out.append(zeros_like(args[i]) if g is None else g)
        for v in variables:
            g = result[count + own[v._id]] if v._id in own else None
            out.append(zeros(v.shape, v.dtype) if g is None else g)
        return [convert_to_tensor(g) for g in out]
    return fn


def _counted_while(cond, body, loop_vars, single: bool, shape_invariants, limit):
    """A graph's while_loop whose `maximum_iterations` is known only when it runs: the
    iteration count is one more loop variable, compared with the limit in the condition."""
    from ..ops.comparison_ops import logical_and

    def unpacked(vs):
        return (vs,) if single else tuple(vs)

    def counted_body(i, vs):
        result = body(*unpacked(vs))
        return i + 1, result if single else type(vs)(result)

    limit = convert_to_tensor(limit)
    invariants = None if shape_invariants is None else (TensorShape([]), shape_invariants)
    _, result = while_loop(lambda i, vs: logical_and(i < limit, cond(*unpacked(vs))),
                           counted_body, (zeros([], limit.dtype), loop_vars),
                           shape_invariants=invariants)
    return result


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None):
    """Repeats `loop_vars = body(*loop_vars)` while `cond(*loop_vars)` is true.

    In a graph, a `While` node; `body` must keep each loop variable's dtype and its shape
    (or one compatible with its `shape_invariants`).

    Args:
        cond: a function of the loop variables returning a boolean scalar.
        body: a function of the loop variables returning new values, same structure.
        loop_vars: a tensor or a (nested) list/tuple of tensors.
        shape_invariants: shapes the loop variables keep (None dims may vary).
        maximum_iterations: stop after this many iterations at most (in a graph, a
            tensor whose value is known only when it runs too).

    Returns:
        The loop variables after the last iteration, with the structure of `loop_vars`.

    Raises:
        TypeError: `cond` or `body` is not callable.
        ValueError: the body changes a loop variable's structure, dtype or shape.

    Example:
        >>> import tapeflow as tf
        >>> i, x = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * x),
        ...                      (tf.constant(0), tf.constant(2.0)))
        >>> int(i), float(x)
        (3, 256.0)
    """
    if not callable(cond) or not callable(body):
        raise TypeError("while_loop: cond and body must be callable")
    single = not isinstance(loop_vars, (list, tuple))
    structure = [loop_vars] if single else loop_vars
    if state.graph is None:
        values = list(nest.flatten(structure))
        i = 0
        while (maximum_iterations is None or i < int(maximum_iterations)) and \
                bool(cond(*nest.pack_sequence_as(structure, values))):
            result = body(*nest.pack_sequence_as(structure, values))
            values = nest.flatten(result)
            i += 1
        packed = nest.pack_sequence_as(structure, values)
        return packed[0] if single else packed
    if hasattr(maximum_iterations, "_id") and full_value(maximum_iterations) is None:
        return _counted_while(cond, body, loop_vars, single, shape_invariants,
                              maximum_iterations)
    arrays = _with_buffers(body, structure)
    if not arrays:
        return _graph_while(cond, body, structure, single, shape_invariants, maximum_iterations)
    # TensorArrays travel as their buffers; the functions see them rebuilt.
    flat = nest.flatten(structure)
    carried = nest.pack_sequence_as(structure, [arrays[i].flow if i in arrays else v
                                                for i, v in enumerate(flat)])

    def rebuilt(args):
        return [arrays[i]._with(a) if i in arrays else a for i, a in enumerate(args)]

    def flows(values):
        return [v.flow if isinstance(v, TensorArray) else v for v in nest.flatten(values)]

    def carried_cond(*args):
        return cond(*nest.pack_sequence_as(structure, rebuilt(nest.flatten(list(args)))))

    def carried_body(*args):
        result = body(*nest.pack_sequence_as(structure, rebuilt(nest.flatten(list(args)))))
        result = [result] if single else result
        return nest.pack_sequence_as(result, flows(result))

    if shape_invariants is None:
        shape_invariants = nest.pack_sequence_as(structure, [
            TensorShape([None if arrays[i].dynamic_size else arrays[i].flow.shape[0]] +
                        arrays[i].element_shape.as_list()) if i in arrays else
            convert_to_tensor(v).shape for i, v in enumerate(flat)])
    out = _graph_while(carried_cond, carried_body, [carried] if single else carried, single,
                       [shape_invariants] if single else shape_invariants, maximum_iterations)
    packed = nest.pack_sequence_as(structure, rebuilt(nest.flatten([out] if single else out)))
    return packed[0] if single else packed


def _with_buffers(body, structure) -> dict:
    """{flat position: TensorArray with a buffer} for the TensorArrays among the loop
    variables. One whose element shape is not known yet gets it from a trace of `body` in
    a scratch graph (its first write inside the loop tells)."""
    flat = nest.flatten(structure)
    arrays = {i: v for i, v in enumerate(flat) if isinstance(v, TensorArray)}
    if any(a.flow is None for a in arrays.values()):
        probe = FuncGraph("while_probe", outer_graph=state.graph)
        with probe.as_default():
            args = [v if isinstance(v, TensorArray) else
                    probe.placeholder(v.dtype._np, v.shape)
                    for v in (a if isinstance(a, TensorArray) else convert_to_tensor(a)
                              for a in flat)]
            result = body(*nest.pack_sequence_as(structure, args))
        found = nest.flatten(result)
        for i, a in arrays.items():
            if a.flow is None:
                shape = found[i].element_shape if i < len(found) and isinstance(
                    found[i], TensorArray) else TensorShape(None)
                if shape.rank is None:
                    raise ValueError("while_loop: the body must write a TensorArray loop "
                                     "variable of unknown element shape; give element_shape")
                # Dimensions known only when the loop runs start empty: the first write
                # sets them.
                arrays[i] = a._with(a._zeros(a._size, [d or 0 for d in shape.as_list()]))
                arrays[i]._element_shape = shape
    return arrays


def _graph_while(cond, body, structure, single, shape_invariants, maximum_iterations,
                 collect: int = 0):
    """The While node; with `collect`, the body returns that many values after the loop
    variables, and the result is (loop variables, number of iterations, each collected
    value of every iteration stacked)."""
    graph = state.graph
    flat = [graph._graph_input(convert_to_tensor(v)) for v in nest.flatten(structure)]
    if shape_invariants is None:
        shapes = [v.shape for v in flat]
    else:
        shapes = [TensorShape(s) for s in nest.flatten(
            [shape_invariants] if single else shape_invariants)]
    for v, s in zip(flat, shapes):
        if not s.is_compatible_with(v.shape):
            raise ValueError(f"while_loop: loop variable {v.name!r} has shape {v.shape}, not "
                             f"compatible with its shape invariant {s}")

    def packed(args):
        return nest.pack_sequence_as(structure, list(args))

    def body_as_list(*args):
        result = body(*packed(args))
        return [result] if not isinstance(result, (list, tuple, dict)) else result

    cond_trace = _trace(lambda *a: cond(*packed(a)), "while_cond", flat, shapes)
    body_trace = _trace(body_as_list, "while_body", flat, shapes)
    _check_structure(list(structure), body_trace[2][:len(body_trace[2]) - collect],
                     "while_loop: body")
    captured = _captured_union(cond_trace, body_trace)
    cond_fn = _finish(cond_trace, captured, "while_cond")
    body_fn = _finish(body_trace, captured, "while_body")
    specs = []
    for v, s, (dtype, dims) in zip(flat, shapes, body_fn._output_specs):
        if dtype != v._value.dtype:
            raise ValueError(f"while_loop: body changes the dtype of {v.name!r} from "
                             f"{v._value.dtype} to {dtype}")
        if not s.is_compatible_with(TensorShape(dims)):
            raise ValueError(f"while_loop: {v.name!r} enters the loop with shape {s} but has "
                             f"shape {TensorShape(dims)} after one iteration; pass "
                             "shape_invariants to let it vary.")
        specs.append((dtype, None if s.rank is None else tuple(s.dims)))
    if collect:
        specs.append((np.dtype(np.int32), ()))
        specs += [(dtype, None if dims is None else (None, *dims))
                  for dtype, dims in body_fn._output_specs[len(flat):]]
    variables = _variable_union(cond_fn, body_fn)
    outs = execute(While, (*flat, *captured, *variables),
                   {"cond_fn": cond_fn, "body_fn": body_fn, "count": len(flat),
                    "captured": len(captured), "specs": specs, "variables": tuple(variables),
                    "maximum_iterations": None if maximum_iterations is None
                    else int(maximum_iterations), "collect": collect})
    result = nest.pack_sequence_as(structure, list(outs[:len(flat)]))
    result = result[0] if single else result
    return (result, outs[len(flat)], list(outs[len(flat) + 1:])) if collect else result


from . import while_gradient  # noqa: E402,F401  (registers the gradient of While)
