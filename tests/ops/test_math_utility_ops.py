"""tf.math's utilities (math_utility_ops): values, gradients through what they are composed
of, and errors (their values and errors against TF in tests/parity/test_special_parity.py)."""
import numpy as np
import pytest
from scipy.stats import qmc

import tapeflow as tf
from tapeflow.framework import errors

from .test_math_ops import grad


def test_invert_permutation():
    perm = np.random.default_rng(3).permutation(7)
    out = tf.math.invert_permutation(perm.astype(np.int64))
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy()[perm], np.arange(7))


@pytest.mark.parametrize("bad", [[1, 1, 2], [0, 3], [[0]], [-1, 0]])
def test_invert_permutation_rejects_what_is_not_one(bad):
    with pytest.raises(errors.InvalidArgumentError, match="permutation"):
        tf.math.invert_permutation(bad)


def test_polyval_is_horners_rule_and_differentiable():
    x = np.array([0.5, -1.0, 2.0])
    coeffs = [np.array(2.0), np.array(-1.0), np.array(3.0)]
    np.testing.assert_allclose(tf.math.polyval([tf.constant(c) for c in coeffs],
                                               tf.constant(x)).numpy(), np.polyval(coeffs, x))
    np.testing.assert_allclose(grad(lambda x: tf.math.polyval([2.0, -1.0, 3.0], x),
                                    x.astype(np.float32)).numpy(), 4 * x - 1, rtol=1e-6)
    assert tf.math.polyval([], tf.constant([1.0, 2.0])).numpy().tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="list"):
        tf.math.polyval((1.0,), tf.constant([1.0]))


def test_accumulate_n_sums_one_shape_and_dtype():
    a, b = tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]])
    assert tf.math.accumulate_n([a, b], shape=[1, 2], tensor_dtype=tf.float32).numpy().tolist() \
        == [[4.0, 6.0]]
    assert tf.math.accumulate_n([a]) is a
    for bad in ([], [a, tf.constant([1.0])], [a, tf.cast(a, tf.float64)], a):
        with pytest.raises(ValueError):
            tf.math.accumulate_n(bad)
    with pytest.raises(ValueError):
        tf.math.accumulate_n([a, b], shape=[3])
    with pytest.raises(TypeError):
        tf.math.accumulate_n([a, b], tensor_dtype=tf.float64)


def test_zero_fraction_and_monotonicity():
    assert tf.math.zero_fraction(tf.constant([[0, 1], [0, 0]])).numpy() == np.float32(0.75)
    assert tf.nn.zero_fraction(tf.constant([1.0])).dtype == tf.float32
    assert np.isnan(tf.math.zero_fraction(tf.zeros([0])).numpy())
    assert grad(tf.math.zero_fraction, np.array([0.0, 1.0])) is None
    assert bool(tf.math.is_non_decreasing([[1, 2], [2, 5]]))
    assert not bool(tf.math.is_strictly_increasing([1.0, 1.0]))
    assert bool(tf.math.is_strictly_increasing(7)) and bool(tf.math.is_non_decreasing([]))
    with pytest.raises(TypeError):
        tf.math.is_non_decreasing([True, False])


def test_approx_top_k_is_exact_along_any_axis_with_top_k_gradients():
    x = np.random.default_rng(5).standard_normal((4, 6)).astype(np.float32)
    values, indices = tf.math.approx_max_k(x, 2, reduction_dimension=0)
    np.testing.assert_array_equal(values.numpy(), -np.sort(-x, axis=0)[:2])
    np.testing.assert_array_equal(indices.numpy(), np.argsort(-x, axis=0)[:2])
    values, indices = tf.nn.approx_min_k(x, 3)
    np.testing.assert_array_equal(values.numpy(), np.sort(x, axis=1)[:, :3])
    assert indices.dtype == tf.int32
    g = grad(lambda v: tf.math.approx_min_k(v, 1)[0], x)
    np.testing.assert_array_equal(g.numpy(), (x == x.min(axis=1, keepdims=True)).astype(float))
    for bad in (x.astype(np.float64), x.astype(np.int32)):
        with pytest.raises(errors.InvalidArgumentError):
            tf.math.approx_max_k(bad, 1)
    with pytest.raises(errors.InvalidArgumentError):
        tf.math.approx_max_k(x, 7)


def test_sobol_sample_skips_the_origin_then_skip_points():
    engine = qmc.Sobol(5, scramble=False)
    engine.fast_forward(4)
    np.testing.assert_array_equal(tf.math.sobol_sample(5, 8, skip=3, dtype=tf.float64).numpy(),
                                  engine.random(8))
    assert tf.math.sobol_sample(2, 3).dtype == tf.float32
    for bad in (dict(dim=0, num_results=3), dict(dim=2, num_results=0),
                dict(dim=2, num_results=3, skip=-1), dict(dim=2, num_results=3,
                                                          dtype=tf.float16)):
        with pytest.raises(errors.InvalidArgumentError):
            tf.math.sobol_sample(**bad)
