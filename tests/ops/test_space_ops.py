"""Block rearrangements, sequence reversal, patches, partitioning and stitching: values,
inverses and errors (gradients: the op-case table)."""
import numpy as np
import pytest

import tapeflow as tf

X = np.arange(2 * 4 * 6 * 3, dtype=np.float32).reshape(2, 4, 6, 3)


@pytest.mark.parametrize("fmt", ["NHWC", "NCHW"])
def test_depth_and_space_are_inverses(fmt):
    x = X if fmt == "NHWC" else X.transpose(0, 3, 1, 2)
    deep = tf.nn.space_to_depth(x, 2, data_format=fmt)
    assert deep.shape == ((2, 2, 3, 12) if fmt == "NHWC" else (2, 12, 2, 3))
    np.testing.assert_array_equal(tf.nn.depth_to_space(deep, 2, data_format=fmt).numpy(), x)


def test_space_to_batch_round_trip():
    pads = [[1, 1], [0, 3]]
    batched = tf.space_to_batch_nd(X, [2, 3], pads)
    assert batched.shape == (12, 3, 3, 3)
    np.testing.assert_array_equal(tf.batch_to_space(batched, [2, 3], pads).numpy(), X)
    assert tf.space_to_batch(X, [2, 3], pads).shape == batched.shape


@pytest.mark.parametrize("call", [
    lambda: tf.nn.depth_to_space(X, 2), lambda: tf.nn.depth_to_space(X, 1),
    lambda: tf.nn.space_to_depth(X, 4), lambda: tf.space_to_batch_nd(X, [3, 3], [[0, 0]] * 2),
    lambda: tf.reverse_sequence(X, [1, 5], seq_axis=1),
    lambda: tf.dynamic_partition(X, [0, 2], 2)])
def test_errors(call):
    with pytest.raises(tf.errors.InvalidArgumentError):
        call()


def test_reverse_sequence_needs_seq_axis():
    with pytest.raises(TypeError, match="seq_dim"):
        tf.reverse_sequence(X, [1, 2])


def test_extract_patches_same_padding_reads_zeros():
    image = np.arange(1 * 5 * 5 * 2, dtype=np.float32).reshape(1, 5, 5, 2)
    patches = tf.image.extract_patches(image, [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
    assert patches.shape == (1, 3, 3, 18)
    np.testing.assert_array_equal(patches[0, 0, 0].numpy(),
                                  [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 10, 11, 12, 13])


def test_partition_then_stitch_restores_the_data():
    parts = [1, 0, 1, 2, 2, 0]
    pieces = tf.dynamic_partition(X[0, 0], parts, 3)
    positions = tf.dynamic_partition(np.arange(6), parts, 3)
    np.testing.assert_array_equal(tf.dynamic_stitch(positions, pieces).numpy(), X[0, 0])
