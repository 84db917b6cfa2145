"""tf.norm, l2_normalize and clip_by_norm: values against NumPy, TF's edge gradients, errors."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import errors

from .test_math_ops import grad

_M = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.5]])


@pytest.mark.parametrize("ord_,axis", [
    ("euclidean", None), ("euclidean", 0), (2, 1), (1, -1), (np.inf, 0), (3, 1), (0.5, None),
    ("fro", (0, 1)), ("euclidean", (1, 0)), (1, (0, 1)), (np.inf, (0, 1)), (1, (1, 0)),
    (np.inf, (-1, -2))])
@pytest.mark.parametrize("keepdims", [False, True])
def test_norm_matches_numpy(ord_, axis, keepdims):
    out = tf.norm(tf.constant(_M), ord=ord_, axis=axis, keepdims=keepdims)
    if axis is None:
        expected = np.linalg.norm(_M.ravel(), ord=2 if ord_ == "euclidean" else ord_)
        expected = np.reshape(expected, (1, 1) if keepdims else ())
    else:
        np_ord = None if ord_ == "euclidean" else ord_
        expected = np.linalg.norm(_M, ord=np_ord, axis=axis, keepdims=keepdims)
    assert out.shape == np.shape(expected)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


def test_norm_of_a_batch_of_matrices_and_dtypes():
    x = np.arange(24.0).reshape(2, 3, 4)
    out = tf.norm(tf.constant(x, tf.float32), ord=1, axis=[-2, -1])
    assert out.dtype == tf.float32 and out.shape == (2,)
    np.testing.assert_allclose(out.numpy(), np.linalg.norm(x, ord=1, axis=(-2, -1)), rtol=1e-6)
    z = tf.constant([3 + 4j, 0j])
    assert tf.norm(z).dtype == tf.complex128  # TF: sqrt(sum(z * conj(z))) stays complex
    assert complex(tf.norm(z)) == 5.0
    assert tf.norm(z, ord=1).dtype == tf.float64


def test_norm_gradient_at_the_zero_vector_is_nan():
    with np.errstate(divide="ignore", invalid="ignore"):
        g = grad(tf.norm, np.zeros(3))
        assert np.all(np.isnan(g.numpy()))
        g = grad(lambda x: tf.norm(x, axis=1), np.array([[0.0, 0.0], [3.0, 4.0]]))
    assert np.all(np.isnan(g.numpy()[0]))
    np.testing.assert_allclose(g.numpy()[1], [0.6, 0.8])


def test_norm_argument_errors():
    x = tf.constant(_M)
    for ord_ in ("fro", "foo", -1, 0):
        with pytest.raises(ValueError, match="'ord' must be a supported vector norm"):
            tf.norm(x, ord=ord_)
    for ord_ in ("foo", 3, 0.5):
        with pytest.raises(ValueError, match="'ord' must be a supported matrix norm"):
            tf.norm(x, ord=ord_, axis=[0, 1])
    for axis in ([], [0, 1, 2], [0, 0], [0.5, 1], "0", 1.0):
        with pytest.raises(ValueError, match="'axis' must be None, an integer"):
            tf.norm(x, axis=axis)
    with pytest.raises(ValueError, match="unique"):
        tf.norm(x, axis=[0, -2])
    with pytest.raises(errors.InvalidArgumentError, match="dimension 2"):
        tf.norm(x, axis=2)
    with pytest.raises(errors.InvalidArgumentError, match="norm.*int32"):
        tf.norm(tf.constant([3, 4]))
    with pytest.raises(ValueError, match="'ord' must be a supported matrix norm"):
        tf.norm(x, ord="nuc", axis=[0, 1])  # as TF, which has no nuclear norm


@pytest.mark.parametrize("axis", [(0, 1), (1, 0), (-1, -2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_2_norm_is_the_largest_singular_value(axis, keepdims):
    out = tf.norm(tf.constant(_M), ord=2, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(out.numpy(), np.linalg.norm(_M, 2, axis, keepdims), rtol=1e-12)


def test_matrix_2_norm_of_batches_complex_and_its_gradient():
    x = np.arange(24.0).reshape(2, 3, 4)
    out = tf.norm(tf.constant(x, tf.float32), ord=2, axis=[2, 0])
    assert out.dtype == tf.float32 and out.shape == (3,)
    np.testing.assert_allclose(out.numpy(), [27.27874093, 36.79501011, 47.10309909], rtol=1e-6)
    assert tf.norm(tf.constant(x), ord=2, axis=[0, 2], keepdims=True).shape == (1, 3, 1)
    z = tf.norm(tf.constant([[1 + 2j, 3], [0, 1j]]), ord=2, axis=[0, 1])
    assert z.dtype == tf.float64  # TF: the singular values are real
    np.testing.assert_allclose(float(z), 3.828695669759897)
    m = np.array([[1.0, 2.0], [3.0, 5.0]])
    u, _, vh = np.linalg.svd(m)
    g = grad(lambda t: tf.norm(t, ord=2, axis=[0, 1]), m)  # u1 v1^T, as TF gives
    np.testing.assert_allclose(g.numpy(), np.outer(u[:, 0], vh[0]), rtol=1e-10)


def test_l2_normalize():
    x = np.array([[3.0, 4.0], [0.0, 0.0]])
    out = tf.math.l2_normalize(tf.constant(x), axis=1)
    np.testing.assert_allclose(out.numpy(), [[0.6, 0.8], [0.0, 0.0]])
    assert tf.nn.l2_normalize is tf.math.l2_normalize
    np.testing.assert_allclose(tf.nn.l2_normalize(tf.constant(x), dim=0).numpy(),
                               [[1.0, 1.0], [0.0, 0.0]])
    np.testing.assert_allclose(tf.math.l2_normalize(tf.constant([1e-8]), epsilon=1e-4).numpy(),
                               [1e-6], rtol=1e-6)
    g = grad(lambda x: tf.math.l2_normalize(x, axis=1), x)
    assert np.all(np.isfinite(g.numpy()))
    z = tf.math.l2_normalize(tf.constant([3 + 4j, 0j]))
    np.testing.assert_allclose(z.numpy(), [0.6 + 0.8j, 0j])
    with pytest.raises(ValueError):
        tf.math.l2_normalize(tf.constant(x), axis=0, dim=0)
    with pytest.raises(TypeError):  # as TF: epsilon does not convert to int32
        tf.math.l2_normalize(tf.constant([1, 2]))
    with pytest.raises(errors.InvalidArgumentError):
        tf.math.l2_normalize(tf.constant([True]))


def test_clip_by_norm():
    x = np.array([[3.0, 4.0], [0.3, 0.4]])
    np.testing.assert_allclose(tf.clip_by_norm(tf.constant(x), 1.0, axes=[1]).numpy(),
                               [[0.6, 0.8], [0.3, 0.4]])
    np.testing.assert_allclose(tf.clip_by_norm(tf.constant(x), 1.0).numpy(),
                               x / np.linalg.norm(x))
    np.testing.assert_allclose(tf.clip_by_norm(tf.constant(x), 100.0).numpy(), x)
    g = grad(lambda t: tf.clip_by_norm(t, 1.0), np.zeros(3))
    np.testing.assert_array_equal(g.numpy(), [1.0, 1.0, 1.0])  # finite at zero, unlike norm
    g = grad(lambda t: tf.clip_by_norm(t, 1.0), np.array([3.0, 4.0]))
    np.testing.assert_allclose(g.numpy(), (np.ones(2) - np.array([0.6, 0.8]) * 1.4) / 5.0)
    with pytest.raises(ValueError, match="broadcasts"):
        tf.clip_by_norm(tf.constant([1.0, 2.0]), tf.constant([[1.0], [2.0]]))
    with pytest.raises(errors.InvalidArgumentError, match="clip_by_norm"):
        tf.clip_by_norm(tf.constant([1, 2]), 1)
