"""tf.ragged: building RaggedTensors and the ops made for them (TF's dispatch sends
tf.* ops given RaggedTensors to their ragged versions, registered in ops/ragged)."""
from ..ops.ragged.ragged_factory_ops import constant
from ..ops.ragged.ragged_ops import (boolean_mask, map_flat_values, range,
                                     row_splits_to_segment_ids, segment_ids_to_row_splits,
                                     stack, stack_dynamic_partitions)
from ..ops.ragged.ragged_tensor import RaggedTensor

__all__ = ["boolean_mask", "constant", "cross_hashed", "map_flat_values", "range",
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
