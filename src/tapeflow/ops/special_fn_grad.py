"""Gradient rules of special_fn_ops (TF's rules). Each works on raw arrays and on Tensors
alike; the engine reduces broadcast gradients to their inputs' shapes."""
from __future__ import annotations

import math

import numpy as np

from ..framework.registry import RegisterGradient, no_gradient
from .comparison_ops import Equal, NotEqual
from .indexing_ops import SelectV2
from .math_grad import conj
from .math_ops import Cast, Cos, Exp, Log, Reciprocal, Sign, Sin, Square
from .op_util import dtype_of
from .special_fn_ops import OPS, IgammaGradA, MulNoNan, Xdivy, Xlog1py, Xlogy, Zeta
from .special_ops import Lgamma

BesselI0, BesselI0e, BesselI1, BesselI1e = (OPS[n] for n in ("BesselI0", "BesselI0e",
                                                              "BesselI1", "BesselI1e"))
BesselJ0, BesselJ1, BesselY0, BesselY1 = (OPS[n] for n in ("BesselJ0", "BesselJ1", "BesselY0",
                                                            "BesselY1"))
BesselK0, BesselK0e, BesselK1, BesselK1e = (OPS[n] for n in ("BesselK0", "BesselK0e",
                                                              "BesselK1", "BesselK1e"))


def _nonzero(x):
    """1 where x != 0, else 0, in x's dtype."""
    dtype = dtype_of(x)
    return Cast(NotEqual(x, np.zeros((), dtype)), dtype=dtype)


def _at_zero(x, value: float, elsewhere):
    """`value` where x is 0, `elsewhere` otherwise (a slope with a removable 0 / 0 there)."""
    dtype = dtype_of(x)
    return SelectV2(Equal(x, np.zeros((), dtype)), np.asarray(value, dtype), elsewhere)


# -- the zero-safe products ----------------------------------------------------------------------
@RegisterGradient("Xlogy")
def _xlogy_grad(op, g):
    x, y = op.inputs
    return g * Xlogy(_nonzero(x), y), g * Xdivy(x, y)


@RegisterGradient("Xlog1py")
def _xlog1py_grad(op, g):
    x, y = op.inputs
    return g * Xlog1py(_nonzero(x), y), g * Xdivy(x, y + 1.0)


@RegisterGradient("Xdivy")
def _xdivy_grad(op, g):
    x, y = op.inputs
    return g * Xdivy(_nonzero(x), y), g * Xdivy(-x, Square(y))


@RegisterGradient("MulNoNan")
def _mul_no_nan_grad(op, g):
    x, y = op.inputs
    return MulNoNan(g, y), MulNoNan(x, g)


# -- inverse error functions -------------------------------------------------------------------
@RegisterGradient("Erfinv")
def _erfinv_grad(op, g):
    return g * (math.sqrt(math.pi) / 2) * Exp(Square(op.outputs[0]))


@RegisterGradient("Ndtri")
def _ndtri_grad(op, g):
    return g * math.sqrt(2 * math.pi) * Exp(Square(op.outputs[0]) / 2.0)


# -- Bessel functions ------------------------------------------------------------------------------
@RegisterGradient("BesselI0")
def _bessel_i0_grad(op, g):
    return g * BesselI1(op.inputs[0])


@RegisterGradient("BesselI0e")
def _bessel_i0e_grad(op, g):
    x = op.inputs[0]
    return g * (BesselI1e(x) - Sign(x) * op.outputs[0])


@RegisterGradient("BesselI1")
def _bessel_i1_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    return g * _at_zero(x, 1.0, BesselI0(x) - y / x)


@RegisterGradient("BesselI1e")
def _bessel_i1e_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    return g * _at_zero(x, 0.5, BesselI0e(x) - y * (Sign(x) + Reciprocal(x)))


@RegisterGradient("BesselJ0")
def _bessel_j0_grad(op, g):
    return g * -BesselJ1(op.inputs[0])


@RegisterGradient("BesselJ1")
def _bessel_j1_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    return g * _at_zero(x, 0.5, BesselJ0(x) - y / x)


@RegisterGradient("BesselY0")
def _bessel_y0_grad(op, g):
    return g * -BesselY1(op.inputs[0])


@RegisterGradient("BesselY1")
def _bessel_y1_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    return g * (BesselY0(x) - y / x)


@RegisterGradient("BesselK0")
def _bessel_k0_grad(op, g):
    return g * -BesselK1(op.inputs[0])


@RegisterGradient("BesselK0e")
def _bessel_k0e_grad(op, g):
    return g * (op.outputs[0] - BesselK1e(op.inputs[0]))


@RegisterGradient("BesselK1")
def _bessel_k1_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    return g * (-BesselK0(x) - y / x)


@RegisterGradient("BesselK1e")
def _bessel_k1e_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    return g * (y * (1.0 - Reciprocal(x)) - BesselK0e(x))


# -- integrals -------------------------------------------------------------------------------------
@RegisterGradient("Dawsn")
def _dawsn_grad(op, g):
    return g * (1.0 - 2.0 * op.inputs[0] * op.outputs[0])


@RegisterGradient("Expint")
def _expint_grad(op, g):
    x = op.inputs[0]
    return g * Exp(x) / x


@RegisterGradient("FresnelCos")
def _fresnel_cos_grad(op, g):
    return g * Cos((math.pi / 2) * Square(op.inputs[0]))


@RegisterGradient("FresnelSin")
def _fresnel_sin_grad(op, g):
    return g * Sin((math.pi / 2) * Square(op.inputs[0]))


@RegisterGradient("Spence")
def _spence_grad(op, g):
    x = op.inputs[0]
    dtype = dtype_of(x)
    return g * SelectV2(Equal(x, np.ones((), dtype)), np.asarray(-1.0, dtype),
                        Log(x) / (1.0 - x))


# -- incomplete gamma and beta functions, zeta ----------------------------------------------------
def _igamma_grads(op, g, sign: float):
    # The slope in `a` only where it is asked for: it has no derivative of its own, so a
    # second-order pass in x alone must not meet it.
    a, x = op.inputs
    da = sign * (g * IgammaGradA(a, x)) if op.needs_gradient(0) else None
    # In log space: Gamma(a) and x ** (a - 1) overflow long before their ratio does.
    dx = sign * (g * Exp(-x + (a - 1.0) * Log(x) - Lgamma(a))) if op.needs_gradient(1) else None
    return da, dx


@RegisterGradient("Igamma")
def _igamma_grad(op, g):
    return _igamma_grads(op, g, 1.0)


@RegisterGradient("Igammac")
def _igammac_grad(op, g):
    return _igamma_grads(op, g, -1.0)


@RegisterGradient("Betainc")
def _betainc_grad(op, g):
    a, b, x = op.inputs
    log_beta = Lgamma(a) + Lgamma(b) - Lgamma(a + b)
    # xlog1py and xlogy: the slope tends to 0 at a tail where a or b is 1.
    return None, None, g * Exp(Xlog1py(b - 1.0, -x) + Xlogy(a - 1.0, x) - log_beta)


@RegisterGradient("Zeta")
def _zeta_grad(op, g):
    x, q = (conj(v) for v in op.inputs)
    return None, g * (-x * Zeta(x + 1.0, q))


@RegisterGradient("NextAfter")
def _next_after_grad(op, g):
    return g, g * 0.0


no_gradient("Rint")
