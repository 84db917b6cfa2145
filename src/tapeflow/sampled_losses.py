"""tf.nn.sampled_softmax_loss and tf.nn.nce_loss: a softmax or logistic loss over the true
classes and a sample of the others, with TF's logits (log-uniform candidates by default,
the log of each class's expected count subtracted)."""
from __future__ import annotations

from .custom_gradient import stop_gradient
from .framework import dtypes
from .framework.tensor import convert_to_tensor
from .ops import array_ops, creation_ops, embedding_ops, indexing_ops, math_ops, nn_ops
from .ops.candidate_sampling_ops import compute_accidental_hits, log_uniform_candidate_sampler


def _sum_rows(x):
    # Row sums by a matmul with ones, as TF sums them (the same rounding).
    ones = creation_ops.ones(array_ops.stack([array_ops.shape(x)[1], 1]), x.dtype)
    return array_ops.reshape(math_ops.matmul(x, ones), [-1])


def _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                    sampled_values, remove_accidental_hits, seed):
    """`(logits, labels)` of the true classes followed by the sampled ones."""
    labels = math_ops.cast(labels, dtypes.int64)
    labels_flat = array_ops.reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True,
                                                       num_classes, seed=seed)
    sampled, true_expected, sampled_expected = (stop_gradient(v) for v in sampled_values)
    sampled = math_ops.cast(sampled, dtypes.int64)
    inputs = convert_to_tensor(inputs)
    true_count = array_ops.shape(labels_flat)[0]
    all_ids = array_ops.concat([labels_flat, sampled], 0)
    all_w = embedding_ops.embedding_lookup(weights, all_ids)
    true_w, sampled_w = all_w[:true_count], all_w[true_count:]
    sampled_logits = math_ops.matmul(inputs, sampled_w, transpose_b=True)
    all_b = embedding_ops.embedding_lookup(biases, all_ids)
    true_b, sampled_b = all_b[:true_count], all_b[true_count:]
    dim = array_ops.shape(true_w)[1:2]
    row_dots = array_ops.expand_dims(inputs, 1) * array_ops.reshape(
        true_w, array_ops.concat([[-1, num_true], dim], 0))
    true_logits = array_ops.reshape(
        _sum_rows(array_ops.reshape(row_dots, array_ops.concat([[-1], dim], 0))), [-1, num_true])
    true_logits += array_ops.reshape(true_b, [-1, num_true])
    sampled_logits += sampled_b
    if remove_accidental_hits:
        rows, ids, hit_weights = compute_accidental_hits(labels, sampled, num_true)
        positions = array_ops.stack([math_ops.cast(rows, dtypes.int64), ids], axis=1)
        # Assigned, not added: a class listed twice among an example's targets is masked once.
        sampled_logits += indexing_ops.tensor_scatter_nd_update(
            creation_ops.zeros_like(sampled_logits), positions,
            math_ops.cast(hit_weights, sampled_logits.dtype))
    true_logits -= math_ops.log(math_ops.cast(true_expected, true_logits.dtype))
    sampled_logits -= math_ops.log(math_ops.cast(sampled_expected, sampled_logits.dtype))
    logits = array_ops.concat([true_logits, sampled_logits], 1)
    targets = array_ops.concat([creation_ops.ones_like(true_logits) / num_true,
                                creation_ops.zeros_like(sampled_logits)], 1)
    return logits, targets


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True, seed=None,
                         name="sampled_softmax_loss"):
    """The softmax cross entropy over each example's true classes and `num_sampled` sampled
    classes, a cheap stand-in for a full softmax over `num_classes` while training.

    Args:
        weights: a `[num_classes, dim]` tensor (or a list of "div"-partitioned shards).
        biases: a `[num_classes]` tensor (or a list of shards).
        labels: an int `[batch, num_true]` tensor of target classes.
        inputs: a `[batch, dim]` tensor of activations.
        num_sampled: how many classes to sample per batch.
        num_classes: the number of classes.
        num_true: targets per example (each weighs 1 / num_true).
        sampled_values: `(sampled, true_expected_count, sampled_expected_count)` from a
            candidate sampler; by default a unique log-uniform sample.
        remove_accidental_hits: mask sampled classes that are an example's targets.
        seed: the sampler's op seed.

    Returns:
        A `[batch]` tensor of losses, differentiable with respect to weights, biases and
        inputs.

    Example:
        >>> import tapeflow as tf
        >>> w, b = tf.ones([10, 3]), tf.zeros([10])
        >>> loss = tf.nn.sampled_softmax_loss(w, b, [[1], [2]], tf.ones([2, 3]), 4, 10, seed=1)
        >>> loss.shape
        TensorShape([2])
    """
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                                      num_true, sampled_values, remove_accidental_hits, seed)
    return nn_ops.softmax_cross_entropy_with_logits(stop_gradient(targets), logits)


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, name="nce_loss"):
    """Noise-contrastive estimation: a logistic loss telling each example's true classes
    from `num_sampled` sampled ones, summed per example.

    Arguments as `sampled_softmax_loss` (accidental hits are kept by default, and the
    sampler has no seed argument here, as in TF).

    Returns:
        A `[batch]` tensor of losses.

    Example:
        >>> import tapeflow as tf
        >>> sampled = (tf.constant([0, 3], tf.int64), tf.ones([2, 1]), tf.ones([2]))
        >>> loss = tf.nn.nce_loss(tf.ones([4, 2]), tf.zeros([4]), [[1], [2]], tf.zeros([2, 2]),
        ...                       2, 4, sampled_values=sampled)
        >>> loss.numpy().round(4)
        array([2.0794, 2.0794], dtype=float32)
    """
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                                      num_true, sampled_values, remove_accidental_hits, None)
    return _sum_rows(nn_ops.sigmoid_cross_entropy_with_logits(labels=targets, logits=logits))
