"""Helpers shared by the op tests."""
import pytest

import tapeflow as tf


@pytest.fixture
def grad_of():
    """`grad_of(fn, x)`: the gradient of `fn` at the constant `x` (a watched tensor)."""
    def gradient(fn, x):
        x = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return tape.gradient(y, x)
    return gradient
