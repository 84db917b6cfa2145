"""make_tensor_proto / make_ndarray round trips (TensorBoard's TensorProto)."""
import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("tensorboard")


@pytest.mark.parametrize("values,dtype,shape", [
    ([[1.0, 2.0]], None, None), (np.arange(6, dtype=np.int64).reshape(2, 3), None, None),
    (1.5, tf.float64, [2]), (tf.constant([1, 2], tf.uint16), None, None), (True, None, None)])
def test_round_trip(values, dtype, shape):
    proto = tf.make_tensor_proto(values, dtype, shape)
    array = tf.make_ndarray(proto)
    expected = np.asarray(getattr(values, "numpy", lambda: values)())
    if shape is not None:
        expected = np.full(shape, expected)
    np.testing.assert_array_equal(array, expected)
    if dtype is not None:
        assert array.dtype == dtype.as_numpy_dtype


def test_shapes_and_errors():
    assert tf.make_ndarray(tf.make_tensor_proto([1.0], shape=[2, 2],
                                                allow_broadcast=True)).shape == (2, 2)
    with pytest.raises(TypeError, match="shape"):
        tf.make_tensor_proto([1, 2], shape=[3], verify_shape=True)
    with pytest.raises(ValueError):
        tf.make_tensor_proto([1], shape=[1], verify_shape=True, allow_broadcast=True)
    with pytest.raises(TypeError, match="TensorProto"):
        tf.make_ndarray(tf.constant([1.0]))
