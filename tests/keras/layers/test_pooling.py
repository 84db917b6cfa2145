"""Global pooling layers: values, gradients, data formats."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
X = np.random.default_rng(3).standard_normal((2, 3, 4, 5)).astype(np.float32)


def test_global_average_pooling_values_gradients_and_keepdims():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = layers.GlobalAveragePooling2D()(x)
    np.testing.assert_allclose(out.numpy(), X.mean(axis=(1, 2)), rtol=1e-6)
    g = np.arange(10, dtype=np.float32).reshape(2, 5)
    grad = tape.gradient(out, x, output_gradients=tf.constant(g))
    np.testing.assert_allclose(grad.numpy(), np.broadcast_to(g[:, None, None] / 12, X.shape))
    assert layers.GlobalAveragePooling2D(keepdims=True)(x).shape == [2, 1, 1, 5]
    first = layers.GlobalAveragePooling2D(data_format="channels_first")(x)
    np.testing.assert_allclose(first.numpy(), X.mean(axis=(2, 3)), rtol=1e-6)


def test_global_max_pooling_splits_the_gradient_among_ties():
    x = tf.constant([[[[1.0], [3.0]], [[3.0], [2.0]]]])          # [1, 2, 2, 1], max 3 twice
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = layers.GlobalMaxPooling2D()(x)
    assert out.numpy().tolist() == [[3.0]]
    np.testing.assert_allclose(tape.gradient(out, x).numpy()[0, :, :, 0],
                               [[0.0, 0.5], [0.5, 0.0]])
    np.testing.assert_allclose(layers.GlobalMaxPooling2D()(X).numpy(), X.max(axis=(1, 2)))


def test_one_dimensional_variants_and_rank_errors():
    seq = X[:, 0]                                                 # [2, 4, 5]
    np.testing.assert_allclose(layers.GlobalAveragePooling1D()(seq).numpy(), seq.mean(1),
                               rtol=1e-6)
    np.testing.assert_allclose(layers.GlobalMaxPooling1D()(seq).numpy(), seq.max(1))
    with pytest.raises(ValueError, match=r'"global_average_pooling2d\w*".*ndim=4.*\(2, 4, 5\)'):
        layers.GlobalAveragePooling2D()(seq)
    with pytest.raises(ValueError, match="data_format"):
        layers.GlobalMaxPooling2D(data_format="NHWC")
