"""CTC: the loss against a brute-force sum over alignments, its gradient (first order only,
as TF's), label helpers and decoders."""
import itertools

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.testing.gradient_checker import check_grads

RNG = np.random.default_rng(2)


def _collapse(path, blank):
    merged = [k for k, _ in itertools.groupby(path)]
    return tuple(k for k in merged if k != blank)


def _brute_force_loss(logits, label, blank):
    """-log of the summed probability of every alignment of `label` ([time, classes])."""
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    total = sum(np.prod([probs[t, k] for t, k in enumerate(path)])
                for path in itertools.product(range(logits.shape[1]), repeat=len(logits))
                if _collapse(path, blank) == tuple(label))
    return -np.log(total)


@pytest.mark.parametrize("label,blank", [([1, 2], 0), ([1, 1], 0), ([2], 1), ([], 0),
                                         ([0, 2], 3)])
def test_loss_is_the_sum_over_alignments(label, blank):
    logits = RNG.standard_normal((4, 1, 4))
    padded = np.array([label + [0] * (2 - len(label))])
    loss = tf.nn.ctc_loss(padded, logits, [len(label)], [4], blank_index=blank)
    np.testing.assert_allclose(loss.numpy(), [_brute_force_loss(logits[:, 0], label, blank)])


def test_lengths_batch_major_and_negative_blank():
    logits = RNG.standard_normal((5, 2, 4)).astype(np.float32)
    labels = np.array([[1, 2, 2], [3, 1, 0]])
    loss = tf.nn.ctc_loss(labels, logits, [3, 1], [5, 3], blank_index=-4)
    short = tf.nn.ctc_loss(labels[1:, :1], logits[:3, 1:], [1], [3])
    np.testing.assert_allclose(loss.numpy()[1], short.numpy()[0], rtol=1e-6)
    batch_major = tf.nn.ctc_loss(labels, logits.transpose(1, 0, 2), [3, 1], [5, 3],
                                 logits_time_major=False)
    np.testing.assert_allclose(batch_major.numpy(), loss.numpy())


def test_gradient_and_no_second_derivative():
    labels = np.array([[1, 2], [2, 0]])
    check_grads(lambda x: tf.nn.ctc_loss(labels, x, [2, 1], [4, 3]),
                (RNG.standard_normal((4, 2, 3)),), order=1)
    x = tf.constant(RNG.standard_normal((4, 2, 3)))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            loss = tf.nn.ctc_loss(labels, x, [2, 1], [4, 3])
        grad = inner.gradient(loss, x)
        assert not np.any(grad.numpy()[3, 1])   # past the example's length
        total = tf.reduce_sum(grad * grad)
    with pytest.raises(LookupError, match="second derivative"):
        outer.gradient(total, x)


def test_infeasible_labels_give_inf_and_a_zero_gradient():
    x = tf.constant(RNG.standard_normal((3, 1, 3)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.nn.ctc_loss([[1, 1, 1]], x, [3], [3])
    assert np.isinf(loss.numpy()[0]) and not np.any(tape.gradient(loss, x).numpy())


def test_sparse_labels():
    labels = type("Labels", (), {"indices": np.array([[0, 0], [0, 1], [1, 0]]),
                                 "values": np.array([1, 2, 3]),
                                 "dense_shape": np.array([2, 2])})()
    logits = RNG.standard_normal((4, 2, 4))
    dense = tf.nn.ctc_loss([[1, 2], [3, 0]], logits, [2, 1], [4, 4], blank_index=0)
    np.testing.assert_allclose(tf.nn.ctc_loss(labels, logits, None, [4, 4],
                                              blank_index=0).numpy(), dense.numpy())
    with pytest.raises(ValueError, match="blank_index"):
        tf.nn.ctc_loss(labels, logits, None, [4, 4])


@pytest.mark.parametrize("kwargs,error", [
    ({"logit_length": None}, ValueError), ({"label_length": None}, ValueError),
    ({"logit_length": [4, 4]}, tf.errors.InvalidArgumentError),
    ({"logit_length": [9]}, tf.errors.InvalidArgumentError),
    ({"labels": [[7, 1]]}, tf.errors.InvalidArgumentError)])
def test_errors(kwargs, error):
    args = dict(labels=[[1, 2]], logits=np.zeros((4, 1, 3), np.float32), label_length=[2],
                logit_length=[4])
    args.update(kwargs)
    with pytest.raises(error):
        tf.nn.ctc_loss(**args)


def test_collapse_repeated_and_unique_labels():
    labels, lengths = tf.nn.collapse_repeated([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]], [5, 3])
    assert labels.numpy().tolist() == [[1, 2, 3], [4, 0, 0]] and lengths.numpy().tolist() == [3, 1]
    unique, index = tf.nn.ctc_unique_labels([[3, 4, 3, 7], [1, 1, 0, 0]])
    assert unique.dtype == tf.int64 and index.dtype == tf.int32
    assert unique.numpy().tolist() == [[3, 4, 7, 0], [1, 0, 0, 0]]
    assert index.numpy().tolist() == [[0, 1, 0, 2], [0, 0, 1, 1]]


def test_greedy_decoder():
    probs = np.array([[0.1, 0.2, 0.7], [0.6, 0.3, 0.1], [0.6, 0.3, 0.1], [0.1, 0.8, 0.1],
                      [0.2, 0.1, 0.7], [0.2, 0.7, 0.1]])[:, None]
    logits = np.log(probs)
    (decoded,), neg_sum = tf.nn.ctc_greedy_decoder(logits, [6])
    assert decoded.values.numpy().tolist() == [0, 1, 1]
    assert decoded.indices.numpy().tolist() == [[0, 0], [0, 1], [0, 2]]
    assert decoded.dense_shape.numpy().tolist() == [1, 3]
    np.testing.assert_allclose(neg_sum.numpy(), [[-logits.max(-1).sum()]])
    (unmerged,), _ = tf.nn.ctc_greedy_decoder(logits, [6], merge_repeated=False)
    assert unmerged.values.numpy().tolist() == [0, 0, 1, 1]
    (first_blank,), _ = tf.nn.ctc_greedy_decoder(logits, [3], blank_index=0)
    assert first_blank.values.numpy().tolist() == [2]


def test_beam_search_finds_the_most_probable_labelling():
    logits = RNG.standard_normal((4, 1, 3))
    probs = np.exp(logits[:, 0]) / np.exp(logits[:, 0]).sum(-1, keepdims=True)
    totals: dict = {}
    for path in itertools.product(range(3), repeat=4):
        labelling = _collapse(path, 2)
        totals[labelling] = totals.get(labelling, 0) + np.prod(
            [probs[t, k] for t, k in enumerate(path)])
    best = sorted(totals, key=totals.get, reverse=True)[:2]
    decoded, log_probs = tf.nn.ctc_beam_search_decoder(logits, [4], beam_width=50, top_paths=2)
    assert [tuple(d.values.numpy().tolist()) for d in decoded] == best
    np.testing.assert_allclose(log_probs.numpy()[0], np.log([totals[b] for b in best]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="top_paths"):
        tf.nn.ctc_beam_search_decoder(logits, [4], beam_width=1, top_paths=2)
