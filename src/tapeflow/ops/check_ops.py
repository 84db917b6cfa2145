"""Run-time checks: `Assert` and the `assert_*` functions (tf.debugging).

The comparisons are one family made from a table: `assert_equal` and the other five compare
two tensors, `assert_positive` and the other three compare one with zero; the rank checks
are one family too (exactly, at least, one of).

Eagerly a failed check raises InvalidArgumentError at once (a rank known when the call is
made, ValueError, as TF checks it statically); inside tf.function or a graph each check is
an `Assert` op that raises when it runs, which a graph runs even when nothing reads it.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.context import state
from ..framework.execute import execute
from ..framework.registry import OUTPUT, define_op, no_gradient
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, convert_to_tensor, is_tensor
from ..framework.variables import Variable
from .array_ops import rank as rank_of
from .array_ops import shape
from .comparison_ops import (equal, greater, greater_equal, less, less_equal, logical_or,
                             not_equal)
from .control_flow_ops import no_op
from .dispatch import add_dispatch_support
from .logging_ops import format_array
from .math_ops import abs as abs_, cast, subtract
from .op_util import as_input, binary_inputs
from .reduction_ops import reduce_all

__all__ = ["Assert", "assert_equal", "assert_greater", "assert_greater_equal", "assert_integer",
           "assert_less", "assert_less_equal", "assert_near", "assert_negative",
           "assert_non_negative", "assert_non_positive", "assert_none_equal", "assert_positive",
           "assert_proper_iterable", "assert_rank", "assert_rank_at_least", "assert_rank_in",
           "assert_same_float_dtype", "assert_scalar", "assert_type", "is_numeric_tensor"]


def _summary(piece, summarize: int, eager: bool) -> str:
    if isinstance(piece, str):
        return repr(piece.encode()) if eager else f"[{piece}]"
    flat = np.ravel(piece)
    shown = flat if summarize < 0 else flat[:summarize]
    text = ", ".join(str(v) for v in shown) if eager else " ".join(map(format_array, shown))
    if len(shown) < flat.size:
        text += ", ..." if eager else "..."
    return text if eager else f"[{text}]"


def _assert_kernel(condition, *arrays, pieces, summarize, condition_text):
    """Eagerly TF shows the condition and each datum on a line; a graph's op, the data in
    brackets on one line."""
    if np.all(condition):
        return ()
    eager = condition_text is not None
    data = [_summary(arrays[p] if isinstance(p, int) else p, summarize, eager) for p in pieces]
    message = f"Expected '{condition_text}' to be true. Summarized data: " + "\n".join(data) \
        if eager else "assertion failed: " + " ".join(data)
    raise errors.InvalidArgumentError(None, "Assert", message)


AssertOp = define_op("Assert", _assert_kernel, num_outputs=0, family=OUTPUT)
AssertOp.shape_fn = lambda inputs, attrs: []      # no outputs; never run while tracing
no_gradient("Assert")


def _graph_op():
    graph = state.graph
    return graph.get_operations()[-1] if graph is not None else None


def Assert(condition, data, summarize=None, name=None):  # noqa: N802  (TF's name)
    """Raises InvalidArgumentError, showing `data`, when `condition` is false.

    Args:
        condition: a boolean (tensor); the check holds where all its elements are true.
        data: tensors and strings to show when it fails.
        summarize: how many entries of each tensor to show (default 3, -1 all).

    Returns:
        None when eager; in a graph, the Assert Operation (a tf.function runs it).

    Raises:
        InvalidArgumentError: the condition is false (eagerly, at once).

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([1.0, -2.0])
        >>> try:
        ...     tf.Assert(tf.reduce_all(x > 0), ["x:", x])
        ... except tf.errors.InvalidArgumentError as e:
        ...     print(e)
        Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'x:'
        1.0, -2.0
    """
    cond = convert_to_tensor(condition)
    tensors, pieces = [], []
    for item in data:
        if isinstance(item, str):
            pieces.append(item)
        else:
            pieces.append(len(tensors))
            tensors.append(as_input(item))
    condition_text = None if state.graph is not None else str(condition)
    execute(AssertOp, (cond, *tensors), {"pieces": tuple(pieces), "condition_text": condition_text,
                                         "summarize": 3 if summarize is None else summarize})
    return _graph_op()



def _eager(*tensors) -> bool:
    return state.graph is None and all(type(t) is Tensor or not isinstance(t, Tensor)
                                       for t in tensors)


def _label(t) -> str:
    """How a message names a tensor: its shape and dtype eagerly, its name in a graph."""
    return f"shape={t.shape} dtype={t.dtype.name}" if _eager(t) else t.name


def _compare(op_name: str, symbol: str, compare, x, y, message, summarize):
    x, y = binary_inputs(op_name, x, y)
    holds = compare(x, y)
    summarize = 3 if summarize is None else summarize
    head = "" if message is None else f"{message}\n"
    if not _eager(x, y):
        return Assert(reduce_all(holds), [head + f"Condition x {symbol} y did not hold "
                                          "element-wise:", "x = ", x, "y = ", y], summarize)
    failed = ~np.asarray(holds._value)
    if not failed.any():
        return None
    lines = [f"{head}Condition x {symbol} y did not hold."]
    if x.shape == y.shape:
        where = np.argwhere(failed)[:summarize]
        lines += [f"Indices of first {len(where)} different values:", str(where),
                  "Corresponding x values:", str(x._value[tuple(where.T)]),
                  "Corresponding y values:", str(y._value[tuple(where.T)])]
    for label, t in (("x", x), ("y", y)):
        shown = t._value.ravel()[:summarize]
        lines += [f"First {len(shown)} elements of {label}:", str(shown)]
    raise errors.InvalidArgumentError(None, op_name, "\n".join(lines))


def _compare_with_zero(op_name: str, symbol: str, compare, x, message, summarize):
    x = as_input(x)
    holds = compare(x, 0)
    summarize = 3 if summarize is None else summarize
    head = "" if message is None else f"{message}.  "
    condition = f"Condition x {symbol} 0 did not hold element-wise:"
    if not _eager(x):
        return Assert(reduce_all(holds), [head, condition, f"x ({x.name}) = ", x], summarize)
    if np.all(holds._value):
        return None
    values = x._value.ravel()
    shown = [str(v) for v in values[:summarize]] + (["..."] if values.size > summarize else [])
    raise errors.InvalidArgumentError(
        None, op_name, f"{head}\n{condition}\nx ({_label(x)}) = \n{shown}")


# The comparisons: (name, op, symbol, comparison, an example that holds).
_PAIRWISE = [
    ("assert_equal", "Equal", "==", equal, "tf.constant([1, 2]), tf.constant([1, 2])"),
    ("assert_none_equal", "NotEqual", "!=", not_equal, "tf.constant([1, 2]), 3"),
    ("assert_greater", "Greater", ">", greater, "tf.constant([2, 3]), 1"),
    ("assert_greater_equal", "GreaterEqual", ">=", greater_equal, "tf.constant([1, 3]), 1"),
    ("assert_less", "Less", "<", less, "tf.constant([1.0, 2.0]), 3.0"),
    ("assert_less_equal", "LessEqual", "<=", less_equal, "tf.constant([1.0, 3.0]), 3.0"),
]
_WITH_ZERO = [
    ("assert_positive", "Greater", ">", greater, "tf.constant([1.0, 2.0])"),
    ("assert_negative", "Less", "<", less, "tf.constant([-1, -2])"),
    ("assert_non_negative", "GreaterEqual", ">=", greater_equal, "tf.constant([0.0, 2.0])"),
    ("assert_non_positive", "LessEqual", "<=", less_equal, "tf.constant([0, -2])"),
]

_PAIRWISE_DOC = """Checks x {symbol} y elementwise (broadcasting); empty tensors pass.

    Args:
        x, y: tensors of one dtype and broadcastable shapes (Python data takes the other's).
        message: put before the error's text.
        summarize: how many entries to show (default 3).

    Returns:
        None when eager; in a graph, the Assert Operation (a tf.function runs it).

    Raises:
        InvalidArgumentError: the check fails (eagerly, at once), different dtypes or
            shapes that do not broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.{name}({example}) is None
        True
    """

_WITH_ZERO_DOC = """Checks x {symbol} 0 elementwise; an empty tensor passes.

    Args:
        x: a numeric tensor.
        message: put before the error's text.
        summarize: how many entries to show (default 3).

    Returns:
        None when eager; in a graph, the Assert Operation (a tf.function runs it).

    Raises:
        InvalidArgumentError: the check fails (eagerly, at once).

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.{name}({example}) is None
        True
    """


def _named(check, name: str, doc: str, **facts):
    check.__name__ = check.__qualname__ = name
    check.__doc__ = doc.format(name=name, **facts)
    return check


def _pairwise(name, op_name, symbol, compare, example):
    if name == "assert_none_equal":     # TF's order of arguments differs for this one
        def check(x, y, summarize=None, message=None, name=None):
            return _compare(op_name, symbol, compare, x, y, message, summarize)
    else:
        def check(x, y, message=None, summarize=None, name=None):
            return _compare(op_name, symbol, compare, x, y, message, summarize)
    return add_dispatch_support(_named(check, name, _PAIRWISE_DOC, symbol=symbol,
                                       example=example), binary_assert=True)


def _with_zero(name, op_name, symbol, compare, example):
    def check(x, message=None, summarize=None, name=None):
        return _compare_with_zero(op_name, symbol, compare, x, message, summarize)
    return _named(check, name, _WITH_ZERO_DOC, symbol=symbol, example=example)


assert_equal = _pairwise(*_PAIRWISE[0])
assert_none_equal = _pairwise(*_PAIRWISE[1])
assert_greater = _pairwise(*_PAIRWISE[2])
assert_greater_equal = _pairwise(*_PAIRWISE[3])
assert_less = _pairwise(*_PAIRWISE[4])
assert_less_equal = _pairwise(*_PAIRWISE[5])
assert_positive = _with_zero(*_WITH_ZERO[0])
assert_negative = _with_zero(*_WITH_ZERO[1])
assert_non_negative = _with_zero(*_WITH_ZERO[2])
assert_non_positive = _with_zero(*_WITH_ZERO[3])


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Checks |x - y| <= atol + rtol * |y| elementwise (broadcasting).

    Args:
        x, y: floating or complex tensors of one dtype.
        rtol, atol: the tolerances; default 10 times the dtype's machine epsilon.
        message: put before the error's text.
        summarize: how many entries to show (default 3).

    Returns:
        None when eager; in a graph, the Assert Operation.

    Raises:
        InvalidArgumentError: the check fails (eagerly, at once).
        ValueError: an integer dtype (there is no epsilon to default the tolerances to).

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.0000001])) is None
        True
    """
    x, y = binary_inputs("assert_near", x, y)
    eps = np.finfo(x.dtype.as_numpy_dtype).eps
    real = x.dtype.real_dtype
    rtol = convert_to_tensor(10 * eps if rtol is None else rtol, dtype=real)
    atol = convert_to_tensor(10 * eps if atol is None else atol, dtype=real)
    close = less_equal(abs_(subtract(x, y)), atol + rtol * abs_(y))
    head = "" if message is None else f"{message}.  "
    return Assert(reduce_all(close), [
        head, f"x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}",
        f"x ({_label(x)}) = ", x, f"y ({_label(y)}) = ", y], summarize)


def _head(message) -> str:
    return "" if message is None else f"{message}.  "


def assert_integer(x, message=None, name=None):
    """Checks that `x` has an integer dtype (when the call is made).

    Returns:
        None when eager; in a graph, a no_op Operation.

    Raises:
        TypeError: another dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.assert_integer(tf.constant([1, 2])) is None
        True
    """
    x = as_input(x)
    if not x.dtype.is_integer:
        raise TypeError(f'{_head(message)}Expected "x" to be integer type.  Found: tensor of '
                        f"dtype {x.dtype}")
    return no_op()


def assert_type(tensor, tf_type, message=None, name=None):
    """Checks that `tensor` has dtype `tf_type` (when the call is made).

    Returns:
        None when eager; in a graph, a no_op Operation.

    Raises:
        TypeError: another dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.assert_type(tf.constant(1.0), tf.float32) is None
        True
    """
    x = as_input(tensor)
    wanted = dtypes.as_dtype(tf_type)
    if x.dtype != wanted:
        raise TypeError(f"{_head(message)}tensor must be of type {wanted!r}; got {x.dtype!r}")
    return no_op()


def assert_scalar(tensor, message=None, name=None):
    """Checks that `tensor` is a scalar (its static shape).

    Returns:
        None.

    Raises:
        ValueError: a known shape that is not a scalar's.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.assert_scalar(tf.constant(3)) is None
        True
    """
    x = as_input(tensor)
    if x.shape.rank != 0:
        raise ValueError(f"{_head(message)}Expected scalar shape, saw shape: {x.shape}.")
    return None


def _rank_input(rank):
    wanted = rank if is_tensor(rank) else convert_to_tensor(rank)
    if not wanted.dtype.is_integer:
        raise TypeError(f"tensor must be of type tf.int32; got {wanted.dtype!r}")
    if wanted.shape.rank != 0:
        raise ValueError("Rank must be a scalar.")
    return wanted


def _check_rank(x, wanted: list, holds, holds_op, text: str, message):
    """The rank family: `holds(rank, ranks)` decides a known rank at once (also in a graph);
    an unknown one gets an Assert op built by `holds_op(rank tensor, rank tensors)`."""
    x = as_input(x)
    known = [int(w._value) if type(w) is Tensor else None for w in wanted]
    if x.ndim is not None and None not in known:
        if not holds(x.ndim, known):
            name = "" if _eager(x) else x.name
            raise ValueError(f"{_head(message)}Tensor {name} must have {text(known)}.  "
                             f"Received rank {x.ndim}, shape {tuple(x.shape)}")
        return no_op()
    head = "" if message is None else f"{message} "
    ranks = [cast(w, dtypes.int32) for w in wanted]
    return Assert(holds_op(rank_of(x), ranks),
                  [head + f"Tensor must have {text(['?'] * len(ranks))}", *wanted,
                   "Received shape:", shape(x)])


def assert_rank(x, rank, message=None, name=None):
    """Checks that `x` has rank `rank`: at once when x's rank is known (also inside a
    graph), otherwise with an Assert op that runs with the graph.

    Args:
        x: a tensor.
        rank: a scalar integer (tensor).
        message: put before the error's text.

    Returns:
        None when eager; in a graph, an Operation.

    Raises:
        ValueError: a known rank that differs, or `rank` not a scalar.
        TypeError: `rank` not an integer.
        InvalidArgumentError: an unknown rank that differs, when the graph runs.

    Example:
        >>> import tapeflow as tf
        >>> try:
        ...     tf.assert_rank(tf.constant([1, 2]), 2)
        ... except ValueError as e:
        ...     print(e)
        Tensor  must have rank 2.  Received rank 1, shape (2,)
    """
    return _check_rank(x, [_rank_input(rank)], lambda r, ks: r == ks[0],
                       lambda r, ks: equal(r, ks[0]), lambda ks: f"rank {ks[0]}", message)


def assert_rank_at_least(x, rank, message=None, name=None):
    """Checks that `x` has rank `rank` or more, as `assert_rank` checks an exact rank.

    Raises:
        ValueError: a known rank that is smaller, or `rank` not a scalar.
        TypeError: `rank` not an integer.
        InvalidArgumentError: an unknown rank that is smaller, when the graph runs.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.assert_rank_at_least(tf.zeros([2, 3]), 1) is None
        True
    """
    return _check_rank(x, [_rank_input(rank)], lambda r, ks: r >= ks[0],
                       lambda r, ks: greater_equal(r, ks[0]),
                       lambda ks: f"rank at least {ks[0]}", message)


def assert_rank_in(x, ranks, message=None, name=None):
    """Checks that the rank of `x` is one of `ranks`, as `assert_rank` checks one rank.

    Raises:
        ValueError: a known rank not among them, or a rank that is not a scalar.
        TypeError: a rank that is not an integer.
        InvalidArgumentError: an unknown rank not among them, when the graph runs.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.assert_rank_in(tf.zeros([2]), [0, 1]) is None
        True
    """
    def any_equal(r, ks):
        found = equal(r, ks[0])
        for k in ks[1:]:
            found = logical_or(found, equal(r, k))
        return found
    return _check_rank(x, [_rank_input(r) for r in ranks], lambda r, ks: r in ks, any_equal,
                       lambda ks: f"rank in {tuple(ks)}", message)


def assert_proper_iterable(values) -> None:
    """Checks that `values` is an iterable that is not a tensor, array or string (whose
    iteration would yield their elements or characters).

    Raises:
        TypeError: a tensor, SparseTensor, NumPy array, str or bytes, or not iterable.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.assert_proper_iterable([tf.constant(1)]) is None
        True
    """
    if isinstance(values, (Tensor, Variable, SparseTensor, np.ndarray, str, bytes)):
        raise TypeError('Expected argument "values" to be a "proper" iterable.  Found: '
                        f"{type(values)}")
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


def assert_same_float_dtype(tensors=None, dtype=None):
    """The floating dtype shared by `tensors` (and `dtype`, when given); float32 when
    there is neither.

    Raises:
        ValueError: the dtypes differ, or the shared one is not floating.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant([2.0])])
        tf.float32
    """
    expected = None if dtype is None else dtypes.as_dtype(dtype)
    first = None
    for t in tensors or ():
        if t is None:
            continue
        if expected is None:
            expected, first = t.dtype, t
        elif t.dtype != expected:
            against = "" if first is None else f" as {first!s}"
            raise ValueError(f"{t!s}, type={t.dtype}, must be of the same type ({expected})"
                             f"{against}.")
    if expected is None:
        return dtypes.float32
    if not expected.is_floating:
        raise ValueError(f"Expected floating point type, got {expected}.")
    return expected


def is_numeric_tensor(tensor) -> bool:
    """Whether `tensor` is a Tensor of a numeric dtype (not bool, string, resource or
    variant); Variables, arrays and Python numbers are not.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.is_numeric_tensor(tf.constant(1.0)), tf.debugging.is_numeric_tensor(1.0)
        (True, False)
    """
    if not isinstance(tensor, Tensor):
        return False
    d = tensor.dtype
    return d.is_floating or d.is_integer or d.is_complex or d.is_quantized
