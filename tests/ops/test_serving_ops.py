"""check_pinned and nondifferentiable_batch_function."""
import pytest

import tapeflow as tf


def test_check_pinned_fails_when_run():
    with pytest.raises(tf.errors.FailedPreconditionError, match="pinnedness"):
        tf.check_pinned(tf.constant([1.0]))
    checked = tf.function(lambda x: tf.check_pinned(x))
    with pytest.raises(tf.errors.FailedPreconditionError, match="pinnedness"):
        checked(tf.constant([1.0]))


def test_batch_function_values_and_no_gradient():
    @tf.nondifferentiable_batch_function(1, 4, 100, allowed_batch_sizes=[2, 4])
    def scaled(x, y):
        return x * 2, {"sum": x + y}

    x = tf.constant([[1.0], [2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        doubled, parts = scaled(x, x)
    assert doubled.numpy().ravel().tolist() == [2.0, 4.0]
    assert parts["sum"].numpy().ravel().tolist() == [2.0, 4.0] and scaled.__name__ == "scaled"
    with pytest.raises(LookupError, match="not differentiable"):
        tape.gradient(doubled, x)
