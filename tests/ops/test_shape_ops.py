"""Shape arithmetic: broadcast shapes, shape_n, unravel_index, space-to-batch paddings."""
import pytest

import tapeflow as tf


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64])
def test_broadcast_dynamic_shape(dtype):
    out = tf.broadcast_dynamic_shape(tf.constant([2, 1, 3], dtype), tf.constant([4, 1], dtype))
    assert out.numpy().tolist() == [2, 4, 3] and out.dtype == dtype
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[2, 3\] vs. \[4, 1\]"):
        tf.broadcast_dynamic_shape([2, 3], [4, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="one dtype"):
        tf.broadcast_dynamic_shape(tf.constant([2], tf.int64), [2])


@pytest.mark.parametrize("x,y,want", [
    ([2, 1, 3], [4, None], [2, 4, 3]), ([None, 1], [5], [None, 5]), ([1], [None], [None]),
    (None, [2], None), ([], [3, 2], [3, 2])])
def test_broadcast_static_shape(x, y, want):
    assert tf.broadcast_static_shape(tf.TensorShape(x), tf.TensorShape(y)) == \
        tf.TensorShape(want)


def test_broadcast_static_shape_incompatible():
    with pytest.raises(ValueError, match=r"Received: \(2, 3\) and \(4, 1\)"):
        tf.broadcast_static_shape(tf.TensorShape([2, 3]), tf.TensorShape([4, 1]))


def test_shape_n():
    shapes = tf.shape_n([tf.ones([2, 3]), tf.ones([4])], out_type=tf.int64)
    assert [s.numpy().tolist() for s in shapes] == [[2, 3], [4]]
    assert all(s.dtype == tf.int64 for s in shapes)


def test_unravel_index():
    assert tf.unravel_index([1, 5, 7], [3, 3]).numpy().tolist() == [[0, 1, 2], [1, 2, 1]]
    out = tf.unravel_index(tf.constant(5, tf.int64), tf.constant([3, 3], tf.int64))
    assert out.numpy().tolist() == [1, 2] and out.dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bound"):
        tf.unravel_index([9], [3, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32 or int64|int16"):
        tf.unravel_index([1.0], [3, 3])


@pytest.mark.parametrize("base,paddings,crops", [
    (None, [[0, 1], [0, 2]], [[0, 1], [0, 2]]),
    ([[1, 0], [0, 2]], [[1, 0], [0, 2]], [[0, 0], [0, 0]])])
def test_required_space_to_batch_paddings(base, paddings, crops):
    got = tf.required_space_to_batch_paddings([5, 7], [2, 3], base)
    assert [g.numpy().tolist() for g in got] == [paddings, crops]
    assert all(g.dtype == tf.int32 for g in got)
