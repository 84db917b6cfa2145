"""IndexedSlices: gather gradients, densifying, aggregation by concatenation."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.indexed_slices import aggregate, to_dense

PARAMS = np.arange(8.0).reshape(4, 2)


def dense(g):
    return tf.convert_to_tensor(g).numpy()


def test_gather_gradient_is_indexed_slices_with_repeated_indices():
    params = tf.constant(PARAMS)
    with tf.GradientTape() as tape:
        tape.watch(params)
        y = tf.reduce_sum(tf.gather(params, [3, 1, 3]))
    g = tape.gradient(y, params)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(g.indices.numpy(), [3, 1, 3])
    np.testing.assert_array_equal(g.values.numpy(), np.ones((3, 2)))
    np.testing.assert_array_equal(g.dense_shape.numpy(), [4, 2])
    assert g.dtype == tf.float64 and g.shape == [4, 2]
    np.testing.assert_array_equal(dense(g), [[0, 0], [1, 1], [0, 0], [2, 2]])


def test_two_gathers_of_the_same_params_concatenate():
    params = tf.Variable(PARAMS)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(params, [0, 2]) * 2.0) + tf.reduce_sum(tf.gather(params, [2]))
    g = tape.gradient(y, params)
    assert isinstance(g, tf.IndexedSlices)
    assert sorted(g.indices.numpy().tolist()) == [0, 2, 2]
    np.testing.assert_array_equal(dense(g), [[2, 2], [0, 0], [3, 3], [0, 0]])


def test_gather_plus_a_dense_use_gives_a_dense_gradient():
    params = tf.constant(PARAMS)
    with tf.GradientTape() as tape:
        tape.watch(params)
        y = tf.reduce_sum(tf.gather(params, [1])) + tf.reduce_sum(params * 3.0)
    g = tape.gradient(y, params)
    assert isinstance(g, tf.Tensor)
    expected = np.full((4, 2), 3.0)
    expected[1] += 1
    np.testing.assert_array_equal(g.numpy(), expected)


def test_indexed_slices_flowing_into_another_rule_are_made_dense():
    params = tf.constant(PARAMS)
    with tf.GradientTape() as tape:
        tape.watch(params)
        y = tf.reduce_sum(tf.gather(tf.reshape(params, [2, 4]), [1, 1]))
    g = tape.gradient(y, params)
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(g.numpy(), [[0, 0], [0, 0], [2, 2], [2, 2]])


def test_identity_passes_indexed_slices_through():
    params = tf.constant(PARAMS)
    with tf.GradientTape() as tape:
        tape.watch(params)
        y = tf.reduce_sum(tf.gather(tf.identity(params), [2]))
    assert isinstance(tape.gradient(y, params), tf.IndexedSlices)


@pytest.mark.parametrize("fn,sign", [(lambda p: p + 1.0, 1), (lambda p: p - 1.0, 1),
                                     (lambda p: -p, -1),
                                     (lambda p: tf.cast(tf.cast(p, tf.float32), tf.float64), 1)])
def test_add_or_subtract_a_constant_scalar_negate_and_cast_pass_indexed_slices_on(fn, sign):
    # As TF's rules for AddV2, Sub (when the scalar needs no gradient), Neg and Cast.
    params = tf.constant(PARAMS)
    with tf.GradientTape() as tape:
        tape.watch(params)
        y = tf.reduce_sum(tf.gather(fn(params), [2, 0]))
    g = tape.gradient(y, params)
    assert isinstance(g, tf.IndexedSlices) and g.dtype == tf.float64
    np.testing.assert_array_equal(g.indices.numpy(), [2, 0])
    np.testing.assert_array_equal(g.values.numpy(), sign * np.ones((2, 2)))


def test_adding_a_watched_or_non_scalar_tensor_makes_indexed_slices_dense():
    params, c = tf.constant(PARAMS), tf.constant(1.0, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([params, c])
        y = tf.reduce_sum(tf.gather(params + c, [2])) + tf.reduce_sum(tf.gather(params - PARAMS,
                                                                                 [1]))
    g, gc = tape.gradient(y, [params, c])
    assert isinstance(g, tf.Tensor) and float(gc) == 2.0
    np.testing.assert_array_equal(g.numpy(), [[0, 0], [1, 1], [1, 1], [0, 0]])


def test_second_order_through_a_gather():
    params = tf.constant(PARAMS)
    with tf.GradientTape() as outer:
        outer.watch(params)
        with tf.GradientTape() as inner:
            inner.watch(params)
            y = tf.reduce_sum(tf.gather(params, [0, 0, 3]) ** 2)
        g = tf.convert_to_tensor(inner.gradient(y, params))
        z = tf.reduce_sum(g)
    # dz/dparams = d(sum of 2 * count * params)/dparams = 2 * count per row.
    np.testing.assert_array_equal(dense(outer.gradient(z, params)),
                                  [[4, 4], [0, 0], [0, 0], [2, 2]])


def test_convert_to_tensor_sums_rows_and_checks_dtype():
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1, 1]),
                         tf.constant([3, 2]))
    np.testing.assert_array_equal(dense(s), [[0, 0], [4, 6], [0, 0]])
    with pytest.raises(ValueError):
        tf.convert_to_tensor(s, dtype=tf.float64)
    assert "IndexedSlices" in repr(s)


def test_aggregate_concatenates_and_densifies():
    a = tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([0]), tf.constant([3, 2]))
    b = tf.IndexedSlices(tf.constant([[2.0, 2.0]]), tf.constant([0]), tf.constant([3, 2]))
    both = a + b
    assert isinstance(both, tf.IndexedSlices)
    np.testing.assert_array_equal(both.indices.numpy(), [0, 0])
    np.testing.assert_array_equal(dense(both), [[3, 3], [0, 0], [0, 0]])
    mixed = aggregate(tf.ones([3, 2]), a)
    np.testing.assert_array_equal(mixed.numpy(), [[2, 2], [1, 1], [1, 1]])
    np.testing.assert_array_equal(dense(a + tf.ones([3, 2])), mixed.numpy())


def test_raw_arrays_stay_raw():
    s = tf.IndexedSlices(np.ones((2, 2)), np.array([2, 0]), np.array([3, 2]))
    out = to_dense(s)
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, [[1, 1], [0, 0], [1, 1]])
    merged = aggregate(s, s)
    assert isinstance(merged.values, np.ndarray)
    np.testing.assert_array_equal(to_dense(merged), 2 * out)
