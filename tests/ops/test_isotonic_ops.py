"""isotonic_regression: pooled fits, segments, axes, dtypes and the pooled gradient."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.testing.gradient_checker import check_grads


@pytest.mark.parametrize("row,decreasing,fit,segments", [
    ([1.0, 3.0, 2.0, 4.0], True, [2.5] * 4, [0, 0, 0, 0]),
    ([4.0, 3.0, 5.0, 1.0], True, [4.0, 4.0, 4.0, 1.0], [0, 1, 1, 2]),
    ([1.0, 3.0, 2.0, 4.0], False, [1.0, 2.5, 2.5, 4.0], [0, 1, 1, 2]),
    ([2.0, 2.0, 1.0], False, [5 / 3] * 3, [0, 0, 0])])
def test_fits(row, decreasing, fit, segments):
    output, segs = tf.nn.isotonic_regression([row], decreasing=decreasing)
    np.testing.assert_allclose(output.numpy()[0], fit)
    assert segs.dtype == tf.int32 and segs.numpy()[0].tolist() == segments


def test_axis_and_integer_inputs():
    output, _ = tf.nn.isotonic_regression([[1.0, 3.0], [2.0, 4.0]], axis=0)
    assert output.numpy().tolist() == [[1.5, 3.5], [1.5, 3.5]]
    fit = tf.nn.isotonic_regression(tf.constant([[1, 3, 2]])).output
    assert fit.dtype == tf.float64 and fit.numpy().tolist() == [[2.0, 2.0, 2.0]]


def test_gradient_averages_over_each_pool():
    x = tf.constant([[1.0, 3.0, 2.0, 4.0, 0.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.isotonic_regression(x)[0] * [1.0, 2.0, 3.0, 4.0, 5.0])
    assert tape.gradient(y, x).numpy().tolist() == [[2.5, 2.5, 2.5, 2.5, 5.0]]
    check_grads(lambda v: tf.nn.isotonic_regression(v, decreasing=False)[0],
                (np.array([[0.3, -1.0, 2.0, 0.5, 1.7]]),), order=2)
