"""gather and unsorted_segment_sum: values against NumPy, gradients, TF's errors."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError

from .test_math_ops import grad

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 4)).astype(np.float32)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_gather_matches_numpy(axis):
    indices = np.array([[0, 1], [1, 0]])
    out = tf.gather(X, indices, axis=axis)
    np.testing.assert_array_equal(out.numpy(), np.take(X, indices, axis=axis))


def test_gather_batch_dims_matches_a_loop():
    params = RNG.standard_normal((2, 3, 5, 2))
    indices = RNG.integers(0, 5, (2, 4))
    out = tf.gather(params, indices, axis=2, batch_dims=1)
    expected = np.stack([np.take(params[b], indices[b], axis=1) for b in range(2)])
    np.testing.assert_array_equal(out.numpy(), expected)
    assert tf.gather(params, indices, batch_dims=-1, axis=2).shape == [2, 3, 4, 2]
    assert tf.gather(params[:, 0, :, 0], indices, batch_dims=1).shape == [2, 4]


def test_gather_errors():
    with pytest.raises(InvalidArgumentError, match="is not in \\[0, 2\\)"):
        tf.gather(X, [0, 2])
    with pytest.raises(InvalidArgumentError):
        tf.gather(X, [-1])
    with pytest.raises(InvalidArgumentError, match="int16, int32 or int64"):
        tf.gather(X, [0.0])
    with pytest.raises(InvalidArgumentError, match="axis"):
        tf.gather(X, [0], axis=3)
    with pytest.raises(InvalidArgumentError, match="batch_dims"):
        tf.gather(X, [[0]], axis=0, batch_dims=1)


def test_gather_gradient_is_indexed_slices_on_axis_0_and_dense_elsewhere():
    g = grad(lambda p: tf.gather(p, [1, 1, 0]), X)
    assert isinstance(g, tf.IndexedSlices)
    expected = np.zeros_like(X)
    expected[0], expected[1] = 1, 2
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), expected)
    g = grad(lambda p: tf.gather(p, [2, 2], axis=1), X)
    assert isinstance(g, tf.Tensor)
    expected = np.zeros_like(X)
    expected[:, 2] = 2
    np.testing.assert_array_equal(g.numpy(), expected)


def test_unsorted_segment_sum():
    data = np.arange(8.0).reshape(4, 2)
    out = tf.math.unsorted_segment_sum(data, [2, 0, 2, -1], 3)
    np.testing.assert_array_equal(out.numpy(), [[2, 3], [0, 0], [4, 6]])
    assert out.dtype == tf.float64
    with pytest.raises(InvalidArgumentError, match="out of range"):
        tf.math.unsorted_segment_sum(data, [0, 1, 2, 3], 3)
    with pytest.raises(InvalidArgumentError, match="prefix"):
        tf.math.unsorted_segment_sum(data, [0, 1], 3)


@pytest.mark.parametrize("call", [lambda x: tf.gather(x, [1, 0], axis=1),
                                  lambda x: tf.math.unsorted_segment_sum(x, [1, 0], 2)])
def test_inputs_are_not_modified(call, assert_inputs_unchanged):
    assert_inputs_unchanged(call, X)
