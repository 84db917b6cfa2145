"""Helpers shared by the op tests."""
import numpy as np
import pytest

import tapeflow as tf


@pytest.fixture
def assert_inputs_unchanged():
    """`assert_inputs_unchanged(call, x)`: running `call` on a copy of the array `x`, and on a
    tensor of it with its gradient, leaves both as they were."""
    def check(call, x):
        array, t = x.copy(), tf.constant(x)
        call(array)
        with tf.GradientTape() as tape:
            tape.watch(t)
            out = call(t)
            total = sum(tf.reduce_sum(o) for o in (out if isinstance(out, list) else [out]))
        tape.gradient(total, t)
        np.testing.assert_array_equal(array, x)
        np.testing.assert_array_equal(t.numpy(), x)
    return check
