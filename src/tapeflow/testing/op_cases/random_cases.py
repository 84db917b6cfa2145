"""Gradient-check rows for tf.random's stateless and parameterized draws (fixed seeds make
each draw a smooth function of its parameters)."""
import tapeflow as tf

from ._table import EXEMPT, case, normal, positive, uniform

_SEED = [1, 2]

case("StatelessParameterizedTruncatedNormal",
     lambda m, s, lo, hi: tf.random.stateless_parameterized_truncated_normal(
         [3, 2], _SEED, m, s, lo, hi), uniform(-0.5, 0.5, 2), positive(2), uniform(-2, -1, 2),
     uniform(1, 2, 2))
case("StatelessParameterizedTruncatedNormal",
     lambda lo, hi: tf.random.stateless_parameterized_truncated_normal(
         [4], _SEED, tf.constant(0.0, tf.float64), tf.constant(1.0, tf.float64), lo, hi),
     uniform(1.0, 2.0), uniform(3.0, 4.0), label="interval above the mean")
case("RealDiv", lambda beta: tf.random.stateless_gamma([3, 2], _SEED, [1.5, 3.0], beta,
                                                       dtype=tf.float64),
     positive(2), label="stateless_gamma beta")
case("StatelessRandomBinomial", lambda c, p: tf.random.stateless_binomial([2, 3], _SEED, c, p),
     uniform(1, 9, 3), uniform(0.1, 0.9, 3), differentiable=False)
case("StatelessRandomPoisson", lambda lam: tf.random.stateless_poisson([2, 3], _SEED, lam),
     positive(3), differentiable=False)
case("StatelessMultinomial", lambda logits: tf.random.stateless_categorical(logits, 3, _SEED),
     normal(2, 4), differentiable=False)
# The sample's derivative holds its CDF level fixed; a rejection sampler's draw at a fixed
# seed moves differently with alpha, so the rule is checked against SciPy's inverse CDF.
for _op in ("RandomGamma", "StatelessRandomGammaV3"):
    EXEMPT[_op] = "tests/ops/test_random_ops.py, test_stateless_random_ops.py (inverse CDF)"
EXEMPT["RandomGammaGrad"] = "tests/ops/test_random_ops.py (no rule, as TF: LookupError)"
EXEMPT["StatelessShuffle"] = "tests/ops/test_stateless_random_ops.py (no rule, as TF)"
EXEMPT["RandomPoissonV2"] = "tests/ops/test_random_ops.py (no rule, as TF: LookupError)"
for _op in ("StatelessRandomGetKeyCounter", "StatelessRandomUniformV2", "StatelessRandomNormalV2",
            "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2",
            "StatelessRandomUniformFullIntV2"):
    EXEMPT[_op] = "tests/ops/test_stateless_random_ops.py (integer inputs only: never recorded)"
EXEMPT["RandomIndexShuffle"] = "tests/ops/test_index_shuffle_ops.py (integer inputs only)"
EXEMPT["RngSkip"] = "tests/ops/test_stateful_random_ops.py (integer inputs only: never recorded)"
for _op in ("UniformCandidateSampler", "LogUniformCandidateSampler",
            "LearnedUnigramCandidateSampler", "FixedUnigramCandidateSampler",
            "AllCandidateSampler", "ComputeAccidentalHits"):
    EXEMPT[_op] = "tests/ops/test_candidate_sampling_ops.py (integer inputs only)"
