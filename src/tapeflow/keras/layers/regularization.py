"""Regularization layers, active only in training: SpatialDropout1D/2D/3D (whole channels
dropped), GaussianNoise, GaussianDropout; and ActivityRegularization (a penalty on the
outputs, added to `losses`). The random layers draw from their own
keras.random.SeedGenerator (`seed_generator`), as Dropout does."""
from __future__ import annotations

import math

from .. import random as keras_random
from .. import regularizers
from ..backend import normalize_data_format
from .base import InputSpec, Layer
from .core import Dropout

__all__ = ["SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D", "GaussianNoise",
           "GaussianDropout", "ActivityRegularization"]


def _check_rate(rate) -> float:
    if not 0 <= rate <= 1:
        raise ValueError("Invalid value received for argument `rate`. Expected a float value "
                         f"between 0 and 1. Received: rate={rate}")
    return float(rate)


class _SpatialDropout(Dropout):
    """Dropout of whole channels: one keep/drop decision per (example, channel)."""

    rank = 2

    def __init__(self, rate: float, data_format=None, seed=None, **kwargs) -> None:
        super().__init__(rate, seed=seed, **kwargs)
        self.data_format = normalize_data_format(type(self).__name__, data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return inputs
        if self.rate == 1:
            return inputs * 0.0
        ones = [1] * self.rank  # None: the input's size
        noise_shape = [None, *ones, None] if self.data_format == "channels_last" \
            else [None, None, *ones]
        return keras_random.dropout(inputs, self.rate, noise_shape=noise_shape,
                                    seed=self.seed_generator)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["noise_shape"]
        return {**config, "data_format": self.data_format}


class SpatialDropout1D(_SpatialDropout):
    """Drops whole feature channels of [batch, steps, features] (each kept one scaled by
    1 / (1 - rate)) in training; the identity at inference.

    Example:
        >>> import tapeflow as tf
        >>> y = tf.keras.layers.SpatialDropout1D(0.5, seed=1)(tf.ones([1, 3, 8]), training=True)
        >>> bool((y.numpy() == y.numpy()[:, :1]).all())      # the same for every step
        True
    """

    rank = 1

    def __init__(self, rate: float, seed=None, **kwargs) -> None:
        super().__init__(rate, seed=seed, **kwargs)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["data_format"]
        return config


class SpatialDropout2D(_SpatialDropout):
    """Drops whole channels of [batch, height, width, channels] images in training.

    Args:
        rate: the fraction of channels to drop.
        data_format: 'channels_last' (default) or 'channels_first'.
        seed: the seed of the layer's SeedGenerator (see Dropout).

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.SpatialDropout2D(0.5)
        >>> float(layer(tf.ones([1, 2, 2, 3])).numpy().sum())    # inference: unchanged
        12.0
    """


class SpatialDropout3D(_SpatialDropout):
    """Drops whole channels of [batch, depth, height, width, channels] volumes in training.
    Arguments as for SpatialDropout2D.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.SpatialDropout3D(0.5)(tf.ones([1, 2, 2, 2, 3])).shape
        TensorShape([1, 2, 2, 2, 3])
    """

    rank = 3


class GaussianNoise(Layer):
    """Adds zero-mean normal noise of standard deviation `stddev` in training; the
    identity at inference.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.GaussianNoise(0.1, seed=0)
        >>> float(layer(tf.zeros([10000]), training=True).numpy().std().round(1))
        0.1
    """

    def __init__(self, stddev: float, seed=None, **kwargs) -> None:
        super().__init__(**kwargs)
        if not 0 <= stddev <= 1:
            raise ValueError("Invalid value received for argument `stddev`. Expected a float "
                             f"value between 0 and 1. Received: stddev={stddev}")
        self.stddev, self.seed = stddev, seed
        self.seed_generator = keras_random.SeedGenerator(seed) if stddev > 0 else None

    def call(self, inputs, training=None):
        if not training or self.stddev == 0:
            return inputs
        return inputs + keras_random.normal(inputs.shape.as_list(), stddev=self.stddev,
                                            dtype=inputs.dtype, seed=self.seed_generator)

    def get_config(self) -> dict:
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(Layer):
    """Multiplies the inputs by normal noise of mean 1 and standard deviation
    sqrt(rate / (1 - rate)) in training; the identity at inference.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.GaussianDropout(0.5, seed=0)
        >>> float(layer(tf.ones([10000]), training=True).numpy().mean().round(1))
        1.0
    """

    def __init__(self, rate: float, seed=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.rate, self.seed = _check_rate(rate), seed
        self.seed_generator = keras_random.SeedGenerator(seed) if self.rate > 0 else None

    def call(self, inputs, training=None):
        if not training or not 0 < self.rate < 1:
            return inputs
        return inputs * keras_random.normal(inputs.shape.as_list(), mean=1.0,
                                            stddev=math.sqrt(self.rate / (1 - self.rate)),
                                            dtype=inputs.dtype, seed=self.seed_generator)

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


class ActivityRegularization(Layer):
    """The identity, adding `l1 * sum(|x|) + l2 * sum(x ** 2)` of its outputs to `losses`.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.ActivityRegularization(l2=0.5)
        >>> _ = layer(tf.constant([[1.0, 2.0]]))
        >>> [float(loss) for loss in layer.losses]
        [2.5]
    """

    def __init__(self, l1: float = 0.0, l2: float = 0.0, **kwargs) -> None:
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2

    def get_config(self) -> dict:
        config = super().get_config()
        return {**config, "l1": self.l1, "l2": self.l2}
