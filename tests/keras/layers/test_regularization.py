"""SpatialDropout, GaussianNoise, GaussianDropout and ActivityRegularization."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers


@pytest.mark.parametrize("layer,shape,spatial", [
    (layers.SpatialDropout1D(0.5, seed=1), (4, 6, 8), (1,)),
    (layers.SpatialDropout2D(0.5, seed=2), (4, 3, 3, 8), (1, 2)),
    (layers.SpatialDropout2D(0.5, data_format="channels_first", seed=3), (4, 8, 3, 3), (2, 3)),
    (layers.SpatialDropout3D(0.5, seed=4), (4, 2, 2, 2, 8), (1, 2, 3)),
])
def test_spatial_dropout_drops_whole_channels_in_training_only(layer, shape, spatial):
    x = tf.ones(shape)
    np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, training=True)
    values = y.numpy()
    assert set(np.unique(values)) <= {0.0, 2.0} and 0 < values.mean() < 2
    first = values[tuple(slice(0, 1) if a in spatial else slice(None) for a in range(len(shape)))]
    assert (values == first).all()          # the same decision at every spatial position
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), values)
    assert "noise_shape" not in layer.get_config()


def test_gaussian_noise_and_dropout_statistics_and_gradients():
    x = tf.ones([200, 100])
    noisy = layers.GaussianNoise(0.5, seed=0)
    np.testing.assert_array_equal(noisy(x).numpy(), x.numpy())
    sample = noisy(x, training=True).numpy() - 1
    assert abs(sample.mean()) < 0.02 and abs(sample.std() - 0.5) < 0.02
    dropout = layers.GaussianDropout(0.2, seed=0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = dropout(x, training=True)
    factors = y.numpy()
    assert abs(factors.mean() - 1) < 0.02 and abs(factors.std() - 0.5) < 0.02
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), factors)
    with pytest.raises(ValueError, match="rate"):
        layers.GaussianDropout(1.5)


def test_activity_regularization_adds_its_penalty_and_passes_inputs_through():
    layer = layers.ActivityRegularization(l1=0.1, l2=0.2)
    x = tf.constant([[1.0, -2.0], [3.0, 0.0]])
    np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
    # (0.1 * 6 + 0.2 * 14) / batch of 2
    np.testing.assert_allclose([float(v) for v in layer.losses], [1.7], rtol=1e-6)
    assert layer.get_config()["l1"] == 0.1
