"""`output_gradients` must match its target in shape and dtype, checked before any work."""
import numpy as np
import pytest

import tapeflow as tf


def tape_and_target():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * 2.0
    return tape, x, y


@pytest.mark.parametrize("grad, words", [
    (tf.constant(1.0), r"shape \(\)"),                               # broadcastable
    (tf.constant([1.0, 2.0, 3.0]), r"shape \(3,\)"),
    (tf.ones([2, 2]), r"shape \(2, 2\)"),                            # broadcastable
    (tf.constant([1.0, 2.0], tf.float64), "dtype float64"),
    (tf.constant([1, 2]), "dtype int32"),
    (np.array(["a", "b"]), "does not convert"),
])
def test_mismatched_output_gradients_are_invalid_argument(grad, words):
    tape, x, y = tape_and_target()
    with pytest.raises(tf.errors.InvalidArgumentError, match=words):
        tape.gradient(y, x, output_gradients=grad)


def test_python_and_numpy_output_gradients_take_the_target_dtype():
    tape, x, y = tape_and_target()
    g = tape.gradient(y, x, output_gradients=np.array([1.0, 3.0]))
    assert g.dtype == tf.float32
    np.testing.assert_array_equal(g.numpy(), [2.0, 6.0])


def test_a_refused_output_gradient_leaves_a_persistent_tape_usable():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2.0
    with pytest.raises(tf.errors.InvalidArgumentError):
        tape.gradient(y, x, output_gradients=tf.constant(1.0))
    np.testing.assert_array_equal(tape.gradient(y, x, output_gradients=np.ones(2)), [2.0, 2.0])


def test_checked_inside_a_function_too():
    x = tf.Variable([1.0, 2.0])

    @tf.function
    def f(g):
        with tf.GradientTape() as tape:
            y = x * 2.0
        return tape.gradient(y, x, output_gradients=g)
    np.testing.assert_array_equal(f(tf.constant([1.0, 1.0])), [2.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="dtype float64"):
        f(tf.constant([1.0, 1.0], tf.float64))
