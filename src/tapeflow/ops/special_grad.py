"""Gradient rules of special_ops. Each works on raw arrays and on Tensors alike."""
from __future__ import annotations

import math

import numpy as np

from ..framework.registry import RegisterGradient
from .math_ops import Exp
from .op_util import dtype_of
from .special_ops import Digamma, Polygamma

_TWO_OVER_ROOT_PI = 2 / math.sqrt(math.pi)  # a Python float: it takes g's dtype


@RegisterGradient("Erf")
def _erf_grad(op, g):
    x = op.inputs[0]
    return g * _TWO_OVER_ROOT_PI * Exp(-(x * x))


@RegisterGradient("Erfc")
def _erfc_grad(op, g):
    x = op.inputs[0]
    return g * -_TWO_OVER_ROOT_PI * Exp(-(x * x))


@RegisterGradient("Lgamma")
def _lgamma_grad(op, g):
    return g * Digamma(op.inputs[0])


@RegisterGradient("Digamma")
def _digamma_grad(op, g):
    x = op.inputs[0]
    return g * Polygamma(np.ones((), dtype_of(x)), x)


@RegisterGradient("Polygamma")
def _polygamma_grad(op, g):
    a, x = op.inputs
    return None, g * Polygamma(a + 1, x)
