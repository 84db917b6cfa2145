"""tf.ragged: building RaggedTensors and the ops made for them (TF's dispatch sends
tf.* ops given RaggedTensors to their ragged versions, registered in ops/ragged)."""
import itertools

import numpy as np

from ..ops.ragged.ragged_factory_ops import constant
from ..ops.ragged.ragged_ops import (boolean_mask, map_flat_values, range,
                                     row_splits_to_segment_ids, segment_ids_to_row_splits,
                                     stack, stack_dynamic_partitions)
from ..ops.ragged.ragged_tensor import RaggedTensor

__all__ = ["boolean_mask", "constant", "cross", "cross_hashed", "map_flat_values", "range",
           "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack",
           "stack_dynamic_partitions"]


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None) -> RaggedTensor:
    """Hashed feature crosses of ragged (or dense, or sparse) batches: row i holds the hash
    of every combination of one feature from each input's row i, as
    `tf.sparse.cross_hashed` computes them.

    Args:
        inputs: RaggedTensors of rank 2, dense `[batch, k]` tensors or SparseTensors,
            int32 or int64.
        num_buckets: the number of hash buckets (0: the full int64 range).
        hash_key: the starting fingerprint (default TF's).

    Returns:
        An int64 RaggedTensor of shape `[batch, None]`.

    Raises:
        TypeError: an input is not integer.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.ragged.constant([[1, 2], [3]], dtype=tf.int64)
        >>> b = tf.ragged.constant([[4], [5, 6]], dtype=tf.int64)
        >>> tf.ragged.cross_hashed([a, b], num_buckets=100).to_list()
        [[25, 47], [12, 43]]
    """
    from ..sparse.math import cross_hashed as sparse_cross_hashed
    parts = [x.to_sparse() if isinstance(x, RaggedTensor) else x for x in inputs]
    return RaggedTensor.from_sparse(sparse_cross_hashed(parts, num_buckets, hash_key))


def _feature_rows(x, i: int) -> list:
    """The features of each row of one `cross` input, as bytes."""
    from ..framework import dtypes
    from ..framework.sparse_tensor import SparseTensor
    from ..framework.tensor import convert_to_tensor
    if not isinstance(x, (RaggedTensor, SparseTensor)):
        x = convert_to_tensor(x)
    if x.dtype not in (dtypes.string, dtypes.int32, dtypes.int64):
        raise ValueError(f"Unexpected dtype for inputs[{i}]: {x.dtype!r}")
    if isinstance(x, SparseTensor):
        rows = [[] for _ in itertools.repeat(None, int(np.asarray(x.dense_shape)[0]))]
        for index, v in zip(np.asarray(x.indices), np.asarray(x.values)):
            rows[index[0]].append(v)
    else:
        rows = x.to_list() if isinstance(x, RaggedTensor) else x.numpy().tolist()
    return [[v if isinstance(v, bytes) else str(v).encode() for v in row] for row in rows]


def cross(inputs, name=None) -> RaggedTensor:
    """Feature crosses: row i holds every combination of one feature from each input's row
    i (the first input varying slowest), joined with "_X_"; integers are written in decimal.

    Args:
        inputs: RaggedTensors of rank 2, dense `[batch, k]` tensors or SparseTensors, of
            dtype string, int32 or int64, all with the same number of rows.

    Returns:
        A string RaggedTensor of shape `[batch, None]`.

    Raises:
        ValueError: an input of another dtype, or inputs with different row counts.

    Example:
        >>> import tapeflow as tf
        >>> tf.ragged.cross([tf.ragged.constant([["a", "b"], ["c"]]),
        ...                  tf.ragged.constant([["d"], ["e", "f"]])]).to_list()
        [[b'a_X_d', b'b_X_d'], [b'c_X_e', b'c_X_f']]
    """
    from ..framework import dtypes
    from ..framework.tensor import constant
    rows = [_feature_rows(x, i) for i, x in enumerate(inputs)]
    if len({len(r) for r in rows}) != 1:
        raise ValueError(f"cross: the inputs have different numbers of rows "
                         f"{[len(r) for r in rows]}")
    crossed = [[b"_X_".join(parts) for parts in itertools.product(*features)]
               for features in zip(*rows)]
    values = constant([v for row in crossed for v in row], dtypes.string) if any(crossed) \
        else constant(np.array([], object), dtypes.string)
    return RaggedTensor.from_row_lengths(values, np.array([len(r) for r in crossed], np.int64))
