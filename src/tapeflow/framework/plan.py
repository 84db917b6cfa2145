"""Compiled plans: how a graph runs.

A plan is compiled once for a set of fetches and feeds: the operations the fetches need
(pruned, in creation order, which is topological) become straight-line Python source, one
line per kernel call, with kernels, attributes and constants bound as names. Running it is
one call of that function on arrays: no registry lookups, no dispatch, no Tensor objects.
`Session.run` and `tf.function` both run graphs this way.

The generated code frees each intermediate array after its last use (`del`), so a run holds
what a hand-written NumPy function would, not every value it computed; a Reshape to the
shape its input already has, and an Identity, name their input instead of running.

Variable writes are staged in the run and committed only when the whole plan succeeded,
so a failed run changes no variable. Reads see earlier writes of the same run. An
AssignAdd/AssignSub whose result the run does not use is committed as `combine(old, delta)`
computed into the variable's own array when nothing else holds that array (as NumPy's
`p -= lr * g`), so an optimizer step allocates no second copy of its parameters.

An op may say where some of its inputs are to be computed: a function `into(index)` in its
attribute `into` gives the array (or None) input `index` is to be written into, and its
producer computes straight into it (`out=`) when that producer is a one-output kernel taking
`out` (a NumPy ufunc, or a kernel with an `out` parameter), its output has a fully known
shape and nothing else reads or fetches it. A collective's node asks so for memory other
processes read (`distribute.shared_memory`): the gradients it sums are not copied there.
"""
from __future__ import annotations

import functools
import inspect
import math
import sys
import threading
from collections import Counter

import numpy as np

from . import errors
from .context import state, switched
from .execute import kernel_error
from .string_values import as_value
from .numpy_warnings import keep_numpy_quiet
from .registry import ASSIGN, IDENTITY

__all__ = ["Plan", "VariableStore", "prune", "current_value"]


class _RunState(threading.local):
    def __init__(self) -> None:
        # {variable id: (variable, new value)} written by the run in progress, or None.
        self.writes = None
        # The running Session's variable values {variable id: array}, or None.
        self.store = None


run_state = _RunState()


class VariableStore(dict):
    """The values graph variables have in one Session: a Session hands it to `Plan.run`,
    which reads and writes the variables' values in it."""

    __slots__ = ()

    def load(self, variable, value) -> None:
        """Sets `variable`'s value to the array `value`, running nothing."""
        self[variable._id] = value


def prune(ops: list, fetches: list, feed_ids: set, always: list = ()) -> list:
    """The operations needed to compute `fetches` (and run `always`), in creation order.

    Fed tensors cut the walk: what produces them is not run.
    """
    needed: dict = {}
    stack = [f if _is_operation(f) else f._op for f in fetches if f is not None] + list(always)
    while stack:
        op = stack.pop()
        if id(op) in needed:
            continue
        needed[id(op)] = op
        for x in op._inputs:
            if hasattr(x, "_op") and x._id not in feed_ids:
                stack.append(x._op)
        stack.extend(op._control_inputs)
    return sorted(needed.values(), key=lambda op: op._index)


def _is_operation(x) -> bool:
    return hasattr(x, "_op_def")


def _reader(variable):
    vid = variable._id
    run = run_state
    if getattr(variable, "_graph", None) is None:
        def read():
            writes = run.writes
            return _staged(writes, vid) if vid in writes else variable._value
        return read

    def read_graph_variable():
        writes = run.writes
        if vid in writes:
            return _staged(writes, vid)
        store = run.store
        if store is None or vid not in store:
            raise errors.FailedPreconditionError(
                None, None, f"Could not read variable {variable.name!r}: it is uninitialized in "
                "this session. Run its initializer first (e.g. "
                "sess.run(tf.compat.v1.global_variables_initializer())).")
        return store[vid]
    return read_graph_variable


def _initialized(variable):
    """Whether the variable has a value in the run in progress."""
    vid = variable._id
    run = run_state
    if getattr(variable, "_graph", None) is None:
        return lambda: np.bool_(True)
    return lambda: np.bool_(vid in run.writes or (run.store is not None and vid in run.store))


def current_value(variable):
    """The value a graph variable has in the run in progress (FailedPreconditionError when
    uninitialized, SymbolicValueError outside any run)."""
    if run_state.writes is None:
        variable._value._unavailable()
    return _reader(variable)()


