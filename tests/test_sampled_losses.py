"""tf.nn.sampled_softmax_loss and nce_loss: values against a direct computation, gradients
against finite differences, the default sampler and accidental hits."""
import numpy as np

import tapeflow as tf
from tapeflow.testing.gradient_checker import check_grads

RNG = np.random.default_rng(0)
W, B, X = RNG.standard_normal((8, 3)), RNG.standard_normal(8), RNG.standard_normal((2, 3))
LABELS = np.array([[1], [4]])
SAMPLED = (tf.constant([0, 4, 6], tf.int64), tf.constant([[0.5], [0.25]], tf.float64),
           tf.constant([0.5, 0.25, 0.125], tf.float64))


def _logits(remove_hits):
    true = (X * W[LABELS[:, 0]]).sum(1) + B[LABELS[:, 0]] - np.log([0.5, 0.25])
    sampled = X @ W[[0, 4, 6]].T + B[[0, 4, 6]] - np.log([0.5, 0.25, 0.125])
    if remove_hits:
        sampled[1, 1] += -np.finfo(np.float32).max
    return np.concatenate([true[:, None], sampled], 1)


def test_sampled_softmax_loss_is_the_softmax_over_true_and_sampled_classes():
    loss = tf.nn.sampled_softmax_loss(W, B, LABELS, X, 3, 8, sampled_values=SAMPLED)
    logits = _logits(remove_hits=True)
    expected = -(logits[:, 0] - np.log(np.exp(logits).sum(1)))
    np.testing.assert_allclose(loss.numpy(), expected, rtol=1e-12)


def test_nce_loss_is_the_logistic_loss_summed_per_example():
    loss = tf.nn.nce_loss(W, B, LABELS, X, 3, 8, sampled_values=SAMPLED)
    logits = _logits(remove_hits=False)
    targets = np.array([1.0, 0.0, 0.0, 0.0])
    expected = (np.maximum(logits, 0) - logits * targets + np.log1p(np.exp(-abs(logits)))).sum(1)
    np.testing.assert_allclose(loss.numpy(), expected, rtol=1e-12)


def test_gradients_match_finite_differences():
    for loss in (tf.nn.sampled_softmax_loss, tf.nn.nce_loss):
        error = check_grads(lambda w, b, x: loss(w, b, LABELS, x, 3, 8, sampled_values=SAMPLED),
                            [W, B, X], order=1)
        assert error < 1e-6


def test_default_sampler_and_weight_shards():
    w = tf.constant(W, tf.float32)
    loss = tf.nn.sampled_softmax_loss(w, tf.constant(B, tf.float32), LABELS, X.astype(np.float32),
                                      4, 8, seed=1)
    assert loss.shape == [2] and loss.dtype == tf.float32 and np.isfinite(loss.numpy()).all()
    shards = [W[:4], W[4:]]
    np.testing.assert_allclose(
        tf.nn.nce_loss(shards, [B[:4], B[4:]], LABELS, X, 3, 8, sampled_values=SAMPLED).numpy(),
        tf.nn.nce_loss(W, B, LABELS, X, 3, 8, sampled_values=SAMPLED).numpy(), rtol=1e-12)
