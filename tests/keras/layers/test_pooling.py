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


def _blocks_reduce(x, k, reduce):
    """VALID non-overlapping pooling of channels-last `x` with window `k` in NumPy."""
    n, c = x.shape[0], x.shape[-1]
    sizes = [d // w for d, w in zip(x.shape[1:-1], k)]
    trimmed = x[(slice(None), *(slice(0, s * w) for s, w in zip(sizes, k)))]
    shape = [n] + [v for s, w in zip(sizes, k) for v in (s, w)] + [c]
    return reduce(trimmed.reshape(shape), axis=tuple(range(2, 2 * len(k) + 1, 2)))


@pytest.mark.parametrize("name,k,shape", [("MaxPooling1D", (2,), (2, 7, 3)),
                                          ("AveragePooling1D", (3,), (2, 7, 3)),
                                          ("MaxPooling3D", (2, 2, 2), (1, 4, 5, 4, 2)),
                                          ("AveragePooling3D", (2, 1, 2), (1, 4, 3, 4, 2))])
def test_window_pooling_in_one_and_three_dimensions_matches_numpy(name, k, shape):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    reduce = np.max if name.startswith("Max") else np.mean
    layer = getattr(layers, name)(k)
    np.testing.assert_allclose(layer(x).numpy(), _blocks_reduce(x, k, reduce), rtol=1e-6)
    assert layer.weights == [] and layer.get_config()["strides"] == k
    first = getattr(layers, name)(k, data_format="channels_first")
    moved = np.moveaxis(x, -1, 1)
    np.testing.assert_allclose(np.moveaxis(first(moved).numpy(), 1, -1),
                               _blocks_reduce(x, k, reduce), rtol=1e-6)
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        total = tf.reduce_sum(layer(xt))
    grad = tape.gradient(total, xt).numpy()
    assert grad.sum() == pytest.approx(np.prod(layer(x).shape.as_list()), rel=1e-5)


def test_global_pooling_3d_and_same_padding_1d():
    x = np.random.default_rng(1).standard_normal((2, 2, 3, 4, 5)).astype(np.float32)
    np.testing.assert_allclose(layers.GlobalAveragePooling3D()(x).numpy(), x.mean((1, 2, 3)),
                               rtol=1e-5)
    np.testing.assert_allclose(layers.GlobalMaxPooling3D(keepdims=True)(x).numpy(),
                               x.max((1, 2, 3), keepdims=True))
    seq = tf.reshape(tf.constant([1.0, 2.0, 3.0, 5.0]), [1, 4, 1])
    np.testing.assert_allclose(layers.AveragePooling1D(2, 1, "same")(seq).numpy().ravel(),
                               [1.5, 2.5, 4.0, 5.0])
    with pytest.raises(ValueError, match="pool_size"):
        layers.MaxPooling3D((2, 2))
