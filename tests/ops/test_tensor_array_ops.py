"""tf.TensorArray: its API eagerly and traced, inside while_loop, and its gradients to second
order (traced against eager)."""
import numpy as np
import pytest

import tapeflow as tf

X = np.linspace(-1.0, 1.0, 12).reshape(4, 3)


def _api(x):
    ta = tf.TensorArray(tf.float64, size=4)
    for i in range(4):
        ta = ta.write(i, x[i] * float(i))
    scattered = tf.TensorArray(tf.float64, size=3).scatter([2, 0], x[:2])
    grown = tf.TensorArray(tf.float64, size=0, dynamic_size=True).write(2, x[0])
    unstacked = tf.TensorArray(tf.float64, size=4).unstack(x)
    return (ta.stack(), ta.read(3), ta.gather([1, 3]), ta.concat(), ta.size(),
            scattered.stack(), grown.stack(), grown.size(), unstacked.read(1),
            tf.TensorArray(tf.float64, size=2).split(x[:2], [1, 1]).stack())


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
def test_tensor_array_api_values(traced):
    out = [t.numpy() for t in (tf.function(_api) if traced else _api)(tf.constant(X))]
    rows = X * np.arange(4)[:, None]
    np.testing.assert_allclose(out[0], rows)
    np.testing.assert_allclose(out[1], rows[3])
    np.testing.assert_allclose(out[2], rows[[1, 3]])
    np.testing.assert_allclose(out[3], rows.reshape(-1))
    assert out[4] == 4
    np.testing.assert_allclose(out[5], [X[1], np.zeros(3), X[0]])
    np.testing.assert_allclose(out[6], [np.zeros(3), np.zeros(3), X[0]])
    assert out[7] == 3
    np.testing.assert_allclose(out[8], X[1])
    np.testing.assert_allclose(out[9], X[:2, None])


def _collect(x, dynamic: bool):
    # The usual RNN pattern: read inputs from one array, write outputs into another whose
    # element shape comes from the first write inside the loop.
    inputs = tf.TensorArray(tf.float64, size=4).unstack(x)
    outputs = tf.TensorArray(tf.float64, size=0 if dynamic else 4, dynamic_size=dynamic)

    def body(t, h, outputs):
        h = tf.tanh(h * 0.5 + inputs.read(t))
        return t + 1, h, outputs.write(t, h * h)
    _, h, outputs = tf.while_loop(lambda t, h, o: t < 4, body,
                                  (tf.constant(0), tf.zeros([3], tf.float64), outputs))
    return tf.reduce_sum(outputs.stack() * tf.constant(X)) + tf.reduce_sum(h)


@pytest.mark.parametrize("dynamic", [False, True], ids=["fixed", "dynamic_size"])
def test_tensor_array_in_while_loop_second_order_traced_matches_eager(dynamic, second_order):
    x = tf.constant(X)

    def model(x):
        return _collect(x, dynamic)
    eager = second_order(model, x)
    traced = tf.function(lambda x: second_order(model, x))(x)
    for e, t in zip(eager, traced):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-12, atol=1e-14)
    # Against a NumPy reference of the value and central differences of the gradient.
    def numpy_model(xv):
        h, total = np.zeros(3), 0.0
        for t in range(4):
            h = np.tanh(h * 0.5 + xv[t])
            total += np.sum(h * h * X[t])
        return total + h.sum()
    assert float(eager[0]) == pytest.approx(numpy_model(X), rel=1e-12)
    eps, basis = 1e-6, np.eye(12).reshape(12, 4, 3)
    numeric = [(numpy_model(X + eps * e) - numpy_model(X - eps * e)) / (2 * eps) for e in basis]
    np.testing.assert_allclose(eager[1].numpy().ravel(), numeric, rtol=1e-6, atol=1e-8)


def test_tensor_array_errors():
    with pytest.raises(ValueError, match="size"):
        tf.TensorArray(tf.float32)
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[3])
    with pytest.raises(ValueError, match="shape"):
        ta.write(0, tf.zeros([2]))
    with pytest.raises(ValueError, match="element shape"):
        tf.TensorArray(tf.float32, size=2).read(0)
    assert ta.element_shape == [3] and ta.dtype == tf.float32 and not ta.dynamic_size
    np.testing.assert_array_equal(ta.stack().numpy(), np.zeros((2, 3)))


def test_tensor_array_through_cond_in_a_loop(second_order):
    def model(x):
        def body(t, ta):
            ta = tf.cond(t % 2 == 0, lambda: ta.write(t, tf.sin(x[t])),
                         lambda: ta.write(t, x[t] ** 2))
            return t + 1, ta
        _, ta = tf.while_loop(lambda t, ta: t < 4, body,
                              (tf.constant(0), tf.TensorArray(tf.float64, size=4)))
        return tf.reduce_sum(ta.stack() ** 2)
    x = tf.constant(X)
    eager, traced = second_order(model, x), tf.function(lambda x: second_order(model, x))(x)
    for e, t in zip(eager, traced):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-12, atol=1e-14)
    rows = np.where(np.arange(4)[:, None] % 2 == 0, np.sin(X), X ** 2)
    assert float(eager[0]) == pytest.approx(np.sum(rows ** 2), rel=1e-12)


def test_eager_writes_change_the_array_as_in_tf():
    ta = tf.TensorArray(tf.float32, size=2)
    written = ta.write(0, 1.0)
    assert ta.stack().numpy().tolist() == [1.0, 0.0] == written.stack().numpy().tolist()
