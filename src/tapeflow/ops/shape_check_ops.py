"""`assert_shapes`: checks several tensors' shapes against specs with symbolic dimensions."""
from __future__ import annotations

from .array_ops import shape
from .check_ops import (Assert, _eager, _head, _label, assert_rank, assert_rank_at_least,
                        assert_rank_in)
from .comparison_ops import equal
from .control_flow_ops import group, no_op
from .op_util import as_input

__all__ = ["assert_shapes"]

def _is_any_prefix(d) -> bool:
    """`...` or "*" (the string "..." is an ordinary symbol)."""
    return d is Ellipsis or (isinstance(d, str) and d == "*")


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Checks tensors' shapes against specs whose dimensions are sizes, symbols or None.

    A spec lists a tensor's dimensions: an int is that size, a string a symbol (every
    dimension with one symbol has one size, across all the tensors), None any size;
    `...` (or `"*"`), first only, stands for any number of leading dimensions; `[]`
    means a scalar or a vector of one element. Known sizes are checked at once; sizes
    known only when a graph runs by Assert ops.

    Args:
        shapes: (tensor, spec) pairs (a list, or a dict's items).
        data: tensors shown by a check that fails when a graph runs.
        summarize: how many entries of `data` to show.
        message: put before the error's text.

    Returns:
        None when eager; in a graph, an Operation running the checks left for run time.

    Raises:
        ValueError: a known rank or size that does not fit, or a misplaced `...`.
        InvalidArgumentError: a size known only at run time that does not fit.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.assert_shapes([(tf.zeros([3, 2]), ("N", "D")),
        ...                             (tf.zeros([3]), ("N",))]) is None
        True
    """
    pairs = shapes.items() if isinstance(shapes, dict) else shapes
    head = _head(message)
    sizes: dict = {}
    later = []
    for tensor, spec in pairs:
        x = as_input(tensor)
        spec = list(spec)
        label = _label(x)
        for i, d in enumerate(spec[1:], 1):
            if _is_any_prefix(d):
                raise ValueError(f"{head}Tensor {label} specified shape index {i}.  Symbol "
                                 "`...` or `*` for a variable number of unspecified "
                                 "dimensions is only allowed as the first entry")
        prefix = bool(spec) and _is_any_prefix(spec[0])
        dims = spec[1:] if prefix else spec
        if prefix:
            assert_rank_at_least(x, len(dims), message)
        elif not dims:
            assert_rank_in(x, [0, 1], message)
            dims = [1] if x.ndim != 0 else []
        else:
            assert_rank(x, len(dims), message)
        rank = x.ndim
        for j, d in enumerate(dims):
            if d is None:
                continue
            index = j if not prefix or rank is None else rank - len(dims) + j
            position = index if not prefix or rank is not None else j - len(dims)
            actual = x.shape[index] if rank is not None else None
            if isinstance(d, str):
                if d not in sizes:
                    sizes[d] = (actual if actual is not None else shape(x)[position],
                                f"Specified by tensor {label} dimension {index}")
                    continue
                expected, origin = sizes[d]
            else:
                expected, origin = int(d), "Specified explicitly"
            text = f"{head}{origin}.  Tensor {label} dimension {index} must have size"
            if actual is not None and isinstance(expected, int):
                if actual != expected:
                    raise ValueError(f"{text} {expected}.  Received size {actual}, shape "
                                     f"{tuple(x.shape)}")
                continue
            later.append(Assert(equal(shape(x)[position], expected),
                                [text, expected, *(data or [])], summarize))
    if _eager():
        return None
    return group(*later) if later else no_op()
