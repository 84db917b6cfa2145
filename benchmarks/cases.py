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
