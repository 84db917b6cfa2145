"""Candidate samplers and compute_accidental_hits: distributions, expected counts, uniqueness,
seeding, learning, errors."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError

LABELS = tf.constant([[1, 7], [3, 3]], tf.int64)


@pytest.fixture(autouse=True)
def no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


@pytest.mark.parametrize("sampler,extra", [
    (tf.random.uniform_candidate_sampler, {}), (tf.random.log_uniform_candidate_sampler, {}),
    (tf.random.learned_unigram_candidate_sampler, {}),
    (tf.random.fixed_unigram_candidate_sampler, {"unigrams": [1.0] * 20})])
def test_samples_shapes_dtypes_and_uniqueness(sampler, extra):
    s, t, e = sampler(LABELS, 2, 12, True, 20, seed=3, **extra)
    assert s.dtype == tf.int64 and s.shape == [12] and len(set(s.numpy().tolist())) == 12
    assert t.dtype == tf.float32 and t.shape == [2, 2] and e.shape == [12]
    assert (s.numpy() >= 0).all() and (s.numpy() < 20).all()
    s2, _, _ = sampler(LABELS, 2, 12, True, 20, seed=3, **extra)
    if sampler is not tf.random.learned_unigram_candidate_sampler:  # (it learned meanwhile)
        tf.random.set_seed(5)
        a = sampler(LABELS, 2, 12, False, 20, seed=3, **extra)[0].numpy()
        tf.random.set_seed(5)
        np.testing.assert_array_equal(sampler(LABELS, 2, 12, False, 20, seed=3, **extra)[0]
                                      .numpy(), a)


def test_expected_counts_with_and_without_replacement():
    s, t, e = tf.random.log_uniform_candidate_sampler(LABELS, 2, 4, False, 10, seed=1)
    p = np.log((np.arange(10) + 2) / (np.arange(10) + 1)) / np.log(11)
    np.testing.assert_allclose(t.numpy(), 4 * p[LABELS.numpy()], rtol=1e-6)
    np.testing.assert_allclose(e.numpy(), 4 * p[s.numpy()], rtol=1e-6)
    s, t, e = tf.random.uniform_candidate_sampler(LABELS, 2, 9, True, 10, seed=2)
    # Nine distinct classes of ten take at least nine draws: 1 - (1 - p)^tries >= 9 p only
    # when the sampler saw repeats; either way the counts are the same for every class.
    assert len(set(t.numpy().ravel().tolist()) | set(e.numpy().tolist())) == 1


def test_log_uniform_favours_small_classes():
    s, _, _ = tf.random.log_uniform_candidate_sampler(LABELS, 2, 5000, False, 1000, seed=4)
    counts = np.bincount(s.numpy(), minlength=1000)
    assert counts[0] > counts[1] > counts[10] and counts[0] / 5000 == pytest.approx(
        np.log(2) / np.log(1001), rel=0.1)


def test_fixed_unigram_distortion_reserved_ids_shards_and_vocab_file(tmp_path):
    s, t, _ = tf.random.fixed_unigram_candidate_sampler(
        [[2]], 1, 2000, False, 6, unigrams=[1.0, 4.0, 9.0, 16.0], distortion=0.5,
        num_reserved_ids=2, seed=1)
    counts = np.bincount(s.numpy(), minlength=6)
    assert counts[0] == counts[1] == 0
    np.testing.assert_allclose(counts[2:] / 2000, np.array([1, 2, 3, 4]) / 10, atol=0.03)
    np.testing.assert_allclose(t.numpy(), [[2000 * 0.1]], rtol=1e-6)
    shard, _, _ = tf.random.fixed_unigram_candidate_sampler(
        [[1]], 1, 50, False, 4, unigrams=[1.0] * 4, num_shards=2, shard=1, seed=2)
    assert set(shard.numpy().tolist()) <= {1, 3}
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("the,0\nof,3\n")
    s, _, _ = tf.random.fixed_unigram_candidate_sampler([[0]], 1, 20, False, 2,
                                                        vocab_file=str(vocab), seed=3)
    assert set(s.numpy().tolist()) == {1}


def test_learned_unigram_counts_earlier_true_classes():
    labels = [[3], [3], [5]]
    firsts = [tf.random.learned_unigram_candidate_sampler(labels, 1, 4, False, 6, seed=99)[1]
              .numpy().ravel() for _ in range(3)]
    np.testing.assert_allclose(firsts, [[4 / 6] * 3, [4 * 3 / 9] * 2 + [4 * 2 / 9],
                                        [4 * 5 / 12] * 2 + [4 * 3 / 12]], rtol=1e-6)


def test_all_candidate_sampler_and_accidental_hits():
    s, t, e = tf.nn.all_candidate_sampler([[0, 2]], 2, 3, True)
    assert s.numpy().tolist() == [0, 1, 2] and t.numpy().tolist() == [[1.0, 1.0]]
    rows, ids, weights = tf.nn.compute_accidental_hits(LABELS, [3, 9, 7, 3], 2)
    assert rows.dtype == tf.int32 and ids.dtype == tf.int64 and weights.dtype == tf.float32
    assert rows.numpy().tolist() == [0, 1, 1] and ids.numpy().tolist() == [2, 3, 3]
    assert (weights.numpy() == -np.finfo(np.float32).max).all()
    empty = tf.nn.compute_accidental_hits(LABELS, [0, 9], 2)
    assert [x.shape.as_list() for x in empty] == [[0], [0], [0]]


@pytest.mark.parametrize("call", [
    lambda: tf.random.uniform_candidate_sampler(LABELS, 2, 11, True, 10),
    lambda: tf.random.uniform_candidate_sampler(LABELS, 2, 3, True, 0),
    lambda: tf.random.uniform_candidate_sampler(LABELS, 3, 3, True, 10),
    lambda: tf.random.uniform_candidate_sampler([1, 2], 1, 3, True, 10),
    lambda: tf.random.uniform_candidate_sampler(LABELS, 2, 3, True, 5),
    lambda: tf.random.uniform_candidate_sampler(LABELS, 2, -1, True, 10),
    lambda: tf.random.fixed_unigram_candidate_sampler(LABELS, 2, 3, True, 10, unigrams=[1.0]),
    lambda: tf.random.fixed_unigram_candidate_sampler(LABELS, 2, 3, True, 10),
    lambda: tf.nn.all_candidate_sampler(LABELS, 2, 3, True),
    lambda: tf.nn.compute_accidental_hits([1, 2], [1], 1),
])
def test_errors(call):
    with pytest.raises(InvalidArgumentError):
        call()