class _Update:
    """A staged AssignAdd/AssignSub the run does not read back: `combine(base, delta)`,
    computed when the variable is read again in the run, else when the run commits."""

    __slots__ = ("combine", "base", "delta")

    def __init__(self, combine, base, delta) -> None:
        self.combine, self.base, self.delta = combine, base, delta


def _staged(writes: dict, vid: int):
    """The value the run in progress wrote to variable `vid` (computing a staged update)."""
    variable, value = writes[vid]
    if type(value) is _Update:
        value = value.combine(value.base, value.delta)
        writes[vid] = (variable, value)
    return value


def _writer(variable, combine, read, result_used: bool):
    vid = variable._id
    shape = variable.shape
    dims = shape.dims if shape.is_fully_defined() else None
    dims = None if dims is None else tuple(dims)
    run = run_state

    def write(value):
        if combine is not None:
            value = combine(read(), value)
        if value.shape != dims and not shape.is_compatible_with(value.shape):
            raise errors.InvalidArgumentError(
                None, None, f"Cannot assign a value of shape {list(value.shape)} to variable "
                f"{variable.name!r} of shape {shape}.")
        run.writes[vid] = (variable, value)
        return value

    if result_used or not isinstance(combine, np.ufunc):
        return write

    def stage(delta):
        base = read()
        if type(base) is np.ndarray and type(delta) is np.ndarray and base.ndim and \
                base.shape == delta.shape and base.dtype == delta.dtype:
            run.writes[vid] = (variable, _Update(combine, base, delta))
            return None
        return write(delta)
    return stage


def _unfed(op):
    attrs = op._attrs

    def missing():
        shape = attrs["shape"]
        shown = "<unknown>" if shape.rank is None else \
            "[" + ",".join("?" if d is None else str(d) for d in shape.dims) + "]"
        raise errors.InvalidArgumentError(
            None, op._name, f"You must feed a value for placeholder tensor {op._name!r} with "
            f"dtype {attrs['dtype']} and shape {shown}")
    return missing


_KERNEL_ERRORS = (errors.OpError, ValueError, TypeError, IndexError, ArithmeticError,
                  MemoryError)

# Arrays smaller than this are left to the end of the run: freeing them early saves no
# memory worth a statement.
_FREE_BYTES = 4096


def _byte_size(t):
    """The static size in bytes of tensor `t`, None when its shape is not fully known."""
    dims = t._dims
    if dims is None or None in dims:
        return None
    return math.prod(dims) * t._value.dtype.itemsize


def _keeps_shape(op) -> bool:
    """Whether `op` (a view) gives its input's own (fully known) shape: a no-op."""
    before, after = op._inputs[0]._dims, op._outputs[0]._dims
    return before is not None and None not in before and before == after


def _placements(ops: list, kept: set) -> dict:
    """{tensor id: (into, index)} for the outputs computed into memory their reader gives
    (see the module docstring); `kept`: ids of fetched or fed tensors."""
    readers = Counter(x._id for op in ops for x in op._inputs)
    placed = {}
    for op in ops:
        into = op._attrs.get("into")
        if into is None:
            continue
        for index, x in enumerate(op._inputs):
            producer, dims = getattr(x, "_op", None), getattr(x, "_dims", None)
            if producer is not None and readers[x._id] == 1 and x._id not in kept and \
                    dims is not None and None not in dims and x._const is None and \
                    producer._op_def.num_outputs == 1 and _takes_out(producer._op_def.kernel):
                placed[x._id] = (into, index)
    return placed


def _string_outputs(op_def):
    """`op_def`'s kernel, for an op with string outputs: a 0-d string result that NumPy
    gives as the `bytes` element itself (ufuncs do) becomes an array again."""
    kernel = op_def.kernel
    if op_def.num_outputs == 1:
        return lambda *args, **attrs: as_value(kernel(*args, **attrs))
    return lambda *args, **attrs: tuple([as_value(o) for o in kernel(*args, **attrs)])


def _takes_out(kernel) -> bool:
    if isinstance(kernel, np.ufunc):
        return kernel.nout == 1
    try:
        return "out" in inspect.signature(kernel).parameters
    except (TypeError, ValueError):
        return False


