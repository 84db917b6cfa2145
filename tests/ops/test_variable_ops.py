"""Variable's sparse reads and scatter writes; expected values are TF 2.21's."""
import numpy as np
import pytest

import tapeflow as tf

ROWS = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def _delta():
    return tf.IndexedSlices(tf.constant([[10.0, 10.0], [2.0, 2.0], [3.0, 3.0]]),
                            tf.constant([0, 2, 0]))


@pytest.mark.parametrize("method, expected", [
    ("scatter_add", [[14.0, 15.0], [3.0, 4.0], [7.0, 8.0]]),
    ("scatter_sub", [[-12.0, -11.0], [3.0, 4.0], [3.0, 4.0]]),
    ("scatter_max", [[10.0, 10.0], [3.0, 4.0], [5.0, 6.0]]),
    ("scatter_min", [[1.0, 2.0], [3.0, 4.0], [2.0, 2.0]]),
    ("scatter_mul", [[30.0, 60.0], [3.0, 4.0], [10.0, 12.0]]),
    ("scatter_div", [[1 / 30, 2 / 30], [3.0, 4.0], [2.5, 3.0]]),
    ("scatter_update", [[3.0, 3.0], [3.0, 4.0], [2.0, 2.0]]),
    ("batch_scatter_update", [[3.0, 3.0], [3.0, 4.0], [2.0, 2.0]]),
])
def test_row_scatters_apply_every_repeated_index(method, expected):
    v = tf.Variable(ROWS)
    out = getattr(v, method)(_delta())
    assert out is v
    np.testing.assert_allclose(v.numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("method, expected", [
    ("scatter_nd_add", [[1.0, 9.0], [3.0, 4.0], [13.0, 6.0]]),
    ("scatter_nd_sub", [[1.0, -5.0], [3.0, 4.0], [-3.0, 6.0]]),
    ("scatter_nd_update", [[1.0, 7.0], [3.0, 4.0], [8.0, 6.0]]),
    ("scatter_nd_max", [[1.0, 7.0], [3.0, 4.0], [8.0, 6.0]]),
    ("scatter_nd_min", [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
])
def test_nd_scatters(method, expected):
    v = tf.Variable(ROWS)
    getattr(v, method)([[0, 1], [2, 0]], [7.0, 8.0])
    assert v.numpy().tolist() == expected


def test_integer_scatter_div_truncates_and_batch_scatter_uses_the_batch_axis():
    v = tf.Variable([7, 8])
    v.scatter_div(tf.IndexedSlices(tf.constant([2]), tf.constant([0])))
    assert v.numpy().tolist() == [3, 8]
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    w.batch_scatter_update(tf.IndexedSlices(tf.constant([[9.0], [8.0]]), tf.constant([[1], [0]])))
    assert w.numpy().tolist() == [[1.0, 9.0], [8.0, 4.0]]


def test_bad_scatters_raise_and_change_nothing():
    v = tf.Variable(ROWS)
    with pytest.raises(TypeError, match="IndexedSlices"):
        v.scatter_add(tf.constant([1.0, 2.0]))
    with pytest.raises(tf.errors.InvalidArgumentError):
        v.scatter_add(tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([5])))
    assert v.numpy().tolist() == ROWS


def test_sparse_read_gather_nd_and_the_sparse_gradient():
    v = tf.Variable(ROWS)
    assert v.sparse_read([2, 0]).numpy().tolist() == [[5.0, 6.0], [1.0, 2.0]]
    assert v.gather_nd([[2, 1], [0, 0]]).numpy().tolist() == [6.0, 1.0]
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v.sparse_read([2, 0, 2]))
    g = tape.gradient(y, v)
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices.numpy().tolist() == [2, 0, 2] and g.values.numpy().tolist() == [[1.0, 1.0]] * 3


def test_scatter_inside_a_function_writes_the_variable():
    v = tf.Variable(ROWS)

    @tf.function
    def step(var):
        var.scatter_sub(tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([1])))
        return var.read_value()

    assert step(v).numpy().tolist() == [[1.0, 2.0], [2.0, 3.0], [5.0, 6.0]]
    assert v.numpy().tolist() == [[1.0, 2.0], [2.0, 3.0], [5.0, 6.0]]
