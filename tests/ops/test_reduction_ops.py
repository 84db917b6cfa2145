"""Reductions and scans: values against NumPy, dtypes, TF's tie rule, errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import special

import tapeflow as tf
from tapeflow.framework import errors

from .test_math_ops import grad

REDUCTIONS = [(tf.reduce_prod, np.prod), (tf.reduce_max, np.max), (tf.reduce_min, np.min),
              (tf.reduce_logsumexp, special.logsumexp), (tf.reduce_sum, np.sum),
              (tf.reduce_mean, np.mean), (tf.math.reduce_variance, np.var),
              (tf.math.reduce_std, np.std)]


@settings(max_examples=60, deadline=None)
@given(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4), st.data(),
       st.sampled_from(REDUCTIONS), st.booleans())
def test_reductions_match_numpy_over_any_axes(shape, data, pair, keepdims):
    fn, ref = pair
    ndim = len(shape)
    axes = data.draw(st.lists(st.integers(-ndim, ndim - 1), unique_by=lambda a: a % ndim,
                              max_size=ndim) if ndim else st.just([]))
    x = np.random.default_rng(0).uniform(0.5, 1.5, shape)
    out = fn(tf.constant(x), axis=axes, keepdims=keepdims)
    np.testing.assert_allclose(out.numpy(), ref(x, axis=tuple(axes), keepdims=keepdims),
                               rtol=1e-12)


@pytest.mark.parametrize("fn,ref", [(tf.reduce_prod, np.prod), (tf.reduce_max, np.max),
                                    (tf.reduce_min, np.min), (tf.reduce_sum, np.sum)])
def test_integer_reductions_keep_their_dtype(fn, ref):
    x = np.array([[3, -1, 4], [1, 5, -9]], np.int32)
    out = fn(tf.constant(x), axis=1)
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), ref(x, axis=1))


def test_float16_reductions_and_scans():
    x = np.array([[0.5, 1.0, 2.0], [1.5, -1.0, 0.25]], np.float16)
    for fn, ref in [(tf.reduce_logsumexp, special.logsumexp), (tf.reduce_prod, np.prod),
                    (tf.math.cumsum, np.cumsum), (tf.math.cumprod, np.cumprod)]:
        out = fn(tf.constant(x), axis=1)
        assert out.dtype == tf.float16
        np.testing.assert_allclose(out.numpy(), ref(x.astype(np.float64), axis=1), rtol=2e-3)


def test_reduce_max_and_min_split_the_gradient_among_ties():
    x = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
    g = grad(lambda x: tf.reduce_max(x, axis=1), x)
    np.testing.assert_allclose(g.numpy(), [[0.0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])
    g = grad(lambda x: tf.reduce_min(x, axis=0, keepdims=True), x)
    np.testing.assert_allclose(g.numpy(), [[1.0, 0.0, 0.0], [0.0, 1.0, 1.0]])
    g = grad(tf.reduce_max, x)
    np.testing.assert_allclose(g.numpy(), [[0.0, 0.5, 0.5], [0.0, 0.0, 0.0]])


def test_empty_reductions_give_the_identity():
    empty = tf.constant(np.zeros((0, 2)))
    np.testing.assert_array_equal(tf.reduce_max(empty, axis=0).numpy(), [-np.inf, -np.inf])
    np.testing.assert_array_equal(tf.reduce_min(empty, axis=0).numpy(), [np.inf, np.inf])
    np.testing.assert_array_equal(tf.reduce_prod(empty, axis=0).numpy(), [1.0, 1.0])
    assert int(tf.reduce_max(tf.constant(np.zeros(0, np.int32)))) == np.iinfo(np.int32).min
    np.testing.assert_array_equal(tf.reduce_logsumexp(empty, axis=0).numpy(), [-np.inf, -np.inf])


def test_reduce_prod_gradient_with_zeros():
    g = grad(lambda x: tf.reduce_prod(x, axis=1), np.array([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0]]))
    np.testing.assert_array_equal(g.numpy(), [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0]])


def test_reduce_logsumexp_is_stable():
    x = np.array([[1000.0, 1000.0], [-1000.0, -1000.0], [-np.inf, -np.inf], [np.inf, 1.0]])
    out = tf.reduce_logsumexp(tf.constant(x), axis=1).numpy()
    np.testing.assert_allclose(out[:2], [1000 + np.log(2), -1000 + np.log(2)])
    assert out[2] == -np.inf and out[3] == np.inf
    g = grad(lambda x: tf.reduce_logsumexp(x, axis=1), np.array([[1000.0, 1000.0, 999.0]]))
    np.testing.assert_allclose(g.numpy(), special.softmax([[1000.0, 1000.0, 999.0]], axis=1))


def test_bool_reductions():
    x = tf.constant([[True, False], [True, True]])
    np.testing.assert_array_equal(tf.reduce_all(x, axis=1).numpy(), [False, True])
    np.testing.assert_array_equal(tf.reduce_any(x, axis=0).numpy(), [True, True])
    assert bool(tf.reduce_any(x)) and not bool(tf.reduce_all(x))
    assert tf.reduce_all(x, keepdims=True).shape == (1, 1)
    with pytest.raises(errors.InvalidArgumentError, match="All.*float32"):
        tf.reduce_all(tf.constant([1.0]))
    with pytest.raises(errors.InvalidArgumentError, match="Any.*int32"):
        tf.reduce_any(tf.constant([1]))


def test_argmax_argmin():
    x = tf.constant([[1.0, 5.0, 5.0], [7.0, 2.0, 7.0]])
    out = tf.argmax(x, axis=1)
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [1, 0])  # the first of tied maxima
    np.testing.assert_array_equal(tf.argmax(x).numpy(), [1, 0, 1])  # axis None means 0
    out = tf.math.argmin(x, axis=-1, output_type=tf.int32)
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), [0, 1])
    np.testing.assert_array_equal(tf.argmax(tf.constant([False, True])).numpy(), 1)
    assert grad(lambda x: tf.cast(tf.argmax(x), tf.float64) * x, np.array([1.0, 2.0])) is not None
    with pytest.raises(errors.InvalidArgumentError, match="output_type"):
        tf.argmax(x, output_type=tf.float32)
    with pytest.raises(errors.InvalidArgumentError, match="ArgMax"):
        tf.argmax(x, axis=2)
    with pytest.raises(errors.InvalidArgumentError):
        tf.argmax(tf.constant(np.zeros((0, 2))), axis=0)


def test_argmax_has_no_gradient():
    x = tf.constant([1.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        i = tf.argmax(x)
    assert tape.gradient(i, x) is None


def test_count_nonzero():
    x = tf.constant([[0.0, 1.5, -2.0], [0.0, 0.0, 3.0]])
    out = tf.math.count_nonzero(x)
    assert out.dtype == tf.int64 and int(out) == 3
    np.testing.assert_array_equal(tf.math.count_nonzero(x, axis=1, keepdims=True).numpy(),
                                  [[2], [1]])
    assert tf.math.count_nonzero(x, dtype=tf.int32).dtype == tf.int32
    assert int(tf.math.count_nonzero(tf.constant([True, False, True]))) == 2


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumsum_cumprod_match_numpy(exclusive, reverse, axis):
    x = np.arange(1, 7, dtype=np.int32).reshape(2, 3)

    def ref(ufunc, identity):
        y = np.flip(x, axis) if reverse else x
        out = ufunc.accumulate(y, axis=axis)
        if exclusive:
            out = np.concatenate([np.full_like(np.take(out, [0], axis), identity),
                                  np.delete(out, -1, axis)], axis)
        return np.flip(out, axis) if reverse else out

    for fn, ufunc, identity in [(tf.math.cumsum, np.add, 0), (tf.math.cumprod, np.multiply, 1)]:
        out = fn(tf.constant(x), axis=axis, exclusive=exclusive, reverse=reverse)
        assert out.dtype == tf.int32
        np.testing.assert_array_equal(out.numpy(), ref(ufunc, identity))


def test_cumsum_gradient():
    g = grad(lambda x: tf.math.cumsum(x, exclusive=True) * np.array([1.0, 2.0, 3.0]),
             np.array([0.5, 0.5, 0.5]))
    np.testing.assert_allclose(g.numpy(), [5.0, 3.0, 0.0])


def test_argmax_and_argmin_pass_over_nan():
    # TF's kernels compare, so nan never wins; NumPy's would return its index.
    x = tf.constant([1.0, np.nan, -2.0])
    assert int(tf.argmax(x)) == 0 and int(tf.argmin(x)) == 2
    assert int(tf.argmax([np.nan, -np.inf])) == 0


def test_cumprod_gradient_at_zeros_is_the_product_of_the_others():
    # d/dx1 of sum(cumprod([2, x1, 3])) at x1 = 0 is 2 + 2 * 3 = 8 (TF 2.21 says 0, a bug
    # fixed upstream; its division by x gives nan or 0 there).
    g = grad(tf.math.cumprod, np.array([2.0, 0.0, 3.0]))
    np.testing.assert_array_equal(g.numpy(), [1.0, 8.0, 0.0])
    g = grad(lambda x: tf.math.cumprod(x, reverse=True), np.array([2.0, 0.0, 3.0, 0.0]))
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0, 0.0, 1.0 + 3.0])


def test_reduction_errors():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(errors.InvalidArgumentError, match="Max.*dimension 2"):
        tf.reduce_max(x, axis=2)
    with pytest.raises(errors.InvalidArgumentError, match="Prod.*-3"):
        tf.reduce_prod(x, axis=[-3])
    with pytest.raises(errors.InvalidArgumentError):
        tf.reduce_min(x, axis=[0, 0])
    with pytest.raises(errors.InvalidArgumentError, match="Max.*complex"):
        tf.reduce_max(tf.constant([1j]))
    with pytest.raises(errors.InvalidArgumentError, match="Sum.*bool"):
        tf.reduce_sum(tf.constant([True]))
    with pytest.raises(TypeError, match="reduce_variance.*int32"):
        tf.math.reduce_variance(tf.constant([1, 2]))
    with pytest.raises(errors.InvalidArgumentError, match="reduce_std"):  # as TF: Mean's error
        tf.math.reduce_std(tf.constant([True]))
    with pytest.raises(errors.InvalidArgumentError, match="Cumsum"):
        tf.math.cumsum(x, axis=[0, 1])
    with pytest.raises(errors.InvalidArgumentError, match="Cumprod"):
        tf.math.cumprod(x, axis=5)
    with pytest.raises(errors.InvalidArgumentError, match="ReduceLogSumExp"):
        tf.reduce_logsumexp(tf.constant([1, 2]))


def test_complex_variance_is_real():
    z = tf.constant([1 + 1j, -1 - 1j])
    out = tf.math.reduce_variance(z)
    assert out.dtype == tf.float64 and float(out) == pytest.approx(2.0)


@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, True), (1, False), ([0, 1], True),
                                           (-1, False)])
def test_reduce_euclidean_norm_matches_numpy(axis, keepdims):
    x = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.5]])
    out = tf.math.reduce_euclidean_norm(tf.constant(x), axis, keepdims)
    expected = np.sqrt(np.sum(x * x, axis=None if axis is None else tuple(np.atleast_1d(axis)),
                              keepdims=keepdims))
    assert out.shape == np.shape(expected)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


def test_reduce_euclidean_norm_dtypes_gradient_and_errors():
    ints = tf.math.reduce_euclidean_norm(tf.constant([[3, 4], [5, 12], [1, 1]]), axis=1)
    assert ints.dtype == tf.int32
    np.testing.assert_array_equal(ints.numpy(), [5, 13, 1])  # sqrt(2) truncates, as in TF
    z = tf.math.reduce_euclidean_norm(tf.constant([3 + 4j]))
    assert z.dtype == tf.complex128 and complex(z) == 5.0
    with np.errstate(divide="ignore", invalid="ignore"):
        g = grad(lambda x: tf.math.reduce_euclidean_norm(x, 1),
                 np.array([[3.0, 4.0], [0.0, 0.0]]))
    np.testing.assert_allclose(g.numpy()[0], [0.6, 0.8])
    assert np.all(np.isnan(g.numpy()[1]))  # 0 / 0 at a zero norm, as in TF
    with pytest.raises(errors.InvalidArgumentError, match="EuclideanNorm.*bool"):
        tf.math.reduce_euclidean_norm(tf.constant([True]))
    with pytest.raises(errors.InvalidArgumentError, match="dimension 3"):
        tf.math.reduce_euclidean_norm(tf.constant([1.0]), axis=3)


@pytest.mark.parametrize("axis", [-1, 2, [0, 1], [1, 0], [0], [0, 1, 2], [1, 2]])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_and_mean_of_many_short_rows_and_of_leading_axes(axis, layout, keepdims):
    # Large float arrays take a product with ones for these axes (a transposed view's
    # leading axes in memory order): the same values as NumPy's reduction.
    base = np.random.default_rng(0).standard_normal((40, 30, 64)).astype(np.float32)
    x = base if layout == "contiguous" else base.transpose(1, 0, 2)
    for reduce, numpy in ((tf.reduce_sum, np.sum), (tf.reduce_mean, np.mean)):
        got = reduce(tf.constant(x), axis=axis, keepdims=keepdims).numpy()
        want = numpy(x.astype(np.float64), axis=tuple(np.atleast_1d(axis)), keepdims=keepdims)
        assert got.dtype == np.float32 and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-4)


def test_python_bool_axes_count_as_integers():
    # TF converts an axis given as Python data to int32, and a Python bool is an int:
    # TF 2.21 gives these shapes; a NumPy bool array stays bool and is refused.
    x = tf.reshape(tf.range(24.), [2, 3, 4])
    mean, var = tf.nn.moments(x, [True], keepdims=True)
    assert mean.shape == (2, 1, 4) and var.shape == (2, 1, 4)
    np.testing.assert_allclose(mean.numpy()[0, 0], [4., 5., 6., 7.])
    assert tf.reduce_mean(x, True).shape == (2, 4)
    assert tf.reduce_sum(x, axis=[False]).shape == (3, 4)
    assert tf.reduce_sum(x, axis=(True,)).shape == (2, 4)
    assert tf.concat([x, x], True).shape == (2, 6, 4)
    assert tf.argmax(x, True).shape == (2, 4)
    assert tf.expand_dims(x, True).shape == (2, 1, 3, 4)
    assert tf.squeeze(tf.ones([1, 1, 2]), [True]).shape == (1, 2)
    assert tf.zeros([True, True]).shape == (1, 1)
    with pytest.raises(TypeError):
        tf.reduce_max(x, 1.0)
    with pytest.raises((TypeError, errors.InvalidArgumentError)):
        tf.reduce_sum(x, axis=np.array([True]))
    with pytest.raises((TypeError, errors.InvalidArgumentError)):
        tf.reduce_sum(x, axis=tf.constant([True]))
