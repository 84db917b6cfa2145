"""Assert and the assert_* checks: eager errors at once, graph Assert ops when run."""
import numpy as np
import pytest

import tapeflow as tf


def test_assert_passes_and_fails_eagerly():
    assert tf.Assert(tf.constant(True), [tf.constant(1.0)]) is None
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.Assert(False, ["x is", tf.constant([1, 2, 3, 4, 5])], summarize=2)
    assert str(info.value) == "Expected 'False' to be true. Summarized data: b'x is'\n1, 2, ..."


@pytest.mark.parametrize("check,x,y,symbol", [
    (tf.assert_equal, [1, 2], [1, 3], "=="), (tf.assert_greater, [1, 2], [1, 1], ">"),
    (tf.assert_less, [1, 2], [1, 3], "<")])
def test_comparisons_fail_eagerly_naming_the_condition(check, x, y, symbol):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        check(tf.constant(x), tf.constant(y), message="msg")
    text = str(info.value)
    assert text.startswith(f"msg\nCondition x {symbol} y did not hold.\nIndices of first 1 ")
    assert text.endswith(f"First 2 elements of x:\n{np.array(x)}\nFirst 2 elements of y:\n"
                         f"{np.array(y)}")


@pytest.mark.parametrize("check,x,y", [
    (tf.assert_equal, [1.0, 2.0], [1.0, 2.0]), (tf.assert_greater, [2.0, 3.0], 1.0),
    (tf.assert_less, [], []), (tf.assert_equal, [[1, 1]], 1)])
def test_comparisons_that_hold_return_none(check, x, y):
    assert check(tf.constant(x), y) is None


def test_comparison_errors_of_dtype_and_shape():
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32"):
        tf.assert_equal(tf.constant([1, 2]), tf.constant([1.0, 2.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        tf.assert_equal(tf.constant([1, 2]), tf.constant([1, 2, 3]))


def test_assert_rank():
    assert tf.assert_rank(tf.constant([1, 2]), 1) is None
    with pytest.raises(ValueError, match=r"^m\.  Tensor  must have rank 2\.  Received rank 1"):
        tf.assert_rank(tf.constant([1, 2]), 2, message="m")
    with pytest.raises(ValueError, match="Rank must be a scalar"):
        tf.assert_rank(tf.constant([1, 2]), [2])
    with pytest.raises(TypeError, match="int32"):
        tf.assert_rank(tf.constant([1, 2]), tf.constant(2.0))


def test_checks_inside_a_function_run_on_every_call():
    @tf.function
    def positive_double(x):
        tf.assert_greater(x, 0.0)
        tf.Assert(tf.reduce_all(x < 10.0), ["too big:", x])
        return x * 2

    assert positive_double(tf.constant([1.0])).numpy().tolist() == [2.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x > y"):
        positive_double(tf.constant([-1.0]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"assertion failed: \[too big:\] \[20\]"):
        positive_double(tf.constant([20.0]))


def test_assert_rank_of_an_unknown_rank_checks_when_run():
    @tf.function(input_signature=[tf.TensorSpec(None)])
    def vector(x):
        tf.assert_rank(x, 1)
        return x

    assert vector(tf.constant([1.0])).numpy().tolist() == [1.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank"):
        vector(tf.constant(1.0))


def test_assert_in_a_graph_is_an_operation():
    with tf.Graph().as_default():
        op = tf.assert_equal(tf.constant(1), tf.constant(1))
    assert op.type == "Assert"
