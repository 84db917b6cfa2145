"""tf.random's Philox-based draws equal TensorFlow's bit for bit (stateless ops, Generator
draws and states, seeds); the other distributions agree in shape, dtype and error class.
Each case is written once against a module `tf` and run with tapeflow and with TensorFlow."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

FLOATS = ("float16", "float32", "float64")
SHAPES = ([], [1], [7], [3, 5], [2, 3, 9], [1001])
SEEDS = ([1, 2], [-3, 7], [2 ** 40 + 5, -2 ** 50], [0, 0])


def raised(fn, *args, **kwargs):
    """The class name of what `fn` raises, or its result."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return ("raised", type(e).__name__)


def _seed(tf, seed):
    return tf.constant(seed, tf.int64 if max(map(abs, seed)) >= 2 ** 31 else tf.int32)


def _generator_draws(tf, alg):
    g = tf.random.Generator.from_seed(1234, alg=alg)
    out = [g.normal([5]), g.state, g.uniform([3, 2], dtype=tf.float64), g.state,
           g.truncated_normal([6], 1.0, 2.0), g.uniform([7], -5, 9, dtype=tf.int32),
           g.uniform([4], None, None, dtype=tf.int64), g.uniform_full_int([3], tf.int32),
           g.normal([2, 2], dtype=tf.float16), g.skip(10), g.state, g.make_seeds(2)]
    out += [s.normal([3]) for s in g.split(2)] + [g.state]
    return out


def _stateful_draws(tf):
    tf.random.set_seed(1234)
    logits = tf.constant([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]])
    out = [tf.random.normal([5]), tf.random.uniform([3, 2]), tf.random.truncated_normal([7]),
           tf.random.uniform([6], -4, 9, tf.int64), tf.random.categorical(logits, 5),
           tf.nn.dropout(tf.ones([3, 4]), 0.5), tf.random.normal([4], 2.0, 3.0, tf.float64)]
    for _ in range(2):  # each call of a kernel continues its stream
        out += [tf.random.normal([3], seed=7), tf.random.uniform([2], seed=7, dtype=tf.float16),
                tf.random.truncated_normal([5], seed=7, dtype=tf.float64),
                tf.random.categorical(logits, 6, seed=7),
                tf.random.uniform([3], 0, 100, tf.int32, seed=7)]
    tf.random.set_seed(None)
    out.append(tf.random.normal([3], seed=7))  # the default global seed
    return out


def _shuffles(tf):
    tf.random.set_seed(3)
    out = [tf.random.shuffle(tf.range(10), seed=5) for _ in range(2)]
    out += [tf.random.shuffle(tf.reshape(tf.range(14), [7, 2]), seed=5),
            tf.random.shuffle(tf.constant([[1.0, 2.0]])), tf.random.shuffle(tf.zeros([4, 0])),
            tf.random.shuffle(tf.range(300, dtype=tf.int64)), tf.random.shuffle(tf.range(9))]
    tf.random.set_seed(None)
    return out + [tf.random.experimental.stateless_shuffle(tf.range(10), [1, 2]),
                  tf.random.experimental.stateless_shuffle(tf.ones([5, 3]) * [[1.0], [2.0], [3.0],
                                                                              [4.0], [5.0]], [7, 8])]


def _gammas(tf):
    out = [tf.random.stateless_gamma([6, 4], seed, [0.3, 1.0, 2.5, 150.0], dtype=dtype)
           for seed in ([1, 2], [7, -8]) for dtype in (tf.float16, tf.float32, tf.float64)]
    out.append(tf.random.stateless_gamma([3, 2, 2], [3, 4], [0.5, 4.0], [[1.0], [2.0]]))
    tf.random.set_seed(5)
    out += [tf.random.gamma([4], [[0.2, 1.0, 3.0]], seed=2) for _ in range(2)]
    out += [tf.random.gamma([3], 2.0, [1.0, 4.0], dtype=tf.float64), tf.random.gamma([2], 0.9)]
    tf.random.set_seed(None)
    return out


