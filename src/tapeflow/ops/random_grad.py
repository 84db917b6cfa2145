"""Random ops have no gradient with respect to their shape, seed or logits (as TF).

`normal`, `uniform` and `truncated_normal` are still differentiable with respect to their
location and scale, which they apply with ordinary ops; gamma samples are differentiable
with respect to their concentration by implicit reparameterisation (the sample moves with
alpha at a fixed value of its CDF). RandomShuffle and RandomGammaGrad have no rule, as in
TF: differentiating through them raises LookupError naming the op.
"""
from ..framework.registry import RegisterGradient, no_gradient
from . import random_ops, stateful_random_ops, stateless_random_ops  # noqa: F401  (the ops)

for _op in ("RandomStandardNormal", "RandomUniform", "RandomUniformInt", "TruncatedNormal",
            "Multinomial", "RandomPoissonV2", "StatelessRandomGetKeyCounter",
            "StatelessRandomUniformV2", "StatelessRandomNormalV2", "StatelessTruncatedNormalV2",
            "StatelessRandomUniformIntV2", "StatelessRandomUniformFullIntV2",
            "StatelessRandomBinomial", "StatelessRandomPoisson", "StatelessMultinomial",
            "RngSkip"):
    no_gradient(_op)


@RegisterGradient("RandomGamma")
def _random_gamma_grad(op, g):
    return [g * random_ops.RandomGammaGrad(op.inputs[0], op.outputs[0])]


@RegisterGradient("StatelessRandomGammaV3")
def _stateless_random_gamma_grad(op, g):
    return None, g * random_ops.RandomGammaGrad(op.inputs[1], op.outputs[0])
