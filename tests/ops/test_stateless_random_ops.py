"""tf.random's stateless ops: TF's values (recorded from TF 2.21), determinism, seeds,
dtypes, gradients, graphs and errors."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError, UnimplementedError

# Recorded from TensorFlow 2.21 on a CPU, seed [7, 8].
TF_VALUES = [
    (lambda: tf.random.stateless_uniform([4], [7, 8]),
     np.float32([0.041522622, 0.2827227, 0.4170071, 0.306239])),
    (lambda: tf.random.stateless_uniform([3], [7, 8], dtype=tf.float64),
     [0.33218130521983413, 0.33605759834170157, 0.9693234020558519]),
    (lambda: tf.random.stateless_uniform([4], [7, 8], dtype=tf.float16),
     np.float16([0.1533, 0.06445, 0.1221, 0.71])),
    (lambda: tf.random.stateless_normal([4], [7, 8]),
     np.float32([2.4693768, -0.51498795, 1.2408954, -0.4576931])),
    (lambda: tf.random.stateless_normal([3], [7, 8], dtype=tf.float64),
     [1.2728398046188851, -0.7642169521191732, 0.24944646609419516]),
    (lambda: tf.random.stateless_truncated_normal([5], [7, 8]),
     np.float32([-0.51498795, 1.2408954, -0.4576931, -0.058106463, -0.7452731])),
    (lambda: tf.random.stateless_uniform([4], [7, 8], -5, 5, tf.int32), [4, 3, 4, 0]),
    (lambda: tf.random.stateless_uniform([3], [7, 8], None, None, tf.int64),
     [6351254438543708317, -1249974470052585347, 4715617131889132121]),
    (lambda: tf.random.fold_in([1, 2], 5), [1105988140, 5]),
    (lambda: tf.random.split([1, 2], 3),
     [[1105988140, 1738052849], [-335576002, 370444179], [10670227, -246211131]]),
    (lambda: tf.random.stateless_categorical([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]], 7, [3, 4]),
     [[2, 2, 1, 2, 2, 2, 1], [0, 1, 0, 0, 1, 2, 0]]),
    (lambda: tf.random.experimental.index_shuffle(tf.range(10), [5, 8], 9),
     [3, 8, 0, 1, 2, 7, 6, 9, 4, 5]),
]


@pytest.mark.parametrize("draw,expected", TF_VALUES)
def test_values_are_tfs_bit_for_bit(draw, expected):
    got = draw().numpy()
    assert got.dtype == np.asarray(expected).dtype or got.dtype.kind == "i"
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("fn", [tf.random.stateless_uniform, tf.random.stateless_normal,
                                tf.random.stateless_truncated_normal])
def test_the_seed_alone_decides_in_eager_and_graph_mode(fn):
    a = fn([4, 3], seed=[1, 2])
    np.testing.assert_array_equal(fn([4, 3], seed=tf.constant([1, 2], tf.int64)).numpy(),
                                  a.numpy())
    assert not np.array_equal(fn([4, 3], seed=[1, 3]).numpy(), a.numpy())
    traced = tf.function(lambda s: fn([4, 3], s))
    np.testing.assert_array_equal(traced(tf.constant([1, 2])).numpy(), a.numpy())
    np.testing.assert_array_equal(fn([4, 3], [1, 2], alg="philox").numpy(), a.numpy())


def test_a_shape_the_graph_computes():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def like(x):
        return tf.random.stateless_normal(tf.shape(x), [1, 2])
    np.testing.assert_array_equal(like(tf.zeros([5])).numpy(),
                                  tf.random.stateless_normal([5], [1, 2]).numpy())


def test_uniform_bounds_dtypes_and_moments_gradients():
    wide = tf.random.stateless_uniform([1000], [5, 0], minval=2.0, maxval=4.0, dtype=tf.float64)
    assert wide.dtype == tf.float64 and 2 <= wide.numpy().min() and wide.numpy().max() < 4
    ints = tf.random.stateless_uniform([1000], [5, 0], -2, 3, tf.int64)
    assert ints.dtype == tf.int64 and set(ints.numpy().tolist()) == {-2, -1, 0, 1, 2}
    mean, stddev = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([mean, stddev])
        y = tf.reduce_sum(tf.random.stateless_truncated_normal([5], [3, 4], mean, stddev))
    d_mean, d_stddev = tape.gradient(y, [mean, stddev])
    assert float(d_mean) == 5.0
    np.testing.assert_allclose(float(d_stddev), tf.random.stateless_truncated_normal(
        [5], [3, 4]).numpy().sum(), rtol=1e-6)


@pytest.mark.parametrize("call,error", [
    (lambda: tf.random.stateless_uniform([2], [1, 2, 3]), InvalidArgumentError),
    (lambda: tf.random.stateless_uniform([2], [1.0, 2.0]), InvalidArgumentError),
    (lambda: tf.random.stateless_uniform([2], [1, 2], dtype=tf.int32), ValueError),
    (lambda: tf.random.stateless_uniform([2], [1, 2], dtype=tf.bool), ValueError),
    (lambda: tf.random.stateless_uniform([2], [1, 2], 5, 5, tf.int32), InvalidArgumentError),
    (lambda: tf.random.stateless_uniform([2], [1, 2], alg="threefry"), UnimplementedError),
    (lambda: tf.random.stateless_uniform([2], [1, 2], alg="nope"), ValueError),
    (lambda: tf.random.stateless_uniform([2], [1, 2], alg=1.5), TypeError),
    (lambda: tf.random.stateless_normal([2], [1, 2], dtype=tf.int32), TypeError),
    (lambda: tf.random.stateless_normal([-1], [1, 2]), InvalidArgumentError),
    (lambda: tf.random.stateless_categorical([0.0, 1.0], 2, [1, 2]), InvalidArgumentError),
    (lambda: tf.random.stateless_poisson([2], [1, 2], [1.0, 2.0, 3.0]), InvalidArgumentError),
    (lambda: tf.random.stateless_binomial([3], [1, 2], [5.0], [0.5]), InvalidArgumentError),
    (lambda: tf.random.stateless_gamma([2], [1, 2], 1.0, dtype=tf.int32), TypeError),
    (lambda: tf.random.stateless_parameterized_truncated_normal(
        [2], [1, 2], 0.0, tf.constant(1.0, tf.float64)), InvalidArgumentError),
    (lambda: tf.random.experimental.index_shuffle(3, [1, 2, 3], 10), InvalidArgumentError),
    (lambda: tf.random_index_shuffle(3, [1, 2, 3], 10, rounds=3), InvalidArgumentError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_stateless_shuffle_permutes_rows_and_has_no_gradient_rule():
    x = tf.constant(np.arange(12.0).reshape(6, 2))
    y = tf.random.experimental.stateless_shuffle(x, [1, 2])
    assert sorted(map(tuple, y.numpy())) == sorted(map(tuple, x.numpy()))
    np.testing.assert_array_equal(y.numpy(), tf.random.experimental.stateless_shuffle(
        x, [1, 2]).numpy())
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.random.experimental.stateless_shuffle(x, [1, 2])
    with pytest.raises(LookupError, match="StatelessShuffle"):
        tape.gradient(y, x)


def test_binomial_poisson_and_categorical_statistics():
    counts, probs = tf.constant([10.0, 40.0]), tf.constant([0.3, 0.9])
    b = tf.random.stateless_binomial([5000, 2], [1, 2], counts, probs, tf.int64)
    assert b.dtype == tf.int64
    np.testing.assert_allclose(b.numpy().mean(axis=0), [3.0, 36.0], rtol=0.03)
    p = tf.random.stateless_poisson([5000, 2], [3, 4], [2.0, 50.0], tf.float64)
    assert p.dtype == tf.float64
    np.testing.assert_allclose(p.numpy().mean(axis=0), [2.0, 50.0], rtol=0.03)
    c = tf.random.stateless_categorical([[np.log(0.2), np.log(0.8)], [0.0, -np.inf]], 4000,
                                        [5, 6], tf.int32)
    assert c.dtype == tf.int32 and abs(c.numpy()[0].mean() - 0.8) < 0.03
    assert (c.numpy()[1] == 0).all()


def test_gamma_moments_and_gradients():
    special = pytest.importorskip("scipy.special")
    alpha = tf.constant([0.5, 4.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(alpha)
        x = tf.random.stateless_gamma([3000, 2], [1, 2], alpha, 2.0, dtype=tf.float64)
    np.testing.assert_allclose(x.numpy().mean(axis=0), [0.25, 2.0], rtol=0.06)
    with tf.GradientTape() as tape:
        tape.watch(alpha)
        x = tf.random.stateless_gamma([5, 2], [1, 2], alpha, 2.0, dtype=tf.float64)
    level = special.gammainc(alpha.numpy(), x.numpy() * 2)
    h = 1e-6
    moved = (special.gammaincinv(alpha.numpy() + h, level)
             - special.gammaincinv(alpha.numpy() - h, level)) / (2 * h * 2)
    np.testing.assert_allclose(tape.gradient(x, alpha).numpy(), moved.sum(axis=0), rtol=1e-5)


def test_parameterized_truncated_normal_bounds_and_moments():
    x = tf.random.stateless_parameterized_truncated_normal([4000, 2], [1, 2], [0.0, 5.0],
                                                           [1.0, 2.0], [-1.0, 6.0],
                                                           [3.0, 9.0]).numpy()
    assert (x[:, 0] >= -1).all() and (x[:, 0] <= 3).all()
    assert (x[:, 1] >= 6).all() and (x[:, 1] <= 9).all()
    assert abs(x[:, 0].mean() - 0.283) < 0.05


@pytest.mark.parametrize("draw,expected", [  # TF 2.21's values, seed [1, 2]
    (lambda: tf.random.stateless_uniform([3], [1, 2], dtype=tf.bfloat16), [0.34375, 0.882812, 0.484375]),
    (lambda: tf.random.stateless_uniform([3], [1, 2], minval=tf.constant(-1.0, tf.bfloat16),
                                         maxval=tf.constant(2.0, tf.bfloat16), dtype=tf.bfloat16),
     [0.03125, 1.65625, 0.453125]),
    (lambda: tf.random.stateless_normal([3], [1, 2], dtype=tf.bfloat16), [0.542969, 0.207031, 0.0737305]),
    (lambda: tf.random.stateless_truncated_normal([3], [1, 2], dtype=tf.bfloat16),
     [0.542969, 0.207031, 0.0737305]),
])
def test_bfloat16_draws(draw, expected):
    pytest.importorskip("ml_dtypes")
    x = draw()
    assert x.dtype == tf.bfloat16
    np.testing.assert_allclose(tf.cast(x, tf.float32).numpy(), expected, rtol=1e-5)


def test_stateless_and_general_dropout():
    x = tf.ones([2, 4])  # TF 2.21's masks for seed [1, 2]
    assert tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]).numpy().tolist() == \
        [[2, 0, 2, 0], [0, 2, 0, 0]]
    assert tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2], noise_shape=[2, 1]) \
        .numpy().tolist() == [[2, 2, 2, 2], [0, 0, 0, 0]]
    with pytest.raises(ValueError, match=r"range \[0, 1\)"):
        tf.nn.experimental.stateless_dropout(x, 1.0, seed=[1, 2])
    half = tf.nn.experimental.general_dropout(
        x, 0.5, lambda shape, dtype: tf.fill(shape, tf.constant(0.25, dtype)))
    assert half.numpy().tolist() == [[0] * 4] * 2


def test_dropout_noise_shape_known_when_the_graph_runs():
    @tf.function(input_signature=[tf.TensorSpec([None, 4])])
    def f(x):
        return tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2], noise_shape=tf.shape(x))

    assert f(tf.ones([2, 4])).numpy().tolist() == [[2, 0, 2, 0], [0, 2, 0, 0]]
