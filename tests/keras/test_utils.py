"""keras.utils: to_categorical and normalize."""
import numpy as np
import pytest

import tapeflow as tf

utils = tf.keras.utils


@pytest.mark.parametrize("labels,num_classes,expected_shape", [
    ([0, 2, 1], None, (3, 3)),
    ([[1], [0]], None, (2, 2)),
    (np.array([1, 0]), 4, (2, 4)),
    ([[0, 1], [2, 0]], None, (2, 2, 3)),
])
def test_to_categorical_on_arrays(labels, num_classes, expected_shape):
    onehot = utils.to_categorical(labels, num_classes)
    assert isinstance(onehot, np.ndarray) and onehot.dtype == np.float64
    assert onehot.shape == expected_shape
    flat = np.asarray(labels).reshape(-1)
    np.testing.assert_array_equal(onehot.reshape(-1, expected_shape[-1]).argmax(axis=1), flat)
    assert onehot.sum() == flat.size


def test_to_categorical_on_a_tensor_and_out_of_range_labels():
    onehot = utils.to_categorical(tf.constant([0, 1]), 3)
    assert isinstance(onehot, tf.Tensor) and onehot.dtype == tf.float32
    assert onehot.numpy().tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    with pytest.raises(IndexError):
        utils.to_categorical([0, 5], num_classes=3)


def test_normalize():
    rows = np.array([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(utils.normalize(rows), [[0.6, 0.8], [0.0, 0.0]])
    np.testing.assert_allclose(utils.normalize(rows, order=1), [[3 / 7, 4 / 7], [0.0, 0.0]])
    single = utils.normalize(np.array([3.0, 4.0], np.float32))
    assert single.shape == (1, 2) and single.dtype == np.float32     # as Keras shapes it
    tensor = utils.normalize(tf.constant([[3.0, 4.0]]))
    assert isinstance(tensor, tf.Tensor)
    np.testing.assert_allclose(tensor.numpy(), [[0.6, 0.8]], rtol=1e-6)