def _with_frees(steps: list, kept: set, sizes: dict):
    """Yields (op, code, names to free after it): each intermediate is freed after the
    step that reads it last (at once when nothing reads it), unless it is fetched (`kept`)
    or small; fed values (`i*`) and constants (`c*`) are never freed."""
    last: dict = {}
    for index, (_, _, reads, defines) in enumerate(steps):
        for n in defines:
            last[n] = index
        for n in reads:
            last[n] = index
    for index, (op, code, reads, defines) in enumerate(steps):
        free = sorted({n for n in (*reads, *defines) if n[0] == "t" and last[n] == index
                       and n not in kept and (sizes[n] is None or sizes[n] >= _FREE_BYTES)})
        yield op, code, free


class Plan:
    """A compiled, runnable subgraph: `plan(*feed_values)` returns the fetched arrays.

    Args:
        ops: the graph's operations (a plan uses those the fetches need).
        feeds: tensors whose values are the positional arguments.
        fetches: tensors (their arrays are returned) and operations (None is returned).
        always: operations run even if no fetch needs them (a function's assignments).
        name: shown in tracebacks.
    """

    __slots__ = ("_fn", "_lines", "_source", "ops", "feeds", "fetches")

    def __init__(self, ops: list, feeds: list, fetches: list, always: list = (),
                 name: str = "plan") -> None:
        self.feeds = list(feeds)
        self.fetches = list(fetches)
        self.ops = prune(ops, self.fetches, {t._id for t in feeds}, always)
        self._compile(name)

    def _compile(self, name: str) -> None:
        feed_ids = {t._id for t in self.feeds}
        names: dict = {}
        bound: dict = {}
        for i, t in enumerate(self.feeds):
            names[t._id] = f"i{i}"
        consumed = {x._id for op in self.ops for x in op._inputs} | \
            {f._id for f in self.fetches if not _is_operation(f)}
        steps = []  # (op, code, names it reads, names it defines)
        sizes: dict = {}  # name: static byte size, None when not known
        placed = _placements(self.ops, feed_ids | {f._id for f in self.fetches
                                                   if not _is_operation(f)})
        for k, op in enumerate(self.ops):
            outs = op._outputs
            op_def = op._op_def
            kind = op_def.name
            if outs and all(o._const is not None for o in outs):  # Const, or folded
                for j, o in enumerate(outs):
                    if o._id not in names:
                        names[o._id] = f"c{k}_{j}"
                        bound[f"c{k}_{j}"] = o._const
                continue
            if kind == "NoOp" or all(o._id in names for o in outs) and outs:
                continue
            if op_def.family is IDENTITY or op_def.view and _keeps_shape(op):
                names[outs[0]._id] = names[op._inputs[0]._id]
                continue
            attrs = []
            if kind == "Placeholder":
                bound[f"k{k}"] = _unfed(op)
                reads = []
            elif kind == "ReadVariableOp":
                bound[f"k{k}"] = _reader(op._inputs[0])
                reads = []
            elif kind == "VarIsInitializedOp":
                bound[f"k{k}"] = _initialized(op._inputs[0])
                reads = []
            elif op._inputs and not hasattr(op._inputs[0], "_op"):  # an assignment
                variable = op._inputs[0]
                combine = None if op_def.family is ASSIGN else op_def.kernel
                bound[f"k{k}"] = _writer(variable, combine, _reader(variable),
                                         result_used=outs[0]._id in consumed)
                reads = [names[op._inputs[1]._id]]
            else:
                bound[f"k{k}"] = _string_outputs(op_def) if any(
                    o._value.dtype.kind == "O" for o in outs) else op_def.kernel
                reads = [names[x._id] for x in op._inputs]
                for key, value in op._attrs.items():
                    bound[f"a{k}_{key}"] = value
                    attrs.append(f"{key}=a{k}_{key}")
                if outs and outs[0]._id in placed:
                    into, index = placed[outs[0]._id]
                    bound[f"p{k}"] = functools.partial(into, index)
                    attrs.append(f"out=p{k}()")
            call = f"k{k}({', '.join(reads + attrs)})"
            targets = []
            for j, o in enumerate(outs):
                names.setdefault(o._id, f"t{k}_{j}")
                targets.append(names[o._id])
                sizes[names[o._id]] = _byte_size(o)
            if op._op_def.num_outputs == 1:
                code = f"{targets[0]} = {call}"
            elif targets:
                code = f"{', '.join(targets)}, = {call}"
            else:
                code = call
            steps.append((op, code, reads, targets))
        results = ["None" if _is_operation(f) else names[f._id] for f in self.fetches]
        lines = ["def plan(" + ", ".join(f"i{i}" for i in range(len(self.feeds))) + "):"]
        self._lines = {}
        for op, code, free in _with_frees(steps, set(results), sizes):
            lines.append(f"    {code}")
            self._lines[len(lines)] = op
            if free:
                lines.append(f"    del {', '.join(free)}")
        lines.append(f"    return ({', '.join(results)}{',' if results else ''})")
        namespace = dict(bound, __name__="tapeflow.plan")
        self._source = "\n".join(lines)
        exec(compile(self._source, f"<tapeflow plan {name}>", "exec"), namespace)  # noqa: S102
        self._fn = namespace["plan"]

    def __call__(self, *values) -> tuple:
        """Runs the plan on feed `values` (arrays); returns one entry per fetch.

        Raises:
            InvalidArgumentError: a kernel rejected its inputs (naming the node).
            FailedPreconditionError: an uninitialized graph variable was read.
        """
        return self.run(values, None)

    def run(self, values, store) -> tuple:
        """`__call__` with a Session's VariableStore (graph variables live there), or None."""
        keep_numpy_quiet()
        run = run_state
        outer = run.writes
        if outer is None:
            run.writes, saved_store = {}, run.store
            if store is not None:
                run.store = store
        try:
            if state.graph is None and not state.recorders:  # already eager and unrecorded
                result = self._fn(*values)
            else:
                with switched(graph=None, recorders=[]):
                    result = self._fn(*values)
            if outer is None and run.writes:
                _commit(run.writes, run.store)
            return result
        except _KERNEL_ERRORS as e:
            self._reraise(e)
        finally:
            if outer is None:
                run.writes, run.store = None, saved_store

    def inner(self):
        """A function running this plan on feed values (as `__call__` does) from inside a
        run in progress, whose state it shares: a loop calls it once per iteration."""
        if run_state.writes is None or state.graph is not None or state.recorders:
            return self

        def run_inner(*values):
            try:
                return fn(*values)
            except _KERNEL_ERRORS as e:
                self._reraise(e)
        fn = self._fn
        return run_inner

    def _reraise(self, e):
        """Raises kernel error `e` naming the node of this plan that raised it."""
        op = self._failing_op(e.__traceback__)
        if isinstance(e, errors.OpError):
            if e.op is None or not hasattr(e.op, "_op_def"):
                e.op = op
                e.message = _with_node(e.message, op)
            raise e
        error = kernel_error("plan" if op is None else op.type, e,
                             () if op is None else op._inputs)
        raise type(error)(None, op, _with_node(error.message, op)) from None

    def _failing_op(self, tb):
        op = None
        code = self._fn.__code__
        while tb is not None:
            if tb.tb_frame.f_code is code:
                op = self._lines.get(tb.tb_lineno)
            tb = tb.tb_next
        return op

    def source(self) -> str:
        """The generated Python of this plan (for reading and debugging)."""
        return self._source


