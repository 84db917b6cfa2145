"""Gradient rules of complex_ops, in TF's conjugate convention. Each works on raw arrays and
on Tensors alike."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .complex_ops import Complex, Conj, Imag, Real
from .creation_ops import zero_gradient
from .math_ops import Reciprocal


@RegisterGradient("Complex")
def _complex_grad(op, g):
    return Real(g), Imag(g)


@RegisterGradient("Real")
def _real_grad(op, g):
    return Complex(g, zero_gradient(g))


@RegisterGradient("Imag")
def _imag_grad(op, g):
    return Complex(zero_gradient(g), g)


@RegisterGradient("Conj")
def _conj_grad(op, g):
    return Conj(g)


@RegisterGradient("Angle")
def _angle_grad(op, g):
    x = op.inputs[0]
    return -Complex(g, zero_gradient(g)) * Reciprocal(Complex(Imag(x), Real(x)))
