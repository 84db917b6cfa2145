"""nn.embedding_lookup: rows of an embedding table (or of a table split into shards)."""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.tensor import Tensor
from .array_ops import concat, reshape
from .comparison_ops import greater
from .creation_ops import ones_like
from .dispatch import add_dispatch_support
from .gather_ops import gather
from .indexing_ops import where
from .math_ops import reduce_sum, sqrt
from .op_util import as_input, index_input


@add_dispatch_support
def embedding_lookup(params, ids, max_norm=None, name=None) -> Tensor:
    """The rows of `params` at `ids`: a gather whose gradient is an IndexedSlices.

    Args:
        params: an embedding table `[vocabulary, ...]`, or a list of shards of one split
            with TF's "div" strategy (the first `vocabulary % n` shards hold one extra row).
        ids: an integer tensor of row ids (a RaggedTensor of them gives a RaggedTensor
            ragged like the ids, through the dispatch of `tf.ragged`).
        max_norm: if given, rows whose L2 norm exceeds it are scaled down to it.

    Returns:
        A tensor of shape `ids.shape + params.shape[1:]`.

    Raises:
        InvalidArgumentError: an id is out of range or not an integer; a scalar shard;
            `max_norm` that is not a scalar, or with a table that is not floating point.
        ValueError: an empty list of shards.

    Example:
        >>> import tapeflow as tf
        >>> table = tf.constant([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
        >>> tf.nn.embedding_lookup(table, [2, 0]).numpy()
        array([[2., 2.],
               [0., 0.]], dtype=float32)
    """
    ids = index_input("GatherV2", ids)
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("embedding_lookup: params must not be an empty list")
        shards = [as_input(p) for p in params]
        for i, shard in enumerate(shards):
            if not shard.ndim:
                raise errors.invalid_argument(
                    "GatherV2", f"params[{i}] is a scalar ({shard.dtype.name}); each shard of "
                    "an embedding table needs rank >= 1")
        rows = gather(shards[0], ids) if len(shards) == 1 else _sharded_lookup(shards, ids)
    else:
        rows = gather(as_input(params), ids)
    if max_norm is None:
        return rows
    if not rows.dtype.is_floating:
        raise errors.invalid_argument(
            "Sqrt", f"max_norm clips float embeddings; these are {rows.dtype.name}")
    if np.ndim(getattr(max_norm, "_value", max_norm)):
        raise errors.invalid_argument(
            "Sqrt", f"max_norm must be a scalar, got shape "
            f"{list(np.shape(getattr(max_norm, '_value', max_norm)))}")
    max_norm = float(max_norm)
    axes = list(range(ids.ndim, rows.ndim))
    squared = reduce_sum(rows * rows, axis=axes, keepdims=True)
    too_long = greater(sqrt(squared), max_norm)
    ones = ones_like(squared)
    # Rows within the limit take the norm 1 in the division, so a zero row's gradient is 0.
    return rows * where(too_long, max_norm / sqrt(where(too_long, squared, ones)), ones)


def _sharded_lookup(shards: list, ids) -> Tensor:
    """Gathers each id from the shard the "div" strategy puts it in, then restores order."""
    n = len(shards)
    total = sum(s.shape[0] for s in shards)
    per, extras = divmod(total, n)
    starts = np.array([p * (per + 1) if p < extras else extras * (per + 1) + (p - extras) * per
                       for p in range(n)])
    flat = ids._value.reshape(-1).astype(np.int64)
    if flat.size and (flat.min() < 0 or flat.max() >= total):
        raise errors.InvalidArgumentError(
            None, "GatherV2", f"GatherV2: ids must be in [0, {total}), got values from "
            f"{flat.min()} to {flat.max()}")
    owner = np.searchsorted(starts, flat, side="right") - 1
    pieces, order = [], []
    for p, shard in enumerate(shards):
        positions = np.flatnonzero(owner == p)
        local = (flat[positions] - starts[p]).astype(ids._value.dtype)  # TF keeps ids' dtype
        pieces.append(gather(shard, Tensor(local)))
        order.append(positions)
    stacked = concat(pieces, axis=0)
    rows = gather(stacked, Tensor(np.argsort(np.concatenate(order), kind="stable")))
    return reshape(rows, ids.shape.as_list() + rows.shape.as_list()[1:])
