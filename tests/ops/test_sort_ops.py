"""sort, argsort and math.top_k."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError

VALUES = np.array([[3.0, 1.0, 3.0, 2.0], [0.5, -1.0, 0.5, 0.5]])


@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.uint8])
def test_sort_matches_numpy(axis, dtype):
    x = np.random.default_rng(1).integers(0, 5, (3, 4)).astype(dtype)
    ascending = tf.sort(x, axis=axis)
    assert ascending.dtype == tf.as_dtype(dtype)
    np.testing.assert_array_equal(ascending.numpy(), np.sort(x, axis=axis))
    descending = tf.sort(x, axis=axis, direction="DESCENDING")
    np.testing.assert_array_equal(descending.numpy(), np.flip(np.sort(x, axis=axis), axis))


def test_argsort_keeps_ties_in_order():
    np.testing.assert_array_equal(tf.argsort(VALUES).numpy(),
                                  np.argsort(VALUES, axis=-1, kind="stable"))
    assert tf.argsort(VALUES).dtype == tf.int32
    np.testing.assert_array_equal(tf.argsort(VALUES, direction="DESCENDING").numpy(),
                                  [[0, 2, 3, 1], [0, 2, 3, 1]])


def test_sort_errors():
    with pytest.raises(ValueError, match="direction"):
        tf.sort(VALUES, direction="UP")
    with pytest.raises(InvalidArgumentError):
        tf.sort(VALUES, axis=2)


def test_top_k_values_indices_and_ties():
    values, indices = tf.math.top_k(VALUES, k=3)
    np.testing.assert_array_equal(values.numpy(), [[3, 3, 2], [0.5, 0.5, 0.5]])
    np.testing.assert_array_equal(indices.numpy(), [[0, 2, 3], [0, 2, 3]])
    assert indices.dtype == tf.int32
    result = tf.math.top_k(VALUES)
    assert result.values.shape == [2, 1] and result.indices.shape == [2, 1]
    assert tf.math.top_k(VALUES, 2, index_type=tf.int64).indices.dtype == tf.int64


def test_top_k_errors():
    with pytest.raises(InvalidArgumentError, match="at least k"):
        tf.math.top_k(VALUES, k=5)
    with pytest.raises(InvalidArgumentError):
        tf.math.top_k(VALUES, k=-1)
    with pytest.raises(InvalidArgumentError, match="1-D"):
        tf.math.top_k(tf.constant(1.0))


def test_top_k_gradient_goes_to_the_chosen_entries():
    x = tf.constant(VALUES)
    with tf.GradientTape() as tape:
        tape.watch(x)
        values, _ = tf.math.top_k(x, k=2)
        y = values * tf.constant([[10.0, 1.0]], tf.float64)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [[10, 0, 1, 0], [10, 0, 1, 0]])


def test_sort_gradient_and_argsort_has_none():
    x = tf.constant([2.0, 0.0, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.sort(x) * tf.constant([1.0, 2.0, 3.0])
        order = tf.argsort(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [3, 1, 2])
    assert tape.gradient(order, x) is None
