"""Gradient-check rows for special_ops (erf, erfc, lgamma, digamma, polygamma), special_fn_ops,
math_utility_ops and cumulative_logsumexp."""
import numpy as np

import tapeflow as tf

from ._table import EXEMPT, case, normal, positive, uniform

for _op, _fn, _make in [("Erf", tf.math.erf, normal), ("Erfc", tf.math.erfc, normal),
                        ("Lgamma", tf.math.lgamma, positive),
                        ("Digamma", tf.math.digamma, positive)]:
    case(_op, _fn, _make(2, 3))
    case(_op, _fn, _make(), label="scalar")
case("Lgamma", tf.math.lgamma, uniform(-2.9, -2.1, 3), label="negative")
case("Digamma", tf.math.digamma, uniform(-2.9, -2.1, 3), label="negative")
case("Polygamma", lambda x: tf.math.polygamma(np.array([0.0, 1.0, 2.0]), x), positive(3))
case("Polygamma", lambda x: tf.math.polygamma(np.array([[1.0], [2.0]]), x), positive(1, 3),
     label="broadcast")

# special_fn_ops: each row calls its function through `tf` (the parity run resolves it in TF).
for _sx, _sy, _label in [((2, 3), (2, 3), ""), ((2, 3), (3,), "broadcast"), ((), (2,), "scalar")]:
    case("Xlogy", lambda x, y: tf.math.xlogy(x, y), normal(*_sx), positive(*_sy), label=_label)
    case("Xlog1py", lambda x, y: tf.math.xlog1py(x, y), normal(*_sx), positive(*_sy),
         label=_label)
    case("Xdivy", lambda x, y: tf.math.xdivy(x, y), normal(*_sx), positive(*_sy), label=_label)
    case("MulNoNan", lambda x, y: tf.math.multiply_no_nan(x, y), normal(*_sx), normal(*_sy),
         label=_label)
case("Xlogy", lambda y: tf.math.xlogy(np.array([0.0, 2.0]), y), positive(2), label="x zero")
case("Xdivy", lambda y: tf.math.xdivy(np.array([0.0, 2.0]), y), positive(2), label="x zero")
case("MulNoNan", lambda x: tf.math.multiply_no_nan(x, np.array([0.0, 2.0])), normal(2),
     label="y zero")
for _op, _fn, _make in [
        ("Erfinv", lambda x: tf.math.erfinv(x), uniform(-0.9, 0.9, 2, 3)),
        ("Ndtri", lambda x: tf.math.ndtri(x), uniform(0.1, 0.9, 2, 3)),
        ("BesselI0", lambda x: tf.math.bessel_i0(x), normal(2, 3)),
        ("BesselI0e", lambda x: tf.math.bessel_i0e(x), normal(2, 3)),
        ("BesselI1", lambda x: tf.math.bessel_i1(x), normal(2, 3)),
        ("BesselI1e", lambda x: tf.math.bessel_i1e(x), normal(2, 3)),
        ("BesselJ0", lambda x: tf.math.special.bessel_j0(x), normal(2, 3)),
        ("BesselJ1", lambda x: tf.math.special.bessel_j1(x), normal(2, 3)),
        ("BesselY0", lambda x: tf.math.special.bessel_y0(x), positive(2, 3)),
        ("BesselY1", lambda x: tf.math.special.bessel_y1(x), positive(2, 3)),
        ("BesselK0", lambda x: tf.math.special.bessel_k0(x), positive(2, 3)),
        ("BesselK0e", lambda x: tf.math.special.bessel_k0e(x), positive(2, 3)),
        ("BesselK1", lambda x: tf.math.special.bessel_k1(x), positive(2, 3)),
        ("BesselK1e", lambda x: tf.math.special.bessel_k1e(x), positive(2, 3)),
        ("Dawsn", lambda x: tf.math.special.dawsn(x), normal(2, 3)),
        ("Expint", lambda x: tf.math.special.expint(x), positive(2, 3)),
        ("FresnelCos", lambda x: tf.math.special.fresnel_cos(x), normal(2, 3)),
        ("FresnelSin", lambda x: tf.math.special.fresnel_sin(x), normal(2, 3)),
        ("Spence", lambda x: tf.math.special.spence(x), positive(2, 3))]:
    case(_op, _fn, _make)
