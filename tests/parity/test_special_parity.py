"""tf.math's special functions and utilities, tf.math.special and tf.signal's n-D transforms,
MDCT and windows: values, dtypes, shapes and error classes, each case written once against a
module `tf` and run with tapeflow and with TensorFlow (their gradients are rows of the op
table, checked against TF by test_op_table_parity.py)."""
import numpy as np
import pytest

import tapeflow

from .test_dtype_parity import _output_dtype

pytestmark = pytest.mark.parity

_RNG = np.random.default_rng(11)
X = _RNG.standard_normal((3, 5))
POS = _RNG.uniform(0.1, 4.0, (3, 5))
UNIT = _RNG.uniform(0.02, 0.98, (3, 5))
Z = _RNG.standard_normal((2, 3, 4)) + 1j * _RNG.standard_normal((2, 3, 4))
SIGNAL = _RNG.standard_normal((2, 40)).astype(np.float32)
DTYPES = ["int32", "float16", "float32", "float64", "complex64"]
UNARY = """math.erfinv math.erfcinv math.ndtri math.rint math.bessel_i0 math.bessel_i0e
math.bessel_i1 math.bessel_i1e math.special.bessel_j0 math.special.bessel_j1
math.special.bessel_y0 math.special.bessel_y1 math.special.bessel_k0 math.special.bessel_k0e
math.special.bessel_k1 math.special.bessel_k1e math.special.dawsn math.special.expint
math.special.fresnel_cos math.special.fresnel_sin math.special.spence math.reciprocal_no_nan
math.lbeta math.zero_fraction math.is_non_decreasing math.is_strictly_increasing
math.cumulative_logsumexp""".split()
BINARY = """math.xlogy math.xlog1py math.xdivy math.multiply_no_nan math.igamma math.igammac
math.zeta math.nextafter""".split()


