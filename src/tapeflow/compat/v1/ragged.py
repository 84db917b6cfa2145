"""tf.compat.v1.ragged: tf.ragged's names, with the TF 1 NumPy value of a ragged tensor
(RaggedTensorValue) and `constant_value`, which builds one."""
from ...ops.ragged.ragged_factory_ops import constant_value
from ...ops.ragged.ragged_tensor_value import RaggedTensorValue
from ...ragged import (boolean_mask, constant, cross, cross_hashed, map_flat_values, range,
                       row_splits_to_segment_ids, segment_ids_to_row_splits, stack,
                       stack_dynamic_partitions)

__all__ = ["RaggedTensorValue", "boolean_mask", "constant", "constant_value", "cross",
           "cross_hashed", "map_flat_values", "range", "row_splits_to_segment_ids",
           "segment_ids_to_row_splits", "stack", "stack_dynamic_partitions"]
