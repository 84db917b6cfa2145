"""Gradient-check rows for space_ops and partition_ops: block rearrangements, sequence
reversal, patches, partitioning and stitching."""
import tapeflow as tf

from ._table import case, normal

case("DepthToSpace", lambda x: tf.nn.depth_to_space(x, 2), normal(2, 2, 3, 8))
case("SpaceToDepth", lambda x: tf.nn.space_to_depth(x, 2), normal(1, 4, 2, 3))
case("SpaceToBatchND", lambda x: tf.space_to_batch_nd(x, [2, 3], [[0, 1], [2, 1]]),
     normal(2, 3, 3, 2), label="paddings")
case("BatchToSpaceND", lambda x: tf.batch_to_space(x, [2, 2], [[1, 0], [0, 1]]),
     normal(8, 2, 2, 1), label="crops")
case("ReverseSequence", lambda x: tf.reverse_sequence(x, [2, 0, 3], seq_axis=1),
     normal(3, 3, 2))
case("ReverseSequence", lambda x: tf.reverse_sequence(x, [1, 2], seq_axis=0, batch_axis=1),
     normal(3, 2), label="batch_axis=1")
case("ExtractImagePatches", lambda x: tf.image.extract_patches(x, [1, 3, 2, 1], [1, 2, 1, 1],
                                                               [1, 1, 1, 1], "SAME"),
     normal(2, 4, 3, 2), label="SAME")
case("ExtractImagePatches", lambda x: tf.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 2, 1],
                                                               [1, 2, 1, 1], "VALID"),
     normal(1, 5, 4, 1), label="VALID, rates")
case("DynamicPartition", lambda x: tf.add_n([tf.reduce_sum(p * (i + 1.0)) for i, p in enumerate(
    tf.dynamic_partition(x, [[1, 0], [2, 1], [1, 1]], 3))]), normal(3, 2, 2),
     label="2-D partitions")
case("DynamicPartition", lambda x: tf.dynamic_partition(x, [1, 1, 0], 3)[1], normal(3),
     label="unused pieces")
case("DynamicStitch", lambda a, b: tf.dynamic_stitch([[0, 2], [1, 2]], [a, b]), normal(2, 2),
     normal(2, 2), label="repeated index")
case("DynamicStitch", lambda a: tf.dynamic_stitch([[[1], [3]]], [a]), normal(2, 1, 3),
     label="2-D indices, missing row")
