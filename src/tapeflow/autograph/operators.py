"""The run-time side of AutoGraph: what converted code calls in place of Python statements.

Each operator looks at its condition or iterable when it runs: a tensor (inside a graph)
makes `tf.cond` / `tf.while_loop`; a Python value runs the plain Python statement. A
statement's body is a function of no arguments that reads and writes the enclosing
function's variables (`nonlocal`); `get_state()` returns the values of the variables the
statement assigns (its *symbols*) and `set_state(values)` writes them back, so the operator
can thread them through the graph's branches and loop iterations.

A variable that has no value yet holds an `Undefined`; reading one (`ld`) raises the error
it carries, so a variable a tensor `if` defines on one branch only is an error only when it
is used afterwards, as in TF.
"""
from __future__ import annotations

import builtins
import numbers
import sys

import numpy as np

from ..eager.control_flow import cond, while_loop
from ..framework import nest
from ..framework.context import executing_eagerly
from ..framework.execute import execute
from ..framework.graph import FuncGraph, get_default_graph
from ..framework.tensor import convert_to_tensor, is_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import shape
from ..ops.comparison_ops import logical_and, logical_not
from ..ops.creation_ops import range as tensor_range
from ..ops.creation_ops import zeros
from ..ops.gather_ops import GatherV2
from ..ops.iterator_ops import get_next_as_optional, make_iterator
from ..ops.tensor_array_ops import TensorArray
from ..ops.type_spec import element_from_components

from .transformer import RETURN_VALUE

# What converted code calls (as `ag__.<name>`).
__all__ = ["Undefined", "UndefinedReturnValue", "ld", "retval", "composite_value",
           "is_defined", "if_stmt", "if_exp", "while_stmt", "for_stmt", "and_", "or_", "not_",
           "range_", "len_", "enumerate_", "iter_"]


class Undefined:
    """The value of a variable that has not been assigned; `ld` raises `error` on a read."""

    __slots__ = ("name", "error")

    def __init__(self, name: str, error: Exception | None = None) -> None:
        self.name = name
        self.error = error

    def __repr__(self) -> str:
        return f"<undefined {self.name!r}>"


class UndefinedReturnValue(Undefined):
    """The return value before any `return` ran: the function returns None."""

    def __init__(self) -> None:
        super().__init__(RETURN_VALUE)


def ld(value):
    """A read of a variable that may be undefined: raises the reason it is undefined."""
    if isinstance(value, Undefined):
        raise value.error if value.error is not None else UnboundLocalError(
            f"local variable {value.name!r} referenced before assignment")
    return value


def retval(value):
    """The function's result: None when no `return` ran."""
    if type(value) is UndefinedReturnValue:
        return None
    return ld(value)


def composite_value(read, name: str):
    """The value of an attribute or item a statement assigns (`a.total`), or an Undefined
    while it has none."""
    try:
        return read()
    except (AttributeError, KeyError, IndexError, TypeError, NameError):
        return Undefined(name)


def is_defined(value) -> bool:
    return not isinstance(value, Undefined)


def _is_graph_tensor(x) -> bool:
    return is_tensor(x) and not executing_eagerly()


def _in_graph(x, kind: str) -> bool:
    """Whether `x` is a `tf.data` object of class `kind` (Dataset or an iterator) and a
    graph is being built. Asked of tf.data's module only once it is loaded (nothing made
    before then is one), so that tf.data loads on first use only."""
    dataset_ops = sys.modules.get("tapeflow.data.dataset_ops")
    return dataset_ops is not None and isinstance(x, getattr(dataset_ops, kind)) and \
        not executing_eagerly()


# ---------------------------------------------------------------------------- conditionals

def if_stmt(test, body, orelse, get_state, set_state, symbol_names: tuple) -> None:
    """`if test: body() else: orelse()`; a tensor test in a graph becomes `tf.cond`."""
    if not _is_graph_tensor(test):
        body() if test else orelse()
        return
    _graph_if(_bool_condition(test, "if statement"), body, orelse, get_state, set_state,
              symbol_names)


def _bool_condition(test, statement: str):
    test = convert_to_tensor(test)
    if test.dtype.name != "bool" or test.shape.rank not in (0, None):
        raise ValueError(f"condition of {statement} expected to be `tf.bool` scalar, got "
                         f"{test!r}; to use as boolean Tensor, use `tf.cast`; to check for "
                         "None, use `is not None`")
    return test


