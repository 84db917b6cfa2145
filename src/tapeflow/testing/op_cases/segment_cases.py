"""Gradient-check rows for segment_ops: sorted, unsorted and sparse segment reductions."""
import numpy as np

import tapeflow as tf

from ._table import case, normal

# Distinct values: ties (where max/min split the gradient) have no derivative to check.
case("SegmentSum", lambda d: tf.math.segment_sum(d, [0, 0, 2, 2]), normal(4, 2),
     label="empty segment")
case("SegmentMean", lambda d: tf.math.segment_mean(d, [0, 0, 0, 2]), normal(4, 2),
     label="empty segment")
case("SegmentMax", lambda d: tf.math.segment_max(d, [0, 0, 1, 3, 3]), normal(5, 2),
     label="empty segment")
case("SegmentMin", lambda d: tf.math.segment_min(d, [0, 0, 1, 1, 1]), normal(5))
case("SegmentProd", lambda d: tf.math.segment_prod(d, [0, 0, 2, 2]), normal(4, 2))
case("SegmentProd", lambda d: tf.math.segment_prod(d * [1.0, 0.0, 1.0, 1.0, 1.0],
                                                   [0, 0, 1, 1, 1]), normal(5), label="one zero")
case("UnsortedSegmentMax", lambda d: tf.math.unsorted_segment_max(d, [2, 0, 2, -1, 0], 4),
     normal(5, 2), label="dropped id, empty segment")
case("UnsortedSegmentMin", lambda d: tf.math.unsorted_segment_min(d, [[1, 0], [1, 1]], 2),
     normal(2, 2, 3), label="2-D ids")
case("UnsortedSegmentProd", lambda d: tf.math.unsorted_segment_prod(d, [1, 0, 1, -1], 3),
     normal(4, 2), label="dropped id")
case("UnsortedSegmentProd", lambda d: tf.math.unsorted_segment_prod(
    d * [0.0, 1.0, 0.0, 1.0, 0.0, 1.0], [0, 0, 1, 1, 1, 1], 2), normal(6), label="zeros")
case("UnsortedSegmentSum", lambda d: tf.math.unsorted_segment_mean(d, [0, 2, 0, -1], 4),
     normal(4, 2), label="unsorted_segment_mean")
case("UnsortedSegmentSum", lambda d: tf.math.unsorted_segment_sqrt_n(d, [0, 2, 0, 0], 3),
     normal(4), label="unsorted_segment_sqrt_n")
case("SparseSegmentSum", lambda d: tf.sparse.segment_sum(d, [0, 2, 2], [0, 0, 1]),
     normal(3, 2), label="repeated index")
case("SparseSegmentSqrtN", lambda d: tf.sparse.segment_sqrt_n(d, [0, 1, 2], [0, 0, 2]),
     normal(3, 2), label="empty segment")
case("SparseSegmentMean", lambda d: tf.sparse.segment_mean(d, [2, 1, 2], [0, 0, 1],
                                                          num_segments=3),
     normal(3, 2), label="num_segments")
# Ids as arguments: inside tf.function they are graph inputs, unknown while it is traced.
case("UnsortedSegmentProd", lambda d, i: tf.math.unsorted_segment_prod(d, i, 2), normal(4),
     np.array([1, 0, 1, -1]), label="id argument")
