"""Counting, deduplicating and ranking ops: values, dtypes, options and errors."""
import numpy as np
import pytest

import tapeflow as tf


def test_unique_keeps_first_occurrence_order():
    y, idx, count = tf.unique_with_counts(tf.constant([3, 1, 3, 2]), out_idx=tf.int64)
    assert y.numpy().tolist() == [3, 1, 2] and idx.numpy().tolist() == [0, 1, 0, 2]
    assert count.numpy().tolist() == [2, 1, 1] and idx.dtype == count.dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError, match="1D"):
        tf.unique(tf.constant([[1, 2]]))


@pytest.mark.parametrize("fn", [lambda x: tf.unique(x)[0],
                                lambda x: tf.math.bincount([0, 1, 1], weights=x)])
def test_no_gradient_rule_as_tf(fn):
    x = tf.constant([1.0, 2.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    with pytest.raises(LookupError):
        tape.gradient(y, x)


@pytest.mark.parametrize("kwargs,want", [
    ({}, [1, 2, 0, 1]), ({"minlength": 6, "maxlength": 3}, [1, 2, 0]),
    ({"binary_output": True}, [1, 1, 0, 1]),
    ({"weights": np.array([1.0, 2.0, 3.0, 4.0])}, [1.0, 5.0, 0.0, 4.0])])
def test_bincount(kwargs, want):
    out = tf.math.bincount(tf.constant([0, 1, 1, 3]), **kwargs)
    assert out.numpy().tolist() == want
    assert out.dtype == (tf.float64 if "weights" in kwargs else tf.int32)


def test_bincount_per_row_and_errors():
    out = tf.math.bincount(tf.constant([[0, 1], [1, 3]]), axis=-1)
    assert out.numpy().tolist() == [[1, 1, 0, 0], [0, 1, 0, 1]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="non-negative"):
        tf.math.bincount(tf.constant([1, -1]))


def test_searchsorted_sides_and_errors():
    seq = tf.constant([[1, 3, 5], [2, 4, 6]])
    assert tf.searchsorted(seq, tf.constant([[3], [7]]), side="right").numpy().tolist() == \
        [[2], [3]]
    assert tf.searchsorted(seq, tf.constant([[3], [4]])).numpy().tolist() == [[1], [1]]
    with pytest.raises(ValueError):
        tf.searchsorted(seq, seq, side="middle")


def test_in_top_k_counts_ties_in_and_rejects_non_finite():
    predictions = tf.constant([[1.0, 3.0, 3.0], [np.nan, 2.0, 2.0], [1.0, 2.0, 2.0]])
    assert tf.math.in_top_k([0, 0, 1], predictions, 1).numpy().tolist() == [False, False, True]
    assert tf.math.in_top_k([5, 1, 2], predictions, 2).numpy().tolist() == [False, True, True]


def test_sequence_mask():
    assert tf.sequence_mask([1, 3], 4, dtype=tf.float32).numpy().tolist() == \
        [[1, 0, 0, 0], [1, 1, 1, 0]]
    assert tf.sequence_mask([[1], [2]]).shape == (2, 1, 2)


def test_confusion_matrix():
    got = tf.math.confusion_matrix([1, 2, 0], [1, 1, 0], num_classes=4, weights=[1.0, 2, 3],
                                   dtype=tf.float32)
    want = np.zeros((4, 4), np.float32)
    want[1, 1], want[2, 1], want[0, 0] = 1, 2, 3
    np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_classes"):
        tf.math.confusion_matrix([1, 2], [1, 5], num_classes=3)
