"""tf.math's special functions (special_fn_ops) and cumulative_logsumexp: values against SciPy,
TF's gradient conventions at the edges, dtypes and errors (their gradients are rows of the op
table, their values and errors against TF in tests/parity/test_special_parity.py)."""
import subprocess
import sys

import numpy as np
import pytest
from scipy import special

import tapeflow as tf
from tapeflow.framework import errors
from tapeflow.ops import special_ops

from .test_math_ops import grad

X = np.array([-2.5, -0.7, 0.3, 1.9])
POS = np.array([0.2, 0.9, 2.5, 7.0])
UNIT = np.array([0.05, 0.3, 0.6, 0.95])


@pytest.mark.parametrize("fn,reference,x", [
    (tf.math.erfinv, special.erfinv, UNIT), (tf.math.ndtri, special.ndtri, UNIT),
    (tf.math.erfcinv, special.erfcinv, 2 * UNIT), (tf.math.rint, np.rint, X),
    (tf.math.bessel_i0, special.i0, X), (tf.math.bessel_i0e, special.i0e, X),
    (tf.math.bessel_i1, special.i1, X), (tf.math.bessel_i1e, special.i1e, X),
    (tf.math.special.bessel_j0, special.j0, X), (tf.math.special.bessel_j1, special.j1, X),
    (tf.math.special.bessel_y0, special.y0, POS), (tf.math.special.bessel_y1, special.y1, POS),
    (tf.math.special.bessel_k0, special.k0, POS), (tf.math.special.bessel_k0e, special.k0e, POS),
    (tf.math.special.bessel_k1, special.k1, POS), (tf.math.special.bessel_k1e, special.k1e, POS),
    (tf.math.special.dawsn, special.dawsn, X), (tf.math.special.expint, special.expi, POS),
    (tf.math.special.fresnel_cos, lambda x: special.fresnel(x)[1], X),
    (tf.math.special.fresnel_sin, lambda x: special.fresnel(x)[0], X),
    (tf.math.special.spence, special.spence, POS),
    (tf.math.reciprocal_no_nan, lambda x: 1 / x, X),
    (lambda x: tf.math.lbeta(x[None]), lambda x: special.gammaln(x).sum()
     - special.gammaln(x.sum()), POS),
])
def test_unary_values_match_scipy(fn, reference, x):
    np.testing.assert_allclose(np.ravel(fn(tf.constant(x)).numpy()), np.ravel(reference(x)),
                               rtol=1e-12)


@pytest.mark.parametrize("fn,reference", [
    (tf.math.xlogy, lambda x, y: x * np.log(y)), (tf.math.xlog1py, lambda x, y: x * np.log1p(y)),
    (tf.math.xdivy, lambda x, y: x / y), (tf.math.multiply_no_nan, np.multiply),
    (tf.math.igamma, special.gammainc), (tf.math.igammac, special.gammaincc),
    (tf.math.zeta, special.zeta), (tf.math.nextafter, np.nextafter),
])
def test_binary_values_match_scipy(fn, reference):
    a, b = POS + 1.0, POS[::-1]
    np.testing.assert_allclose(fn(tf.constant(a), tf.constant(b)).numpy(), reference(a, b),
                               rtol=1e-12)


def test_zero_safe_products_are_zero_where_tf_says():
    nan = np.nan
    assert tf.math.xlogy([0.0, 0.0], [0.0, nan]).numpy().tolist() == [0.0, 0.0]
    assert tf.math.xdivy([0.0, 0.0], [0.0, nan]).numpy().tolist() == [0.0, 0.0]
    assert tf.math.xlog1py([0.0], [-1.0]).numpy().tolist() == [0.0]
    assert tf.math.multiply_no_nan([np.inf, nan], [0.0, 0.0]).numpy().tolist() == [0.0, 0.0]
    assert tf.math.reciprocal_no_nan([0.0, 4.0]).numpy().tolist() == [0.0, 0.25]


def test_zero_safe_gradients_are_tfs_at_zero():
    gx, gy = grad(tf.math.xlogy, np.array([0.0, 2.0]), np.array([0.0, 4.0]))
    np.testing.assert_allclose(gx.numpy(), [0.0, np.log(4.0)])
    np.testing.assert_allclose(gy.numpy(), [0.0, 0.5])
    gx, gy = grad(tf.math.multiply_no_nan, np.array([np.inf, 3.0]), np.array([0.0, 2.0]))
    np.testing.assert_allclose(gx.numpy(), [0.0, 2.0])
    np.testing.assert_allclose(gy.numpy(), [np.inf, 3.0])


def test_slopes_take_their_limits_where_the_formula_is_zero_over_zero():
    zero = np.zeros(1)
    assert grad(tf.math.bessel_i1, zero).numpy().tolist() == [1.0]
    assert grad(tf.math.bessel_i1e, zero).numpy().tolist() == [0.5]
    assert grad(tf.math.special.bessel_j1, zero).numpy().tolist() == [0.5]
    assert grad(tf.math.special.spence, np.ones(1)).numpy().tolist() == [-1.0]


def test_gradients_tf_leaves_out_are_none_or_missing():
    a, b, x = np.array([2.0]), np.array([3.0]), np.array([0.4])
    ga, gb, gx = grad(tf.math.betainc, a, b, x)
    assert ga is None and gb is None
    np.testing.assert_allclose(gx.numpy(), x ** (a - 1) * (1 - x) ** (b - 1) / special.beta(a, b))
    gx, gq = grad(tf.math.zeta, np.array([3.0]), np.array([2.0]))
    assert gx is None
    np.testing.assert_allclose(gq.numpy(), -3.0 * special.zeta(4.0, 2.0))
    assert grad(tf.math.rint, X) is None
    g1, g2 = grad(tf.math.nextafter, X, POS)
    assert g1.numpy().tolist() == [1.0] * 4 and g2.numpy().tolist() == [0.0] * 4