def _graph_if(test, body, orelse, get_state, set_state, names: tuple) -> None:
    before = get_state()
    seen: dict = {}

    def branch(fn, label):
        def traced():
            set_state(before)
            fn()
            seen[label] = after = get_state()
            return [_branch_output(after[k]) for k in outputs]
        return traced

    # A symbol that is not a tensor on both branches (defined on one only, or a Python
    # object) is no output: it is left undefined afterwards, an error only if it is read.
    # Finding such symbols when the branches differ takes a second trace.
    outputs = list(range(len(names)))
    while True:
        seen.clear()
        try:
            results = cond(test, branch(body, "main"), branch(orelse, "else"))
            break
        except (TypeError, ValueError) as error:
            if len(seen) < 2:
                raise
            dropped = [k for k in outputs if not _tensors_on_both(seen, k)]
            if not dropped:
                _explain_branch_mismatch(error, names, seen, outputs)
                raise
            outputs = [k for k in outputs if k not in dropped]
    main, other = seen["main"], seen["else"]
    result_of = dict(zip(outputs, results))
    merged = []
    for k, name in enumerate(names):
        if main[k] is other[k]:  # a flag both branches set to True stays a Python value
            merged.append(main[k])
        elif k in result_of and _tensors_on_both(seen, k):
            merged.append(result_of[k])
        else:
            merged.append(_undefined_after_if(name, main[k], other[k]))
    set_state(merged)


def _as_loop_value(x):
    """A leaf of a statement's symbol as graph control flow carries it: a TensorArray as it
    is (control flow carries its buffer), anything else as a tensor."""
    return x if isinstance(x, TensorArray) else convert_to_tensor(x)


def _as_tensors(value):
    """`value` (a structure) with tensors (or TensorArrays) for leaves, or None if it has no
    tensor form."""
    if isinstance(value, Undefined):
        return None
    try:
        return nest.map_structure(_as_loop_value, value)
    except (TypeError, ValueError):
        return None


def _has_tensor_form(value) -> bool:
    """Whether `value` is a (structure of) tensors, TensorArrays or numbers (checked without
    making ops)."""
    return not isinstance(value, Undefined) and all(
        is_tensor(x) or isinstance(x, (numbers.Number, np.ndarray, np.generic, TensorArray))
        for x in nest.flatten(value))


def _tensors_on_both(seen: dict, k: int) -> bool:
    return _has_tensor_form(seen["main"][k]) and _has_tensor_form(seen["else"][k])


def _branch_output(value):
    """A branch's value of a symbol as the cond's output; one without a tensor form is an
    empty structure (the branches then differ, and the retry leaves it out)."""
    tensors = _as_tensors(value)
    return () if tensors is None else tensors


def _explain_branch_mismatch(error, names, seen, outputs) -> None:
    """Raises TF's error naming the symbol the two branches disagree on, if it finds one."""
    main, other = seen["main"], seen["else"]
    for k in outputs:
        a, b = _as_tensors(main[k]), _as_tensors(other[k])
        if _structure(a) != _structure(b):
            raise TypeError(f"{names[k]!r} must have the same nested structure in the main and "
                            f"else branches: {main[k]!r} and {other[k]!r}") from error
        for x, y in zip(nest.flatten(a), nest.flatten(b)):
            if x.dtype != y.dtype:
                raise TypeError(f"{names[k]!r} has dtype {x.dtype.name} in the main branch, but "
                                f"dtype {y.dtype.name} in the else branch") from error


def _structure(x):
    if isinstance(x, (list, tuple, dict)):
        return nest.map_structure(lambda _: None, x)
    return None


def _undefined_after_if(name: str, main, other) -> Undefined:
    """The value after a tensor `if` of a symbol that is not a tensor on both branches."""
    for value in (main, other):
        if isinstance(value, Undefined) and value.error is not None:
            return value  # already undefined for a reason of its own (a loop's return)
    if isinstance(main, Undefined) or isinstance(other, Undefined):
        missing = "main" if isinstance(main, Undefined) else "else"
        if name == RETURN_VALUE:
            return Undefined(name, ValueError(f"the {missing} branch must also have a return "
                                              "statement."))
        return Undefined(name, ValueError(f"{name!r} must also be initialized in the "
                                          f"{missing} branch"))
    return Undefined(name, TypeError(
        f"{name!r} must be a tensor (or a structure of tensors) to be used after a tensor if "
        f"statement; it is {main!r} in the main branch and {other!r} in the else branch"))


