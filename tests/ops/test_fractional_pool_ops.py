"""Fractional pooling: region boundaries, pooled values, gradients and errors."""
import numpy as np
import pytest

import tapeflow as tf

X = np.random.default_rng(4).standard_normal((2, 7, 9, 3)).astype(np.float32)


@pytest.mark.parametrize("pseudo_random", [False, True])
@pytest.mark.parametrize("overlapping", [False, True])
def test_values_follow_the_regions(pseudo_random, overlapping):
    output, rows, cols = tf.nn.fractional_max_pool(X, [1.0, 1.6, 2.3, 1.0], pseudo_random,
                                                   overlapping, seed=5)
    rows, cols = rows.numpy(), cols.numpy()
    assert output.shape == (2, 4, 3, 3) and rows[[0, -1]].tolist() == [0, 7]
    assert cols[[0, -1]].tolist() == [0, 9] and np.all(np.diff(rows) >= 1)
    extra = 1 if overlapping else 0
    for i in range(4):
        for j in range(3):
            region = X[:, rows[i]:rows[i + 1] + extra, cols[j]:cols[j + 1] + extra]
            np.testing.assert_array_equal(output.numpy()[:, i, j], region.max(axis=(1, 2)))
    average, rows, cols = tf.nn.fractional_avg_pool(X, [1.0, 1.6, 2.3, 1.0], pseudo_random,
                                                    overlapping, seed=5)
    region = X[:, rows[1]:rows[2] + extra, cols[0]:cols[1] + extra]
    np.testing.assert_allclose(average.numpy()[:, 1, 0], region.mean(axis=(1, 2)), rtol=1e-6)


def test_seeds_repeat_and_gradients_route_to_the_regions():
    first = tf.nn.fractional_max_pool(X, 1.5, seed=7)
    assert all(np.array_equal(a.numpy(), b.numpy())
               for a, b in zip(first, tf.nn.fractional_max_pool(X, 1.5, seed=7)))
    x = tf.constant(X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        peak = tf.nn.fractional_max_pool(x, [1.0, 2.0, 3.0, 1.0])[0]
        mean = tf.nn.fractional_avg_pool(x, [1.0, 2.0, 3.0, 1.0])[0]
    assert tape.gradient(peak, x).numpy().sum() == peak.numpy().size
    # Each output spreads its gradient over its region: the shares sum to one per output.
    np.testing.assert_allclose(tape.gradient(mean, x).numpy().sum(), mean.numpy().size,
                               rtol=1e-5)


@pytest.mark.parametrize("call,error", [
    (lambda: tf.nn.fractional_max_pool(X, [2.0, 2.0, 2.0, 1.0]), ValueError),
    (lambda: tf.nn.fractional_max_pool(X, 0.5), ValueError),
    (lambda: tf.nn.fractional_avg_pool(X, 2.0), TypeError),
    (lambda: tf.nn.fractional_avg_pool(X, [1.0, 0.5, 2.0, 1.0]), tf.errors.InvalidArgumentError),
    (lambda: tf.nn.fractional_max_pool(X[0], 2.0), tf.errors.InvalidArgumentError)])
def test_errors(call, error):
    with pytest.raises(error):
        call()
