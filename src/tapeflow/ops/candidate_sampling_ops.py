"""Candidate samplers (tf.random.*_candidate_sampler, also in tf.nn) and
tf.nn.compute_accidental_hits: the negatives of sampled softmax and NCE losses.

Each sampler draws `num_sampled` classes from a distribution over [0, range_max) and
reports how often each true and each sampled class is expected to be drawn: `num_sampled *
p` with replacement, and `1 - (1 - p) ** tries` without (`unique=True`, where the sampler
keeps drawing until it has `num_sampled` distinct classes). Draws follow TF's seeding rules
but are not TF's numbers.
"""
from __future__ import annotations

import threading

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op
from .math_ops import cast
from .op_util import as_input, int_value
from .random_ops import _generator, get_seed


def _draw(probabilities, num_sampled, unique, rng):
    """(samples, tries): `num_sampled` draws, distinct ones when `unique`."""
    if not unique:
        return rng.choice(probabilities.size, num_sampled, p=probabilities), num_sampled
    samples, tries = [], 0
    seen = set()
    while len(samples) < num_sampled:
        batch = rng.choice(probabilities.size, max(2 * (num_sampled - len(samples)), 16),
                           p=probabilities)
        for value in batch.tolist():
            tries += 1
            if value not in seen:
                seen.add(value)
                samples.append(value)
                if len(samples) == num_sampled:
                    break
    return np.array(samples), tries


def _expected(p, count, tries):
    # In float32, as TF; a unique sample drawn without a repeat counts as one with repeats.
    p = p.astype(np.float32)
    if tries == count:
        return p * np.float32(count)
    return -np.expm1(np.float32(tries) * np.log1p(-p))


def _sampler(name: str, distribution):
    """The kernel of a sampler whose class probabilities (float64, summing to one)
    `distribution(true_classes, range_max=..., **attrs)` gives."""
    def kernel(true_classes, *, num_true, num_sampled, unique, range_max, seed, seed2, **attrs):
        if true_classes.size and (true_classes.min() < 0 or true_classes.max() >= range_max):
            raise errors.InvalidArgumentError(
                None, name, f"{name}: true classes must lie in [0, {range_max}), got "
                f"{true_classes.min()} .. {true_classes.max()}")
        probabilities = distribution(true_classes, range_max=range_max, **attrs)
        samples, tries = _draw(probabilities, num_sampled, unique,
                               _generator(name, seed, seed2))
        return (samples.astype(np.int64),
                _expected(probabilities[true_classes], num_sampled, tries),
                _expected(probabilities[samples], num_sampled, tries))
    op = define_op(name, kernel, num_outputs=3)
    op.shape_fn = lambda inputs, attrs: [
        (np.dtype(np.int64), (attrs["num_sampled"],)),
        (np.dtype(np.float32), tuple(inputs[0]._dims)),
        (np.dtype(np.float32), (attrs["num_sampled"],))]
    return op


_LEARNED: dict = {}
_LEARNED_LOCK = threading.Lock()


def _uniform(true_classes, *, range_max):
    return np.full(range_max, 1 / range_max)


def _log_uniform(true_classes, *, range_max):
    classes = np.arange(range_max, dtype=np.float64)
    return np.log((classes + 2) / (classes + 1)) / np.log(range_max + 1)


def _learned_unigram(true_classes, *, range_max, learned_by):
    # Each class starts at a count of one; the true classes of every call are counted after
    # it samples, per sampler (its attributes and seeds), as TF's kernel keeps its counts.
    with _LEARNED_LOCK:
        counts = _LEARNED.setdefault(learned_by, np.ones(range_max))
        probabilities = counts / counts.sum()
        counts += np.bincount(true_classes.reshape(-1), minlength=range_max)
    return probabilities


def _fixed_unigram(true_classes, *, range_max, unigrams, distortion, num_reserved_ids,
                   num_shards, shard):
    weights = np.zeros(range_max)
    weights[num_reserved_ids:num_reserved_ids + len(unigrams)] = np.power(unigrams, distortion)
    weights[np.arange(range_max) % num_shards != shard] = 0
    return weights / weights.sum()


UniformCandidateSampler = _sampler("UniformCandidateSampler", _uniform)
LogUniformCandidateSampler = _sampler("LogUniformCandidateSampler", _log_uniform)
LearnedUnigramCandidateSampler = _sampler("LearnedUnigramCandidateSampler", _learned_unigram)
FixedUnigramCandidateSampler = _sampler("FixedUnigramCandidateSampler", _fixed_unigram)