def if_exp(test, if_true, if_false):
    """`if_true() if test else if_false()`; a tensor test in a graph becomes `tf.cond`."""
    if not _is_graph_tensor(test):
        return if_true() if test else if_false()
    return cond(test, if_true, if_false)


# ------------------------------------------------------------------------- logical operators

def and_(a, b):
    """`a() and b()`: `b` runs only when `a` is true (as a `tf.cond` for a tensor)."""
    first = a()
    if not _is_graph_tensor(first):
        return first and b()
    return cond(first, lambda: convert_to_tensor(b()), lambda: first)


def or_(a, b):
    """`a() or b()`: `b` runs only when `a` is false (as a `tf.cond` for a tensor)."""
    first = a()
    if not _is_graph_tensor(first):
        return first or b()
    return cond(first, lambda: first, lambda: convert_to_tensor(b()))


def not_(x):
    """`not x`; `tf.logical_not` for a tensor."""
    if is_tensor(x):
        return logical_not(x)
    return not x


# --------------------------------------------------------------------------- builtins

def range_(*args):
    """Python's range; `tf.range` when an argument is a graph tensor (so a `for` over it
    becomes a tensor loop)."""
    if any(_is_graph_tensor(a) for a in args):
        return tensor_range(*args)
    return builtins.range(*args)


def len_(x):
    """Python's len; a graph tensor's first dimension (a tensor when it is not known)."""
    if not _is_graph_tensor(x):
        return builtins.len(x)
    if x.shape.rank == 0:
        raise ValueError(f"len requires a non-scalar tensor, got one of shape {x.shape}")
    known = x.shape.as_list()[0] if x.shape.rank is not None else None
    return known if known is not None else shape(x, out_type="int32")[0]


def enumerate_(iterable, start=0):
    """Python's enumerate; `dataset.enumerate(start)` for a Dataset in a graph (so a `for`
    over it becomes a dataset loop)."""
    if _in_graph(iterable, "Dataset"):
        return iterable.enumerate(start)
    return builtins.enumerate(iterable, start)


def iter_(iterable):
    """Python's iter; a `GraphIterator` (made each time the graph runs) for a Dataset in a
    graph."""
    if _in_graph(iterable, "Dataset"):
        from ..data.dataset_ops import GraphIterator  # loaded already: `iterable` is one
        return GraphIterator(iterable)
    return builtins.iter(iterable)


# The builtins converted code calls in their tensor-aware forms.
BUILTINS = {builtins.range: range_, builtins.len: len_,
            builtins.enumerate: enumerate_, builtins.iter: iter_}


# ------------------------------------------------------------------------------------- loops

_TENSOR_STOPS_PYTHON_LOOP = (
    "a Python loop (over a Python iterable, or whose condition was a Python value when it "
    "started) cannot go on or stop on a tensor: its condition, a break or a return became a "
    "tensor in its body. Make it a tensor loop: iterate over tf.range(n), or make the "
    "condition a tensor before the loop.")


def while_stmt(test, body, get_state, set_state, symbol_names: tuple, opts=None) -> None:
    """`while test(): body()`; a tensor test in a graph becomes `tf.while_loop`."""
    first = test()
    if not _is_graph_tensor(first):
        while first:
            body()
            first = test()
            if _is_graph_tensor(first):
                raise NotImplementedError(_TENSOR_STOPS_PYTHON_LOOP)
        return
    _bool_condition(first, "while loop")

    def loop_body():
        body()
        return []
    _graph_loop(test, loop_body, [], get_state, set_state, symbol_names, opts or {})


