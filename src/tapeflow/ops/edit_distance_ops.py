"""`tf.edit_distance`: the Levenshtein distance between the sequences of two SparseTensors
(op `EditDistance`); not differentiable."""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor

__all__ = ["edit_distance"]


def _levenshtein(a: np.ndarray, b: np.ndarray) -> int:
    """The edit distance of sequences `a` and `b`, one row of the table at a time: a row's
    insertions chain along it, which a running minimum of (entry - position) resolves."""
    row = np.arange(len(b) + 1)
    positions = np.arange(len(b) + 1)
    for x in a:
        diagonal = row[:-1] + (b != x)
        candidate = np.concatenate([[row[0] + 1], np.minimum(row[1:] + 1, diagonal)])
        row = np.minimum.accumulate(candidate - positions) + positions
    return int(row[-1])


def _sequences(indices: np.ndarray, values: np.ndarray) -> dict:
    """{index without its last entry: the values there, in the order of the last entry}."""
    if not len(indices):
        return {}
    order = np.lexsort(indices.T[::-1])
    indices, values = indices[order], values[order]
    keys = [tuple(k) for k in indices[:, :-1].tolist()]
    out: dict = {}
    for key, value in zip(keys, values):
        out.setdefault(key, []).append(value)
    return {k: np.array(v, dtype=values.dtype) for k, v in out.items()}


def _edit_distance(h_indices, h_values, h_shape, t_indices, t_values, t_shape, normalize):
    if len(h_shape) < 2 or len(t_shape) < 2 or len(h_shape) != len(t_shape):
        raise errors.InvalidArgumentError(
            None, "EditDistance", f"EditDistance: Input SparseTensors must have rank at least 2 "
            f"and equal ranks, but hypothesis_shape is {h_shape.tolist()} and truth_shape is "
            f"{t_shape.tolist()}")
    out_shape = np.maximum(h_shape, t_shape)[:-1]
    out = np.zeros(tuple(int(d) for d in out_shape), np.float32)
    hyp, truth = _sequences(h_indices, h_values), _sequences(t_indices, t_values)
    empty = h_values[:0]
    for key in set(hyp) | set(truth):
        a, b = hyp.get(key, empty), truth.get(key, empty)
        distance = _levenshtein(a, b) if len(a) else len(b)
        if normalize:
            out[key] = np.float32(distance) / np.float32(len(b)) if len(b) else (
                np.inf if distance else 0.0)
        else:
            out[key] = distance
    return out


EditDistance = define_op("EditDistance", _edit_distance)
no_gradient("EditDistance")


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance") -> Tensor:
    """The Levenshtein distance between the sequences of `hypothesis` and `truth`: for each
    index without its last entry, the values along the last dimension; divided by the
    truth's length when `normalize` (inf for an empty truth and a non-empty hypothesis).

    Args:
        hypothesis: a SparseTensor of rank >= 2.
        truth: a SparseTensor of the same rank and dtype.
        normalize: divide by the truth's lengths.

    Returns:
        A float32 tensor of the larger dense shape without its last dimension.

    Raises:
        TypeError: an input that is not a SparseTensor.
        InvalidArgumentError: different dtypes, or a rank below 2.

    Example:
        >>> import tapeflow as tf
        >>> h = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], ["a", "b", "c"], [2, 2])
        >>> t = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["a", "c", "d"], [2, 2])
        >>> tf.edit_distance(h, t).numpy()
        array([1. , 0.5], dtype=float32)
    """
    if not isinstance(hypothesis, SparseTensor):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, SparseTensor):
        raise TypeError("Truth must be a SparseTensor.")
    if hypothesis.values.dtype != truth.values.dtype:
        raise errors.InvalidArgumentError(
            None, "EditDistance", f"cannot compute EditDistance as input #4(zero-based) was "
            f"expected to be a {hypothesis.values.dtype.name} tensor but is a "
            f"{truth.values.dtype.name} tensor")
    inputs = (hypothesis.indices, hypothesis.values, hypothesis.dense_shape, truth.indices,
              truth.values, truth.dense_shape)
    return execute(EditDistance, inputs, {"normalize": bool(normalize)})