def _all_candidates(true_classes, *, num_true, num_sampled, unique, seed, seed2):
    if true_classes.size and (true_classes.min() < 0 or true_classes.max() >= num_sampled):
        raise errors.InvalidArgumentError(
            None, "AllCandidateSampler", f"AllCandidateSampler: true classes must lie in "
            f"[0, {num_sampled}), got {true_classes.min()} .. {true_classes.max()}")
    return (np.arange(num_sampled, dtype=np.int64),
            np.ones(true_classes.shape, np.float32), np.ones(num_sampled, np.float32))


AllCandidateSampler = define_op("AllCandidateSampler", _all_candidates, num_outputs=3)
AllCandidateSampler.shape_fn = UniformCandidateSampler.shape_fn


def _accidental_hits(true_classes, sampled, *, num_true):
    position = {int(value): j for j, value in enumerate(sampled.tolist())}
    hits = [(i, position[int(value)]) for i, row in enumerate(true_classes.tolist())
            for value in row if int(value) in position]
    rows, ids = (np.array([h[k] for h in hits], int) for k in (0, 1))
    return (rows.astype(np.int32), ids.astype(np.int64),
            np.full(len(hits), -np.finfo(np.float32).max, np.float32))


ComputeAccidentalHits = define_op("ComputeAccidentalHits", _accidental_hits, num_outputs=3)


def _checked(op_name: str, true_classes, num_true, num_sampled):
    """`true_classes` as an int64 [batch, num_true] tensor, the counts as ints.

    Raises:
        InvalidArgumentError: another shape or dtype, or a negative count.
    """
    true_classes = as_input(true_classes)
    num_true = int_value(op_name, num_true, "num_true")
    num_sampled = int_value(op_name, num_sampled, "num_sampled")
    if not true_classes.dtype.is_integer or true_classes.ndim != 2 \
            or true_classes.shape.as_list()[1] not in (None, num_true) or num_sampled < 0:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: true_classes must be an integer [batch, num_true] matrix "
            f"and num_sampled >= 0; got {true_classes.dtype.name} of shape "
            f"{true_classes.shape.as_list()}, num_true={num_true}, num_sampled={num_sampled}")
    return cast(true_classes, dtypes.int64), num_true, num_sampled


def _sample(op, true_classes, num_true, num_sampled, unique, range_max, seed, **attrs):
    true_classes, num_true, num_sampled = _checked(op.name, true_classes, num_true, num_sampled)
    if range_max is not None and (range_max < 1 or unique and num_sampled > range_max):
        raise errors.InvalidArgumentError(
            None, op.name, f"{op.name}: range_max ({range_max}) must be positive and, with "
            f"unique=True, at least num_sampled ({num_sampled})")
    seed1, seed2 = seed if isinstance(seed, tuple) else get_seed(seed)
    if range_max is not None:
        attrs["range_max"] = int(range_max)
    return tuple(execute(op, (true_classes,), {
        "num_true": num_true, "num_sampled": num_sampled, "unique": bool(unique),
        "seed": seed1, "seed2": seed2, **attrs}))


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                              name=None) -> tuple:
    """Samples `num_sampled` classes uniformly from [0, range_max).

    Args:
        true_classes: an int64 [batch, num_true] tensor of target classes.
        num_true: the number of targets per example.
        num_sampled: the number of classes to draw.
        unique: draw without replacement.
        range_max: the number of classes.
        seed: an op seed (see `tf.random.set_seed`).

    Returns:
        `(sampled_candidates, true_expected_count, sampled_expected_count)`: int64
        [num_sampled], float32 [batch, num_true] and float32 [num_sampled].

    Raises:
        InvalidArgumentError: `true_classes` not [batch, num_true] classes in range, a
            non-positive `range_max`, or more unique samples than classes.

    Example:
        >>> import tapeflow as tf
        >>> s, t, e = tf.random.uniform_candidate_sampler([[1], [4]], 1, 3, True, 10, seed=1)
        >>> s.shape, t.numpy().round(4).tolist()
        (TensorShape([3]), [[0.3], [0.3]])
    """
    return _sample(UniformCandidateSampler, true_classes, num_true, num_sampled, unique,
                   range_max, seed)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None) -> tuple:
    """Samples classes from the log-uniform (Zipfian) distribution
    P(k) = (log(k + 2) - log(k + 1)) / log(range_max + 1), which suits classes sorted by
    decreasing frequency. Arguments, results and errors as `uniform_candidate_sampler`.

    Example:
        >>> import tapeflow as tf
        >>> s, t, e = tf.random.log_uniform_candidate_sampler([[0]], 1, 2, False, 3, seed=1)
        >>> t.numpy().round(4).tolist()
        [[1.0]]
    """
    return _sample(LogUniformCandidateSampler, true_classes, num_true, num_sampled, unique,
                   range_max, seed)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None) -> tuple:
    """Samples classes from a unigram distribution learned from the true classes: each class
    weighs one plus the number of times earlier calls of the same sampler (same arguments and
    seed) saw it as a true class. Arguments, results and errors as
    `uniform_candidate_sampler`.

    Example:
        >>> import tapeflow as tf
        >>> for _ in range(2):
        ...     s, t, e = tf.random.learned_unigram_candidate_sampler([[2], [2]], 1, 4, False, 4,
        ...                                                           seed=123)
        ...     print(t.numpy().round(4).tolist())
        [[1.0], [1.0]]
        [[2.0], [2.0]]
    """
    seed1, seed2 = get_seed(seed)
    return _sample(LearnedUnigramCandidateSampler, true_classes, num_true, num_sampled, unique,
                   range_max, (seed1, seed2), learned_by=(num_true, num_sampled, bool(unique),
                                                         int(range_max), seed1, seed2))


