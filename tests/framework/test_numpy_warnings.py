"""TF computes inf and nan silently; so does tapeflow, while the user's own NumPy still warns.

Each test records every warning under a fresh `catch_warnings` with "always" or "error"
filters first, as pytest and strict test suites do: tapeflow's filter must hold anyway.
"""
import warnings

import numpy as np
import pytest

import tapeflow as tf


def runtime_warnings(fn, action: str = "always") -> list:
    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.simplefilter(action)
        fn()
    return [w for w in caught if issubclass(w.category, RuntimeWarning)]


@pytest.mark.parametrize("action", ["always", "error"])
def test_inf_and_nan_gradients_do_not_warn(action):
    def compute():
        x = tf.constant([0.0, 0.0])
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            root = tf.sqrt(x)
            norm = tf.norm(x)
        assert np.all(np.isinf(tape.gradient(root, x).numpy()))
        assert np.all(np.isnan(tape.gradient(norm, x).numpy()))
        assert np.isinf(tf.exp(tf.constant(1000.0)).numpy())
        assert np.isinf((tf.constant(1.0) / tf.constant(0.0)).numpy())
        assert np.isinf(tf.constant(1e300, tf.float32).numpy())
    assert runtime_warnings(compute, action) == []


def test_kernels_calling_numpy_python_functions_do_not_warn():
    def compute():
        inf = tf.constant([[np.inf, 1.0], [1.0, np.inf]])
        tf.einsum("ij,jk->ik", inf, -inf)
        tf.linalg.det(inf)
        tf.linalg.slogdet(inf)
        tf.math.polygamma(tf.constant([1.0]), tf.constant([-1.0]))
    assert runtime_warnings(compute) == []


def test_inf_in_a_function_plan_does_not_warn():
    f = tf.function(lambda x: tf.math.log(x))
    f(tf.constant(1.0))
    assert runtime_warnings(lambda: np.isneginf(f(tf.constant(0.0)).numpy())) == []


def test_users_own_numpy_still_warns():
    def compute():
        tf.exp(tf.constant(1000.0))
        np.log(np.zeros(1))
    assert len(runtime_warnings(compute)) == 1


def test_an_eager_op_puts_the_one_filter_back_first():
    from tapeflow.framework.numpy_warnings import QUIET_FILTER
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        tf.exp(tf.constant(1.0))
        assert warnings.filters[0] is QUIET_FILTER
        assert warnings.filters.count(QUIET_FILTER) == 1
