"""UpSampling, ZeroPadding, Cropping, RepeatVector and Permute against NumPy."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
X = np.random.default_rng(5).standard_normal((2, 3, 4, 2, 3)).astype(np.float32)

CASES = [  # (layer, input, NumPy reference)
    (lambda: layers.UpSampling1D(3), X[:, 0, 0], lambda x: np.repeat(x, 3, axis=1)),
    (lambda: layers.UpSampling2D((2, 3)), X[:, 0],
     lambda x: np.repeat(np.repeat(x, 2, axis=1), 3, axis=2)),
    (lambda: layers.UpSampling2D(2, data_format="channels_first"), X[:, 0],
     lambda x: np.repeat(np.repeat(x, 2, axis=2), 2, axis=3)),
    (lambda: layers.UpSampling3D((1, 2, 3)), X,
     lambda x: np.repeat(np.repeat(x, 2, axis=2), 3, axis=3)),
    (lambda: layers.ZeroPadding1D((1, 2)), X[:, 0, 0],
     lambda x: np.pad(x, ((0, 0), (1, 2), (0, 0)))),
    (lambda: layers.ZeroPadding2D(((1, 0), (2, 1))), X[:, 0],
     lambda x: np.pad(x, ((0, 0), (1, 0), (2, 1), (0, 0)))),
    (lambda: layers.ZeroPadding2D(1, data_format="channels_first"), X[:, 0],
     lambda x: np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))),
    (lambda: layers.ZeroPadding3D((1, 0, 2)), X,
     lambda x: np.pad(x, ((0, 0), (1, 1), (0, 0), (2, 2), (0, 0)))),
    (lambda: layers.Cropping1D((1, 0)), X[:, 0, 0], lambda x: x[:, 1:]),
    (lambda: layers.Cropping2D(((1, 1), (1, 0))), X[:, 0], lambda x: x[:, 1:-1, 1:]),
    (lambda: layers.Cropping3D(((1, 0), (1, 2), (0, 1))), X, lambda x: x[:, 1:, 1:2, :1]),
    (lambda: layers.RepeatVector(4), X[:, 0, 0, 0],
     lambda x: np.repeat(x[:, None], 4, axis=1)),
    (lambda: layers.Permute((3, 1, 2)), X[:, 0], lambda x: x.transpose(0, 3, 1, 2)),
]


@pytest.mark.parametrize("make,x,reference", CASES)
def test_values_and_gradients_match_numpy(make, x, reference):
    layer = make()
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = layer(xt)
        weights = np.random.default_rng(0).standard_normal(y.shape.as_list())
        total = tf.reduce_sum(y * weights.astype(np.float32))
    np.testing.assert_array_equal(y.numpy(), reference(x))
    assert layer.weights == []
    # Every layer here is linear: its gradient is the adjoint, <grad, x> = <weights, y>.
    np.testing.assert_allclose(np.sum(tape.gradient(total, xt).numpy() * x), float(total),
                               rtol=1e-4)


def test_bilinear_upsampling_interpolates_between_pixel_centres():
    x = tf.reshape(tf.constant([0.0, 4.0, 8.0]), [1, 1, 3, 1])
    up = layers.UpSampling2D((1, 2), interpolation="bilinear")
    np.testing.assert_allclose(up(x).numpy().ravel(), [0, 1, 3, 5, 7, 8])
    ones = tf.ones([1, 3, 3, 2])
    np.testing.assert_allclose(layers.UpSampling2D(2, interpolation="bilinear")(ones).numpy(),
                               np.ones((1, 6, 6, 2)))
    with pytest.raises(ValueError, match="interpolation"):
        layers.UpSampling2D(interpolation="bicubic")


def test_configs_and_errors():
    assert layers.ZeroPadding2D(2).get_config()["padding"] == ((2, 2), (2, 2))
    assert layers.ZeroPadding1D().get_config()["padding"] == (1, 1)
    assert "data_format" not in layers.Cropping1D().get_config()
    assert layers.UpSampling1D().get_config()["size"] == 2
    with pytest.raises(ValueError, match="padding"):
        layers.ZeroPadding2D((1, 2, 3))
    with pytest.raises(ValueError, match="cropping"):
        layers.Cropping1D((3, 3))(tf.ones([1, 4, 1]))
    with pytest.raises(ValueError, match="dims"):
        layers.Permute((1, 3))
    with pytest.raises(ValueError, match="ndim=2"):
        layers.RepeatVector(2)(tf.ones([1, 2, 3]))
