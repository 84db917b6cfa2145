"""Benchmark cases: each returns {contender: zero-argument callable}, 'numpy' first."""
from __future__ import annotations

import numpy as np

import tapeflow as tf


def chain() -> dict:
    """100 elementwise ops (x*1.01, +0.1, tanh, repeated) on a float32 vector of 4,
    forward plus gradient."""
    x0 = np.linspace(-1, 1, 4).astype(np.float32)
    steps = 100 // 3

    def numpy_chain():
        x = x0
        saved = []
        for _ in range(steps):
            x = np.tanh(x * np.float32(1.01) + np.float32(0.1))
            saved.append(x)
        g = np.ones_like(x)
        for y in reversed(saved):
            g = g * (1 - y * y) * np.float32(1.01)
        return g

    xt = tf.constant(x0)

    def tapeflow_eager():
        with tf.GradientTape() as tape:
            tape.watch(xt)
            x = xt
            for _ in range(steps):
                x = tf.tanh(x * 1.01 + 0.1)
        return tape.gradient(x, xt)

    expected = numpy_chain()
    np.testing.assert_allclose(tapeflow_eager().numpy(), expected, rtol=1e-5)
    return {"numpy": numpy_chain, "tapeflow eager": tapeflow_eager}


ALL = {"chain": chain}


def _tanh_layer(w, x):
    """tanh(W @ x) for a vector x, through tapeflow ops."""
    return tf.tanh(tf.reshape(tf.matmul(w, tf.reshape(x, [-1, 1])), [-1]))


def _jacobian_contenders(forward, x, method: str) -> tuple:
    """Two callables for tape.<method>(forward(x), x): vectorized, and TF's loop of gradient
    calls (experimental_use_pfor=False), each recording the forward pass too."""
    def vectorized():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = forward(x)
        return getattr(tape, method)(y, x)

    def loop():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = forward(x)
        return getattr(tape, method)(y, x, experimental_use_pfor=False)

    return vectorized, loop


def jacobian() -> dict:
    """The 100 x 100 Jacobian of tanh(W @ x), float32: forward plus Jacobian."""
    rng = np.random.default_rng(0)
    w0 = (rng.standard_normal((100, 100)) / 10).astype(np.float32)
    x0 = rng.standard_normal(100).astype(np.float32)

    def numpy_jacobian():
        y = np.tanh(w0 @ x0)
        return (1 - y * y)[:, None] * w0

    w, x = tf.constant(w0), tf.constant(x0)
    vectorized, loop = _jacobian_contenders(lambda x: _tanh_layer(w, x), x, "jacobian")

    expected = numpy_jacobian()
    np.testing.assert_allclose(vectorized().numpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(loop().numpy(), expected, rtol=1e-5, atol=1e-6)
    return {"numpy": numpy_jacobian, "tapeflow vectorized": vectorized,
            "tapeflow loop": loop}


def batch_jacobian() -> dict:
    """Per-example Jacobians of tanh(x @ W) for a batch of 64 rows of 32, float32."""
    rng = np.random.default_rng(1)
    w0 = (rng.standard_normal((32, 32)) / 6).astype(np.float32)
    x0 = rng.standard_normal((64, 32)).astype(np.float32)

    def numpy_batch_jacobian():
        y = np.tanh(x0 @ w0)
        return (1 - y * y)[:, :, None] * w0.T[None]

    w, x = tf.constant(w0), tf.constant(x0)
    vectorized, loop = _jacobian_contenders(lambda x: tf.tanh(tf.matmul(x, w)), x,
                                            "batch_jacobian")

    expected = numpy_batch_jacobian()
    np.testing.assert_allclose(vectorized().numpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(loop().numpy(), expected, rtol=1e-5, atol=1e-6)
    return {"numpy": numpy_batch_jacobian, "tapeflow vectorized": vectorized,
            "tapeflow loop": loop}


def hvp() -> dict:
    """A Hessian-vector product of sum(tanh(W @ x) ** 2), x of 100, float32, forward over
    reverse, beside one gradient of the same function (HVP / gradient is the figure)."""
    rng = np.random.default_rng(2)
    w0 = (rng.standard_normal((100, 100)) / 10).astype(np.float32)
    x0 = rng.standard_normal(100).astype(np.float32)
    v0 = rng.standard_normal(100).astype(np.float32)

    def numpy_hvp():
        t = np.tanh(w0 @ x0)
        return w0.T @ ((2 - 6 * t * t) * (1 - t * t) * (w0 @ v0))

    w, x, v = tf.constant(w0), tf.constant(x0), tf.constant(v0)

    def loss(x):
        return tf.reduce_sum(_tanh_layer(w, x) ** 2.0)

    def gradient():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss(x)
        return tape.gradient(y, x)

    def hessian_vector_product():
        return tf.autodiff.hessian_vector_product(loss, x, v)

    def full_hessian_times_v():
        return tf.reshape(tf.matmul(tf.autodiff.hessian(loss, x), tf.reshape(v, [-1, 1])), [-1])

    np.testing.assert_allclose(hessian_vector_product().numpy(), numpy_hvp(), rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(full_hessian_times_v().numpy(), numpy_hvp(), rtol=1e-4,
                               atol=1e-5)
    return {"numpy": numpy_hvp, "tapeflow gradient": gradient,
            "tapeflow hvp": hessian_vector_product, "tapeflow hessian @ v": full_hessian_times_v}


ALL.update(jacobian=jacobian, batch_jacobian=batch_jacobian, hvp=hvp)
