"""tf.nn's composed functions: values against NumPy formulas, gradients, errors."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.testing.gradient_checker import check_grads

RNG = np.random.default_rng(11)
X = RNG.standard_normal((3, 4))


def test_crelu():
    out = tf.nn.crelu(tf.constant(X), axis=0).numpy()
    np.testing.assert_array_equal(out, np.concatenate([np.maximum(X, 0), np.maximum(-X, 0)]))


def test_moments_from_sufficient_statistics_match_moments():
    count, m_ss, v_ss, shift = tf.nn.sufficient_statistics(tf.constant(X), [0], shift=0.5)
    assert float(count) == 3.0 and float(shift) == 0.5
    mean, variance = tf.nn.normalize_moments(count, m_ss, v_ss, shift)
    np.testing.assert_allclose(mean.numpy(), X.mean(0))
    np.testing.assert_allclose(variance.numpy(), X.var(0))
    kept = tf.nn.sufficient_statistics(tf.constant(X), [0, 1], keepdims=True)
    assert kept[1].shape == (1, 1) and kept[3] is None


def test_weighted_moments():
    w = np.abs(RNG.standard_normal((3, 1)))
    mean, variance = tf.nn.weighted_moments(tf.constant(X), [0], tf.constant(w))
    expected_mean = (w * X).sum(0) / w.sum()
    np.testing.assert_allclose(mean.numpy(), expected_mean)
    np.testing.assert_allclose(variance.numpy(), (w * (X - expected_mean) ** 2).sum(0) / w.sum())
    zero = tf.nn.weighted_moments(tf.constant(X), [0], tf.zeros([3, 1], tf.float64))
    assert zero[0].numpy().tolist() == [0.0] * 4 == zero[1].numpy().tolist()
    check_grads(lambda x, w: tf.stack(tf.nn.weighted_moments(x, [1], w, keepdims=True)),
                (X, np.abs(X) + 0.5), order=2)


def test_batch_norm_with_global_normalization():
    args = [np.array([1.0, 2, 3, 0.5]), np.array([4.0, 1, 9, 2]), np.array([0.5, 0, 0, 1]),
            np.array([2.0, 2, 2, 3])]
    scaled = tf.nn.batch_norm_with_global_normalization(X, *args, 0.001, True).numpy()
    plain = tf.nn.batch_norm_with_global_normalization(X, *args, 0.001, False).numpy()
    mean, var, beta, gamma = args
    np.testing.assert_allclose(scaled, (X - mean) / np.sqrt(var + 0.001) * gamma + beta)
    np.testing.assert_allclose(plain, (X - mean) / np.sqrt(var + 0.001) + beta)


def _lrn(x, radius, bias, alpha, beta):
    squares = np.pad(x ** 2, [(0, 0)] * 3 + [(radius, radius)])
    window = sum(squares[..., k:k + x.shape[-1]] for k in range(2 * radius + 1))
    return x / (bias + alpha * window) ** beta


def test_local_response_normalization():
    x = RNG.standard_normal((2, 3, 3, 7)).astype(np.float32)
    out = tf.nn.lrn(tf.constant(x), depth_radius=2, bias=1.5, alpha=0.3, beta=0.75)
    np.testing.assert_allclose(out.numpy(), _lrn(x, 2, 1.5, 0.3, 0.75), rtol=1e-5)
    assert tf.nn.local_response_normalization is tf.nn.lrn


def test_local_response_normalization_gradient():
    # LRN takes float16/32 only (as TF's op): compare with central differences of the
    # float64 NumPy formula.
    x = RNG.standard_normal((1, 2, 2, 5))
    t = tf.constant(x.astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(t)
        y = tf.reduce_sum(tf.nn.lrn(t, 1, 1.0, 0.5, 0.75) * np.arange(5, dtype=np.float32))
    numeric = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[i] = 1e-6
        numeric[i] = ((_lrn(x + step, 1, 1.0, 0.5, 0.75) - _lrn(x - step, 1, 1.0, 0.5, 0.75))
                      * np.arange(5)).sum() / 2e-6
    np.testing.assert_allclose(tape.gradient(y, t).numpy(), numeric, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("x", [np.ones((2, 3, 4)), np.ones((1, 2, 2, 3), np.float64)])
def test_local_response_normalization_errors(x):
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.nn.lrn(tf.constant(x, tf.float32 if x.ndim == 3 else tf.float64))


def test_log_poisson_loss():
    targets, log_input = np.array([0.0, 1.0, 2.0, 3.0]), np.array([0.5, -1.0, 2.0, 0.0])
    loss = np.exp(log_input) - log_input * targets
    np.testing.assert_allclose(tf.nn.log_poisson_loss(targets, log_input).numpy(), loss)
    stirling = targets * np.log(np.maximum(targets, 1)) - targets + 0.5 * np.log(
        2 * np.pi * np.maximum(targets, 1))
    full = tf.nn.log_poisson_loss(targets, log_input, compute_full_loss=True).numpy()
    np.testing.assert_allclose(full, loss + np.where(targets > 1, stirling, 0))
    with pytest.raises(ValueError, match="same shape"):
        tf.nn.log_poisson_loss(targets[:2], log_input)


def test_weighted_cross_entropy_with_logits():
    labels, logits = np.array([0.0, 1.0, 0.5, 0.2]), np.array([-100.0, 2.0, 100.0, -0.3])
    q = 3.0
    expected = (1 - labels) * logits + (1 + (q - 1) * labels) * np.logaddexp(0, -logits)
    np.testing.assert_allclose(
        tf.nn.weighted_cross_entropy_with_logits(labels, logits, q).numpy(), expected)
    check_grads(lambda z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, 2.5),
                (RNG.uniform(0, 1, 5), RNG.standard_normal(5)), order=2)
    with pytest.raises(ValueError, match="same shape"):
        tf.nn.weighted_cross_entropy_with_logits(labels[:2], logits, q)