def _poissons(tf):
    rates = [0.0, -2.0, 0.5, 3.0, 9.99, 10.0, 50.0, 1000.0]
    out = [tf.random.stateless_poisson([50, 8], [1, 2], tf.constant(rates, dtype), out)
           for dtype in (tf.float16, tf.float32, tf.float64)
           for out in (tf.int32, tf.int64, tf.float32)]
    tf.random.set_seed(4)
    out += [tf.random.poisson([30], rates, seed=3) for _ in range(2)]
    out += [tf.random.poisson([4, 2], [[1.0], [60.0]], tf.int64),
            tf.random.poisson([5], tf.constant(20.0, tf.float64), tf.float64)]
    tf.random.set_seed(None)
    return out


COUNTS = [0.0, 5.0, 10.0, 30.0, 100.0, 1000.0, 20.0, 50.0, 7.0]
PROBS = [0.5, 0.3, 0.95, 0.5, 0.02, 0.7, 0.0, 1.0, 0.6]


def _binomials(tf):
    out = [tf.random.stateless_binomial([40, 9], seed, tf.constant(COUNTS, dtype),
                                        tf.constant(PROBS, dtype), output)
           for seed in ([1, 2], [5, 6]) for dtype in (tf.float16, tf.float32, tf.float64)
           for output in (tf.int32, tf.float64)]
    out.append(tf.random.stateless_binomial([3, 2, 2], [1, 2], [[10.0], [40.0]], [0.4, 0.9]))
    g = tf.random.Generator.from_seed(8)
    out += [g.binomial([7, 9], COUNTS, PROBS), g.state, g.binomial([5], 60.0, 0.25), g.state]
    return out


