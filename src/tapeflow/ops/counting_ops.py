"""Counting, deduplicating and ranking: bincount, unique, searchsorted, in_top_k,
sequence_mask and confusion_matrix. Kernels and the public TF-named functions.

Their outputs are integers or booleans (bincount's weighted counts excepted, which TF does
not differentiate either): Unique and DenseBincount have no gradient rule, as in TF (a
LookupError), the others are declared not differentiable in `counting_grad.py`.
"""
from __future__ import annotations

import collections

import numpy as np

from ..framework import dtypes, errors
from ..framework.context import executing_eagerly
from ..framework.execute import execute
from ..framework.registry import define_op
from ..framework.tensor import Tensor
from .array_ops import expand_dims, reshape, stack
from .comparison_ops import less
from .creation_ops import ones_like
from .creation_ops import range as range_
from .gather_ops import unsorted_segment_sum
from .math_ops import cast
from .op_util import as_input, index_input, int_values
from .reduction_ops import reduce_max


# TF's results: namedtuples, read by position or by name.
UniqueOutput = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCountsOutput = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


# -- kernels ---------------------------------------------------------------------------------
def _unique(x, out_idx):
    if x.ndim != 1:
        raise errors.InvalidArgumentError(
            None, "Unique", f"Unique: unique expects a 1D vector, got shape {list(x.shape)}")
    values, first, idx, counts = np.unique(x, return_index=True, return_inverse=True,
                                           return_counts=True)
    order = np.argsort(first, kind="stable")  # TF keeps the order of first occurrence
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return values[order], rank[idx.ravel()].astype(out_idx), counts[order].astype(out_idx)


def _bincount(arr, weights, minlength, maxlength, binary_output, dtype):
    if arr.size and arr.min() < 0:
        raise errors.InvalidArgumentError(
            None, "DenseBincount", f"DenseBincount: Input arr must be non-negative, got "
            f"{int(arr.min())}")
    size = int(arr.max()) + 1 if arr.size else 0
    if minlength is not None:
        size = max(size, minlength)
    if maxlength is not None:
        size = min(size, maxlength)
    rows = arr.reshape(-1, arr.shape[-1]) if arr.ndim == 2 else arr.reshape(1, -1)
    w = None if weights.size == 0 else weights.reshape(rows.shape)
    out = np.zeros((rows.shape[0], size), dtype=dtype)
    for r, row in enumerate(rows):
        keep = row < size
        if binary_output:
            out[r, row[keep]] = 1
        else:
            np.add.at(out[r], row[keep], 1 if w is None else w[r][keep])
    return out if arr.ndim == 2 else out[0]


def _search(side: str):
    def kernel(sorted_sequence, values, out_type):
        if sorted_sequence.shape[:-1] != values.shape[:-1]:
            raise errors.InvalidArgumentError(
                None, "LowerBound" if side == "left" else "UpperBound",
                f"Leading dim_size of both tensors must match: sorted_sequence shape "
                f"{list(sorted_sequence.shape)}, values shape {list(values.shape)}")
        rows = sorted_sequence.reshape(-1, sorted_sequence.shape[-1])
        found = [np.searchsorted(s, v, side=side)
                 for s, v in zip(rows, values.reshape(rows.shape[0], -1))]
        return np.asarray(found).reshape(values.shape).astype(out_type)
    return kernel


def _in_top_k(predictions, targets, k):
    rows = predictions.shape[0]
    if predictions.ndim != 2 or targets.shape != (rows,):
        raise errors.InvalidArgumentError(
            None, "InTopKV2", f"InTopKV2: predictions must be [batch, classes] and targets "
            f"[batch], got {list(predictions.shape)} and {list(targets.shape)}")
    valid = (targets >= 0) & (targets < predictions.shape[1])
    picked = predictions[np.arange(rows), np.where(valid, targets, 0)]
    greater = (predictions > picked[:, None]).sum(axis=1)
    return valid & np.isfinite(picked) & (greater < k)


Unique = define_op("Unique", lambda x, out_idx: _unique(x, out_idx)[:2], num_outputs=2)
UniqueWithCounts = define_op("UniqueWithCounts", _unique, num_outputs=3)
DenseBincount = define_op("DenseBincount", _bincount)
LowerBound = define_op("LowerBound", _search("left"))
UpperBound = define_op("UpperBound", _search("right"))
InTopKV2 = define_op("InTopKV2", _in_top_k)