def raised(fn, *args, **kwargs):
    """The class name of what `fn` raises, or its result."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return ("raised", type(e).__name__)


def _function(tf, name):
    fn = tf
    for part in name.split("."):
        fn = getattr(fn, part)
    return fn


CASES = {
    "unary values": lambda tf: [_function(tf, n)(x) for n in UNARY
                                for x in (X, POS, UNIT, X.astype(np.float32))],
    "binary values": lambda tf: [_function(tf, n)(a, b) for n in BINARY
                                 for a, b in ((X, POS), (POS, X), (POS, UNIT + 1.5),
                                              (X.astype(np.float32), POS.astype(np.float32)))],
    "edge values": lambda tf: [
        tf.math.xlogy([0.0, 0.0, 1.0], [0.0, np.nan, 0.0]),
        tf.math.xlog1py([0.0, 0.0, 1.0], [-1.0, np.nan, -1.0]),
        tf.math.xdivy([0.0, 0.0, 1.0], [0.0, np.nan, 0.0]),
        tf.math.multiply_no_nan([np.inf, np.nan, 1.0], [0.0, 0.0, np.nan]),
        tf.math.erfinv([-1.0, 1.0, 1.5]), tf.math.ndtri([0.0, 1.0, -0.5]),
        tf.math.erfcinv([0.0, 2.0, 2.5]), tf.math.rint([-1.5, -0.5, 0.5, 2.5]),
        tf.math.igamma([0.0, 1.0, -1.0, 2.0], [1.0, 0.0, 1.0, -1.0]),
        tf.math.igammac([0.0, 1.0, -1.0, 2.0], [1.0, 0.0, 1.0, -1.0]),
        tf.math.zeta([1.0, 2.0, 0.5], [1.0, 0.0, 1.0]),
        tf.math.special.expint([-1.0, 0.0, 0.5]), tf.math.special.spence([-1.0, 0.0, 1.0]),
        tf.math.bessel_i1e([0.0, -3.0]), tf.math.special.bessel_k0([0.0, -1.0]),
        tf.math.special.bessel_y1(np.array([0.0, -1.0])), tf.math.lbeta(np.zeros([2, 0])),
        tf.math.reciprocal_no_nan([0.0, 2.0]), tf.math.zero_fraction(np.zeros([0]))],
    "betainc": lambda tf: [tf.math.betainc(POS, POS + 1.0, UNIT),
                           tf.math.betainc(2.0, 3.0, UNIT.astype(np.float32)),
                           tf.math.betainc(POS[0], 1.5, UNIT[0]),
                           raised(tf.math.betainc, POS[0], POS[1, :3], 0.5),
                           raised(tf.math.betainc, POS, POS, UNIT[0]),
                           raised(tf.math.betainc, *[tf.ones([2], tf.float16)] * 3)],
    "polygamma of the order": lambda tf: tf.math.polygamma(tf.constant([0.0, 1.0, 2.0]),
                                                           tf.constant([1.5, 1.5, 1.5])),
    "cumulative_logsumexp": lambda tf: [
        tf.math.cumulative_logsumexp(X, axis=a, exclusive=e, reverse=r)
        for a in (0, 1, -1) for e in (False, True) for r in (False, True)]
    + [raised(tf.math.cumulative_logsumexp, X, axis=2),
       raised(tf.math.cumulative_logsumexp, tf.constant(1.0))],
    "lbeta and polyval": lambda tf: [
        tf.math.lbeta(POS), tf.math.lbeta(POS.astype(np.float32)), raised(tf.math.lbeta, 2.0),
        tf.math.polyval([1.0, 2.0, 3.0], tf.constant([0.5, 2.0])),
        tf.math.polyval([tf.constant(X), tf.constant(POS)], tf.constant(UNIT)),
        tf.math.polyval([], tf.constant([1.0, 2.0])),
        raised(tf.math.polyval, (1.0,), tf.constant([1.0])),
        raised(tf.math.polyval, [1.0, 2.0], tf.constant([1.0], tf.float64))],
    "utilities": lambda tf: [
        tf.math.zero_fraction(np.array([[0.0, 1.0], [0.0, 0.0]])),
        tf.math.zero_fraction(np.array([0, 3, 0], np.int64)),
        tf.math.is_non_decreasing([1, 1, 2]), tf.math.is_non_decreasing([2.0, 1.0]),
        tf.math.is_strictly_increasing([1, 1, 2]), tf.math.is_strictly_increasing([[1], [2]]),
        tf.math.is_non_decreasing(3.0), tf.math.is_strictly_increasing([]),
        raised(tf.math.is_non_decreasing, [True, False]),
        tf.math.invert_permutation([3, 4, 0, 2, 1]),
        tf.math.invert_permutation(tf.constant([2, 0, 1], tf.int64)),
        raised(tf.math.invert_permutation, [1, 1, 2]),
        raised(tf.math.invert_permutation, [0, 3]),
        raised(tf.math.invert_permutation, [[0]]),
        raised(tf.math.invert_permutation, tf.constant([0.0]))],
    "accumulate_n": lambda tf: [
        tf.math.accumulate_n([X, X, POS]), tf.math.accumulate_n([tf.constant(POS)]),
        tf.math.accumulate_n([X, X], shape=[3, 5], tensor_dtype=tf.float64),
        raised(tf.math.accumulate_n, []), raised(tf.math.accumulate_n, [X, X[:1]]),
        raised(tf.math.accumulate_n, [X, X.astype(np.float32)]),
        raised(tf.math.accumulate_n, [X, X], shape=[3]),
        raised(tf.math.accumulate_n, [X, X], tensor_dtype=tf.float32)],
    "approx top k": lambda tf: [
        tf.math.approx_max_k(X.astype(np.float32), 2), tf.nn.approx_max_k(X.astype(np.float16), 3),
        tf.math.approx_max_k(X.astype(np.float32), 5),
        raised(tf.math.approx_max_k, X.astype(np.float32), 6),
        raised(tf.math.approx_max_k, X, 2), raised(tf.math.approx_max_k, X.astype(np.int32), 2)],
    "sobol": lambda tf: [tf.math.sobol_sample(3, 5), tf.math.sobol_sample(7, 20, skip=4,
                                                                         dtype=tf.float64),
                         raised(tf.math.sobol_sample, 2, 3, dtype=tf.float16),
                         raised(tf.math.sobol_sample, 0, 3)],
    # tf.signal: windows and the MDCT.
    "windows": lambda tf: [w(n, dtype=d) for w in (tf.signal.kaiser_window,
                                                   tf.signal.kaiser_bessel_derived_window,
                                                   tf.signal.vorbis_window)
                           for n in (0, 1, 2, 7, 8) for d in (tf.float32, tf.float64)]
    + [tf.signal.kaiser_window(9, beta=3.5), tf.signal.kaiser_bessel_derived_window(10, 4.0)],
    "window errors": lambda tf: [raised(tf.signal.vorbis_window, 4, dtype=tf.int32),
                                 raised(tf.signal.kaiser_window, 4, dtype=tf.int32)],
    "mdct": lambda tf: [
        tf.signal.mdct(SIGNAL, 8), tf.signal.mdct(SIGNAL, 12, pad_end=True, norm="ortho"),
        tf.signal.mdct(SIGNAL.astype(np.float64), 16, window_fn=None),
        tf.signal.mdct(SIGNAL, 8, window_fn=tf.signal.kaiser_bessel_derived_window),
        tf.signal.inverse_mdct(tf.signal.mdct(SIGNAL, 8)),
        tf.signal.inverse_mdct(tf.signal.mdct(SIGNAL, 8, norm="ortho"), norm="ortho"),
        tf.signal.inverse_mdct(tf.signal.mdct(SIGNAL, 8, window_fn=None), window_fn=None),
        raised(tf.signal.mdct, SIGNAL, 6), raised(tf.signal.mdct, tf.constant(1.0), 4),
        raised(tf.signal.inverse_mdct, SIGNAL[0])],
}


@pytest.mark.parametrize("label", list(CASES))
def test_special_functions_match_tensorflow(label, parity):
    theirs = parity.describe(parity.tf, raised(CASES[label], parity.tf))
    ours = parity.describe(tapeflow, raised(CASES[label], tapeflow))
    # float32 results by different algorithms (Eigen's, SciPy's) agree to a few ulps
    parity.assert_same(ours, theirs, rtol=2e-5, atol=1e-6, where=label)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,arity", [(n, 1) for n in UNARY] + [(n, 2) for n in BINARY]
                         + [("math.betainc", 3)])
def test_dtype_support_matches_tensorflow(name, arity, dtype, parity):
    assert _output_dtype(tapeflow, name, dtype, arity) == _output_dtype(parity.tf, name, dtype,
                                                                         arity)
