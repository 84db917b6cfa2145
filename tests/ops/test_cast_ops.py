"""saturate_cast clamps before converting; bitcast reinterprets bytes."""
import numpy as np
import pytest

import tapeflow as tf


@pytest.mark.parametrize("value,dtype,want", [
    ([-1.0, 300.0, 2.7], tf.uint8, [0, 255, 2]),
    ([1e10, -1e10], tf.int32, [2147483520, -2147483648]),   # float32's nearest in range
    (np.array([1e300], np.float64), tf.float32, [np.finfo(np.float32).max]),
    ([1 + 2j], tf.float32, [1.0]), ([-5, 5], tf.uint16, [0, 5])])
def test_saturate_cast(value, dtype, want):
    out = tf.saturate_cast(tf.constant(value), dtype)
    assert out.dtype == dtype and out.numpy().tolist() == want


def test_saturate_cast_gradient_is_zero_where_clamped():
    x = tf.constant([0.5, 70000.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.saturate_cast(x, tf.float16)
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 0.0]


@pytest.mark.parametrize("value,dtype,want", [
    (np.array([1.0], np.float32), tf.int32, [1065353216]),
    (np.array([1.0, 2.0], np.float32), tf.int16, [[0, 16256], [0, 16384]]),
    (np.array([[1, 2]], np.int16), tf.int32, [131073]),
    (np.array([-1], np.int8), tf.uint8, [255])])
def test_bitcast(value, dtype, want):
    out = tf.bitcast(tf.constant(value), dtype)
    assert out.dtype == dtype and out.numpy().tolist() == want


@pytest.mark.parametrize("value,dtype", [
    (np.array([1, 2, 3], np.int16), tf.int32), (np.array([1.0], np.float32), tf.complex64),
    (np.array([True]), tf.int8)])
def test_bitcast_errors(value, dtype):
    with pytest.raises(tf.errors.InvalidArgumentError, match="Bitcast"):
        tf.bitcast(tf.constant(value), dtype)


def test_cast_of_sparse_values_keeps_the_indices():
    st = tf.cast(tf.sparse.SparseTensor([[0, 1], [1, 0]], [1.5, -2.5], [2, 2]), tf.int32)
    assert isinstance(st, tf.SparseTensor) and st.values.numpy().tolist() == [1, -2]
    assert st.indices.numpy().tolist() == [[0, 1], [1, 0]] and st.shape == (2, 2)
    slices = tf.cast(tf.IndexedSlices(tf.constant([1.5]), tf.constant([0]), tf.constant([2])),
                     tf.int32)
    assert isinstance(slices, tf.IndexedSlices) and slices.values.numpy().tolist() == [1]


def test_shape_of_a_sparse_tensor_is_its_dense_shape():
    st = tf.sparse.eye(3)  # TF 2.21: [3, 3] int32, or int64 when asked
    assert tf.shape(st).numpy().tolist() == [3, 3] and tf.shape(st).dtype == tf.int32
    assert tf.shape(st, out_type=tf.int64).dtype == tf.int64
