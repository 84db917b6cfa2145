"""Gradient rules of signal_ops, in TF's conjugate convention (a real loss L of complex z has
gradient dL/dRe z + i dL/dIm z). Each is the adjoint of its transform, built from the other
transforms, and reads static shapes only."""
from __future__ import annotations

import math

import numpy as np

from ..framework.registry import RegisterGradient
from .array_ops import PadV2
from .complex_ops import Real
from .math_ops import Mul
from .op_util import dtype_of, shape_of
from .signal_ops import COMPLEX_OPS, FFTND, IFFTND, REAL_OPS, RFFTND


def _size(g, rank: int) -> int:
    return math.prod(shape_of(g)[-rank:])


def _complex_grad(rank: int, inverse: bool):
    # The DFT matrix F is symmetric with conj(F) = n F^-1: the adjoint of F is n F^-1 and
    # that of F^-1 is F / n.
    def rule(op, g):
        n = _size(g, rank)
        return Mul(COMPLEX_OPS[rank][not inverse](g), 1.0 / n if inverse else float(n))
    return rule


def _rfft_grad(rank: int):
    # RFFT is the full DFT of a real signal cut to the first bins: its adjoint zero-fills the
    # dropped bins, applies n F^-1 and keeps the real part.
    def rule(op, g):
        lengths = op.attrs["fft_length"]
        dropped = lengths[-1] - shape_of(g)[-1]
        filled = PadV2(g, paddings=((0, 0),) * (len(shape_of(g)) - 1) + ((0, dropped),),
                       constant_values=0)
        return Real(Mul(COMPLEX_OPS[rank][1](filled), float(math.prod(lengths))))
    return rule


def _irfft_grad(rank: int):
    # IRFFT sums each inner bin k and its mirror n - k (a conjugate), and the bins 0 and n/2
    # once: its adjoint is the RFFT with those weights over n.
    def rule(op, g):
        lengths = op.attrs["fft_length"]
        weights = _bin_weights(lengths, dtype_of(op.inputs[0]))
        return Mul(REAL_OPS[rank][0](g, fft_length=lengths), weights)
    return rule


def _bin_weights(lengths: tuple, dtype) -> np.ndarray:
    """IRFFT's adjoint weights of the last axis's bins: 2 for a bin standing for its mirror
    too, 1 for bin 0 and (even lengths) the last, all over n."""
    weights = np.full(lengths[-1] // 2 + 1, 2.0)
    weights[0] = 1.0
    if lengths[-1] % 2 == 0:
        weights[-1] = 1.0
    return (weights / math.prod(lengths)).astype(dtype)


for _rank in (1, 2, 3):
    for _inverse in (False, True):
        RegisterGradient(COMPLEX_OPS[_rank][_inverse].name)(_complex_grad(_rank, _inverse))
    RegisterGradient(REAL_OPS[_rank][0].name)(_rfft_grad(_rank))
    RegisterGradient(REAL_OPS[_rank][1].name)(_irfft_grad(_rank))


def _axes_size(g, axes: tuple) -> int:
    shape = shape_of(g)
    return math.prod(shape[a] for a in axes)


@RegisterGradient("FFTND")
def _fftnd_grad(op, g):
    axes = op.attrs["axes"]
    return Mul(IFFTND(g, axes=axes), float(_axes_size(g, axes)))


@RegisterGradient("IFFTND")
def _ifftnd_grad(op, g):
    axes = op.attrs["axes"]
    return Mul(FFTND(g, axes=axes), 1.0 / _axes_size(g, axes))


@RegisterGradient("RFFTND")
def _rfftnd_grad(op, g):
    # As RFFT's: zero-fill the dropped bins of the last axis, n F^-1, the real part.
    lengths, axes = op.attrs["fft_length"], op.attrs["axes"]
    rank = len(shape_of(g))
    paddings = [(0, 0)] * rank
    paddings[axes[-1]] = (0, lengths[-1] - shape_of(g)[axes[-1]])
    filled = PadV2(g, paddings=tuple(paddings), constant_values=0)
    return Real(Mul(IFFTND(filled, axes=axes), float(math.prod(lengths))))


@RegisterGradient("IRFFTND")
def _irfftnd_grad(op, g):
    # As IRFFT's: the RFFT with the mirrored bins of the last axis weighted twice, over n.
    lengths, axes = op.attrs["fft_length"], op.attrs["axes"]
    weights = _bin_weights(lengths, dtype_of(op.inputs[0])).reshape(
        (-1,) + (1,) * (-axes[-1] - 1))
    return Mul(RFFTND(g, fft_length=lengths, axes=axes), weights)