def _with_node(message: str, op) -> str:
    return message if op is None else f"{message}\n\t [[node {op.name} (op {op.type})]]"


def _commit(writes: dict, store) -> None:
    # Values are kernel outputs, immutable tensors' arrays or copied feeds, which nothing
    # changes in place afterwards, so variables take them without a copy. The one exception,
    # an array the variable alone holds updated in place (_committed), no one can observe.
    for vid, (variable, value) in writes.items():
        eager = getattr(variable, "_graph", None) is None
        if type(value) is _Update:
            value = _committed(value, variable if eager else None, store, vid)
        if eager:
            variable._value = value
        else:
            store[vid] = value


_refcount = getattr(sys, "getrefcount", None)


def _committed(update: _Update, variable, store, vid: int):
    """The result of a staged update, computed into the variable's current array when that
    array is the update's base and nothing but the variable (or `store`) holds it."""
    combine, base, delta = update.combine, update.base, update.delta
    update.base = update.delta = None
    if _refcount is not None and base.base is None and base.flags.writeable:
        # Held only by the variable: its slot, `base`, and getrefcount's argument.
        if variable is not None:
            sole = variable._value is base and _refcount(variable._value) == 3
        else:
            sole = store.get(vid) is base and _refcount(store[vid]) == 3
        if sole:
            return combine(base, delta, out=base)
    return combine(base, delta)
