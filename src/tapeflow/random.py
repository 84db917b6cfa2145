"""tf.random: seeded random tensors."""
from .ops.random_ops import (categorical, normal, set_seed, shuffle, stateless_normal,
                             stateless_uniform, truncated_normal, uniform)

__all__ = ["categorical", "normal", "set_seed", "shuffle", "truncated_normal", "uniform",
           "stateless_uniform", "stateless_normal"]
