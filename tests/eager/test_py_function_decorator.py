"""tf.py_function and tf.numpy_function as decorators (`Tout` by name), eagerly and inside
tf.function."""
import numpy as np
import pytest

import tapeflow as tf


def test_py_function_decorates():
    @tf.py_function(Tout=tf.float32)
    def double(x):
        return x * 2.0

    assert float(double(tf.constant(3.0))) == 6.0
    assert float(tf.function(lambda: double(tf.constant(4.0)))()) == 8.0
    assert double.__name__ == "double"


def test_numpy_function_decorates_and_sees_arrays():
    @tf.numpy_function(Tout=tf.float32)
    def triple(x):
        assert isinstance(x, np.ndarray)
        return x * 3

    assert float(triple(tf.constant(3.0))) == 9.0
    assert float(tf.function(lambda x: triple(x))(tf.constant(1.0))) == 3.0


def test_func_without_inp_wraps_it_and_tout_is_required():
    plus_one = tf.py_function(lambda x: x + 1.0, Tout=tf.float32)
    assert float(plus_one(tf.constant(1.0))) == 2.0
    assert float(tf.py_function(Tout=tf.float32, func=lambda x: x + 1, inp=[1.0])) == 2.0
    with pytest.raises(TypeError, match="'Tout'"):
        tf.py_function(lambda x: x, inp=[1.0])
