"""clip_by_global_norm and global_norm: values, None entries, IndexedSlices, use_norm,
non-finite norms, gradients, errors."""
import numpy as np
import pytest

import tapeflow as tf


def test_global_norm_skips_none_and_reads_indexed_slices():
    slices = tf.IndexedSlices(tf.constant([[2.0, 0.0]]), tf.constant([1]), tf.constant([3, 2]))
    assert float(tf.linalg.global_norm([tf.constant([3.0]), None, slices,
                                        tf.constant([[0.0, 6.0]])])) == pytest.approx(7.0)


def test_clip_by_global_norm_scales_everything_together():
    a, b = tf.constant([6.0, 0.0]), tf.constant([[8.0]])
    slices = tf.IndexedSlices(tf.constant([[0.0]]), tf.constant([0]), tf.constant([2, 1]))
    clipped, norm = tf.clip_by_global_norm([a, None, b, slices], 5.0)
    assert float(norm) == pytest.approx(10.0)
    assert clipped[1] is None
    np.testing.assert_allclose(clipped[0].numpy(), [3.0, 0.0])
    np.testing.assert_allclose(clipped[2].numpy(), [[4.0]])
    assert isinstance(clipped[3], tf.IndexedSlices)
    assert clipped[3].indices.numpy().tolist() == [0]
    unchanged, norm = tf.clip_by_global_norm((a, b), 20.0)
    np.testing.assert_allclose(unchanged[0].numpy(), a.numpy())


def test_use_norm_and_non_finite_norms():
    clipped, norm = tf.clip_by_global_norm([tf.constant([1.0, 1.0])], 1.0, use_norm=4.0)
    assert float(norm) == 4.0
    np.testing.assert_allclose(clipped[0].numpy(), [0.25, 0.25])
    clipped, norm = tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 1.0)
    assert np.isinf(float(norm)) and np.isnan(clipped[0].numpy()).all()


def test_gradients_flow_through_the_scale():
    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        clipped, _ = tf.clip_by_global_norm([x], 1.0)
        loss = tf.reduce_sum(clipped[0])
    # d/dx of sum(x) / |x|: 1/|x| - sum(x) x / |x|^3
    expected = 1 / 5.0 - 7.0 * np.array([3.0, 4.0]) / 125.0
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), expected, rtol=1e-6)


def test_errors():
    with pytest.raises(TypeError, match="should be a sequence"):
        tf.clip_by_global_norm(tf.constant([1.0]), 1.0)
    with pytest.raises(TypeError, match="should be a sequence"):
        tf.linalg.global_norm(tf.constant([1.0]))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.global_norm([tf.constant([1.0]), tf.constant([1.0], tf.float64)])
