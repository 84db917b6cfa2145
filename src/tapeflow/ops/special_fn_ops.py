"""tf.math's special functions beyond erf and the gamma family: inverse error functions,
Bessel functions, incomplete gamma and beta functions, Hurwitz zeta, the Dawson, exponential,
Fresnel and Spence integrals, and the zero-safe products xlogy, xlog1py, xdivy and
multiply_no_nan.

Kernels call scipy.special (imported on first use through `special_ops.scipy_special`);
half-precision input is computed in float32 by SciPy and cast back. Outside their domains they
give TF's values (-inf or inf for the Bessel functions of the second kind below zero, nan for
Ei there and for the incomplete gamma functions at a <= 0 or x < 0). Each op is one
`define_op` row; the gradient rules are in `special_fn_grad.py`. Functions TF composes from
other ops (erfcinv, reciprocal_no_nan, lbeta) are composed here too and need no rule.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.numpy_warnings import silenced
from ..framework.registry import ELEMENTWISE, define_op
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from .math_ops import (FLOAT, INEXACT, DivNoNan, dtype_error, function_doc, no_kernel_error,
                       reduce_sum, unary_function)
from .op_util import NO_ATTRS, as_input, binary_inputs, same_dtype_inputs
from .special_ops import lgamma, scipy_special

_HALF = np.dtype(np.float16)


# TF's values below zero where SciPy's differ (nan there): the Bessel functions of the second
# kind diverge, and Ei is not continued.
_BELOW_ZERO = {"y0": -np.inf, "y1": -np.inf, "k0": np.inf, "k0e": np.inf, "k1": np.inf,
               "k1e": np.inf, "expi": np.nan}


def _scipy_kernel(name: str, pick=None):
    """The elementwise kernel calling scipy.special.<name> (the `pick`-th of its outputs),
    in x's dtype."""
    below_zero = _BELOW_ZERO.get(name)

    @silenced
    def kernel(*args):
        out = getattr(scipy_special(), name)(*args)
        if pick is not None:
            out = out[pick]
        if below_zero is not None:
            out = np.where(args[0] < 0, below_zero, out)
        return out.astype(args[-1].dtype, copy=False)
    kernel.__name__ = f"_{name}"
    return kernel


@silenced
def _igamma(a, x):
    # TF's domain: nan for a <= 0 or x < 0, except P(a, 0) = 0.
    out = np.where((a <= 0) | (x < 0), np.nan, scipy_special().gammainc(a, x))
    return np.where(x == 0, 0.0, out).astype(np.result_type(a, x), copy=False)


@silenced
def _igammac(a, x):
    out = np.where((a <= 0) | (x < 0), np.nan, scipy_special().gammaincc(a, x))
    return out.astype(np.result_type(a, x), copy=False)


@silenced
def _xlogy(x, y):
    return np.where(x == 0, np.zeros_like(x), x * np.log(y))


@silenced
def _xlog1py(x, y):
    return np.where(x == 0, np.zeros_like(x), x * np.log1p(y))


@silenced
def _xdivy(x, y):
    return np.where(x == 0, np.zeros_like(x), x / y)


@silenced
def _mul_no_nan(x, y):
    return np.where(y == 0, np.zeros_like(x), x * y)


def _igamma_series_grad_a(a, x, sp):
    """dP/da from P's series: the sum over n of exp((a + n) log x - x - lgamma(a + n + 1))
    times (log x - digamma(a + n + 1)), until the terms no longer count."""
    log_x = np.log(x)
    total, mass = np.zeros_like(a), np.zeros_like(a)
    for n in range(10_000):
        shifted = a + n + 1
        term = np.exp((shifted - 1) * log_x - x - sp.gammaln(shifted))
        total += term * (log_x - sp.psi(shifted))
        mass += term
        if n > 0 and np.all(term * (1 + np.abs(log_x) + np.log(shifted)) <= 1e-17 * mass):
            break
    return total