# -- public functions ------------------------------------------------------------------------
def _index_dtype(op_name: str, out_idx) -> np.dtype:
    dtype = dtypes.as_dtype(out_idx)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{op_name}: out_idx must be int32 or int64, got {dtype.name}")
    return dtype.as_numpy_dtype


def unique(x, out_idx=dtypes.int32, name=None):
    """The distinct values of 1-D `x` in order of first occurrence, and for each entry of
    `x` the position of its value among them.

    Args:
        x: a 1-D tensor.
        out_idx: int32 (default) or int64, the dtype of `idx`.

    Returns:
        The namedtuple `Unique(y, idx)` with `x == gather(y, idx)`.

    Raises:
        InvalidArgumentError: `x` is not 1-D.

    Example:
        >>> import tapeflow as tf
        >>> y, idx = tf.unique(tf.constant([3, 1, 3, 2]))
        >>> y.numpy(), idx.numpy()
        (array([3, 1, 2], dtype=int32), array([0, 1, 0, 2], dtype=int32))
    """
    y, idx = execute(Unique, (as_input(x),), {"out_idx": _index_dtype("Unique", out_idx)})
    return UniqueOutput(y, idx)


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """`unique`, and how many times each distinct value occurs.

    Returns:
        The namedtuple `UniqueWithCounts(y, idx, count)`, `count` of dtype `out_idx`.

    Raises:
        InvalidArgumentError: `x` is not 1-D.

    Example:
        >>> import tapeflow as tf
        >>> tf.unique_with_counts(tf.constant([3, 1, 3]))[2].numpy()
        array([2, 1], dtype=int32)
    """
    y, idx, count = execute(UniqueWithCounts, (as_input(x),),
                            {"out_idx": _index_dtype("UniqueWithCounts", out_idx)})
    return UniqueWithCountsOutput(y, idx, count)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None,
             axis=None, binary_output=False) -> Tensor:
    """How many times each value 0, 1, ... occurs in the non-negative integers `arr` (the
    sum of their `weights` when given; 1 for any count with `binary_output`).

    Args:
        arr: a non-negative int32/int64 tensor.
        weights: None, or a tensor shaped like `arr` whose dtype the result takes.
        minlength, maxlength: bounds on the number of bins (default max(arr) + 1); values at
            or past `maxlength` are not counted.
        dtype: the result's dtype without weights (int32).
        axis: None (count over all of `arr`) or -1 (per row of a 2-D `arr`).
        binary_output: whether to mark presence (1) rather than count.

    Returns:
        The counts, 1-D (or one row per row of `arr` with axis=-1).

    Raises:
        InvalidArgumentError: a negative value, or an axis other than None, 0 or -1.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.bincount(tf.constant([1, 1, 3])).numpy()
        array([0, 2, 0, 1], dtype=int32)
    """
    values = index_input("DenseBincount", arr)
    if axis not in (None, 0, -1):
        raise errors.InvalidArgumentError(
            None, "DenseBincount", f"DenseBincount: axis must be None, 0 or -1, got {axis}")
    if axis in (None, 0):
        values = reshape(values, [-1])
    elif values.ndim != 2:
        raise errors.InvalidArgumentError(
            None, "DenseBincount", f"DenseBincount: axis=-1 needs a 2-D arr, got shape "
            f"{values.shape.as_list()}")
    if weights is None:
        w, out = as_input(np.zeros((0,), np.float32)), dtypes.as_dtype(dtype)
    else:
        w = reshape(as_input(weights), values.shape)
        out = w.dtype
    return execute(DenseBincount, (values, w), {
        "minlength": None if minlength is None else int(minlength),
        "maxlength": None if maxlength is None else int(maxlength),
        "binary_output": bool(binary_output), "dtype": out.as_numpy_dtype})


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32,
                 name=None) -> Tensor:
    """For each of `values`, the position in `sorted_sequence` (along its last axis) where it
    would be inserted to keep it sorted: before equal entries ("left") or after ("right").

    Args:
        sorted_sequence: an N-D tensor sorted along its last axis.
        values: an N-D tensor with the same leading dimensions.
        side: "left" or "right".
        out_type: int32 (default) or int64.

    Returns:
        Positions shaped like `values`.

    Raises:
        ValueError: `side` is not "left" or "right".
        InvalidArgumentError: the leading dimensions differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.searchsorted(tf.constant([1.0, 2.0, 5.0]), tf.constant([2.0, 6.0])).numpy()
        array([1, 3], dtype=int32)
    """
    if side not in ("left", "right"):
        raise ValueError(f"side must be either 'right' or 'left'. Saw: {side}.")
    op = LowerBound if side == "left" else UpperBound
    return execute(op, (as_input(sorted_sequence), as_input(values)),
                   {"out_type": _index_dtype(op.name, out_type)})