def for_stmt(iterated, extra_test, body, get_state, set_state, symbol_names: tuple,
             opts=None) -> None:
    """`for itr in iterated: body(itr)`, stopping early when `extra_test()` is false.

    A tensor iterates over its first dimension, as a `tf.while_loop` in a graph. A
    `tf.data.Dataset` in a graph is a `tf.while_loop` too, over its elements as the graph
    runs: each run makes a fresh iterator and pulls one element per iteration (streaming,
    so an infinite dataset stopped by a `break` works), the element tensors shaped by the
    dataset's `element_spec`. Other iterables (Python lists, `range`, a Dataset in eager
    code) run as a Python loop.
    """
    if any(_in_graph(iterated, kind) for kind in ("Dataset", "GraphIterator", "OwnedIterator")):
        _dataset_loop(iterated, extra_test, body, get_state, set_state, symbol_names,
                      opts or {})
        return
    if not _is_graph_tensor(iterated):
        for item in iterated:
            if extra_test is not None:
                go = extra_test()
                if _is_graph_tensor(go):
                    raise NotImplementedError(_TENSOR_STOPS_PYTHON_LOOP)
                if not go:
                    break
            body(item)
        return
    if iterated.shape.rank == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    length = shape(iterated, out_type="int32")[0]

    def loop_test(index):
        more = index < length
        return more if extra_test is None else logical_and(more, _as_bool(extra_test()))

    def loop_body(index):
        # The op itself: tf.gather checks the (maybe unknown) length of `iterated` up front.
        body(execute(GatherV2, (iterated, index), {"axis": 0, "batch_dims": 0}))
        return [index + 1]

    _graph_loop(loop_test, loop_body, [convert_to_tensor(0)], get_state, set_state,
                symbol_names, opts or {})


def _dataset_loop(iterated, extra_test, body, get_state, set_state, symbol_names: tuple,
                  opts: dict) -> None:
    """The loop over the elements of a Dataset (a fresh iterator) or an iterator (from
    where it is) in a graph: loop counters are the iterator's handle, whether an element
    was fetched, and the element's flat tensors. The next element is fetched at the end of
    each iteration, only when `extra_test()` still holds (so a `break` pulls nothing
    more)."""
    spec = iterated.element_spec
    handle = make_iterator(iterated) if _in_graph(iterated, "Dataset") else iterated.handle

    def fetch(handle):
        wanted = True if extra_test is None else _as_bool(extra_test())
        has_value, flat = get_next_as_optional(handle, wanted, spec)
        return [handle, has_value] + flat

    def loop_test(handle, has_value, *flat):
        return has_value if extra_test is None else logical_and(
            has_value, _as_bool(extra_test()))

    def loop_body(handle, has_value, *flat):
        body(element_from_components(spec, list(flat)))
        return fetch(handle)

    _graph_loop(loop_test, loop_body, fetch(handle), get_state, set_state, symbol_names, opts)


def _as_bool(x):
    return x if is_tensor(x) else convert_to_tensor(bool(x))


def _graph_loop(test, body, counters: list, get_state, set_state, names: tuple,
                opts: dict) -> None:
    """The loop as a `tf.while_loop` over its own `counters` and the symbols defined before
    it; `test(*counters)` and `body(*counters)` (returning the next counters) read and write
    the symbols. A symbol first assigned in the loop starts as zeros of the dtype and shape
    the body gives it (found by tracing the body once aside); one the body leaves undefined
    stays local to the body."""
    given = get_state()
    before = list(given)
    for k, value in enumerate(before):
        if isinstance(value, Undefined):
            before[k] = _undefined_in_loop(names[k])
        else:
            tensors = _as_tensors(value)
            if tensors is None:
                raise TypeError(f"{names[k]!r} is a variable of a tensor loop and must be a "
                                f"tensor (or a structure of tensors); it is {value!r}")
            before[k] = tensors
    probed = {}
    if any(isinstance(v, Undefined) for v in before):
        before, probed = _initial_values(body, counters, before, get_state, set_state)
    carried = [k for k, v in enumerate(before) if not isinstance(v, Undefined)]
    initial = [before[k] for k in carried]
    invariants = _shape_invariants(opts, carried, given)
    for k, shapes_ in probed.items():
        if invariants.get(k) is None:
            invariants[k] = shapes_
    n = len(counters)

    def state_of(values):
        state = [_undefined_in_loop(name) for name in names]
        for k, v in zip(carried, values):
            state[k] = v
        return state

    def loop_cond(*values):
        set_state(state_of(values[n:]))
        return _as_bool(test(*values[:n]))

    def loop_body(*values):
        set_state(state_of(values[n:]))
        next_counters = body(*values[:n])
        after = get_state()
        return next_counters + [_checked(names[k], start, after[k], invariants[k])
                                for k, start in zip(carried, values[n:])]

    shapes = None
    if any(s is not None for s in invariants.values()):
        shapes = [x.shape for x in counters] + [
            nest.map_structure(lambda t: t.shape, v) if invariants[k] is None else invariants[k]
            for k, v in zip(carried, initial)]
    results = while_loop(loop_cond, loop_body, counters + initial, shape_invariants=shapes,
                         maximum_iterations=opts.get("maximum_iterations"))
    final = state_of(list(results)[n:])
    for k in range(len(names)):
        if k not in carried:
            final[k] = _undefined_after_loop(names[k])
    set_state(final)


