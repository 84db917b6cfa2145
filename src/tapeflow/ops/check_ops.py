"""Run-time checks: `Assert` and the `assert_*` functions.

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
from ..framework.tensor import Tensor, convert_to_tensor, is_tensor
from .array_ops import rank as rank_of
from .array_ops import shape
from .comparison_ops import equal, greater, less
from .control_flow_ops import no_op
from .logging_ops import format_array
from .math_ops import cast
from .op_util import as_input, binary_inputs
from .reduction_ops import reduce_all

__all__ = ["Assert", "assert_equal", "assert_greater", "assert_less", "assert_rank"]


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


def assert_equal(x, y, message=None, summarize=None, name=None):
    """Checks x == y elementwise (broadcasting); empty tensors pass.

    Args:
        x, y: tensors of one dtype and broadcastable shapes.
        message: put before the error's text.
        summarize: how many entries to show (default 3).

    Returns:
        None when eager; in a graph, the Assert Operation.

    Raises:
        InvalidArgumentError: the check fails (eagerly, at once), different dtypes or
            shapes that do not broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.assert_equal(tf.constant([1, 2]), tf.constant([1, 2])) is None
        True
    """
    return _compare("Equal", "==", equal, x, y, message, summarize)


def assert_greater(x, y, message=None, summarize=None, name=None):
    """Checks x > y elementwise (broadcasting), as `assert_equal` does x == y.

    Raises:
        InvalidArgumentError: the check fails, different dtypes or shapes that do not
            broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.assert_greater(tf.constant([2, 3]), 1) is None
        True
    """
    return _compare("Greater", ">", greater, x, y, message, summarize)


def assert_less(x, y, message=None, summarize=None, name=None):
    """Checks x < y elementwise (broadcasting), as `assert_equal` does x == y.

    Raises:
        InvalidArgumentError: the check fails, different dtypes or shapes that do not
            broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.assert_less(tf.constant([1.0, 2.0]), 3.0) is None
        True
    """
    return _compare("Less", "<", less, x, y, message, summarize)


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
        Tensor must have rank 2.  Received rank 1, shape (2,)
    """
    x = as_input(x)
    wanted = rank if is_tensor(rank) else convert_to_tensor(rank)
    if not wanted.dtype.is_integer:
        raise TypeError(f"tensor must be of type tf.int32; got {wanted.dtype!r}")
    if wanted.shape.rank != 0:
        raise ValueError("Rank must be a scalar.")
    known = wanted._value if type(wanted) is Tensor else None
    if x.ndim is not None and known is not None:
        if x.ndim != int(known):
            head = "" if message is None else f"{message}.  "
            raise ValueError(f"{head}Tensor must have rank {int(known)}.  Received rank "
                             f"{x.ndim}, shape {tuple(x.shape)}")
        return no_op()
    head = "" if message is None else f"{message} "
    return Assert(equal(rank_of(x), cast(wanted, dtypes.int32)),
                  [head + "Tensor must have rank", wanted, "Received shape:", shape(x)])
