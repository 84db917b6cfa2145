"""tf.bitwise and the `&`, `|`, `^`, `~` operators: values against NumPy, TF's shift clamping,
dtypes, errors, and no gradient."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import errors

_X = np.array([[12, -7, 0, 255], [3, -128, 127, 1]])
_Y = np.array([5, 2, 9, 4])


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8"])
@pytest.mark.parametrize("fn,np_fn", [(tf.bitwise.bitwise_and, np.bitwise_and),
                                      (tf.bitwise.bitwise_or, np.bitwise_or),
                                      (tf.bitwise.bitwise_xor, np.bitwise_xor)])
def test_binary_bitwise_ops_match_numpy(fn, np_fn, dtype):
    x, y = _X.astype(dtype), _Y.astype(dtype)
    out = fn(tf.constant(x), tf.constant(y))
    assert out.dtype == tf.as_dtype(dtype) and out.shape == (2, 4)
    np.testing.assert_array_equal(out.numpy(), np_fn(x, y))


def test_invert_and_python_scalars():
    np.testing.assert_array_equal(tf.bitwise.invert(tf.constant(_X)).numpy(), ~_X)
    assert tf.bitwise.invert(tf.constant([0], tf.uint8)).numpy()[0] == 255
    np.testing.assert_array_equal(tf.bitwise.bitwise_and(tf.constant([6, 5]), 3).numpy(), [2, 1])


def test_shifts_clamp_the_amount_as_tf_does():
    x, y = tf.constant([12, -7]), tf.constant([10, 2])
    np.testing.assert_array_equal(tf.bitwise.left_shift(x, y).numpy(), [12288, -28])
    np.testing.assert_array_equal(tf.bitwise.right_shift(x, y).numpy(), [0, -2])
    # TF's values: shifts past the width act as width - 1, negative shifts as 0.
    out = tf.bitwise.left_shift(tf.constant([1, 1], tf.int8), tf.constant([9, 7], tf.int8))
    np.testing.assert_array_equal(out.numpy(), [-128, -128])
    out = tf.bitwise.right_shift(tf.constant([-8, 8]), tf.constant([40, -1]))
    np.testing.assert_array_equal(out.numpy(), [-1, 8])


def test_operators_are_bitwise_on_integers_and_logical_on_bools():
    a, b = tf.constant([12, -7]), tf.constant([10, 2])
    np.testing.assert_array_equal((a & b).numpy(), [8, 0])
    np.testing.assert_array_equal((a | b).numpy(), [14, -5])
    np.testing.assert_array_equal((a ^ b).numpy(), [6, -5])
    np.testing.assert_array_equal((~a).numpy(), [-13, 6])
    np.testing.assert_array_equal((1 | tf.constant([6])).numpy(), [7])
    np.testing.assert_array_equal((tf.Variable([3]) & 1).numpy(), [1])
    p, q = tf.constant([True, False]), tf.constant([True, True])
    assert (p & q).dtype == tf.bool and (~p).numpy().tolist() == [False, True]


def test_bad_dtypes_are_invalid_arguments():
    with pytest.raises(errors.InvalidArgumentError, match="BitwiseAnd.*float32"):
        tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([1.0]))
    with pytest.raises(errors.InvalidArgumentError, match="Invert.*bool"):
        tf.bitwise.invert(tf.constant([True]))
    with pytest.raises(errors.InvalidArgumentError, match="Invert.*float32"):
        ~tf.constant([1.0])
    with pytest.raises(errors.InvalidArgumentError, match="BitwiseXor.*int64"):
        tf.constant([1]) ^ tf.constant([1], tf.int64)
    with pytest.raises(errors.InvalidArgumentError, match="LeftShift"):
        tf.bitwise.left_shift(tf.constant([1, 2]), tf.constant([1, 2, 3]))


def test_no_gradient_flows_through_bitwise_ops():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        bits = tf.cast(x, tf.int32) & 1
        y = tf.reduce_sum(x * tf.cast(bits, tf.float32))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 0.0])
