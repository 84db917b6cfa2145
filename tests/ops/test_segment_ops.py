"""Segment reductions: values, empty segments, ties, errors, and gradients with the ids
unknown while a function is traced."""
import numpy as np
import pytest

import tapeflow as tf

DATA = np.array([1.0, 3.0, 3.0, 2.0, 5.0], np.float32)


@pytest.mark.parametrize("fn,want", [
    (tf.math.segment_sum, [4.0, 0.0, 10.0]), (tf.math.segment_mean, [2.0, 0.0, 10 / 3]),
    (tf.math.segment_max, [3.0, 0.0, 5.0]), (tf.math.segment_min, [1.0, 0.0, 2.0]),
    (tf.math.segment_prod, [3.0, 1.0, 30.0])])
def test_sorted_segments_hold_zero_or_one_when_empty(fn, want):
    out = fn(tf.constant(DATA), [0, 0, 2, 2, 2])
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
    assert out.dtype == tf.float32


@pytest.mark.parametrize("fn,empty", [
    (tf.math.unsorted_segment_max, np.finfo(np.float32).min),
    (tf.math.unsorted_segment_min, np.finfo(np.float32).max),
    (tf.math.unsorted_segment_prod, 1.0), (tf.math.unsorted_segment_mean, 0.0),
    (tf.math.unsorted_segment_sqrt_n, 0.0)])
def test_unsorted_segments_fill_empty_ones_and_drop_negative_ids(fn, empty):
    out = fn(tf.constant(DATA), [2, 0, 2, -1, 0], 4).numpy()
    assert out[1] == out[3] == empty
    assert tf.math.unsorted_segment_max(tf.constant([1, 2]), [0, 0], 2).numpy()[1] == \
        np.iinfo(np.int32).min


@pytest.mark.parametrize("fn,want", [
    (tf.math.segment_max, [0.0, 0.5, 0.5, 0.0, 1.0]),
    (tf.math.segment_min, [1.0, 0.0, 0.0, 1.0, 0.0])])
def test_tied_extremes_share_the_gradient(fn, want):
    x = tf.constant(DATA)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x, [0, 0, 0, 1, 1])
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), want)


def test_product_gradient_at_a_zero_is_the_product_of_the_others():
    x = tf.constant([2.0, 0.0, 3.0, 0.0, 0.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.unsorted_segment_prod(x, [0, 0, 0, 1, 1, 1], 2)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.0, 6.0, 0.0, 0.0, 0.0, 0.0])


def test_sorted_ids_as_function_arguments():
    @tf.function
    def grad(d, ids):
        with tf.GradientTape() as tape:
            tape.watch(d)
            y = tf.math.segment_max(d, ids) * [[1.0], [2.0]]
        return tape.gradient(y, d)
    d = tf.constant([[1.0, 5.0], [2.0, 4.0], [0.0, 3.0]])
    np.testing.assert_allclose(grad(d, tf.constant([0, 0, 1])).numpy(),
                               [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])


def test_sparse_gradient_option():
    data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    for sparse in (False, True):
        with tf.GradientTape() as tape:
            tape.watch(data)
            y = tf.sparse.segment_mean(data, [0, 2, 2], [0, 0, 1], sparse_gradient=sparse)
        g = tape.gradient(y, data)
        assert isinstance(g, tf.IndexedSlices) == sparse
        np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(),
                                   [[0.5, 0.5], [0.0, 0.0], [1.5, 1.5]])


@pytest.mark.parametrize("call,match", [
    (lambda: tf.math.segment_sum(DATA, [1, 0, 2, 2, 2]), "not increasing"),
    (lambda: tf.math.segment_sum(DATA, [0, 0, 2, 2]), "same size"),
    (lambda: tf.math.unsorted_segment_max(DATA, [0, 0, 2, 2, 5], 4), "out of range"),
    (lambda: tf.sparse.segment_sum(DATA, [0, 7], [0, 1]), "not in"),
    (lambda: tf.sparse.segment_sum(DATA, [0, 1], [0, 4], num_segments=3), "num_segments"),
    (lambda: tf.math.segment_sum(DATA, [0.0, 0, 1, 1, 1]), "int")])
def test_errors_name_the_op(call, match):
    with pytest.raises(tf.errors.InvalidArgumentError, match=match):
        call()
