"""Global pooling: the mean or maximum over every spatial position, per channel."""
from __future__ import annotations

from ...ops import math_ops, reduction_ops
from ..backend import normalize_data_format
from .base import InputSpec, Layer

__all__ = ["GlobalAveragePooling1D", "GlobalMaxPooling1D", "GlobalAveragePooling2D",
           "GlobalMaxPooling2D"]


class _GlobalPooling(Layer):
    """Reduces the spatial axes of [batch, *spatial, channels] inputs (or [batch, channels,
    *spatial] with data_format='channels_first') to [batch, channels]."""

    _single_input = True

    _rank = 4
    _reduce = None

    def __init__(self, data_format=None, keepdims: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.data_format = normalize_data_format(type(self).__name__, data_format)
        self.keepdims = bool(keepdims)
        self.input_spec = InputSpec(ndim=self._rank)

    def call(self, inputs):
        spatial = list(range(1, self._rank - 1)) if self.data_format == "channels_last" \
            else list(range(2, self._rank))
        return type(self)._reduce(inputs, axis=spatial, keepdims=self.keepdims)

    def get_config(self) -> dict:
        return {**super().get_config(), "data_format": self.data_format,
                "keepdims": self.keepdims}


class GlobalAveragePooling2D(_GlobalPooling):
    """The mean over height and width of [batch, height, width, channels] images:
    [batch, channels] ([batch, 1, 1, channels] with keepdims).

    Args:
        data_format: 'channels_last' (default) or 'channels_first'.
        keepdims: keep the reduced axes with size 1.

    Raises:
        ValueError: inputs not of rank 4 (naming the layer and shape); a bad data_format.

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> x = tf.constant(np.arange(8.0, dtype="float32").reshape(1, 2, 2, 2))
        >>> tf.keras.layers.GlobalAveragePooling2D()(x).numpy()
        array([[3., 4.]], dtype=float32)
    """

    _reduce = staticmethod(math_ops.reduce_mean)


class GlobalMaxPooling2D(_GlobalPooling):
    """The maximum over height and width of [batch, height, width, channels] images
    (the gradient is split among tied maxima, as tf.reduce_max does).

    Args:
        data_format: 'channels_last' (default) or 'channels_first'.
        keepdims: keep the reduced axes with size 1.

    Raises:
        ValueError: inputs not of rank 4; a bad data_format.

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> x = tf.constant(np.arange(8.0, dtype="float32").reshape(1, 2, 2, 2))
        >>> tf.keras.layers.GlobalMaxPooling2D()(x).numpy()
        array([[6., 7.]], dtype=float32)
    """

    _reduce = staticmethod(reduction_ops.reduce_max)


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps of [batch, steps, features] sequences: [batch, features].

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.GlobalAveragePooling1D()(tf.constant([[[1.0], [3.0]]])).numpy()
        array([[2.]], dtype=float32)
    """

    _rank = 3
    _reduce = staticmethod(math_ops.reduce_mean)


class GlobalMaxPooling1D(_GlobalPooling):
    """The maximum over the steps of [batch, steps, features] sequences.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.GlobalMaxPooling1D()(tf.constant([[[1.0], [3.0]]])).numpy()
        array([[3.]], dtype=float32)
    """

    _rank = 3
    _reduce = staticmethod(reduction_ops.reduce_max)
