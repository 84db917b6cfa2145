"""XLA's dynamic slices (`tensorflow.compiler.tf2xla.python.xla`): values and errors as TF
2.21 gives them (gradients: the op-case table)."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler.tf2xla.python import xla

X = np.arange(12, dtype=np.float32).reshape(3, 4)
U = np.array([[100., 200.], [300., 400.]], np.float32)


@pytest.mark.parametrize("start,expected", [  # recorded from TF 2.21
    ([0, 1], [[0, 100, 200, 3], [4, 300, 400, 7], [8, 9, 10, 11]]),
    ([2, 3], [[0, 1, 2, 3], [4, 5, 100, 200], [8, 9, 300, 400]]),   # clamped to [1, 2]
    ([-1, 0], [[100, 200, 2, 3], [300, 400, 6, 7], [8, 9, 10, 11]]),  # clamped to [0, 0]
])
def test_dynamic_update_slice_clamps_the_start(start, expected):
    out = xla.dynamic_update_slice(tf.constant(X), tf.constant(U), tf.constant(start))
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), expected)


def test_dynamic_slice_and_a_start_known_when_the_graph_runs():
    np.testing.assert_array_equal(xla.dynamic_slice(X, [1, 3], [2, 2]).numpy(),
                                  [[6, 7], [10, 11]])
    f = tf.function(lambda x, s: xla.dynamic_update_slice(x, U, s))
    np.testing.assert_array_equal(f(tf.constant(X), tf.constant([1, 1], tf.int64)).numpy(),
                                  [[0, 1, 2, 3], [4, 100, 200, 7], [8, 300, 400, 11]])


def test_gradients_are_the_block_and_the_rest():
    x, u = tf.constant(X), tf.constant(U)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = xla.dynamic_update_slice(x, u, [2, 3]) * X
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(),
                                  [[0, 1, 2, 3], [4, 5, 0, 0], [8, 9, 0, 0]])
    np.testing.assert_array_equal(tape.gradient(y, u).numpy(), [[6, 7], [10, 11]])


@pytest.mark.parametrize("call", [
    lambda: xla.dynamic_update_slice(X, U, [0]),                      # one start per dim
    lambda: xla.dynamic_update_slice(X, np.ones((4, 4), np.float32), [0, 0]),  # too big
    lambda: xla.dynamic_update_slice(tf.constant(X), tf.ones((2, 2), tf.int32), [0, 0]),
    lambda: xla.dynamic_update_slice(X, U, [0.5, 1.0]),              # float starts
])
def test_bad_input_is_an_invalid_argument_error(call):
    with pytest.raises(tf.errors.InvalidArgumentError, match="XlaDynamicUpdateSlice"):
        call()
