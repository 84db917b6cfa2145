"""Segment, counting, partition and space functions against TensorFlow: values, dtypes,
tie-sharing gradients, options and error classes, each case written once against a module
`tf` (the differentiable ones are also rows of the op-case table)."""
import numpy as np
import pytest

pytestmark = pytest.mark.parity

DATA = [1.0, 3.0, 3.0, 2.0, 5.0]


def _grad(tf, f, value):
    x = tf.constant(value)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return y, tape.gradient(y, x)


CASES = {
    "segment_max ties": lambda tf: _grad(tf, lambda x: tf.math.segment_max(x, [0, 0, 0, 1, 1]),
                                         DATA),
    "segment_min empty": lambda tf: _grad(tf, lambda x: tf.math.segment_min(x, [0, 0, 2, 2, 2]),
                                          DATA),
    "unsorted_segment_max ties": lambda tf: _grad(
        tf, lambda x: tf.math.unsorted_segment_max(x, [0, 0, 0, -1, 3], 4), DATA),
    "unsorted_segment_prod one zero": lambda tf: _grad(
        tf, lambda x: tf.math.unsorted_segment_prod(x, [0, 0, 0, 1, 1], 2),
        [1.0, 0.0, 3.0, 2.0, 5.0]),
    "unsorted_segment_mean, sqrt_n": lambda tf: (
        tf.math.unsorted_segment_mean(DATA, [0, 0, 2, 2, -1], 4),
        tf.math.unsorted_segment_sqrt_n(DATA, [0, 0, 2, 2, -1], 4)),
    "segment_mean int": lambda tf: tf.math.segment_mean(tf.constant([1, 2]), [0, 0]),
    "unsorted_segment_max int": lambda tf: tf.math.unsorted_segment_max(tf.constant([1, 2]),
                                                                        [0, 0], 3),
    "sparse segments": lambda tf: (
        tf.sparse.segment_sum(tf.constant([[1.0, 2], [3, 4], [5, 6]]), [0, 2, 2], [0, 0, 1],
                              num_segments=4),
        tf.sparse.segment_mean(tf.constant([[1.0, 2], [3, 4], [5, 6]]), [0, 2, 2], [0, 0, 2]),
        tf.sparse.segment_sqrt_n(tf.constant([[1.0, 2], [3, 4], [5, 6]]), [0, 2, 2], [0, 0, 2])),
    "segment ids not sorted": lambda tf: tf.math.segment_sum(DATA, [1, 0, 2, 2, 2]),
    "unsorted id out of range": lambda tf: tf.math.unsorted_segment_max(DATA, [0, 0, 2, 2, 5], 4),
    "sparse index out of range": lambda tf: tf.sparse.segment_sum(DATA, [0, 5], [0, 1]),
    "tensor_scatter_nd_max ties": lambda tf: _grad(
        tf, lambda x: tf.tensor_scatter_nd_max(x, [[1], [2], [2]], tf.constant([3.0, 1.0, 7.0])),
        DATA[:4]),
    "tensor_scatter_nd_min ties": lambda tf: _grad(
        tf, lambda x: tf.tensor_scatter_nd_min(x, [[1], [1], [2]], tf.constant([3.0, 1.0, 7.0])),
        DATA[:4]),
    "dynamic_partition": lambda tf: tf.dynamic_partition(
        tf.constant([[1.0, 2], [3, 4], [5, 6]]), [1, 0, 1], 3),
    "dynamic_stitch": lambda tf: tf.dynamic_stitch(
        [[0, 3]], [tf.constant([1.0, 2])]),
    "dynamic_partition out of range": lambda tf: tf.dynamic_partition(DATA, [0, 0, 3, 0, 0], 2),
    "bincount": lambda tf: (
        tf.math.bincount(tf.constant([0, 1, 1, 3]), minlength=6, maxlength=5),
        tf.math.bincount(tf.constant([[0, 1], [1, 3]]), axis=-1),
        tf.math.bincount(tf.constant([0, 1, 1, 3]), binary_output=True),
        tf.math.bincount(tf.constant([0, 1, 1, 3]), weights=tf.constant([1, 2, 3, 4.0])),
        tf.math.bincount(tf.constant([], tf.int32)), tf.math.bincount([1, 2], dtype=tf.float32)),
    "bincount negative": lambda tf: tf.math.bincount(tf.constant([1, -1])),
    "unique": lambda tf: (tuple(tf.unique(tf.constant([3.0, 1, 3, 2]))),
                          tuple(tf.unique_with_counts(tf.constant([3, 1, 3]), out_idx=tf.int64))),
    "unique 2-D": lambda tf: tf.unique(tf.constant([[1, 2]])),
    "searchsorted": lambda tf: (
        tf.searchsorted(tf.constant([[1, 3, 5], [2, 4, 6]]), tf.constant([[3], [7]]),
                        side="right"),
        tf.searchsorted(tf.constant([1.0, 2, 5]), tf.constant([2.0, 6]), out_type=tf.int64)),
    "searchsorted leading dims": lambda tf: tf.searchsorted(tf.constant([[1, 2]]),
                                                            tf.constant([[1], [2]])),
    "in_top_k": lambda tf: (
        tf.math.in_top_k([0, 2], tf.constant([[1.0, 3, 3], [1, 2, 3]]), 1),
        tf.math.in_top_k([0, 1], tf.constant([[np.nan, 3, 3], [1, 2, 2]]), 1),
        tf.math.in_top_k(tf.constant([3, 1], tf.int64), tf.constant([[1.0, 3, 3], [1, 2, 2]]),
                         2)),
    "sequence_mask": lambda tf: (tf.sequence_mask([1, 3], 4, dtype=tf.float32),
                                 tf.sequence_mask([[1], [2]]),
                                 tf.sequence_mask(tf.constant([1, 2], tf.int64), 3)),
    "confusion_matrix": lambda tf: (
        tf.math.confusion_matrix([1, 2, 0], [1, 1, 0]),
        tf.math.confusion_matrix([1, 2, 0], [1, 1, 0], num_classes=4, weights=[1.0, 2, 3],
                                 dtype=tf.float32)),
    "confusion_matrix out of range": lambda tf: tf.math.confusion_matrix([1, 2], [1, 5],
                                                                         num_classes=3),
    "depth_to_space": lambda tf: tf.nn.depth_to_space(
        tf.reshape(tf.range(24.0), [1, 2, 3, 4]), 2),
    "depth_to_space indivisible": lambda tf: tf.nn.depth_to_space(
        tf.reshape(tf.range(24.0), [1, 2, 3, 4]), 3),
    "space_to_depth": lambda tf: tf.nn.space_to_depth(tf.reshape(tf.range(48.0), [1, 4, 4, 3]),
                                                      2),
    "space_to_batch_nd": lambda tf: tf.space_to_batch_nd(
        tf.reshape(tf.range(48.0), [2, 4, 6, 1]), [2, 3], [[0, 0], [1, 2]]),
    "batch_to_space": lambda tf: tf.batch_to_space(
        tf.reshape(tf.range(48.0), [8, 2, 3, 1]), [2, 2], [[1, 0], [0, 2]]),
    "reverse_sequence": lambda tf: tf.reverse_sequence(
        tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 3], seq_axis=1, batch_axis=0),
    "reverse_sequence batch_axis=1": lambda tf: tf.reverse_sequence(
        tf.reshape(tf.range(12), [3, 4]), [2, 0, 3, 1], seq_axis=0, batch_axis=1),
    "reverse_sequence too long": lambda tf: tf.reverse_sequence(
        tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 4], seq_axis=1),
    "extract_patches": lambda tf: (
        tf.image.extract_patches(tf.reshape(tf.range(50.0), [1, 5, 5, 2]), [1, 3, 3, 1],
                                 [1, 2, 2, 1], [1, 1, 1, 1], "SAME"),
        tf.image.extract_patches(tf.reshape(tf.range(60.0), [2, 5, 6, 1]), [1, 2, 3, 1],
                                 [1, 3, 1, 1], [1, 2, 2, 1], "VALID"),
        tf.image.extract_patches(tf.reshape(tf.range(64.0), [1, 8, 8, 1]), [1, 2, 2, 1],
                                 [1, 3, 3, 1], [1, 3, 2, 1], "SAME")),
}


@pytest.mark.parametrize("label", list(CASES))
def test_matches_tensorflow(label, parity):
    parity.check_case(CASES[label], rtol=1e-6, atol=1e-12, where=label)
