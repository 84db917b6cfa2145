"""Random ops have no gradient with respect to their shape, seed or logits (as TF).

`normal`, `uniform` and `truncated_normal` are still differentiable with respect to their
location and scale, which they apply with ordinary ops; gamma samples are differentiable
with respect to their concentration by implicit reparameterisation (the sample moves with
alpha at a fixed value of its CDF), and so are parameterized truncated normals. RandomShuffle
is not differentiable (None), as TF declares it; StatelessShuffle and RandomGammaGrad have no
rule, as in TF: differentiating through them raises LookupError naming the op, and so does
RandomPoissonV2 with respect to its rate.
"""
import math

import numpy as np

from ..framework.registry import RegisterGradient, no_gradient
from .comparison_ops import Greater
from .indexing_ops import SelectV2
from .math_ops import Exp
from .op_util import dtype_of
from .random_ops import RandomGammaGrad
from .special_ops import Erfc
from . import index_shuffle_ops, stateful_random_ops, stateless_random_ops  # noqa: F401

_SQRT_HALF = math.sqrt(0.5)

for _op in ("RandomStandardNormal", "RandomUniform", "RandomUniformInt", "TruncatedNormal",
            "Multinomial", "StatelessRandomGetKeyCounter",
            "StatelessRandomUniformV2", "StatelessRandomNormalV2", "StatelessTruncatedNormalV2",
            "StatelessRandomUniformIntV2", "StatelessRandomUniformFullIntV2",
            "StatelessRandomBinomial", "StatelessRandomPoisson", "StatelessMultinomial",
            "RandomIndexShuffle", "RngSkip", "RandomShuffle"):
    no_gradient(_op)


@RegisterGradient("RandomGamma")
def _random_gamma_grad(op, g):
    return [g * RandomGammaGrad(op.inputs[0], op.outputs[0])]


@RegisterGradient("StatelessRandomGammaV3")
def _stateless_random_gamma_grad(op, g):
    return None, g * RandomGammaGrad(op.inputs[1], op.outputs[0])


@RegisterGradient("StatelessParameterizedTruncatedNormal")
def _parameterized_truncated_normal_grad(op, g):
    # With u the sample's place in the truncated CDF held fixed, the standardized sample z
    # moves with the standardized bounds by (1 - u) phi(alpha) / phi(z) and u phi(beta) /
    # phi(z); u is measured from the tail that keeps its digits.
    _, mean, std, low, high = op.inputs
    z = (op.outputs[0] - mean) / std
    alpha, beta = (low - mean) / std, (high - mean) / std
    tail = Greater(alpha, np.zeros((), dtype_of(alpha)))
    below = [Erfc(-t * _SQRT_HALF) for t in (alpha, z, beta)]
    above = [Erfc(t * _SQRT_HALF) for t in (alpha, z, beta)]
    u = SelectV2(tail, (above[0] - above[1]) / (above[0] - above[2]),
                 (below[1] - below[0]) / (below[2] - below[0]))
    d_low = (1 - u) * Exp((z * z - alpha * alpha) / 2)
    d_high = u * Exp((z * z - beta * beta) / 2)
    return (None, g * (1 - d_low - d_high), g * (z - alpha * d_low - beta * d_high), g * d_low,
            g * d_high)
