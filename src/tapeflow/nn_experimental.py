"""tf.nn.experimental: dropout with a stateless seed or a given sampler of uniforms."""
from __future__ import annotations

from .ops.random_ops import dropout_input, dropped
from .ops.stateless_random_ops import stateless_uniform

__all__ = ["general_dropout", "stateless_dropout"]


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """`tf.nn.dropout` whose mask depends only on `seed`: the elements whose
    `tf.random.stateless_uniform` draw falls below `rate` are zeroed, the rest scaled by
    1 / (1 - rate).

    Args:
        x: a floating tensor.
        rate: the drop probability, in [0, 1).
        seed: a shape [2] integer tensor.
        rng_alg: the stateless algorithm (default: auto-select).
        noise_shape: the mask's shape, broadcast against `x`.

    Raises:
        ValueError: `rate` outside [0, 1), or `x` not floating.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.experimental.stateless_dropout(tf.ones([2, 4]), 0.5, seed=[1, 2]).numpy()
        array([[2., 0., 2., 0.],
               [0., 2., 0., 0.]], dtype=float32)
    """
    x = dropout_input(x, rate)
    return dropped(x, rate, noise_shape, lambda shape, dtype: stateless_uniform(
        shape, seed, dtype=dtype, alg=rng_alg or "auto_select"))


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    """`tf.nn.dropout` with the uniform draws of `uniform_sampler(shape=..., dtype=...)`.

    Raises:
        ValueError: `rate` outside [0, 1), or `x` not floating.

    Example:
        >>> import tapeflow as tf
        >>> ones = lambda shape, dtype: tf.ones(shape, dtype)
        >>> tf.nn.experimental.general_dropout(tf.ones([3]), 0.5, ones).numpy()
        array([2., 2., 2.], dtype=float32)
    """
    x = dropout_input(x, rate)
    return dropped(x, rate, noise_shape,
                   lambda shape, dtype: uniform_sampler(shape=shape, dtype=dtype))
