"""Random ops have no gradient with respect to their shape, seed or logits (as TF).

`normal`, `uniform` and `truncated_normal` are still differentiable with respect to their
location and scale, which they apply with ordinary ops. RandomShuffle has no rule, as in TF:
differentiating through it raises LookupError naming the op.
"""
from ..framework.registry import no_gradient
from . import random_ops  # noqa: F401  (defines the ops)

for _op in ("RandomStandardNormal", "RandomUniform", "RandomUniformInt", "TruncatedNormal",
            "Multinomial", "StatelessRandomUniform", "StatelessRandomNormal"):
    no_gradient(_op)
