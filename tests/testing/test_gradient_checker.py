import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import registry
from tapeflow.testing.gradient_checker import GradientCheckError, check_grads


@pytest.fixture
def wrong_square(temporary_op):
    op = temporary_op("TestWrongSquare", np.square)

    @registry.RegisterGradient("TestWrongSquare")
    def _wrong(op, g):
        return g * op.inputs[0]  # missing the factor 2

    return lambda x: tf.framework.execute.execute(op, (x,), {})


@pytest.fixture
def wrong_second_order(temporary_op):
    op = temporary_op("TestWrongCube", lambda x: x ** 3)

    @registry.RegisterGradient("TestWrongCube")
    def _first_order_right_but_constant_slope(op, g):
        x = op.inputs[0]
        # Right values, but computed from a constant so the second derivative is lost.
        return g * 3 * tf.stop_gradient(x * x) if hasattr(x, "_id") else g * 3 * x * x

    return lambda x: tf.framework.execute.execute(op, (x,), {})


def test_checker_rejects_a_wrong_rule(wrong_square):
    with pytest.raises(GradientCheckError, match="order 1"):
        check_grads(wrong_square, [np.array([1.0, 2.0])])


def test_checker_rejects_a_wrong_second_order(wrong_second_order):
    assert check_grads(wrong_second_order, [np.array([1.0, 2.0])], order=1) < 1e-6
    with pytest.raises(GradientCheckError, match="order 2"):
        check_grads(wrong_second_order, [np.array([1.0, 2.0])], order=2)


def test_checker_accepts_a_right_rule():
    assert check_grads(lambda x: tf.tanh(x) * x, [np.array([0.3, -1.2])]) < 1e-6


def test_compute_gradient_matches_tf_format():
    x = tf.constant([1.0, 2.0, 3.0], dtype=tf.float64)
    theoretical, numerical = tf.test.compute_gradient(lambda x: x * x, [x])
    assert isinstance(theoretical, tuple) and isinstance(numerical, tuple)
    assert theoretical[0].shape == (3, 3)
    np.testing.assert_allclose(theoretical[0], np.diag([2.0, 4.0, 6.0]))
    np.testing.assert_allclose(numerical[0], np.diag([2.0, 4.0, 6.0]), atol=1e-6)


def test_compute_gradient_rows_are_outputs_columns_inputs():
    a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=tf.float64)
    x = tf.constant([1.0, 1.0, 1.0], dtype=tf.float64)
    theoretical, numerical = tf.test.compute_gradient(
        lambda x: tf.reshape(tf.matmul(a, tf.reshape(x, [3, 1])), [2]), [x])
    np.testing.assert_allclose(theoretical[0], a.numpy())
    np.testing.assert_allclose(numerical[0], a.numpy(), atol=1e-6)
