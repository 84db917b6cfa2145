"""tf.sparse: the segment reductions over picked rows (SparseTensor is not modelled)."""
from .ops.segment_ops import sparse_segment_mean as segment_mean
from .ops.segment_ops import sparse_segment_sqrt_n as segment_sqrt_n
from .ops.segment_ops import sparse_segment_sum as segment_sum

__all__ = ["segment_mean", "segment_sqrt_n", "segment_sum"]
