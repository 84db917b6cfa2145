"""Preprocessing layers that transform numbers: Normalization (with `adapt`) and Rescaling."""
from __future__ import annotations

import numpy as np

from ...ops import array_ops, math_ops
from .base import Layer

__all__ = ["Normalization", "Rescaling"]

# The floor of the standard deviation Normalization divides by (Keras's backend epsilon).
_EPSILON = 1e-7


class Normalization(Layer):
    """Shifts and scales inputs to zero mean and unit variance per feature:
    (x - mean) / max(sqrt(variance), 1e-7), or the inverse with `invert=True`.

    The statistics are given (`mean`, `variance`, broadcastable to the kept axes) or
    learned from data by `adapt(data)`, which stores them in the non-trainable weights
    'mean', 'variance' and 'count' (shape: the sizes of the kept axes).

    Args:
        axis: the axis or axes kept (one statistic per position along them; default -1);
            None for one scalar mean and variance.
        mean, variance: fixed statistics (both or neither).
        invert: map normalized values back: mean + x * sqrt(variance).

    Raises:
        ValueError: only one of mean and variance; an axis outside the input's rank or of
            unknown size; calling an unadapted layer without statistics is not an error
            (the weights start at mean 0, variance 1).

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> norm = tf.keras.layers.Normalization()
        >>> norm.adapt(np.array([[0.0, 10.0], [2.0, 30.0]], "float32"))
        >>> norm(tf.constant([[1.0, 20.0]])).numpy()
        array([[0., 0.]], dtype=float32)
    """

    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | frozenset((
        "_reduce_axes", "_broadcast", "_kept_shape"))

    def __init__(self, axis=-1, mean=None, variance=None, invert: bool = False,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        if axis is None:
            self.axis = ()
        elif isinstance(axis, int):
            self.axis = (axis,)
        else:
            self.axis = tuple(int(a) for a in axis)
        if (mean is None) != (variance is None):
            raise ValueError("When setting values directly, both `mean` and `variance` must "
                             f"be set. Received: mean={mean} and variance={variance}")
        self.input_mean, self.input_variance = mean, variance
        self.invert = bool(invert)

    def build(self, input_shape) -> None:
        rank = len(input_shape)
        if any(not -rank <= a < rank for a in self.axis):
            raise ValueError(f"All `axis` values must be in the range [-ndim, ndim). "
                             f"Received inputs with ndim={rank}, while axis={self.axis}")
        keep = sorted(a % rank for a in self.axis)
        if any(input_shape[a] is None for a in keep):
            raise ValueError("All `axis` values to be kept must have a known shape. Received "
                             f"axis={self.axis}, inputs.shape={input_shape}")
        self._reduce_axes = tuple(a for a in range(rank) if a not in keep)
        self._broadcast = [input_shape[a] if a in keep else 1 for a in range(rank)]
        self._kept_shape = [input_shape[a] for a in keep]
        if self.input_mean is None:
            self.adapt_mean = self.add_weight("mean", shape=self._kept_shape,
                                              initializer="zeros", trainable=False)
            self.adapt_variance = self.add_weight("variance", shape=self._kept_shape,
                                                  initializer="ones", trainable=False)
            self.count = self.add_weight("count", shape=(), dtype="int64", initializer="zeros",
                                         trainable=False)

    def adapt(self, data) -> None:
        """Sets 'mean' and 'variance' to the statistics of `data` over every axis but the
        kept ones: an array or tensor, or an iterable of such batches (combined exactly).

        Raises:
            ValueError: a batch whose kept axes differ from those the layer was built for.
        """
        batches = [data] if hasattr(data, "shape") else list(data)
        if not batches:
            raise ValueError("adapt() received an empty iterable (no batches).")
        batches = [np.asarray(getattr(b, "numpy", lambda b=b: b)(), np.float64)
                   for b in batches]
        if not self.built:
            self.build(tuple(batches[0].shape))
        kept = [d for d in range(batches[0].ndim) if d not in self._reduce_axes]
        for batch in batches:
            if [batch.shape[d] for d in kept] != [self._broadcast[d] for d in kept]:
                raise ValueError(f"adapt() got a batch of shape {batch.shape}; the layer "
                                 f"keeps axes {kept} of sizes "
                                 f"{[self._broadcast[d] for d in kept]}.")
        total = sum(int(np.prod([b.shape[d] for d in self._reduce_axes])) for b in batches)
        mean = sum(b.sum(axis=self._reduce_axes) for b in batches) / total
        variance = sum(((b - mean.reshape(self._broadcast)) ** 2).sum(axis=self._reduce_axes)
                       for b in batches) / total
        self.adapt_mean.assign(mean.astype(self.dtype))
        self.adapt_variance.assign(variance.astype(self.dtype))

    def call(self, inputs):
        if self.input_mean is None:
            mean, variance = self.adapt_mean, self.adapt_variance
        else:
            mean = np.broadcast_to(np.asarray(self.input_mean, self.dtype), self._kept_shape)
            variance = np.broadcast_to(np.asarray(self.input_variance, self.dtype),
                                       self._kept_shape)
        mean = array_ops.reshape(math_ops.cast(mean, inputs.dtype), self._broadcast)
        deviation = math_ops.maximum(math_ops.sqrt(array_ops.reshape(
            math_ops.cast(variance, inputs.dtype), self._broadcast)), _EPSILON)
        if self.invert:
            return mean + inputs * deviation
        return (inputs - mean) / deviation

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "invert": self.invert,
                "mean": _listed(self.input_mean), "variance": _listed(self.input_variance)}


def _listed(value):
    return np.asarray(value).tolist() if value is not None else None


class Rescaling(Layer):
    """inputs * scale + offset (e.g. scale=1/255 for pixels), in the layer's dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Rescaling(1 / 127.5, offset=-1)(tf.constant([0.0, 255.0])).numpy()
        array([-1.,  1.], dtype=float32)
    """

    def __init__(self, scale, offset=0.0, **kwargs) -> None:
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        inputs = math_ops.cast(inputs, self.dtype)
        scale = math_ops.cast(np.asarray(self.scale), self.dtype)
        offset = math_ops.cast(np.asarray(self.offset), self.dtype)
        return inputs * scale + offset

    def get_config(self) -> dict:
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}