CASES = {
    "stateful draws with seeds": _stateful_draws,
    "binomials": _binomials,
    "poissons": _poissons,
    "gammas": _gammas,
    "shuffles": _shuffles,
    "stateless uniform": lambda tf: [
        tf.random.stateless_uniform(shape, _seed(tf, seed), dtype=dtype)
        for seed in SEEDS for shape in SHAPES for dtype in FLOATS],
    "stateless uniform bounds": lambda tf: [
        tf.random.stateless_uniform([9], [4, 5], -2.0, 3.0),
        tf.random.stateless_uniform([9], [4, 5], maxval=10.0, dtype=tf.float64),
        tf.random.stateless_uniform([9], [4, 5], alg="philox"),
        tf.random.stateless_uniform([9], [4, 5], alg=tf.random.Algorithm.AUTO_SELECT)],
    "stateless normal": lambda tf: [
        tf.random.stateless_normal(shape, _seed(tf, seed), dtype=dtype)
        for seed in SEEDS for shape in SHAPES for dtype in FLOATS]
    + [tf.random.stateless_normal([4, 4], [1, 2], 3.0, 0.5)],
    "stateless truncated normal": lambda tf: [
        tf.random.stateless_truncated_normal(shape, _seed(tf, seed), dtype=dtype)
        for seed in SEEDS for shape in SHAPES for dtype in FLOATS]
    + [tf.random.stateless_truncated_normal([4, 4], [1, 2], -1.0, 2.0, tf.float64)],
    "stateless integers": lambda tf: [
        tf.random.stateless_uniform(shape, _seed(tf, seed), low, high, dtype)
        for seed in SEEDS for shape in SHAPES[1:4] for dtype in (tf.int32, tf.int64)
        for low, high in ((0, 10), (-7, 1000), (None, None), (-2 ** 31, 2 ** 31 - 1))],
    "large draws": lambda tf: [tf.random.stateless_normal([200000], [5, 6]),
                               tf.random.stateless_normal([100000], [5, 6], dtype=tf.float64),
                               tf.random.stateless_truncated_normal([100000], [7, 8])],
    "seeds": lambda tf: [tf.random.fold_in([1, 2], 5), tf.random.fold_in([1, 2], np.int64(-9)),
                         tf.random.split([1, 2]), tf.random.split(tf.constant([3, 4], tf.int64), 4),
                         tf.random.experimental.stateless_split([5, 6], 3),
                         tf.random.experimental.stateless_fold_in([5, 6], 0)],
    "index shuffle": lambda tf: [
        tf.random.experimental.index_shuffle(tf.range(min(top + 1, 50), dtype=tf.int64),
                                             seed, tf.constant(top, tf.int64))
        for top in (0, 1, 9, 1000, 65536, 70000, 2 ** 20 + 5, 2 ** 40)
        for seed in ([1, 2], [-5, 2 ** 33])]
    + [tf.random_index_shuffle(tf.constant([3, 1], tf.int32), [[1, 2, 3], [4, 5, 6]], 7,
                               rounds=6)],
    "stateless categorical": lambda tf: [
        tf.random.stateless_categorical([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]], 7, [3, 4]),
        tf.random.stateless_categorical(np.log([[0.1, 0.2, 0.7]]), 20, [1, 2], tf.int32),
        tf.random.stateless_categorical([[0.0, -np.inf, 0.0, 3.0]], 9, [8, 9])],
    "rng states": lambda tf: [
        tf.random.create_rng_state(1234, "philox"), tf.random.create_rng_state(-1, "philox"),
        tf.random.create_rng_state(2 ** 64 + 3, 1), tf.random.create_rng_state([12, 34], 2),
        tf.random.create_rng_state([1, 2, 3, 4], "philox"),
        tf.random.Generator.from_key_counter(5, [1, 2], "philox").state,
        tf.random.Generator.from_state([4, 5, 6], tf.random.Algorithm.PHILOX).state],
    "generator draws": lambda tf: _generator_draws(tf, "philox"),
    "generator draws, auto_select": lambda tf: _generator_draws(tf, "auto_select"),
    "generator resets": lambda tf: (lambda g: [
        g.normal([2]), g.reset_from_seed(9), g.normal([2]), g.reset([1, 2, 3]), g.normal([2]),
        g.reset_from_key_counter(7, [8, 9]), g.state, g.key, g.algorithm,
        tf.random.Generator(copy_from=g).normal([3]), g.normal([3])])(
        tf.random.Generator.from_seed(3)),
    "shapes and dtypes of the other distributions": lambda tf: [
        (x.shape, x.dtype) for x in [
            tf.random.stateless_binomial([4, 2], [1, 2], [10.0, 20.0], [0.5, 0.1]),
            tf.random.stateless_poisson([3, 2], [1, 2], [1.0, 5.0], tf.float32),
            tf.random.stateless_gamma([3, 2], [1, 2], [1.0, 5.0], dtype=tf.float64),
            tf.random.gamma([3, 4], [1.0, 2.0], [[1.0], [3.0]], seed=1),
            tf.random.poisson([5], [[1.0, 2.0]], tf.int64, seed=1),
            tf.random.Generator.from_seed(1).binomial([3], [10.0, 10.0, 5.0], 0.5)]],
    "errors": lambda tf: [
        raised(tf.random.stateless_uniform, [3], [1, 2, 3]),
        raised(tf.random.stateless_uniform, [3], [1.0, 2.0]),
        raised(tf.random.stateless_uniform, [3], [1, 2], alg="foo"),
        raised(tf.random.stateless_uniform, [3], [1, 2], 5, 5, tf.int32),
        raised(tf.random.stateless_uniform, [3], [1, 2], 5, None, tf.int32),
        raised(tf.random.stateless_normal, [3], [1, 2], dtype=tf.int32),
        raised(tf.random.Generator.from_seed(1).uniform, [2], dtype=tf.int32),
        raised(tf.random.Generator.from_seed(1, "threefry").normal, [2]),
        raised(tf.random.Generator.from_state, [1, 2], "philox"),
        raised(tf.random.Generator.from_seed(1).binomial, [3], [10.0], [0.5]),
        raised(tf.random.stateless_gamma, [3], [1, 2], [1.0, 2.0]),
        raised(tf.random.create_rng_state, 1, "foo"),
        raised(tf.random.stateless_truncated_normal, [2], [1, 2], dtype=tf.int32),
        raised(tf.random.stateless_uniform, [2], [1, 2], dtype=tf.bool),
        raised(tf.random.stateless_categorical, [0.0, 1.0], 3, [1, 2]),
        raised(tf.random.stateless_poisson, [2], [1, 2], [1.0, 2.0, 3.0])],
}