def test_igamma_gradient_in_a_has_no_derivative_of_its_own():
    a, x = tf.constant([1.5, 3.0], tf.float64), tf.constant([0.7, 2.0], tf.float64)
    h = 1e-6
    slope = (special.gammainc(a.numpy() + h, x.numpy())
             - special.gammainc(a.numpy() - h, x.numpy())) / (2 * h)
    with tf.GradientTape() as outer:
        outer.watch(a)
        with tf.GradientTape() as inner:
            inner.watch(a)
            y = tf.math.igamma(a, x)
        da = inner.gradient(y, a)
    np.testing.assert_allclose(da.numpy(), slope, rtol=1e-7)
    np.testing.assert_allclose(grad(tf.math.igammac, a.numpy(), x.numpy())[0].numpy(), -slope,
                               rtol=1e-7)
    with pytest.raises(LookupError, match="IgammaGradA"):
        outer.gradient(da, a)


def test_igamma_gradient_in_a_keeps_its_precision_far_in_the_tail():
    # At a = 1, dP/da = -(exp(-x) (log x + Euler's gamma) + E1(x)).
    x = np.array([0.3, 2.0, 30.0, 300.0])
    exact = -(np.exp(-x) * (np.log(x) + np.euler_gamma) + special.exp1(x))
    da, dx = grad(tf.math.igamma, np.ones(4), x)
    np.testing.assert_allclose(da.numpy(), exact, rtol=1e-12)
    np.testing.assert_allclose(dx.numpy(), np.exp(-x), rtol=1e-12)


def test_igamma_domain_is_tfs():
    out = tf.math.igamma([0.0, 1.0, -1.0, 2.0, 0.0], [1.0, 0.0, 1.0, -1.0, 0.0]).numpy()
    np.testing.assert_array_equal(out, [np.nan, 0.0, np.nan, np.nan, 0.0])
    assert np.isnan(tf.math.igammac([0.0], [1.0]).numpy()).all()
    below = tf.math.special.bessel_y0([-1.0]), tf.math.special.bessel_k1([-1.0])
    assert below[0].numpy()[0] == -np.inf and below[1].numpy()[0] == np.inf
    assert np.isnan(tf.math.special.expint([-1.0]).numpy()).all()


def test_cumulative_logsumexp():
    x = np.array([[0.5, -1.0, 2.0], [1.0, 3.0, -2.0]])
    expected = np.log(np.cumsum(np.exp(x), axis=1))
    np.testing.assert_allclose(tf.math.cumulative_logsumexp(x, axis=1).numpy(), expected)
    exclusive = tf.math.cumulative_logsumexp(x, axis=1, exclusive=True, reverse=True).numpy()
    np.testing.assert_allclose(exclusive[:, :-1],
                               np.log(np.cumsum(np.exp(x[:, ::-1]), axis=1))[:, ::-1][:, 1:])
    assert (exclusive[:, -1] == -np.inf).all()
    big = tf.math.cumulative_logsumexp(tf.constant([1000.0, 1000.0])).numpy()
    np.testing.assert_allclose(big, [1000.0, 1000.0 + np.log(2.0)])
    with pytest.raises(errors.InvalidArgumentError):
        tf.math.cumulative_logsumexp(tf.constant([1, 2]))
    with pytest.raises(errors.InvalidArgumentError):
        tf.math.cumulative_logsumexp(x, axis=2)


@pytest.mark.parametrize("call,error", [
    (lambda: tf.math.erfinv(tf.ones([2], tf.float16)), errors.NotFoundError),
    (lambda: tf.math.special.spence(tf.ones([2], tf.float16)), errors.NotFoundError),
    (lambda: tf.math.igamma(tf.ones([2], tf.float16), tf.ones([2], tf.float16)),
     errors.NotFoundError),
    (lambda: tf.math.zeta(tf.ones([2], tf.float16), tf.ones([2], tf.float16)),
     errors.InvalidArgumentError),
    (lambda: tf.math.erfinv(tf.constant([1, 2])), errors.InvalidArgumentError),
    (lambda: tf.math.erfcinv(tf.constant([1, 2])), TypeError),
    (lambda: tf.math.xlogy(tf.constant([1]), tf.constant([2])), errors.InvalidArgumentError),
    (lambda: tf.math.xlogy(tf.constant([1.0]), tf.constant([2.0], tf.float64)),
     errors.InvalidArgumentError),
    (lambda: tf.math.reciprocal_no_nan(tf.constant([1])), errors.InvalidArgumentError),
    (lambda: tf.math.betainc(1.0, [1.0, 2.0], [0.5, 0.5, 0.5]), errors.InvalidArgumentError),
    (lambda: tf.math.lbeta(2.0), errors.InvalidArgumentError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_dtypes_follow_the_input():
    assert tf.math.bessel_i0(tf.ones([2], tf.float16)).dtype == tf.float16
    assert tf.math.xlogy(tf.ones([2], tf.complex64), tf.ones([2], tf.complex64)).dtype == \
        tf.complex64
    assert tf.math.nextafter([1.0], [2.0]).dtype == tf.float32
    assert tf.math.nextafter(np.ones(1), np.ones(1)).dtype == tf.float32


def test_scipy_loads_on_first_use_only_and_its_absence_names_the_extra(monkeypatch):
    code = "import sys, tapeflow; print('scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    with pytest.raises(ImportError, match=r"tapeflow\[test\]"):
        special_ops.scipy_module("stats")