def _igammac_fraction_grad_a(a, x, sp):
    """dQ/da from Q's continued fraction (Q = exp(a log x - x - lgamma(a)) * f, f the
    fraction's convergents p / q), each recurrence carried with its derivative in a."""
    y, z = 1.0 - a, x + 2.0 - a  # both fall by 1 per unit of a: their slopes are -1
    p2, q2, p1, q1 = np.ones_like(a), x, x + 1.0, z * x
    dp2, dq2, dp1, dq1 = np.zeros_like(a), np.zeros_like(a), np.zeros_like(a), -x
    f, df = p1 / q1, -p1 * dq1 / (q1 * q1)
    for c in range(1, 2000):
        y, z = y + 1.0, z + 2.0
        yc = y * c
        p, q = p1 * z - p2 * yc, q1 * z - q2 * yc
        dp = dp1 * z - p1 - dp2 * yc + p2 * c
        dq = dq1 * z - q1 - dq2 * yc + q2 * c
        ok = q != 0
        safe_q = np.where(ok, q, 1.0)
        f_new = np.where(ok, p / safe_q, f)
        df_new = np.where(ok, (dp * safe_q - p * dq) / (safe_q * safe_q), df)
        # Both must settle: the convergents can stop moving before their slopes do.
        done = (np.abs(f_new - f) <= 1e-16 * np.abs(f_new)) & \
            (np.abs(df_new - df) <= 1e-16 * np.abs(df_new))
        f, df = f_new, df_new
        p2, q2, p1, q1, dp2, dq2, dp1, dq1 = p1, q1, p, q, dp1, dq1, dp, dq
        big = np.abs(p) > 2.0 ** 500  # rescale: only the ratios matter
        if np.any(big):
            scale = np.where(big, 2.0 ** -500, 1.0)
            p2, q2, p1, q1 = p2 * scale, q2 * scale, p1 * scale, q1 * scale
            dp2, dq2, dp1, dq1 = dp2 * scale, dq2 * scale, dp1 * scale, dq1 * scale
        if np.all(done):
            break
    front = np.exp(a * np.log(x) - x - sp.gammaln(a))
    return front * (df + f * (np.log(x) - sp.psi(a)))


@silenced
def _igamma_grad_a(a, x):
    """d/da of the regularized lower incomplete gamma function P(a, x): by P's power series
    where x <= max(1, a), elsewhere by the continued fraction of Q = 1 - P (SciPy's split
    for P itself), so that both converge fast and keep their relative precision."""
    sp = scipy_special()
    a64, x64 = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.full(a64.shape, np.nan)
    valid = (a64 > 0) & (x64 >= 0)
    out[valid & ((x64 == 0) | np.isposinf(x64))] = 0.0  # P is constant there
    inner = valid & (x64 > 0) & np.isfinite(x64)
    fraction = inner & (x64 > 1) & (x64 > a64)
    series = inner & ~fraction
    out[series] = _igamma_series_grad_a(a64[series], x64[series], sp)
    out[fraction] = -_igammac_fraction_grad_a(a64[fraction], x64[fraction], sp)
    return out.astype(np.result_type(a, x), copy=False)


# -- ops -------------------------------------------------------------------------------------
# Primitives because each special function is one SciPy kernel (no composition of existing
# ops computes it); the zero-safe products are primitives for their exact zeros.
Xlogy = define_op("Xlogy", _xlogy, family=ELEMENTWISE)
Xlog1py = define_op("Xlog1py", _xlog1py, family=ELEMENTWISE)
Xdivy = define_op("Xdivy", _xdivy, family=ELEMENTWISE)
MulNoNan = define_op("MulNoNan", _mul_no_nan, family=ELEMENTWISE)
Igamma = define_op("Igamma", _igamma, family=ELEMENTWISE)
Igammac = define_op("Igammac", _igammac, family=ELEMENTWISE)
# TF registers no gradient for IgammaGradA: a second derivative of igamma in `a` is a
# LookupError, as there.
IgammaGradA = define_op("IgammaGradA", _igamma_grad_a, family=ELEMENTWISE)
Betainc = define_op("Betainc", _scipy_kernel("betainc"), family=ELEMENTWISE)
Zeta = define_op("Zeta", _scipy_kernel("zeta"), family=ELEMENTWISE)
NextAfter = define_op("NextAfter", np.nextafter, family=ELEMENTWISE)
Rint = define_op("Rint", np.rint, family=ELEMENTWISE)


