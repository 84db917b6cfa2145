"""tf.random.experimental: Generators and stateless seed handling under their older names."""
from ..ops.stateful_random_ops import (Generator, create_rng_state, get_global_generator,
                                       set_global_generator)
from ..ops.index_shuffle_ops import index_shuffle
from ..ops.stateless_random_ops import Algorithm, stateless_shuffle
from ..ops.stateless_random_ops import fold_in as stateless_fold_in
from ..ops.stateless_random_ops import split as stateless_split

__all__ = ["Algorithm", "Generator", "create_rng_state", "get_global_generator", "index_shuffle",
           "set_global_generator", "stateless_fold_in", "stateless_shuffle", "stateless_split"]
