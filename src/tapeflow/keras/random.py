"""keras.random: SeedGenerator, the state random layers draw from, and draws seeded by it
(normal, uniform, dropout).

A SeedGenerator holds a non-trainable int64 Variable [seed, counter]; each draw uses the
current pair and advances the counter, so a layer's sequence of random values depends only
on its seed (inside `tf.function` too) and its state is saved and restored with it."""
from __future__ import annotations

import random as python_random

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.variables import Variable
from ..ops import array_ops, comparison_ops, math_ops, stateless_random_ops
from . import backend

__all__ = ["SeedGenerator", "normal", "uniform", "dropout"]


class SeedGenerator:
    """The random state of a layer: `state`, a non-trainable int64 Variable [seed, counter].

    Args:
        seed: an int; default one drawn from Python's `random` (which
            `keras.utils.set_random_seed` seeds).
        name: the state variable's name prefix.

    Example:
        >>> import tapeflow as tf
        >>> generator = tf.keras.random.SeedGenerator(7)
        >>> generator.state.numpy(), generator.next().numpy(), generator.state.numpy()
        (array([7, 0]), array([7, 0]), array([7, 1]))
    """

    def __init__(self, seed=None, name=None, **kwargs) -> None:
        if seed is None:
            seed = python_random.randint(1, int(1e9))
        self.seed = int(seed)
        self.name = name or backend.unique_object_name("seed_generator")
        self.state = Variable([self.seed, 0], dtype=dtypes.int64, trainable=False,
                              name=f"{self.name}/seed_generator_state")

    def next(self, ordered: bool = True):
        """The current [seed, counter] pair, advancing the counter by one."""
        return self.state.assign_add([0, 1]) - convert_to_tensor([0, 1], dtype=dtypes.int64)

    def get_config(self) -> dict:
        return {"seed": self.seed}


def _seed_pair(seed):
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if seed is None:
        seed = python_random.randint(1, int(1e9))
    return convert_to_tensor([int(seed), 0], dtype=dtypes.int64)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform float samples in [minval, maxval), seeded by an int or a SeedGenerator.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.random.uniform([2], seed=3).shape
        TensorShape([2])
    """
    return stateless_random_ops.stateless_uniform(shape, _seed_pair(seed), minval, maxval,
                                                  dtype=dtype or backend.floatx())


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples `standard_normal * stddev + mean`, seeded by an int or a
    SeedGenerator.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.random.normal([2, 2], seed=tf.keras.random.SeedGenerator(1)).shape
        TensorShape([2, 2])
    """
    return stateless_random_ops.stateless_normal(shape, _seed_pair(seed), mean, stddev,
                                                 dtype=dtype or backend.floatx())


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zeroes a fraction `rate` of `inputs` and scales the rest by 1 / (1 - rate); the
    mask (of `noise_shape`, None entries taking the input's sizes) is seeded by an int or
    a SeedGenerator.

    Example:
        >>> import tapeflow as tf
        >>> y = tf.keras.random.dropout(tf.ones([1, 100]), 0.5, seed=1)
        >>> sorted(set(y.numpy().ravel().tolist()))
        [0.0, 2.0]
    """
    inputs = convert_to_tensor(inputs)
    # The input's sizes, computed when a graph runs where they are not known yet.
    if inputs.shape.is_fully_defined():
        sizes = inputs.shape.as_list()
    elif noise_shape is None:
        sizes = array_ops.shape(inputs)
    else:
        sizes = array_ops.unstack(array_ops.shape(inputs), num=len(noise_shape))
    shape = sizes if noise_shape is None else \
        [s if n is None else n for s, n in zip(sizes, noise_shape)]
    keep = comparison_ops.greater_equal(
        stateless_random_ops.stateless_uniform(shape, _seed_pair(seed), dtype=inputs.dtype),
        rate)
    return inputs * math_ops.cast(keep, inputs.dtype) / math_ops.cast(1 - rate, inputs.dtype)
