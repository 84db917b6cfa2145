"""Pooling in 1, 2 and 3 dimensions: the maximum or mean of each window, or (global) of
every spatial position, per channel."""
from __future__ import annotations

from ... import nn as tf_nn
from ...ops import array_ops, math_ops, reduction_ops
from ...ops.creation_ops import zeros_like
from ...ops.indexing_ops import where
from ..backend import normalize_data_format
from .base import InputSpec, Layer
from .convolutional import normalize_padding, normalize_tuple, tf_data_format

__all__ = ["MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "AveragePooling1D",
           "AveragePooling2D", "AveragePooling3D", "GlobalAveragePooling1D",
           "GlobalMaxPooling1D", "GlobalAveragePooling2D", "GlobalMaxPooling2D",
           "GlobalAveragePooling3D", "GlobalMaxPooling3D"]


class _Pooling(Layer):
    """A window reduction over [batch, *spatial, channels] inputs (channels first:
    [batch, channels, *spatial])."""

    _single_input = True

    rank = 2
    _pool = None  # the tf.nn function

    def __init__(self, pool_size=2, strides=None, padding: str = "valid", data_format=None,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.pool_size = normalize_tuple(pool_size, self.rank, "pool_size")
        self.strides = self.pool_size if strides is None else normalize_tuple(
            strides, self.rank, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(type(self).__name__, data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs):
        return type(self)._pool(inputs, self.pool_size, self.strides, self.padding.upper(),
                                tf_data_format(self.rank, self.data_format))

    def get_config(self) -> dict:
        return {**super().get_config(), "pool_size": self.pool_size, "padding": self.padding,
                "strides": self.strides, "data_format": self.data_format}


class MaxPooling1D(_Pooling):
    """The maximum of each `pool_size` window of [batch, steps, features] sequences, moved
    by `strides` (default: pool_size).

    Args:
        pool_size, strides: an int or a 1-tuple.
        padding: 'valid' (default) or 'same'.
        data_format: 'channels_last' (default) or 'channels_first'.

    Raises:
        ValueError: bad sizes, padding or data_format; an input not of rank 3.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.constant([1.0, 3.0, 2.0, 0.0]), [1, 4, 1])
        >>> tf.keras.layers.MaxPooling1D()(x).numpy().ravel()
        array([3., 2.], dtype=float32)
    """

    rank = 1
    _pool = staticmethod(tf_nn.max_pool)


class MaxPooling2D(_Pooling):
    """The maximum of each `pool_size` window, moved by `strides` (default: pool_size).

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> x = tf.constant(np.arange(16.0, dtype="float32").reshape(1, 4, 4, 1))
        >>> tf.keras.layers.MaxPooling2D()(x).numpy()[0, :, :, 0]
        array([[ 5.,  7.],
               [13., 15.]], dtype=float32)
    """

    _pool = staticmethod(tf_nn.max_pool)


class MaxPooling3D(_Pooling):
    """The maximum of each `pool_size` window of [batch, depth, height, width, channels]
    volumes. Arguments as for MaxPooling1D, with triples.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
        >>> tf.keras.layers.MaxPooling3D()(x).numpy().ravel()
        array([7.], dtype=float32)
    """

    rank = 3
    _pool = staticmethod(tf_nn.max_pool)


class AveragePooling1D(_Pooling):
    """The mean of each `pool_size` window of [batch, steps, features] sequences; with
    'same' padding only the real (unpadded) elements are averaged. Arguments as for
    MaxPooling1D.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.constant([1.0, 3.0, 2.0, 0.0]), [1, 4, 1])
        >>> tf.keras.layers.AveragePooling1D(2)(x).numpy().ravel()
        array([2., 1.], dtype=float32)
    """

    rank = 1
    _pool = staticmethod(tf_nn.avg_pool)


class AveragePooling2D(_Pooling):
    """The mean of each `pool_size` window, moved by `strides` (default: pool_size);
    with 'same' padding only the real (unpadded) elements are averaged.

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> x = tf.constant(np.arange(16.0, dtype="float32").reshape(1, 4, 4, 1))
        >>> tf.keras.layers.AveragePooling2D()(x).numpy()[0, :, :, 0]
        array([[ 2.5,  4.5],
               [10.5, 12.5]], dtype=float32)
    """

    _pool = staticmethod(tf_nn.avg_pool)


class AveragePooling3D(_Pooling):
    """The mean of each `pool_size` window of [batch, depth, height, width, channels]
    volumes. Arguments as for MaxPooling1D, with triples.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
        >>> tf.keras.layers.AveragePooling3D(2)(x).numpy().ravel()
        array([3.5], dtype=float32)
    """

    rank = 3
    _pool = staticmethod(tf_nn.avg_pool)


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
    supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        # Keras's masked mean: masked steps are replaced by 0 (so an inf or NaN there
        # does not leak, and gets no gradient), summed, and divided by the count of kept
        # steps (0 / 0 = NaN for a sequence with none).
        step_axis = 1 if self.data_format == "channels_last" else 2
        kept = array_ops.expand_dims(math_ops.cast(mask, "bool"), 2 if step_axis == 1 else 1)
        total = math_ops.reduce_sum(where(kept, inputs, zeros_like(inputs)),
                                    axis=step_axis, keepdims=self.keepdims)
        return total / math_ops.reduce_sum(math_ops.cast(kept, inputs.dtype), axis=step_axis,
                                           keepdims=self.keepdims)

    def compute_mask(self, inputs, mask=None):
        return None


class GlobalMaxPooling1D(_GlobalPooling):
    """The maximum over the steps of [batch, steps, features] sequences.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.GlobalMaxPooling1D()(tf.constant([[[1.0], [3.0]]])).numpy()
        array([[3.]], dtype=float32)
    """

    _rank = 3
    _reduce = staticmethod(reduction_ops.reduce_max)


class GlobalAveragePooling3D(_GlobalPooling):
    """The mean over depth, height and width of [batch, depth, height, width, channels]
    volumes: [batch, channels].

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 2, 2, 2, 2])
        >>> tf.keras.layers.GlobalAveragePooling3D()(x).numpy()
        array([[7., 8.]], dtype=float32)
    """

    _rank = 5
    _reduce = staticmethod(math_ops.reduce_mean)


class GlobalMaxPooling3D(_GlobalPooling):
    """The maximum over depth, height and width of [batch, depth, height, width, channels]
    volumes: [batch, channels].

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 2, 2, 2, 2])
        >>> tf.keras.layers.GlobalMaxPooling3D()(x).numpy()
        array([[14., 15.]], dtype=float32)
    """

    _rank = 5
    _reduce = staticmethod(reduction_ops.reduce_max)