# (op name, scipy.special function, which of its outputs, public name, namespace, whether
# float16 has a kernel, summary, the doctest's values at x = [0.5, 1.0])
_UNARY = [
    ("Erfinv", "erfinv", None, "erfinv", "math", False, "The inverse of erf",
     "[0.4769,    inf]"),
    ("Ndtri", "ndtri", None, "ndtri", "math", False, "The inverse of the standard normal CDF",
     "[ 0., inf]"),
    ("BesselI0", "i0", None, "bessel_i0", "math", True,
     "The modified Bessel function of the first kind of order 0", "[1.0635, 1.2661]"),
    ("BesselI0e", "i0e", None, "bessel_i0e", "math", True, "exp(-|x|) * bessel_i0(x)",
     "[0.645, 0.4658 ]"),
    ("BesselI1", "i1", None, "bessel_i1", "math", True,
     "The modified Bessel function of the first kind of order 1", "[0.2579, 0.5652]"),
    ("BesselI1e", "i1e", None, "bessel_i1e", "math", True, "exp(-|x|) * bessel_i1(x)",
     "[0.1564 , 0.2079]"),
    ("BesselJ0", "j0", None, "bessel_j0", "math.special", True,
     "The Bessel function of the first kind of order 0", "[0.9385, 0.7652]"),
    ("BesselJ1", "j1", None, "bessel_j1", "math.special", True,
     "The Bessel function of the first kind of order 1", "[0.2423, 0.4401]"),
    ("BesselY0", "y0", None, "bessel_y0", "math.special", True,
     "The Bessel function of the second kind of order 0", "[-0.4445,  0.0883]"),
    ("BesselY1", "y1", None, "bessel_y1", "math.special", True,
     "The Bessel function of the second kind of order 1", "[-1.4715, -0.7812]"),
    ("BesselK0", "k0", None, "bessel_k0", "math.special", True,
     "The modified Bessel function of the second kind of order 0", "[0.9244, 0.421]"),
    ("BesselK0e", "k0e", None, "bessel_k0e", "math.special", True, "exp(x) * bessel_k0(x)",
     "[1.5241, 1.1445]"),
    ("BesselK1", "k1", None, "bessel_k1", "math.special", True,
     "The modified Bessel function of the second kind of order 1", "[1.6564 , 0.6019]"),
    ("BesselK1e", "k1e", None, "bessel_k1e", "math.special", True, "exp(x) * bessel_k1(x)",
     "[2.731, 1.6362]"),
    ("Dawsn", "dawsn", None, "dawsn", "math.special", False,
     "Dawson's integral, exp(-x**2) times the integral of exp(t**2) from 0 to x",
     "[0.4244, 0.5381]"),
    ("Expint", "expi", None, "expint", "math.special", False,
     "The exponential integral Ei(x) (nan for x < 0, as TF)",
     "[0.4542, 1.8951]"),
    ("FresnelCos", "fresnel", 1, "fresnel_cos", "math.special", False,
     "The Fresnel integral of cos(pi t**2 / 2) from 0 to x", "[0.4923, 0.7799 ]"),
    ("FresnelSin", "fresnel", 0, "fresnel_sin", "math.special", False,
     "The Fresnel integral of sin(pi t**2 / 2) from 0 to x", "[0.0647, 0.4383]"),
    ("Spence", "spence", None, "spence", "math.special", False,
     "Spence's integral of log(t) / (1 - t) from 1 to x", "[0.5822, 0.    ]"),
]
OPS = {row[0]: define_op(row[0], _scipy_kernel(row[1], row[2]), family=ELEMENTWISE)
       for row in _UNARY}


def _special_unary(op, public_name: str, namespace: str, half: bool, summary: str,
                   values: str, example: str = "[0.5, 1.0]"):
    """The public function of a floating unary op; without `half`, float16 has no kernel
    (NotFoundError), as in TF."""
    fn = unary_function(op, public_name, summary, FLOAT, example,
                        f"array({values}, dtype=float32)", namespace=namespace)
    if half:
        return fn

    @functools.wraps(fn)
    def checked(x, name=None) -> Tensor:
        x = as_input(x)
        if x._value.dtype == _HALF:
            raise no_kernel_error(op.name, x)
        return fn(x)
    return checked


(erfinv, ndtri, bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, bessel_j0, bessel_j1, bessel_y0,
 bessel_y1, bessel_k0, bessel_k0e, bessel_k1, bessel_k1e, dawsn, expint, fresnel_cos,
 fresnel_sin, spence) = (_special_unary(OPS[op_name], public, namespace, half, summary, values)
                         for op_name, _, _, public, namespace, half, summary, values in _UNARY)
rint = _special_unary(Rint, "rint", "math", False, "The nearest integer, half to even; no gradient",
                      "[ 0.,  2., -2.]", "[0.5, 1.5, -1.7]")


