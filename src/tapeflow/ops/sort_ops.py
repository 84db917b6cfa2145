"""Sorting: math.top_k (the TopKV2 op), sort and argsort built on it, as in TF.

The gradient rule of TopKV2 lives in `indexing_grad.py` (it is a scatter).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op
from ..framework.tensor import Tensor
from .array_ops import transpose
from .gather_ops import gather
from .op_util import as_input, int_value, normalize_axis


def _top_k(x, k, sorted):  # noqa: A002  (TF's attribute name)
    n = x.shape[-1]
    # A stable ascending sort of the reversed row, read backwards, is a descending sort in
    # which ties keep their original order (lower index first), as TF's top_k.
    order = np.argsort(x[..., ::-1], axis=-1, kind="stable")[..., ::-1][..., :k]
    indices = (n - 1) - order
    return np.take_along_axis(x, indices, axis=-1), indices.astype(np.int32)


TopKV2 = define_op("TopKV2", _top_k, num_outputs=2)

TopKResult = namedtuple("TopKV2", ["values", "indices"])


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002
    """The `k` largest entries of the last axis, in descending order, and their indices.

    Ties go to the lower index. The gradient flows to `values` (back to where they were
    taken from); `indices` have none.

    Args:
        input: a tensor of rank >= 1.
        k: how many entries to keep (0 <= k <= last dimension).
        sorted: accepted for TF compatibility; results are always sorted.
        index_type: int32 (default) or int64.

    Returns:
        A named tuple `(values, indices)`.

    Raises:
        InvalidArgumentError: a scalar input, or `k` out of range.

    Example:
        >>> import tapeflow as tf
        >>> values, indices = tf.math.top_k(tf.constant([1.0, 3.0, 2.0]), k=2)
        >>> values.numpy(), indices.numpy()
        (array([3., 2.], dtype=float32), array([1, 2], dtype=int32))
    """
    x = _real_input(input)
    count = int_value("TopKV2", k, "k")
    if x.ndim == 0:
        raise errors.InvalidArgumentError(None, "TopKV2", "TopKV2: input must be >= 1-D, got a "
                                          "scalar")
    n = x.shape[-1] if x.ndim else None  # None: checked when the graph runs
    if count < 0 or n is not None and count > n:
        raise errors.InvalidArgumentError(
            None, "TopKV2", f"TopKV2: input must have at least k columns (and k >= 0). Had {n}, "
            f"needed {count} (input shape {x.shape.as_list()})")
    values, indices = execute(TopKV2, (x,), {"k": count, "sorted": True})
    if dtypes.as_dtype(index_type) is dtypes.int64:
        indices = Tensor(indices._value.astype(np.int64))
    return TopKResult(values, indices)


def _real_input(x) -> Tensor:
    """TF sorts (TopKV2) integer and floating tensors only."""
    x = as_input(x)
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise errors.InvalidArgumentError(
            None, "TopKV2", f"TopKV2: cannot sort a {x.dtype.name} tensor (shape "
            f"{x.shape.as_list()}); integer and floating dtypes only.")
    return x


def _sort_last_axis(x, axis, direction: str, want_indices: bool):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"{direction!r} is not a valid direction: use 'ASCENDING' or "
                         "'DESCENDING'.")
    x = _real_input(x)
    if x.ndim == 0:
        raise ValueError("sort: the input must have rank >= 1, got a scalar")
    a = normalize_axis("Sort", axis, x.ndim)
    if x.ndim is None and a != -1:
        raise ValueError(f"sort: axis {a} of a tensor of unknown rank; sort along -1")
    perm = None
    if x.ndim is not None and a != x.ndim - 1:
        perm = list(range(x.ndim))
        perm[a], perm[-1] = perm[-1], perm[a]
        x = transpose(x, perm)
    if direction == "DESCENDING":
        values, indices = _all_sorted(x)
    elif x.dtype.is_unsigned:
        # Negation would wrap around: flip against the largest value instead.
        _, indices = _all_sorted(Tensor(np.asarray(x.dtype.max, x.dtype._np) - x._value))
        values = None if want_indices else _gather_last(x, indices)
    else:
        negated, indices = _all_sorted(-x)
        values = None if want_indices else -negated
    out = indices if want_indices else values
    return out if perm is None else transpose(out, perm)


def _all_sorted(x) -> tuple:
    """top_k of the whole last axis (its length possibly unknown while a graph is built)."""
    return tuple(execute(TopKV2, (x,), {"k": None if x.ndim is None else x.shape[-1],
                                       "sorted": True}))


def _gather_last(x, indices):
    return gather(x, indices, axis=x.ndim - 1, batch_dims=x.ndim - 1)


def sort(values, axis=-1, direction="ASCENDING", name=None) -> Tensor:
    """The values sorted along `axis` (ascending by default).

    Raises:
        ValueError: an unknown direction or a scalar input.
        InvalidArgumentError: `axis` out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.sort(tf.constant([3, 1, 2]), direction="DESCENDING").numpy()
        array([3, 2, 1], dtype=int32)
    """
    return _sort_last_axis(values, axis, direction, want_indices=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None) -> Tensor:
    """The int32 indices that sort `values` along `axis`; ties keep their order.

    Raises:
        ValueError: an unknown direction or a scalar input.
        InvalidArgumentError: `axis` out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.argsort(tf.constant([3.0, 1.0, 2.0])).numpy()
        array([1, 2, 0], dtype=int32)
    """
    return _sort_last_axis(values, axis, direction, want_indices=True)
