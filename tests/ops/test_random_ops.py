"""tf.random: TF's seeding rules, distributions, dtypes, errors; nn.dropout."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError
from tapeflow.ops.random_ops import DEFAULT_GRAPH_SEED


@pytest.fixture(autouse=True)
def no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


def draw(**kwargs):
    return tf.random.uniform([4], **kwargs).numpy()


def test_same_global_and_op_seed_give_the_same_sequence_and_set_seed_restarts_it():
    tf.random.set_seed(1234)
    a1, a2 = draw(seed=1), draw(seed=1)
    assert not np.array_equal(a1, a2)
    tf.random.set_seed(1234)
    np.testing.assert_array_equal(draw(seed=1), a1)
    np.testing.assert_array_equal(draw(seed=1), a2)


def test_global_seed_alone_makes_every_op_deterministic():
    tf.random.set_seed(7)
    first = [draw(), tf.random.normal([3]).numpy(), draw()]
    tf.random.set_seed(7)
    second = [draw(), tf.random.normal([3]).numpy(), draw()]
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], first[2])
    tf.random.set_seed(8)
    assert not np.array_equal(draw(), first[0])


def test_op_seed_without_global_seed_uses_the_default_global_seed():
    a = draw(seed=5)
    tf.random.set_seed(DEFAULT_GRAPH_SEED)
    np.testing.assert_array_equal(draw(seed=5), a)


def test_no_seed_at_all_is_nondeterministic():
    assert not np.array_equal(draw(), draw())


def test_normal_dtype_shape_and_moments():
    x = tf.random.normal([200, 100], mean=3.0, stddev=2.0, dtype=tf.float64, seed=1)
    assert x.dtype == tf.float64 and x.shape == [200, 100]
    assert abs(x.numpy().mean() - 3.0) < 0.05 and abs(x.numpy().std() - 2.0) < 0.05
    assert tf.random.normal([2], dtype=tf.float16).dtype == tf.float16
    with pytest.raises(InvalidArgumentError):
        tf.random.normal([2], dtype=tf.int32)
    with pytest.raises(InvalidArgumentError):
        tf.random.normal([-1])


def test_normal_is_differentiable_in_mean_and_stddev():
    mean, stddev = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([mean, stddev])
        x = tf.random.normal([5], mean, stddev, seed=3)
    assert float(tape.gradient(x, mean)) == 5.0
    np.testing.assert_allclose(float(tape.gradient(x, stddev)), ((x.numpy() - 1.0) / 2.0).sum(),
                               rtol=1e-5)


def test_uniform_ranges_and_dtypes():
    x = tf.random.uniform([1000], -2.0, 3.0, seed=2).numpy()
    assert x.min() >= -2.0 and x.max() < 3.0 and x.std() > 1.0
    assert tf.random.uniform([2]).dtype == tf.float32
    ints = tf.random.uniform([1000], 3, 6, dtype=tf.int64, seed=2)
    assert ints.dtype == tf.int64 and set(ints.numpy().tolist()) == {3, 4, 5}
    with pytest.raises(ValueError, match="maxval"):
        tf.random.uniform([2], dtype=tf.int32)
    with pytest.raises(InvalidArgumentError, match="minval < maxval"):
        tf.random.uniform([2], 5, 5, dtype=tf.int32)
    with pytest.raises(InvalidArgumentError):
        tf.random.uniform([2], dtype=tf.bool)


def test_truncated_normal_stays_within_two_stddev():
    x = tf.random.truncated_normal([10000], mean=1.0, stddev=0.5, seed=4).numpy()
    assert x.min() >= 0.0 and x.max() <= 2.0
    assert abs(x.mean() - 1.0) < 0.02


def test_categorical():
    logits = tf.constant([[np.log(0.9), np.log(0.1)], [-np.inf, 0.0]])
    samples = tf.random.categorical(logits, 2000, seed=5)
    assert samples.dtype == tf.int64 and samples.shape == [2, 2000]
    assert abs(samples.numpy()[0].mean() - 0.1) < 0.03
    assert (samples.numpy()[1] == 1).all()
    assert tf.random.categorical(logits, 3, dtype=tf.int32).dtype == tf.int32
    with pytest.raises(InvalidArgumentError, match="matrix"):
        tf.random.categorical([0.0, 1.0], 3)
    x = tf.constant([[0.0, 1.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.cast(tf.random.categorical(x, 3), tf.float32)
    assert tape.gradient(s, x) is None


def test_shuffle_permutes_rows_and_is_not_differentiable():
    x = np.arange(20.0).reshape(10, 2)
    out = tf.random.shuffle(x, seed=6).numpy()
    assert sorted(map(tuple, out)) == sorted(map(tuple, x))
    np.testing.assert_array_equal(x, np.arange(20.0).reshape(10, 2))
    t = tf.constant(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(t)
        y = tf.random.shuffle(t)
        z = tf.reduce_sum(y) + tf.reduce_sum(t * t)
    assert tape.gradient(y, t) is None  # TF declares RandomShuffle not differentiable
    np.testing.assert_array_equal(tape.gradient(z, t), 2 * x)


def test_dropout_scales_kept_values_and_drops_about_rate():
    x = tf.ones([100, 100])
    y = tf.nn.dropout(x, rate=0.25, seed=1).numpy()
    assert set(np.unique(y).tolist()) == {0.0, np.float32(1 / 0.75)}
    assert abs((y == 0).mean() - 0.25) < 0.02
    assert tf.nn.dropout(x, 0.0) is x
    rows = tf.nn.dropout(x, 0.5, noise_shape=[100, 1], seed=2).numpy()
    assert all(len(set(r.tolist())) == 1 for r in rows)


def test_dropout_gradient_is_the_scaled_mask():
    x = tf.constant(np.arange(1.0, 13.0).reshape(3, 4))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, rate=0.5, seed=3)
    g = tape.gradient(y, x).numpy()
    np.testing.assert_array_equal(g, np.where(y.numpy() != 0, 2.0, 0.0))


def test_dropout_errors():
    with pytest.raises(ValueError, match="rate"):
        tf.nn.dropout(tf.ones([2]), 1.0)
    with pytest.raises(ValueError, match="rate"):
        tf.nn.dropout(tf.ones([2]), -0.1)
    with pytest.raises(ValueError, match="floating"):
        tf.nn.dropout(tf.constant([1, 2]), 0.5)


def test_dropout_with_a_tensor_rate():
    y = tf.nn.dropout(tf.ones([1000]), tf.constant(0.5), seed=4).numpy()
    assert set(np.unique(y).tolist()) == {0.0, 2.0}


def test_dropout_with_a_variable_or_argument_rate_in_a_function():
    # TF: a tensor rate is used by ops (1 / (1 - rate) and noise >= rate), so a variable's
    # or an argument's value, read while the function runs, is the rate.
    rate = tf.Variable(0.75)

    @tf.function
    def f(x, r):
        return tf.nn.dropout(x, rate, seed=3), tf.nn.dropout(x, r, seed=5)

    a, b = f(tf.ones([2000]), tf.constant(0.5))
    assert set(np.unique(a.numpy()).tolist()) == {0.0, 4.0}
    assert set(np.unique(b.numpy()).tolist()) == {0.0, 2.0}
    assert 0.65 < float(np.mean(a.numpy() == 0)) < 0.85
    rate.assign(0.0)
    a, _ = f(tf.ones([20]), tf.constant(0.5))
    np.testing.assert_array_equal(a.numpy(), np.ones(20, np.float32))


def test_gamma_shape_dtype_moments_and_seeding():
    x = tf.random.gamma([4000], [0.5, 3.0], beta=[[2.0], [1.0]], dtype=tf.float64, seed=1)
    assert x.shape == [4000, 2, 2] and x.dtype == tf.float64
    means = x.numpy().mean(axis=0)
    np.testing.assert_allclose(means, [[0.25, 1.5], [0.5, 3.0]], rtol=0.08)
    assert (x.numpy() > 0).all()
    tf.random.set_seed(3)
    a = tf.random.gamma([5], 2.0).numpy()
    tf.random.set_seed(3)
    np.testing.assert_array_equal(tf.random.gamma([5], 2.0).numpy(), a)
    assert tf.random.gamma([2], 1.0, dtype=tf.float16).dtype == tf.float16
    with pytest.raises(InvalidArgumentError):
        tf.random.gamma([2], 1, dtype=tf.int32)


def test_gamma_gradient_is_the_implicit_reparameterisation():
    # At a fixed CDF level u = P(alpha, x), x moves with alpha as SciPy's inverse CDF does.
    special = pytest.importorskip("scipy.special")
    alpha, beta = tf.constant([0.4, 2.0, 30.0], tf.float64), tf.constant(2.0, tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([alpha, beta])
        x = tf.random.gamma([3], alpha, beta, dtype=tf.float64, seed=5)
    d_alpha, d_beta = tape.gradient(x, [alpha, beta])
    standard = x.numpy() * 2.0
    level = special.gammainc(alpha.numpy(), standard)
    h = 1e-6
    expected = (special.gammaincinv(alpha.numpy() + h, level)
                - special.gammaincinv(alpha.numpy() - h, level)) / (2 * h) / 2.0
    np.testing.assert_allclose(d_alpha.numpy(), expected.sum(axis=0), rtol=1e-5)
    np.testing.assert_allclose(float(d_beta), -(x.numpy() / 2.0).sum(), rtol=1e-12)
    with pytest.raises(LookupError, match="RandomGammaGrad"):
        with tf.GradientTape() as outer:
            outer.watch(alpha)
            with tf.GradientTape() as inner:
                inner.watch(alpha)
                y = tf.random.gamma([2], alpha, dtype=tf.float64, seed=1)
            g = inner.gradient(y, alpha)
        outer.gradient(g, alpha)


def test_gamma_and_poisson_of_invalid_parameters_return_at_once():
    # (TF's kernels never return for these)
    np.testing.assert_array_equal(tf.random.gamma([2], [np.inf, np.nan, -1.0], seed=1).numpy(),
                                  [[np.inf, np.nan, np.nan]] * 2)
    np.testing.assert_array_equal(tf.random.poisson([1], [np.inf, np.nan, -1.0], seed=1)
                                  .numpy(), [[np.inf, np.nan, 0.0]])


def test_poisson_shape_dtype_mean_and_no_gradient_rule():
    lam = tf.constant([1.0, 40.0])
    x = tf.random.poisson([3000], lam, seed=2)
    assert x.shape == [3000, 2] and x.dtype == tf.float32
    np.testing.assert_allclose(x.numpy().mean(axis=0), [1.0, 40.0], rtol=0.05)
    assert tf.random.poisson([2], [3.0], tf.int64, seed=1).dtype == tf.int64
    with tf.GradientTape() as tape:
        tape.watch(lam)
        y = tf.random.poisson([2], lam, seed=1)
    with pytest.raises(LookupError, match="RandomPoissonV2"):
        tape.gradient(y, lam)


def test_each_graph_op_has_its_own_seeded_stream():
    # TF 2.21: eager calls with one op seed share a kernel (each continues the stream);
    # each op of a tf.function's graph is its own kernel, starting the stream afresh and
    # continuing it on the function's next call.
    first = [0.95227146, 0.67740774, 0.79531825, 0.75578177]
    second = [0.06347668, 0.74225366, 0.37226737, 0.25665724]

    def draw(shape):
        return tf.random.uniform(shape, seed=42)
    eager = [draw([2, 2]).numpy().ravel() for _ in range(2)]
    f = tf.function(lambda t: draw(tf.shape(t)))
    g = tf.function(lambda t: draw([2, 2]))
    calls = [f(tf.zeros([2, 2])).numpy().ravel() for _ in range(2)]
    np.testing.assert_allclose(eager, [first, second], rtol=1e-6)
    np.testing.assert_allclose(calls, [first, second], rtol=1e-6)
    np.testing.assert_allclose(g(tf.zeros([2, 2])).numpy().ravel(), first, rtol=1e-6)
    # The graphs' draws leave the eager stream where it was: its third call.
    np.testing.assert_allclose(draw([2, 2]).numpy().ravel(),
                               [0.88570464, 0.954623, 0.67119, 0.3078066], rtol=1e-6)