def _vocabulary_counts(vocab_file: str) -> list:
    """The counts of a vocabulary file: the last comma-separated field of each line."""
    with open(vocab_file, encoding="utf-8") as lines:
        return [float(line.rsplit(",", 1)[-1]) for line in lines if line.strip()]


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None,
                                    name=None) -> tuple:
    """Samples classes with probabilities proportional to `unigrams ** distortion` (or the
    counts of `vocab_file`, one `word,count` line per class), after `num_reserved_ids` classes
    of weight zero; with `num_shards`, only classes `k` with `k % num_shards == shard`.

    Raises:
        InvalidArgumentError: as `uniform_candidate_sampler`, or neither or both of
            `vocab_file` and `unigrams`, or their length not `range_max - num_reserved_ids`.

    Example:
        >>> import tapeflow as tf
        >>> s, t, e = tf.random.fixed_unigram_candidate_sampler(
        ...     [[0], [1]], 1, 4, False, 3, unigrams=[1.0, 3.0, 0.0], seed=1)
        >>> t.numpy().tolist(), set(s.numpy().tolist()) <= {0, 1}
        ([[1.0], [3.0]], True)
    """
    counts = _vocabulary_counts(vocab_file) if vocab_file else list(unigrams)
    if bool(vocab_file) == bool(len(unigrams)) or len(counts) + num_reserved_ids != range_max \
            or not 0 <= shard < num_shards:
        raise errors.InvalidArgumentError(
            None, "FixedUnigramCandidateSampler", f"FixedUnigramCandidateSampler: give "
            f"exactly one of vocab_file and unigrams, with range_max - num_reserved_ids "
            f"({range_max - num_reserved_ids}) counts (got {len(counts)}), and 0 <= shard < "
            f"num_shards (got shard={shard}, num_shards={num_shards})")
    return _sample(FixedUnigramCandidateSampler, true_classes, num_true, num_sampled, unique,
                   range_max, seed, unigrams=tuple(float(c) for c in counts),
                   distortion=float(distortion), num_reserved_ids=int(num_reserved_ids),
                   num_shards=int(num_shards), shard=int(shard))


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None,
                          name=None) -> tuple:
    """The classes 0 .. num_sampled - 1 themselves, each expected once: a test double for the
    samplers (every class counts as sampled).

    Example:
        >>> import tapeflow as tf
        >>> s, t, e = tf.random.all_candidate_sampler([[1, 2]], 2, 4, True)
        >>> s.numpy().tolist(), t.numpy().tolist()
        ([0, 1, 2, 3], [[1.0, 1.0]])
    """
    return _sample(AllCandidateSampler, true_classes, num_true, num_sampled, unique, None, seed)


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None,
                            name=None) -> tuple:
    """Where a sampled class is one of an example's true classes: `(indices, ids, weights)`,
    the example's row (int32), the sampled position (int64; the last one where a class was
    drawn twice) and -FLT_MAX (float32), to add to those logits.

    Raises:
        InvalidArgumentError: `true_classes` not an integer [batch, num_true] matrix.

    Example:
        >>> import tapeflow as tf
        >>> rows, ids, w = tf.nn.compute_accidental_hits([[1, 2], [3, 4]], [4, 5, 1], 2)
        >>> rows.numpy().tolist(), ids.numpy().tolist()
        ([0, 1], [2, 0])
    """
    true_classes, num_true, _ = _checked("ComputeAccidentalHits", true_classes, num_true, 0)
    sampled = cast(as_input(sampled_candidates), dtypes.int64)
    return tuple(execute(ComputeAccidentalHits, (true_classes, sampled), {"num_true": num_true}))