@pytest.mark.parametrize("label", list(CASES))
def test_random_matches_tensorflow_bit_for_bit(label, parity):
    theirs = parity.describe(parity.tf, raised(CASES[label], parity.tf))
    ours = parity.describe(tapeflow, raised(CASES[label], tapeflow))
    parity.assert_same(ours, theirs, rtol=0, atol=0, where=label)


def test_gamma_sample_gradient_matches_tensorflow(parity):
    from tapeflow.ops.random_ops import RandomGammaGrad
    alpha = np.array([0.05, 0.3, 1.0, 2.5, 10.0, 150.0, 3000.0])[:, None]
    # From the far left to the far right of each distribution.
    sample = np.maximum(alpha + np.array([-3.0, -1.0, 0.0, 1.0, 3.0, 6.0]) * np.sqrt(alpha),
                        np.array([1e-6, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3]) * alpha)
    ours = RandomGammaGrad(alpha, sample)
    theirs = parity.tf.raw_ops.RandomGammaGrad(alpha=alpha, sample=sample).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-9)


LABELS = np.array([[1, 7], [3, 3], [0, 9]], np.int64)
W = np.random.default_rng(3).standard_normal((12, 4)).astype(np.float32)
B = np.random.default_rng(4).standard_normal(12).astype(np.float32)
X = np.random.default_rng(5).standard_normal((3, 4)).astype(np.float32)


def _samplers(tf):
    out = []
    for sampler, extra in ((tf.random.uniform_candidate_sampler, {"range_max": 12}),
                           (tf.random.log_uniform_candidate_sampler, {"range_max": 12}),
                           (tf.random.learned_unigram_candidate_sampler, {"range_max": 12}),
                           (tf.random.fixed_unigram_candidate_sampler,
                            {"range_max": 12, "unigrams": [float(i + 1) for i in range(12)]})):
        for unique in (False, True):
            s, t, e = sampler(LABELS, 2, 5, unique, seed=1, **extra)
            out.append([s.shape, s.dtype, t if not unique else (t.shape, t.dtype), e.shape,
                        e.dtype])
    # A learned sampler's first and second calls (it counts the first's true classes).
    out += [tf.random.learned_unigram_candidate_sampler(LABELS, 2, 5, False, 12, seed=7)[1]
            for _ in range(2)]
    return out + [raised(tf.nn.all_candidate_sampler, LABELS, 2, 5, False),
                  tf.nn.all_candidate_sampler(LABELS, 2, 12, True)]


SAMPLED = (np.array([2, 7, 11, 3], np.int64), np.full((3, 2), 0.5, np.float32),
           np.array([0.25, 0.5, 0.75, 1.0], np.float32))
APPROXIMATE = {
    "candidate samplers": _samplers,
    "accidental hits": lambda tf: list(tf.nn.compute_accidental_hits(LABELS, [3, 9, 1, 3], 2)),
    "sampled softmax loss": lambda tf: [
        tf.nn.sampled_softmax_loss(W, B, LABELS, X, 4, 12, num_true=2, sampled_values=SAMPLED),
        tf.nn.sampled_softmax_loss(W, B, LABELS[:, :1], X, 4, 12, sampled_values=SAMPLED,
                                   remove_accidental_hits=False)],
    "nce loss": lambda tf: [
        tf.nn.nce_loss(W, B, LABELS, X, 4, 12, num_true=2, sampled_values=SAMPLED),
        tf.nn.nce_loss(W, B, LABELS[:, :1], X, 4, 12, sampled_values=SAMPLED,
                       remove_accidental_hits=True)],
    "sampler errors": lambda tf: [
        raised(tf.random.uniform_candidate_sampler, LABELS, 2, 13, True, 12),
        raised(tf.random.uniform_candidate_sampler, LABELS, 2, 3, True, 5),
        raised(tf.random.uniform_candidate_sampler, [1, 2], 1, 3, True, 5)],
}


@pytest.mark.parametrize("label", list(APPROXIMATE))
def test_samplers_and_sampled_losses_match_tensorflow(label, parity):
    theirs = parity.describe(parity.tf, raised(APPROXIMATE[label], parity.tf))
    ours = parity.describe(tapeflow, raised(APPROXIMATE[label], tapeflow))
    parity.assert_same(ours, theirs, rtol=1e-6, atol=1e-6, where=label)
