"""Merge layers: values and gradients against NumPy, shape errors."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
rng = np.random.default_rng(7)
A = rng.standard_normal((2, 3)).astype(np.float32)
B = rng.standard_normal((2, 3)).astype(np.float32)
G = rng.standard_normal((2, 3)).astype(np.float32)


@pytest.mark.parametrize("layer, value, grad_a, grad_b", [
    (layers.Add, A + B, G, G),
    (layers.Subtract, A - B, G, -G),
    (layers.Multiply, A * B, G * B, G * A),
    (layers.Average, (A + B) / 2, G / 2, G / 2),
    (layers.Maximum, np.maximum(A, B), G * (A >= B), G * (A < B)),
    (layers.Minimum, np.minimum(A, B), G * (A <= B), G * (A > B)),
])
def test_elementwise_merges_forward_and_backward(layer, value, grad_a, grad_b):
    a, b = tf.constant(A), tf.constant(B)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        out = layer()([a, b])
    np.testing.assert_allclose(out.numpy(), value, rtol=1e-6)
    got_a, got_b = tape.gradient(out, [a, b], output_gradients=tf.constant(G))
    np.testing.assert_allclose(got_a.numpy(), grad_a, rtol=1e-6)
    np.testing.assert_allclose(got_b.numpy(), grad_b, rtol=1e-6)


def test_three_inputs_broadcasting_and_functional_forms():
    c = np.ones((2, 1), np.float32)
    np.testing.assert_allclose(layers.Add()([A, B, c]).numpy(), A + B + 1, rtol=1e-6)
    np.testing.assert_allclose(layers.multiply([A, B, c]).numpy(), A * B, rtol=1e-6)
    np.testing.assert_allclose(layers.average([A, B, c]).numpy(), (A + B + 1) / 3, rtol=1e-6)
    assert layers.add([A, B]).shape == [2, 3] and layers.subtract([A, B]).shape == [2, 3]
    assert layers.maximum([A, B]).shape == [2, 3] and layers.minimum([A, B]).shape == [2, 3]


def test_concatenate_values_gradients_and_axes():
    a, b = tf.constant(A), tf.constant(B[:, :2])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        out = layers.Concatenate()([a, b])
    np.testing.assert_array_equal(out.numpy(), np.concatenate([A, B[:, :2]], axis=1))
    g = rng.standard_normal((2, 5)).astype(np.float32)
    got_a, got_b = tape.gradient(out, [a, b], output_gradients=tf.constant(g))
    np.testing.assert_array_equal(got_a.numpy(), g[:, :3])
    np.testing.assert_array_equal(got_b.numpy(), g[:, 3:])
    assert layers.Concatenate(axis=0)([A, B]).shape == [4, 3]
    assert layers.concatenate([A[None], B[None]], axis=1).shape == [1, 4, 3]
    assert layers.Concatenate(axis=1).get_config()["axis"] == 1


def test_bad_inputs_name_the_layer_and_shapes():
    with pytest.raises(ValueError, match=r'"mul" \(Multiply\): inputs have incompatible shapes. '
                                         r"Received shapes \(2, 3\) and \(2, 2\)"):
        layers.Multiply(name="mul")([A, B[:, :2]])
    with pytest.raises(ValueError, match=r"\(2, 3\) and \(3,\).*different ranks"):
        layers.Add()([A, B[0]])
    with pytest.raises(ValueError, match=r'"cat" \(Concatenate\).*axis -1.*\[\(2, 3\), \(1, 3\)\]'):
        layers.Concatenate(name="cat")([A, B[:1]])
    with pytest.raises(ValueError, match=r"received one tensor of shape \(2, 3\)"):
        layers.Concatenate()(A)
    with pytest.raises(ValueError, match="exactly 2 inputs; received 1"):
        layers.Subtract()([A])


def test_dot_is_the_batched_dot_product():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3, 4)).astype(np.float32), \
        rng.standard_normal((2, 5, 4)).astype(np.float32)
    at, bt = tf.constant(a), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([at, bt])
        y = tf.keras.layers.Dot(axes=(2, 2))([at, bt])
    np.testing.assert_allclose(y.numpy(), np.einsum("bik,bjk->bij", a, b), rtol=1e-5)
    ga, gb = tape.gradient(y, [at, bt])
    np.testing.assert_allclose(ga.numpy(), np.broadcast_to(b.sum(1, keepdims=True), a.shape),
                               rtol=1e-5)
    flat = tf.keras.layers.dot([a[:, 0], a[:, 1]], axes=1)
    np.testing.assert_allclose(flat.numpy(), (a[:, 0] * a[:, 1]).sum(-1, keepdims=True),
                               rtol=1e-5)
    cosine = tf.keras.layers.Dot(axes=-1, normalize=True)([a[:, 0], a[:, 0]])
    np.testing.assert_allclose(cosine.numpy(), np.ones((2, 1)), rtol=1e-5)
    with pytest.raises(ValueError, match="incompatible"):
        tf.keras.layers.Dot(axes=1)([a, b])
    with pytest.raises(ValueError, match="2 inputs"):
        tf.keras.layers.Dot(axes=1)([a])
