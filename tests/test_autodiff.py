"""tapeflow.autodiff helpers beyond TF: jvp, vjp, linearize, hessian, hessian_vector_product."""
import numpy as np
import pytest

import tapeflow as tf


def cubic(v):
    return tf.reduce_sum(v ** 3.0)


def loss(x, w):
    return tf.reduce_sum(tf.tanh(tf.matmul(w, tf.reshape(x, [-1, 1]))) ** 2.0)


def test_exports():
    assert tf.autodiff.ForwardAccumulator is tf.eager.forwardprop.ForwardAccumulator
    assert tf.autodiff.GradientTape is tf.GradientTape


def test_hessian_vector_product_example():
    hvp = tf.autodiff.hessian_vector_product(cubic, tf.constant([1.0, 2.0]),
                                             tf.constant([1.0, 0.0]))
    assert hvp.dtype == tf.float32
    np.testing.assert_array_equal(hvp.numpy(), [6.0, 0.0])
    v = tf.Variable([1.0, 2.0])
    np.testing.assert_array_equal(
        tf.autodiff.hessian_vector_product(cubic, v, tf.constant([0.0, 1.0])).numpy(), [0.0, 12.0])


def test_hessian_and_hvp_agree_with_finite_differences():
    rng = np.random.default_rng(0)
    w = tf.constant(rng.standard_normal((4, 3)))
    x = tf.constant(rng.standard_normal(3))
    h = tf.autodiff.hessian(lambda x: loss(x, w), x)
    assert h.shape == [3, 3] and h.dtype == tf.float64
    np.testing.assert_allclose(h.numpy(), h.numpy().T, rtol=1e-12)

    def grad(xv):
        xt = tf.constant(xv)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = loss(xt, w)
        return tape.gradient(y, xt).numpy()

    eps = 1e-6
    numeric = np.stack([(grad(x.numpy() + eps * e) - grad(x.numpy() - eps * e)) / (2 * eps)
                        for e in np.eye(3)], axis=1)
    np.testing.assert_allclose(h.numpy(), numeric, rtol=1e-6, atol=1e-8)
    v = rng.standard_normal(3)
    hvp = tf.autodiff.hessian_vector_product(lambda x: loss(x, w), x, tf.constant(v))
    np.testing.assert_allclose(hvp.numpy(), h.numpy() @ v, rtol=1e-10)


def test_structures_and_unconnected():
    a, b = tf.constant([1.0, 2.0]), tf.constant(3.0)
    hvp = tf.autodiff.hessian_vector_product(lambda p: tf.reduce_sum(p["a"] ** 2.0),
                                             {"a": a, "b": b},
                                             {"a": tf.constant([1.0, 1.0]), "b": tf.constant(1.0)})
    np.testing.assert_array_equal(hvp["a"].numpy(), [2.0, 2.0])
    assert float(hvp["b"]) == 0.0
    h = tf.autodiff.hessian(lambda x: tf.constant(1.0), tf.constant([1.0, 2.0]))
    assert h.shape == [2, 2] and not np.any(h.numpy())


def test_jvp():
    y, dy = tf.autodiff.jvp(lambda x, s: tf.exp(x) * s, [tf.constant([0.0, 1.0]), 2.0],
                            [tf.constant([1.0, 0.0]), tf.constant(0.5)])
    np.testing.assert_allclose(y.numpy(), [2.0, 2 * np.e], rtol=1e-6)
    np.testing.assert_allclose(dy.numpy(), [2.5, 0.5 * np.e], rtol=1e-6)
    out, tangents = tf.autodiff.jvp(lambda x: (x * 2.0, tf.constant(1.0)), [tf.constant(1.0)],
                                    [tf.constant(1.0)])
    assert float(tangents[0]) == 2.0 and float(tangents[1]) == 0.0
    with pytest.raises(ValueError):
        tf.autodiff.jvp(tf.exp, [tf.constant(1.0)], [])


def test_vjp():
    y, vjp_fn = tf.autodiff.vjp(lambda a, b: tf.matmul(a, b), tf.constant([[1.0, 2.0]]),
                                tf.constant([[3.0], [4.0]]))
    np.testing.assert_array_equal(y.numpy(), [[11.0]])
    ga, gb = vjp_fn(tf.constant([[1.0]]))
    np.testing.assert_array_equal(ga.numpy(), [[3.0, 4.0]])
    np.testing.assert_array_equal(gb.numpy(), [[1.0], [2.0]])
    ga2, _ = vjp_fn(tf.constant([[2.0]]))  # callable again
    np.testing.assert_array_equal(ga2.numpy(), [[6.0, 8.0]])
    _, const_fn = tf.autodiff.vjp(lambda a: tf.constant(1.0), tf.constant(2.0))
    assert float(const_fn(tf.constant(1.0))[0]) == 0.0


def test_linearize_replays_without_running_f():
    calls = []

    def f(x):
        calls.append(1)
        return tf.tanh(x) * x

    x = tf.constant([0.5, -1.0])
    y, jvp_fn = tf.autodiff.linearize(f, x)
    slope = (1 - np.tanh(x.numpy()) ** 2) * x.numpy() + np.tanh(x.numpy())
    for v in ([1.0, 0.0], [2.0, 3.0]):
        np.testing.assert_allclose(jvp_fn(tf.constant(v)).numpy(), slope * v, rtol=1e-6)
    assert len(calls) == 1
    _, const_fn = tf.autodiff.linearize(lambda x: tf.constant(2.0), x)
    assert float(const_fn(tf.constant([1.0, 1.0]))) == 0.0


def test_linearize_is_differentiable_under_a_tape():
    x = tf.constant(2.0)
    _, jvp_fn = tf.autodiff.linearize(lambda x: x * x * x, x)
    v = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(v)
        out = jvp_fn(v)
    assert float(out) == 12.0 and float(tape.gradient(out, v)) == 12.0
