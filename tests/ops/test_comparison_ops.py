"""Comparisons, logical ops and predicates: values, bool dtype, no gradient, operators
(TF2's `==`) and errors."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import errors

from .test_math_ops import grad


def test_predicates_and_comparisons():
    x = tf.constant([1.0, np.nan, np.inf, -np.inf])
    np.testing.assert_array_equal(tf.math.is_nan(x).numpy(), [False, True, False, False])
    np.testing.assert_array_equal(tf.math.is_finite(x).numpy(), [True, False, False, False])
    np.testing.assert_array_equal(tf.math.is_inf(x).numpy(), [False, False, True, True])
    a, b = tf.constant([1, 2, 3]), tf.constant([2, 2, 2])
    for fn, ref in [(tf.equal, np.equal), (tf.not_equal, np.not_equal), (tf.less, np.less),
                    (tf.less_equal, np.less_equal), (tf.greater, np.greater),
                    (tf.greater_equal, np.greater_equal)]:
        out = fn(a, b)
        assert out.dtype == tf.bool
        np.testing.assert_array_equal(out.numpy(), ref(a.numpy(), b.numpy()))
    with pytest.raises(errors.InvalidArgumentError):
        tf.equal(tf.constant([1, 2]), tf.constant([1, 2, 3]))
    with pytest.raises(errors.InvalidArgumentError, match="Less"):
        tf.less(tf.constant([1 + 1j]), tf.constant([1j]))


def test_logical_ops():
    p, q = tf.constant([True, True, False, False]), tf.constant([True, False, True, False])
    np.testing.assert_array_equal(tf.logical_and(p, q).numpy(), [True, False, False, False])
    np.testing.assert_array_equal(tf.logical_or(p, q).numpy(), [True, True, True, False])
    np.testing.assert_array_equal(tf.math.logical_xor(p, q).numpy(), [False, True, True, False])
    np.testing.assert_array_equal(tf.logical_not(p).numpy(), [False, False, True, True])
    for fn in (tf.logical_and, tf.logical_or, tf.math.logical_xor):
        with pytest.raises(errors.InvalidArgumentError, match=r"float32 tensor of shape \[2\]"):
            fn(tf.constant([1.0, 0.0]), tf.constant([1.0, 1.0]))
    with pytest.raises(errors.InvalidArgumentError, match="LogicalNot"):
        tf.logical_not(tf.constant([1.0]))


@pytest.mark.parametrize("fn", [
    tf.math.is_nan, tf.math.is_finite, tf.math.is_inf, lambda x: tf.less(x, 0.5),
    lambda x: tf.equal(x, 0.5), lambda x: x >= 1.0, lambda x: x != 1.0,
    lambda x: tf.logical_and(x > 0, x < 2), lambda x: tf.logical_not(x > 0)])
def test_non_differentiable_ops_give_none(fn):
    assert grad(fn, np.array([0.3, 1.7])) is None


# -- operators ---------------------------------------------------------------------------------
def test_comparison_operators():
    x = tf.constant([1, 2, 3])
    np.testing.assert_array_equal((x < 2).numpy(), [True, False, False])
    np.testing.assert_array_equal((x <= 2).numpy(), [True, True, False])
    np.testing.assert_array_equal((x > 2).numpy(), [False, False, True])
    np.testing.assert_array_equal((x >= 2).numpy(), [False, True, True])
    np.testing.assert_array_equal((2 < x).numpy(), [False, False, True])


def test_equality_operators_have_tf2_semantics():
    x = tf.constant([1, 2, 3])
    np.testing.assert_array_equal((x == 2).numpy(), [False, True, False])
    np.testing.assert_array_equal((x != tf.constant([1, 0, 3])).numpy(), [False, True, False])
    assert (x == None) is False  # noqa: E711  (the operator itself is under test)
    assert (x != None) is True  # noqa: E711
    mismatch = x == tf.constant([1, 2])
    assert mismatch.shape == () and mismatch.dtype == tf.bool and not bool(mismatch)
    assert bool(x != tf.constant([1, 2]))
    with pytest.raises(TypeError):  # TF: what does not convert to x's dtype raises
        x == "text"  # noqa: B015
    with pytest.raises(TypeError):
        x != 1.5  # noqa: B015
    assert bool(tf.Variable(2.0) == 2.0)
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)
    assert {x.ref(): 1}[x.ref()] == 1


def test_bool_operators():
    p, q = tf.constant([True, False]), tf.constant([True, True])
    np.testing.assert_array_equal((p & q).numpy(), [True, False])
    np.testing.assert_array_equal((p | False).numpy(), [True, False])
    np.testing.assert_array_equal((p ^ q).numpy(), [False, True])
    np.testing.assert_array_equal((~p).numpy(), [False, True])
    np.testing.assert_array_equal((True & p).numpy(), [True, False])
    with pytest.raises(errors.InvalidArgumentError, match="BitwiseAnd"):
        tf.constant([1.0, 2.0]) & tf.constant([1.0, 0.0])  # integers: tests/ops/test_bitwise_ops