def _floating_inputs(op_name: str, inputs, half: type) -> list:
    """The operands of a floating special function, of one dtype; float16 raises `half`
    (TF has no kernel for it: NotFoundError, or an InvalidArgumentError where the op does not
    accept it)."""
    inputs = same_dtype_inputs(op_name, inputs)
    x = inputs[0]
    if x._value.dtype.kind != "f":
        raise dtype_error(op_name, x, FLOAT)
    if x._value.dtype == _HALF:
        raise half(None, op_name, f"{op_name}: no kernel for dtype float16 (shape "
                                  f"{x.shape.as_list()}); use float32 or float64.")
    return inputs


def _zero_safe(op, public_name: str, summary: str, result: str):
    def fn(x, y, name=None) -> Tensor:
        x, y = binary_inputs(op.name, x, y)
        if x._value.dtype.kind not in INEXACT:
            raise dtype_error(op.name, x, INEXACT)
        return execute(op, (x, y), NO_ATTRS)
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = function_doc(
        f"{summary}, elementwise with broadcasting (op `{op.name}`).",
        "x, y: floating or complex tensors of one dtype (a Python number takes the other's "
        "dtype).", "A tensor of the broadcast shape and the inputs' dtype.",
        "InvalidArgumentError: the dtypes differ or are not floating or complex, or the "
        "shapes do not broadcast.",
        f"{public_name}(tf.constant([0.0, 2.0]), tf.constant([0.0, 4.0])).numpy()", result)
    return fn


xlogy = _zero_safe(Xlogy, "xlogy", "x * log(y), and 0 wherever x is 0",
                   "array([0.    , 2.7726], dtype=float32)")
xlog1py = _zero_safe(Xlog1py, "xlog1py", "x * log1p(y), and 0 wherever x is 0",
                     "array([0.    , 3.2189], dtype=float32)")
xdivy = _zero_safe(Xdivy, "xdivy", "x / y, and 0 wherever x is 0",
                   "array([0. , 0.5], dtype=float32)")
multiply_no_nan = _zero_safe(MulNoNan, "multiply_no_nan",
                             "x * y, and 0 wherever y is 0 (even where x is inf or nan)",
                             "array([0., 8.], dtype=float32)")


def _incomplete_gamma(op, public_name: str, summary: str, result: str):
    def fn(a, x, name=None) -> Tensor:
        return execute(op, tuple(_floating_inputs(op.name, [a, x], errors.NotFoundError)),
                       NO_ATTRS)
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = f"""{summary}, elementwise with broadcasting (op `{op.name}`).

    Both inputs get gradients, as in TF; the one in `a` has no second derivative
    (LookupError naming IgammaGradA, as TF).

    Args:
        a: a float32 or float64 tensor (a > 0).
        x: a tensor of a's dtype (x >= 0).

    Returns:
        A tensor of the broadcast shape; nan where a <= 0 or x < 0.

    Raises:
        InvalidArgumentError: the dtypes differ or are not floating.
        NotFoundError: float16 inputs.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.{public_name}(tf.constant([1.0, 2.0]), tf.constant([1.0, 1.0])).numpy()
        {result}
    """
    return fn


igamma = _incomplete_gamma(Igamma, "igamma", "The regularized lower incomplete gamma function "
                           "P(a, x)", "array([0.6321, 0.2642], dtype=float32)")
igammac = _incomplete_gamma(Igammac, "igammac", "The regularized upper incomplete gamma "
                            "function Q(a, x) = 1 - P(a, x)",
                            "array([0.3679, 0.7358 ], dtype=float32)")


def betainc(a, b, x, name=None) -> Tensor:
    """The regularized incomplete beta function I_x(a, b), elementwise with broadcasting
    (op `Betainc`). Only `x` gets a gradient (None for a and b, as in TF).

    Args:
        a, b: float32 or float64 tensors (positive).
        x: a tensor of their dtype, in [0, 1]. Each of a, b and x is a scalar or of the one
            shape the others have (no other broadcasting, as TF).

    Returns:
        A tensor of that shape; nan outside the domain.

    Raises:
        InvalidArgumentError: the dtypes differ or are not float32 or float64, or two shapes
            differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.betainc(tf.constant([2.0]), tf.constant([3.0]), tf.constant([0.5])).numpy()
        array([0.6875], dtype=float32)
    """
    inputs = _floating_inputs("Betainc", [a, b, x], errors.InvalidArgumentError)
    shaped = [(n, t) for n, t in zip("abx", inputs) if t.ndim != 0]
    for n, t in shaped[1:]:
        if t.shape != shaped[0][1].shape:  # no broadcasting but of scalars, as TF
            raise errors.InvalidArgumentError(
                None, "Betainc", f"Betainc: shapes of {shaped[0][0]} and {n} are inconsistent: "
                f"{shaped[0][1].shape.as_list()} vs. {t.shape.as_list()} (each of a, b and x "
                "is a scalar or of the one shape)")
    return execute(Betainc, tuple(inputs), NO_ATTRS)


