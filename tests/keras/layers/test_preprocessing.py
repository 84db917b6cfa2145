"""Normalization (adapt, given statistics, invert) and Rescaling."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
DATA = np.random.default_rng(4).standard_normal((20, 3, 2)).astype(np.float32) * 4 + 2


def test_adapt_learns_the_mean_and_variance_of_every_kept_position():
    norm = layers.Normalization(axis=(1, 2))
    norm.adapt(DATA)
    assert [(w.name.split("/")[-1].split(":")[0], w.shape, w.trainable) for w in norm.weights] \
        == [("mean", [3, 2], False), ("variance", [3, 2], False), ("count", [], False)]
    np.testing.assert_allclose(norm.adapt_mean.numpy(), DATA.mean(0), rtol=1e-5)
    np.testing.assert_allclose(norm.adapt_variance.numpy(), DATA.var(0), rtol=1e-5)
    x = tf.constant(DATA[:4])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = norm(x)
    np.testing.assert_allclose(y.numpy(), (DATA[:4] - DATA.mean(0)) / DATA.std(0), rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(),
                               np.broadcast_to(1 / DATA.std(0), (4, 3, 2)), rtol=1e-4)
    assert norm.trainable_weights == []


def test_adapt_on_batches_equals_adapt_on_everything():
    whole, batched = layers.Normalization(), layers.Normalization()
    flat = DATA.reshape(-1, 2)
    whole.adapt(flat)
    batched.adapt([flat[:7], flat[7:30], tf.constant(flat[30:])])
    np.testing.assert_allclose(batched.adapt_mean.numpy(), whole.adapt_mean.numpy(), rtol=1e-5)
    np.testing.assert_allclose(batched.adapt_variance.numpy(), whole.adapt_variance.numpy(),
                               rtol=1e-5)
    with pytest.raises(ValueError, match="batch"):
        whole.adapt(np.zeros((4, 3), np.float32))


def test_given_statistics_invert_and_errors():
    norm = layers.Normalization(mean=[1.0, 2.0], variance=[4.0, 9.0])
    np.testing.assert_allclose(norm(tf.constant([[3.0, 8.0]])).numpy(), [[1.0, 2.0]])
    assert norm.weights == [] and norm.get_config()["mean"] == [1.0, 2.0]
    back = layers.Normalization(mean=[1.0, 2.0], variance=[4.0, 9.0], invert=True)
    np.testing.assert_allclose(back(tf.constant([[1.0, 2.0]])).numpy(), [[3.0, 8.0]])
    scalar = layers.Normalization(axis=None, mean=2.0, variance=0.0)
    np.testing.assert_allclose(scalar(tf.constant([[2.0, 3.0]])).numpy(), [[0.0, 1e7]],
                               rtol=1e-6)
    with pytest.raises(ValueError, match="both"):
        layers.Normalization(mean=1.0)


def test_rescaling():
    layer = layers.Rescaling(1 / 255.0, offset=-0.5)
    x = tf.constant([[0, 255]], dtype=tf.int32)
    y = layer(x)
    assert y.dtype == tf.float32
    np.testing.assert_allclose(y.numpy(), [[-0.5, 0.5]], rtol=1e-6)
    assert layer.get_config()["offset"] == -0.5