def _initial_values(body, counters, before, get_state, set_state) -> tuple:
    """`before` with the undefined symbols the body defines set to zeros of the dtype and
    shape one traced iteration gives them (the trace is thrown away); and {symbol index:
    the shapes the body gives} for those whose shapes are not fully known (a dataset's
    last smaller batch), their shape invariants."""
    with FuncGraph("loop_probe", outer_graph=get_default_graph()).as_default():
        set_state(before)
        body(*counters)
        after = get_state()
    set_state(before)
    start = list(before)
    shapes = {}
    for k, value in enumerate(after):
        tensors = _as_tensors(value)
        if isinstance(before[k], Undefined) and tensors is not None:
            start[k] = nest.map_structure(lambda t: zeros(
                [0 if d is None else d for d in t.shape.as_list()] if t.shape.rank is not None
                else [], t.dtype), tensors)
            if not all(t.shape.is_fully_defined() for t in nest.flatten(tensors)):
                shapes[k] = nest.map_structure(lambda t: t.shape, tensors)
    return start, shapes


def _undefined_in_loop(name: str) -> Undefined:
    return Undefined(name, ValueError(f"{name!r} must be defined before the loop."))


def _undefined_after_loop(name: str) -> Undefined:
    if name == RETURN_VALUE:
        return Undefined(name, NotImplementedError(
            "a return statement cannot be placed inside this TensorFlow loop; this may happen "
            "if a return statement depends on a static Python condition such as a "
            "hyperparameter"))
    return _undefined_in_loop(name)


def _shape_invariants(opts: dict, carried: list, state: tuple) -> dict:
    """{symbol index: TensorShape or None} from `set_loop_options(shape_invariants=...)`."""
    given = opts.get("shape_invariants") or []
    invariants = {k: None for k in carried}
    for variable, shape_ in given:
        for k in carried:
            if state[k] is variable:
                invariants[k] = TensorShape(shape_)
    return invariants


def _checked(name: str, start, value, invariant):
    """The loop variable's value after one iteration, checked against its value before."""
    if isinstance(value, Undefined):
        raise ValueError(f"{name!r} must be defined before the loop.")
    if _structure(value) != _structure(start):
        raise ValueError(f"{name!r} does not have the same nested structure after one "
                         f"iteration: {start!r} before the loop and {value!r} after")
    value = nest.map_structure(_as_loop_value, value)
    leaves = nest.flatten(start)
    allowed_shapes = [invariant] * len(leaves) if invariant is None or isinstance(
        invariant, TensorShape) else nest.flatten(invariant)
    for a, b, allowed in zip(leaves, nest.flatten(value), allowed_shapes):
        if a.dtype != b.dtype:
            raise TypeError(f"{name!r} has dtype {a.dtype.name} before the loop, but dtype "
                            f"{b.dtype.name} after one iteration")
        if isinstance(a, TensorArray) or isinstance(b, TensorArray):
            if type(a) is not type(b):
                raise ValueError(f"{name!r} is a {type(a).__name__} before the loop, but a "
                                 f"{type(b).__name__} after one iteration")
            continue  # its element shape is the while loop's to find
        allowed = allowed if allowed is not None else a.shape
        if not allowed.is_compatible_with(b.shape):
            raise ValueError(
                f"{name!r} has shape {_shape_text(a.shape)} before the loop, but shape "
                f"{_shape_text(b.shape)} after one iteration. Use "
                "tf.autograph.experimental.set_loop_options to set shape invariants.")
    return value


def _shape_text(s: TensorShape) -> str:
    return str(tuple(s.as_list())) if s.rank is not None else "<unknown>"
