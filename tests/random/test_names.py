"""tf.random's names: each name tapeflow exports is TF 2.21's and resolves to its function,
and every TF 2.21 name is there."""
import pytest

import tapeflow as tf
from tapeflow.ops import index_shuffle_ops, random_ops, stateful_random_ops, stateless_random_ops

# TF 2.21's tf.random and tf.random.experimental.
TF_RANDOM = {
    "Algorithm", "Generator", "all_candidate_sampler", "categorical", "create_rng_state",
    "experimental", "fixed_unigram_candidate_sampler", "fold_in", "gamma",
    "get_global_generator", "learned_unigram_candidate_sampler", "log_uniform_candidate_sampler",
    "normal", "poisson", "set_global_generator", "set_seed", "shuffle", "split",
    "stateless_binomial", "stateless_categorical", "stateless_gamma", "stateless_normal",
    "stateless_parameterized_truncated_normal", "stateless_poisson",
    "stateless_truncated_normal", "stateless_uniform", "truncated_normal", "uniform",
    "uniform_candidate_sampler"}
TF_EXPERIMENTAL = {"Algorithm", "Generator", "create_rng_state", "get_global_generator",
                   "index_shuffle", "set_global_generator", "stateless_fold_in",
                   "stateless_shuffle", "stateless_split"}

SAME = [("Algorithm", stateless_random_ops.Algorithm),
        ("Generator", stateful_random_ops.Generator),
        ("create_rng_state", stateful_random_ops.create_rng_state),
        ("get_global_generator", stateful_random_ops.get_global_generator),
        ("set_global_generator", stateful_random_ops.set_global_generator),
        ("fold_in", stateless_random_ops.fold_in), ("split", stateless_random_ops.split),
        ("gamma", random_ops.gamma), ("poisson", random_ops.poisson),
        ("stateless_uniform", stateless_random_ops.stateless_uniform),
        ("stateless_normal", stateless_random_ops.stateless_normal),
        ("stateless_truncated_normal", stateless_random_ops.stateless_truncated_normal),
        ("stateless_categorical", stateless_random_ops.stateless_categorical),
        ("stateless_binomial", stateless_random_ops.stateless_binomial),
        ("stateless_poisson", stateless_random_ops.stateless_poisson),
        ("stateless_gamma", stateless_random_ops.stateless_gamma),
        ("stateless_parameterized_truncated_normal",
         stateless_random_ops.stateless_parameterized_truncated_normal)]


@pytest.mark.parametrize("space,names", [(tf.random, TF_RANDOM),
                                         (tf.random.experimental, TF_EXPERIMENTAL)])
def test_the_namespace_exports_only_tf_names_and_each_resolves(space, names):
    assert set(space.__all__) <= names
    assert all(getattr(space, name) is not None for name in space.__all__)


@pytest.mark.parametrize("name,fn", SAME)
def test_names_resolve_to_their_functions(name, fn):
    assert getattr(tf.random, name) is fn
    if name in TF_EXPERIMENTAL:
        assert getattr(tf.random.experimental, name) is fn


def test_experimental_aliases_and_the_top_level_shuffle():
    assert tf.random.experimental.stateless_split is tf.random.split
    assert tf.random.experimental.stateless_fold_in is tf.random.fold_in
    assert tf.random.experimental.index_shuffle is index_shuffle_ops.index_shuffle
    assert tf.random_index_shuffle is index_shuffle_ops.random_index_shuffle


def test_every_tf_name_is_there():
    assert set(tf.random.__all__) == TF_RANDOM
    assert set(tf.random.experimental.__all__) == TF_EXPERIMENTAL