case("Ndtri", lambda x: tf.math.erfcinv(x), uniform(0.2, 1.8, 4), label="erfcinv")
# At 0 the Bessel slopes' removable 0 / 0 takes its limit (TF's rules; first order).
for _op, _fn in [("BesselI1", lambda x: tf.math.bessel_i1(x * 0.0)),
                 ("BesselI1e", lambda x: tf.math.bessel_i1e(x * 0.0)),
                 ("BesselJ1", lambda x: tf.math.special.bessel_j1(x * 0.0))]:
    case(_op, _fn, normal(2), label="at zero", order=1)
case("Spence", lambda x: tf.math.special.spence(x * 0.0 + 1.0), normal(2), label="at one",
     order=1)
case("Igamma", lambda x: tf.math.igamma(np.array([0.5, 1.0, 3.0]), x), positive(2, 3))
case("Igammac", lambda x: tf.math.igammac(np.array([0.5, 1.0, 3.0]), x), positive(2, 3))
# The derivative in `a` has no derivative of its own (IgammaGradA, as TF): first order.
case("Igamma", lambda a, x: tf.math.igamma(a, x), uniform(0.5, 3.0, 4), positive(4),
     label="a and x", order=1)
case("Igammac", lambda a, x: tf.math.igammac(a, x), uniform(0.5, 3.0, 3), uniform(2.0, 6.0, 3),
     label="a and x", order=1)
EXEMPT["IgammaGradA"] = ("tests/ops/test_special_fn_ops.py (no gradient rule, as TF: "
                         "LookupError; its values are checked by the Igamma rows)")
case("Betainc", lambda x: tf.math.betainc(np.array([0.5, 2.0, 3.0]), np.array([1.5, 1.0, 2.0]),
                                          x), uniform(0.1, 0.9, 3))
case("Betainc", lambda x: tf.math.betainc(2.5, 1.5, x), uniform(0.1, 0.9, 2, 3), label="scalar a, b")
case("Zeta", lambda q: tf.math.zeta(np.array([2.0, 3.5]), q), positive(3, 2))
case("NextAfter", lambda x1, x2: tf.math.nextafter(x1, x2), normal(3), normal(3))
case("Rint", lambda x: tf.math.rint(x), uniform(-3.0, 3.0, 5), differentiable=False)
EXEMPT["InvertPermutation"] = ("tests/ops/test_special_fn_ops.py (integer input only: never "
                                "recorded)")
# An exclusive scan starts at log 0 = -inf, which the rows cut off (it has no slope).
for _exclusive, _reverse, _kept in [(False, False, slice(None)), (False, True, slice(None)),
                                    (True, False, slice(1, None)), (True, True, slice(-1))]:
    case("CumulativeLogsumexp",
         lambda x, e=_exclusive, r=_reverse, k=_kept: tf.math.cumulative_logsumexp(
             x, axis=1, exclusive=e, reverse=r)[:, k], normal(2, 4),
         label=f"exclusive={_exclusive},reverse={_reverse}")
case("CumulativeLogsumexp", lambda x: tf.math.cumulative_logsumexp(x), normal(5),
     label="axis 0")

# The composed functions, each under the op that carries its gradient.
case("Lgamma", lambda x: tf.math.lbeta(x), positive(2, 3), label="lbeta")
case("DivNoNan", lambda x: tf.math.reciprocal_no_nan(x), positive(2, 3),
     label="reciprocal_no_nan")
case("Mul", lambda c, x: tf.math.polyval([c, 2.0 * c, c * c], x), normal(), normal(3),
     label="polyval")
