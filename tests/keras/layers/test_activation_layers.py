"""ReLU, LeakyReLU, PReLU, ELU and Softmax layers against NumPy."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
X = np.array([[-2.0, -0.5, 0.1, 0.5, 3.0]], np.float32)


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("layer,reference", [
    (layers.ReLU(), lambda x: np.maximum(x, 0)),
    (layers.ReLU(max_value=1.0, negative_slope=0.1, threshold=0.2),
     lambda x: np.where(x >= 0.2, np.minimum(x, 1.0), 0.1 * (x - 0.2))),
    (layers.LeakyReLU(), lambda x: np.where(x > 0, x, 0.3 * x)),
    (layers.ELU(alpha=0.5), lambda x: np.where(x > 0, x, 0.5 * np.expm1(x))),
    (layers.Softmax(), lambda x: _softmax(x, -1)),
])
def test_values_and_gradients_match_numpy(layer, reference):
    xt = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = layer(xt)
        total = tf.reduce_sum(y * tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0]]))
    np.testing.assert_allclose(y.numpy(), reference(X.astype(np.float64)), rtol=1e-6, atol=1e-7)
    eps = 1e-3
    numeric = [(np.sum(reference(X + eps * e) * [1, 2, 3, 4, 5])
                - np.sum(reference(X - eps * e) * [1, 2, 3, 4, 5])) / (2 * eps)
               for e in np.eye(5, dtype=np.float64)[:, None]]
    np.testing.assert_allclose(tape.gradient(total, xt).numpy().ravel(), numeric, rtol=1e-2,
                               atol=1e-3)


def test_prelu_learns_one_slope_per_unshared_position():
    x = np.random.default_rng(0).standard_normal((2, 3, 3, 4)).astype(np.float32)
    prelu = layers.PReLU(alpha_initializer="random_normal", shared_axes=[1, 2])
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = prelu(xt)
        total = tf.reduce_sum(y)
    alpha = prelu.alpha.numpy()
    assert prelu.alpha.shape == [1, 1, 4] and prelu.weights == [prelu.alpha]
    np.testing.assert_allclose(y.numpy(), np.where(x > 0, x, alpha * x), rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(total, prelu.alpha).numpy(),
                               np.minimum(x, 0).sum(axis=(0, 1, 2), keepdims=True)[0],
                               rtol=1e-5)
    assert layers.PReLU(shared_axes=1).get_config()["shared_axes"] == [1]


def test_softmax_over_axes_and_with_a_mask():
    x = np.random.default_rng(1).standard_normal((2, 3, 4)).astype(np.float32)
    np.testing.assert_allclose(layers.Softmax(axis=(1, 2))(x).numpy(),
                               _softmax(x.reshape(2, -1), -1).reshape(x.shape), rtol=1e-5)
    mask = np.array([[True, False, True, True]])
    out = layers.Softmax()(x[:1, 0:1, :][0], mask=tf.constant(mask)).numpy()
    want = _softmax(np.where(mask, x[:1, 0], -np.inf), -1)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-7)
    everything_masked = layers.Softmax()(x[:1, 0], mask=tf.constant([[0.0, 0.0, 0.0, 0.0]]))
    np.testing.assert_array_equal(everything_masked.numpy(), np.zeros((1, 4)))


def test_bad_arguments():
    with pytest.raises(ValueError, match="max_value"):
        layers.ReLU(max_value=-1.0)
    with pytest.raises(ValueError, match="negative_slope"):
        layers.LeakyReLU(-0.1)
    assert layers.LeakyReLU(alpha=0.1).negative_slope == 0.1
