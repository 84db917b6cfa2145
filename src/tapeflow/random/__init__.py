"""tf.random: seeded random tensors, stateless draws and Generators (TF's numbers for the
Philox-based ones; see README)."""
from ..ops.candidate_sampling_ops import (all_candidate_sampler, fixed_unigram_candidate_sampler,
                                          learned_unigram_candidate_sampler,
                                          log_uniform_candidate_sampler,
                                          uniform_candidate_sampler)
from ..ops.random_ops import (categorical, gamma, normal, poisson, set_seed, shuffle,
                              truncated_normal, uniform)
from ..ops.stateful_random_ops import (Generator, create_rng_state, get_global_generator,
                                       set_global_generator)
from ..ops.stateless_random_ops import (Algorithm, fold_in, split, stateless_binomial,
                                        stateless_categorical, stateless_gamma,
                                        stateless_normal, stateless_parameterized_truncated_normal,
                                        stateless_poisson, stateless_truncated_normal,
                                        stateless_uniform)
from . import experimental

__all__ = ["Algorithm", "Generator", "all_candidate_sampler", "categorical", "create_rng_state",
           "experimental", "fixed_unigram_candidate_sampler", "fold_in", "gamma",
           "get_global_generator", "learned_unigram_candidate_sampler",
           "log_uniform_candidate_sampler", "normal", "poisson", "set_global_generator",
           "set_seed", "shuffle", "split", "stateless_binomial", "stateless_categorical",
           "stateless_gamma", "stateless_normal", "stateless_parameterized_truncated_normal",
           "stateless_poisson",
           "stateless_truncated_normal", "stateless_uniform", "truncated_normal", "uniform",
           "uniform_candidate_sampler"]