def in_top_k(targets, predictions, k, name=None) -> Tensor:
    """Whether each row's target class is among its `k` highest predictions (ties count
    in: fewer than `k` predictions are strictly greater). A non-finite prediction for the
    target, or a target out of range, gives False.

    Args:
        targets: a [batch] int32/int64 tensor of classes.
        predictions: a [batch, classes] float tensor.
        k: an int.

    Returns:
        A [batch] bool tensor.

    Raises:
        InvalidArgumentError: mismatched shapes.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.in_top_k([0, 2], tf.constant([[1.0, 3.0, 2.0], [1.0, 2.0, 3.0]]), 1).numpy()
        array([False,  True])
    """
    (k,) = int_values("InTopKV2", k, "k")
    return execute(InTopKV2, (as_input(predictions), index_input("InTopKV2", targets)),
                   {"k": k})


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None) -> Tensor:
    """`mask[..., j] = j < lengths[...]`, for j in [0, maxlen).

    Args:
        lengths: an integer tensor.
        maxlen: the mask's last dimension (default max(lengths)).
        dtype: the mask's dtype (bool).

    Returns:
        A tensor of shape `lengths.shape + [maxlen]`.

    Example:
        >>> import tapeflow as tf
        >>> tf.sequence_mask([1, 3], 4).numpy()
        array([[ True, False, False, False],
               [ True,  True,  True, False]])
    """
    lengths = as_input(lengths)
    if maxlen is None:
        maxlen = reduce_max(lengths)
    steps = range_(cast(maxlen, lengths.dtype), dtype=lengths.dtype)
    mask = less(steps, expand_dims(lengths, -1))
    return mask if dtypes.as_dtype(dtype) == dtypes.bool else cast(mask, dtype)


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32,
                     name=None) -> Tensor:
    """`out[i, j]`: how many (or the summed `weights` of) examples with label i were
    predicted as j.

    Args:
        labels, predictions: 1-D integer tensors of one length, each in [0, num_classes).
        num_classes: the matrix's size (default: the largest label or prediction + 1).
        weights: None, or a 1-D tensor of one weight per example.
        dtype: the matrix's dtype (int32).

    Returns:
        A [num_classes, num_classes] tensor.

    Raises:
        InvalidArgumentError: a negative label or prediction, or one >= num_classes (checked
            eagerly only: inside tf.function the values are not known while it is traced).
        ValueError: num_classes is None inside tf.function.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.confusion_matrix([1, 2, 0], [1, 1, 0]).numpy()
        array([[1, 0, 0],
               [0, 1, 0],
               [0, 1, 0]], dtype=int32)
    """
    dtype = dtypes.as_dtype(dtype)
    labels = cast(index_input("confusion_matrix", labels), dtypes.int64)
    predictions = cast(index_input("confusion_matrix", predictions), dtypes.int64)
    if not executing_eagerly():  # the values are not known while a graph is built
        if num_classes is None:
            raise ValueError("confusion_matrix: inside tf.function, pass num_classes (the "
                             "matrix size must be known while the graph is built)")
        n = int(num_classes)
        return _confusion(labels, predictions, n, weights, dtype)
    both = stack([labels, predictions]).numpy()
    if both.size and both.min() < 0:
        raise errors.InvalidArgumentError(
            None, "confusion_matrix", f"confusion_matrix: labels and predictions must be "
            f"non-negative, got {int(both.min())}")
    n = (int(both.max()) + 1 if both.size else 0) if num_classes is None else int(num_classes)
    if both.size and both.max() >= n:
        raise errors.InvalidArgumentError(
            None, "confusion_matrix", f"confusion_matrix: labels and predictions must be < "
            f"num_classes ({n}), got {int(both.max())}")
    return _confusion(labels, predictions, n, weights, dtype)


def _confusion(labels, predictions, n: int, weights, dtype) -> Tensor:
    counts = ones_like(labels, dtype=dtype) if weights is None else cast(weights, dtype)
    return reshape(unsorted_segment_sum(counts, labels * n + predictions, n * n), [n, n])
