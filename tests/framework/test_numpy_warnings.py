"""TF computes inf and nan silently; so does tapeflow, while the user's own NumPy still warns.

Each test records every warning ("always"), then installs tapeflow's filter as importing
tapeflow does (pytest resets warning filters between tests, a user's program does not).
"""
import warnings

import numpy as np

import tapeflow as tf
from tapeflow.framework.execute import quiet_numpy_warnings


def runtime_warnings(fn) -> list:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        quiet_numpy_warnings()
        fn()
    return [w for w in caught if issubclass(w.category, RuntimeWarning)]


def test_inf_and_nan_gradients_do_not_warn():
    def compute():
        x = tf.constant([0.0, 0.0])
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            root = tf.sqrt(x)
            norm = tf.norm(x)
        assert np.all(np.isinf(tape.gradient(root, x).numpy()))
        assert np.all(np.isnan(tape.gradient(norm, x).numpy()))
        assert np.isinf(tf.exp(tf.constant(1000.0)).numpy())
    assert runtime_warnings(compute) == []


def test_inf_in_a_function_plan_does_not_warn():
    f = tf.function(lambda x: tf.math.log(x))
    assert runtime_warnings(lambda: np.isneginf(f(tf.constant(0.0)).numpy())) == []


def test_users_own_numpy_still_warns():
    assert len(runtime_warnings(lambda: np.log(np.zeros(1)))) == 1