def zeta(x, q, name=None) -> Tensor:
    """The Hurwitz zeta function, the sum over n >= 0 of (n + q) ** -x, elementwise with
    broadcasting (op `Zeta`). Only `q` gets a gradient (None for x, as in TF).

    Args:
        x: a float32 or float64 tensor.
        q: a tensor of x's dtype.

    Returns:
        A tensor of the broadcast shape; inf at x = 1, nan where undefined.

    Raises:
        InvalidArgumentError: the dtypes differ or are not float32 or float64.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.zeta(tf.constant([2.0]), tf.constant([1.0])).numpy()
        array([1.6449], dtype=float32)
    """
    inputs = _floating_inputs("Zeta", [x, q], errors.InvalidArgumentError)
    return execute(Zeta, tuple(inputs), NO_ATTRS)


def nextafter(x1, x2, name=None) -> Tensor:
    """The next representable number after x1 in the direction of x2, elementwise with
    broadcasting (op `NextAfter`). Its gradient is 1 for x1 and 0 for x2, as in TF.

    Args:
        x1: a float32 or float64 tensor (other data becomes float32, as in TF).
        x2: a tensor of x1's dtype.

    Returns:
        A tensor of the broadcast shape.

    Raises:
        InvalidArgumentError: the dtypes differ or are not float32 or float64.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.math.nextafter(tf.constant(1.0, tf.float64), 2.0) - 1.0)
        2.220446049250313e-16
    """
    if not any(isinstance(v, (Tensor, Variable)) for v in (x1, x2)):
        x1 = np.asarray(x1, np.float32)  # TF's op converts other data to its default dtype
    inputs = _floating_inputs("NextAfter", [x1, x2], errors.InvalidArgumentError)
    return execute(NextAfter, tuple(inputs), NO_ATTRS)


def erfcinv(x, name=None) -> Tensor:
    """The inverse of erfc, composed as -ndtri(x / 2) / sqrt(2) (its gradient is ndtri's).

    Args:
        x: a float32 or float64 tensor, in [0, 2].

    Returns:
        A tensor of x's shape and dtype; nan outside [0, 2].

    Raises:
        TypeError: an integer tensor.
        InvalidArgumentError: another dtype.
        NotFoundError: float16.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.erfcinv(tf.constant([0.5, 1.0])).numpy()
        array([ 0.4769, -0.    ], dtype=float32)
    """
    x = as_input(x)
    if x._value.dtype.kind in "iu":
        raise TypeError(f"erfcinv: x must be floating, got a {x.dtype.name} tensor of shape "
                        f"{x.shape.as_list()}")
    return -ndtri(x * 0.5) * math.sqrt(0.5)


def reciprocal_no_nan(x, name=None) -> Tensor:
    """1 / x, and 0 wherever x is 0, composed as divide_no_nan(1, x).

    Args:
        x: a floating or complex tensor.

    Returns:
        A tensor of x's shape and dtype.

    Raises:
        InvalidArgumentError: another dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.reciprocal_no_nan(tf.constant([0.0, 4.0])).numpy()
        array([0.  , 0.25], dtype=float32)
    """
    x = as_input(x)
    if x._value.dtype.kind not in INEXACT:
        raise dtype_error("DivNoNan", x, INEXACT)
    return DivNoNan(np.ones((), x._value.dtype), x)


def lbeta(x, name=None) -> Tensor:
    """The log of the multivariate beta function over the last axis:
    sum(lgamma(x), -1) - lgamma(sum(x, -1)); -inf over an empty last axis.

    Args:
        x: a floating tensor of rank >= 1.

    Returns:
        A tensor of x's dtype without its last axis.

    Raises:
        InvalidArgumentError: a scalar, or a dtype lgamma does not take.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.lbeta(tf.constant([[1.0, 1.0], [2.0, 3.0]])).numpy()
        array([ 0.    , -2.4849], dtype=float32)
    """
    x = as_input(x)
    return reduce_sum(lgamma(x), axis=[-1]) - lgamma(reduce_sum(x, axis=[-1]))
