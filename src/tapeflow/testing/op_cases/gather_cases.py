"""Gradient-check rows for gather_ops: gather and segment sums."""
import tapeflow as tf

from ._table import case, ints, normal

case("GatherV2", lambda p: tf.gather(p, [2, 0, 2]), normal(3, 2), label="axis=0, repeated")
case("GatherV2", lambda p: tf.gather(p, [[1, 0], [1, 1]]), normal(3), label="2-D indices")
case("GatherV2", lambda p: tf.gather(p, 1), normal(3, 2), label="scalar index")
case("GatherV2", lambda p: tf.gather(p, [3, 0, 3], axis=1), normal(2, 4, 2), label="axis=1")
case("GatherV2", lambda p: tf.gather(p, [0, 0], axis=-1), normal(2, 3), label="axis=-1")
case("GatherV2", lambda p, i: tf.gather(p, i, axis=1, batch_dims=1), normal(2, 3, 2),
     ints(3, 2, 4), label="batch_dims=1")
case("GatherV2", lambda p, i: tf.gather(p, i, axis=2, batch_dims=1), normal(2, 2, 3, 2),
     ints(3, 2, 2), label="batch_dims=1, axis=2")
case("GatherV2", lambda p: tf.gather(p + 0.0, [1, 1]) * tf.gather(p, [0, 1]), normal(3, 2),
     label="two gathers")
case("UnsortedSegmentSum", lambda d: tf.math.unsorted_segment_sum(d, [0, 2, 0, -1], 3),
     normal(4, 2), label="dropped id")
case("UnsortedSegmentSum", lambda d: tf.math.unsorted_segment_sum(d, [[1, 0], [1, 1]], 2),
     normal(2, 2), label="2-D ids")
# Indices as arguments: inside tf.function they are graph inputs, unknown while it is traced.
case("GatherV2", lambda p, i: tf.gather(p, i), normal(4, 2), [[3, 0], [3, 1]],
     label="index argument")
case("GatherV2", lambda p, i: tf.gather(p, i, axis=1), normal(2, 4), [2, 0, 2],
     label="index argument, axis=1")
case("UnsortedSegmentSum", lambda d, i: tf.math.unsorted_segment_sum(d, i, 3), normal(4, 2),
     [0, 2, 0, -1], label="id argument")
