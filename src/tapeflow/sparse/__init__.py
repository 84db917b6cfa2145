"""tf.sparse: SparseTensor (COO) conversions, rearrangements, arithmetic and reductions,
hashed feature crosses, and the segment reductions over picked rows."""
from ..framework.sparse_tensor import SparseTensor
from ..ops.segment_ops import sparse_segment_mean as segment_mean
from ..ops.segment_ops import sparse_segment_sqrt_n as segment_sqrt_n
from ..ops.segment_ops import sparse_segment_sum as segment_sum
from .math import (add, bincount, cross_hashed, map_values, maximum, minimum, reduce_max,
                   reduce_sum, sampled_addmm, softmax, sparse_dense_matmul)
from .structure import (concat, expand_dims, eye, fill_empty_rows, from_dense, mask, reorder,
                        reset_shape, reshape, retain, slice, split, to_dense, to_indicator,
                        transpose)

__all__ = ["SparseTensor", "add", "bincount", "concat", "cross_hashed", "expand_dims", "eye",
           "fill_empty_rows", "from_dense", "map_values", "mask", "maximum", "minimum",
           "reduce_max", "reduce_sum", "reorder", "reset_shape", "reshape", "retain",
           "sampled_addmm", "segment_mean", "segment_sqrt_n", "segment_sum", "slice", "softmax",
           "sparse_dense_matmul", "split", "to_dense", "to_indicator", "transpose"]
