"""tf.nn's embedding lookups over SparseTensors of ids: one combined embedding per row."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..ops.array_ops import concat, reshape, shape, stack
from ..ops.comparison_ops import greater, greater_equal, logical_and
from ..ops.counting_ops import unique
from ..ops.creation_ops import zeros_like
from ..ops.embedding_ops import embedding_lookup
from ..ops.gather_ops import gather
from ..ops.indexing_ops import where
from ..ops.math_ops import cast, divide_no_nan, multiply, sqrt
from ..ops.reduction_ops import reduce_prod
from ..ops.segment_ops import segment_sum, sparse_segment_mean, sparse_segment_sqrt_n, \
    sparse_segment_sum
from .structure import checked, fill_empty_rows, reshape as sparse_reshape, retain

__all__ = ["embedding_lookup_sparse", "safe_embedding_lookup_sparse"]

_COMBINERS = ("mean", "sqrtn", "sum")


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None,
                            name=None, allow_fast_lookup=False):
    """For each row of `sp_ids`, its ids' embeddings (rows of `params`) combined: summed,
    averaged ("mean", the default) or summed over the root of the count ("sqrtn"), each
    weighted by `sp_weights` when given.

    The result has one row per row index up to the largest present (rows without ids are
    zero, also when weighted). The gradient with respect to `params` is an IndexedSlices
    over the ids used.

    Args:
        params: the embedding matrix (or a list of shards, as `embedding_lookup`).
        sp_ids: a SparseTensor of int32/int64 ids of shape [rows, ...].
        sp_weights: None, or a SparseTensor of float weights with the indices of `sp_ids`.
        combiner: "mean", "sqrtn" or "sum".
        max_norm: clip each embedding to this L2 norm first.

    Raises:
        ValueError: an unknown combiner.
        TypeError: `sp_ids` or `sp_weights` is not a SparseTensor.

    Example:
        >>> import tapeflow as tf
        >>> params = tf.constant([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
        >>> ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([0, 2, 1], tf.int64),
        ...                       [2, 2])
        >>> tf.nn.embedding_lookup_sparse(params, ids, None).numpy()
        array([[1.5, 1. ],
               [0. , 1. ]], dtype=float32)
    """
    combiner = "mean" if combiner is None else combiner
    if combiner not in _COMBINERS:
        raise ValueError(f"embedding_lookup_sparse: combiner must be one of {_COMBINERS}, "
                         f"got {combiner!r}")
    sp_ids = checked("embedding_lookup_sparse", sp_ids)
    rows = reshape(gather(sp_ids.indices, np.array([0], np.int64), axis=1), [-1])
    ids, positions = unique(sp_ids.values)
    embeddings = embedding_lookup(params, ids, max_norm=max_norm)
    if sp_weights is None:
        combine = {"sum": sparse_segment_sum, "mean": sparse_segment_mean,
                   "sqrtn": sparse_segment_sqrt_n}[combiner]
        return combine(embeddings, positions, rows)
    weights = checked("embedding_lookup_sparse", sp_weights).values
    weights = cast(weights, embeddings.dtype) if weights.dtype != embeddings.dtype else weights
    picked = gather(embeddings, positions)
    rank = picked.shape.rank
    scale = reshape(weights, [-1] + [1] * (rank - 1)) if rank else weights
    total = segment_sum(multiply(picked, scale), rows)
    if combiner == "sum":
        return total
    norm = segment_sum(weights, rows) if combiner == "mean" else \
        sqrt(segment_sum(weights * weights, rows))
    return divide_no_nan(total, reshape(norm, [-1] + [1] * (rank - 1)))


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, max_norm=None, name=None,
                                 allow_fast_lookup=False):
    """`embedding_lookup_sparse` that tolerates invalid input: ids < 0 (and entries with
    weight <= 0) are dropped, and rows left without ids get the embedding of `default_id`
    (zeros when it is None). Ids of rank > 2 are looked up per innermost row; the result
    has shape `sparse_ids.dense_shape[:-1] + [dim]`.

    Raises:
        ValueError: an unknown combiner.

    Example:
        >>> import tapeflow as tf
        >>> params = tf.constant([[1.0, 0.0], [0.0, 1.0]])
        >>> ids = tf.SparseTensor([[0, 0], [2, 0]], tf.constant([1, -1], tf.int64), [3, 1])
        >>> tf.nn.safe_embedding_lookup_sparse(params, ids).numpy()
        array([[0., 1.],
               [0., 0.],
               [0., 0.]], dtype=float32)
    """
    if combiner not in _COMBINERS:
        raise ValueError(f"safe_embedding_lookup_sparse: combiner must be one of {_COMBINERS}, "
                         f"got {combiner!r}")
    sparse_ids = checked("safe_embedding_lookup_sparse", sparse_ids)
    original = sparse_ids.dense_shape
    rank = sparse_ids.shape.rank
    if rank is None or rank < 2:
        raise ValueError(f"safe_embedding_lookup_sparse: sparse_ids must have a known rank of "
                         f"at least 2, got shape {sparse_ids.shape}")
    outer = reduce_prod(gather(original, np.arange(rank - 1, dtype=np.int64)))
    flat_shape = stack([outer, gather(original, np.int64(rank - 1))])
    ids = sparse_reshape(sparse_ids, flat_shape)
    weights = None if sparse_weights is None else sparse_reshape(
        checked("safe_embedding_lookup_sparse", sparse_weights), flat_shape)
    keep = greater_equal(ids.values, np.zeros((), ids.dtype.as_numpy_dtype))
    if weights is not None:
        positive = greater(weights.values, np.zeros((), weights.dtype.as_numpy_dtype))
        keep = logical_and(keep, positive)
        weights = retain(weights, keep)
    ids = retain(ids, keep)
    ids, empty = fill_empty_rows(ids, 0 if default_id is None else default_id)
    if weights is not None:
        weights, _ = fill_empty_rows(weights, 1.0)
    result = embedding_lookup_sparse(embedding_weights, ids, weights, combiner=combiner,
                                     max_norm=max_norm)
    if default_id is None:
        result = where(reshape(empty, [-1] + [1] * (result.shape.rank - 1)),
                       zeros_like(result), result)
    inner = shape(result, out_type=dtypes.int64)[1:]
    return reshape(result, concat([gather(original, np.arange(rank - 1, dtype=np.int64)),
                                   inner], 0))
