"""Layers that move, repeat or cut elements without learning anything: UpSampling,
ZeroPadding and Cropping in 1, 2 and 3 dimensions, RepeatVector and Permute."""
from __future__ import annotations

import numpy as np

from ...ops import array_ops, special_math_ops
from ..backend import normalize_data_format
from .base import InputSpec, Layer
from .convolutional import normalize_tuple

__all__ = ["UpSampling1D", "UpSampling2D", "UpSampling3D", "ZeroPadding1D", "ZeroPadding2D",
           "ZeroPadding3D", "Cropping1D", "Cropping2D", "Cropping3D", "RepeatVector",
           "Permute"]


def _spatial_axes(rank: int, data_format: str) -> list:
    return list(range(1, rank + 1)) if data_format == "channels_last" \
        else list(range(2, rank + 2))


def _repeat(x, repeats: int, axis: int):
    """Each element of `x` repeated `repeats` times along `axis` (nearest upsampling)."""
    shape = x.shape.as_list()
    tiled = array_ops.tile(array_ops.expand_dims(x, axis + 1),
                           [1] * (axis + 1) + [repeats] + [1] * (len(shape) - axis - 1))
    new_shape = [-1] + shape[1:]
    new_shape[axis] = shape[axis] * repeats
    return array_ops.reshape(tiled, new_shape)


def _bilinear_weights(size: int, factor: int) -> np.ndarray:
    """[size * factor, size]: the weights of half-pixel-centred linear interpolation (as
    TF's image resize, without antialiasing)."""
    source = (np.arange(size * factor) + 0.5) / factor - 0.5
    below = np.floor(source)
    frac = source - below
    weights = np.zeros((size * factor, size))
    rows = np.arange(size * factor)
    np.add.at(weights, (rows, np.clip(below, 0, size - 1).astype(int)), 1 - frac)
    np.add.at(weights, (rows, np.clip(below + 1, 0, size - 1).astype(int)), frac)
    return weights


class _UpSampling(Layer):
    rank = 2

    def __init__(self, size=2, data_format=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.size = normalize_tuple(size, self.rank, "size")
        self.data_format = normalize_data_format(type(self).__name__, data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs):
        for axis, factor in zip(_spatial_axes(self.rank, self.data_format), self.size):
            inputs = _repeat(inputs, factor, axis)
        return inputs

    def get_config(self) -> dict:
        return {**super().get_config(), "size": self.size, "data_format": self.data_format}


class UpSampling1D(_UpSampling):
    """Repeats each step of [batch, steps, features] `size` times.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.UpSampling1D(2)(tf.constant([[[1.0], [2.0]]])).numpy().ravel()
        array([1., 1., 2., 2.], dtype=float32)
    """

    rank = 1

    def __init__(self, size: int = 2, **kwargs) -> None:
        super().__init__(size, **kwargs)
        self.size = int(size)

    def call(self, inputs):
        return _repeat(inputs, self.size, 1)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["data_format"]
        return config


class UpSampling2D(_UpSampling):
    """Enlarges [batch, height, width, channels] images by `size` (rows, columns), by
    repeating pixels ('nearest') or by linear interpolation between pixel centres
    ('bilinear', as TF's image resize).

    Args:
        size: an int or (rows, columns) factors (default 2).
        data_format: 'channels_last' (default) or 'channels_first'.
        interpolation: 'nearest' (default) or 'bilinear'.

    Raises:
        ValueError: another interpolation, bad sizes or data_format.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.constant([0.0, 4.0]), [1, 1, 2, 1])
        >>> up = tf.keras.layers.UpSampling2D((1, 2), interpolation="bilinear")
        >>> up(x).numpy().ravel()
        array([0., 1., 3., 4.], dtype=float32)
    """

    def __init__(self, size=(2, 2), data_format=None, interpolation: str = "nearest",
                 **kwargs) -> None:
        super().__init__(size, data_format, **kwargs)
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError(f"UpSampling2D: `interpolation` must be 'nearest' or 'bilinear'. "
                             f"Received: interpolation={interpolation!r}")
        self.interpolation = interpolation

    def call(self, inputs):
        if self.interpolation == "nearest":
            return super().call(inputs)
        rows, cols = _spatial_axes(2, self.data_format)
        shape = inputs.shape.as_list()
        equations = ("nhwc,Hh->nHwc", "nhwc,Ww->nhWc") if self.data_format == "channels_last" \
            else ("nchw,Hh->ncHw", "nchw,Ww->nchW")
        for equation, axis, factor in zip(equations, (rows, cols), self.size):
            weights = _bilinear_weights(shape[axis], factor).astype(inputs.dtype.name)
            inputs = special_math_ops.einsum(equation, inputs, weights)
        return inputs

    def get_config(self) -> dict:
        return {**super().get_config(), "interpolation": self.interpolation}


class UpSampling3D(_UpSampling):
    """Repeats each voxel of [batch, depth, height, width, channels] volumes `size` times
    along each axis.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.UpSampling3D()(tf.ones([1, 1, 2, 1, 3])).shape
        TensorShape([1, 2, 4, 2, 3])
    """

    rank = 3


def _pairs(value, rank: int, name: str) -> tuple:
    """An int, `rank` ints or `rank` (before, after) pairs as `rank` pairs; for rank 1 also
    one (before, after) pair."""
    if isinstance(value, int):
        value = (value,) * rank
    elif rank == 1 and len(value) == 2 and all(isinstance(v, int) for v in value):
        value = (tuple(value),)
    pairs = tuple((v, v) if isinstance(v, int) else tuple(int(a) for a in v) for v in value)
    if len(pairs) != rank or any(len(p) != 2 or min(p) < 0 for p in pairs):
        raise ValueError(f"`{name}` should be an int, a tuple of {rank} ints, or a tuple of "
                         f"{rank} tuples of 2 non-negative ints. Received: {name}={value!r}")
    return pairs


class _Edges(Layer):
    """Adds (ZeroPadding) or removes (Cropping) rows at both ends of each spatial axis."""

    rank = 2
    _argument = "padding"

    def __init__(self, amounts, data_format=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._amounts = _pairs(amounts, self.rank, self._argument)
        self.data_format = normalize_data_format(type(self).__name__, data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def _by_axis(self) -> dict:
        return dict(zip(_spatial_axes(self.rank, self.data_format), self._amounts))

    def get_config(self) -> dict:
        amounts = self._amounts[0] if self.rank == 1 else self._amounts
        return {**super().get_config(), self._argument: amounts,
                "data_format": self.data_format}


class _ZeroPadding(_Edges):
    def call(self, inputs):
        by_axis = self._by_axis()
        return array_ops.pad(inputs, [list(by_axis.get(axis, (0, 0)))
                                      for axis in range(self.rank + 2)])


class ZeroPadding1D(_ZeroPadding):
    """Adds zeros before and after the steps of [batch, steps, features].

    Args:
        padding: an int (both sides) or (before, after).
        data_format: 'channels_last' (default) or 'channels_first'.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.ZeroPadding1D((1, 2))(tf.ones([1, 2, 1])).numpy().ravel()
        array([0., 1., 1., 0., 0.], dtype=float32)
    """

    rank = 1

    def __init__(self, padding=1, data_format=None, **kwargs) -> None:
        super().__init__(padding, data_format, **kwargs)


class ZeroPadding2D(_ZeroPadding):
    """Adds rows and columns of zeros around [batch, height, width, channels] images.

    Args:
        padding: an int, (rows, columns), or ((top, bottom), (left, right)).
        data_format: 'channels_last' (default) or 'channels_first'.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.ZeroPadding2D(((1, 0), (0, 2)))(tf.ones([1, 2, 2, 1])).shape
        TensorShape([1, 3, 4, 1])
    """

    def __init__(self, padding=(1, 1), data_format=None, **kwargs) -> None:
        super().__init__(padding, data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    """Adds zeros around [batch, depth, height, width, channels] volumes: an int, 3 ints,
    or 3 (before, after) pairs.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.ZeroPadding3D()(tf.ones([1, 2, 2, 2, 1])).shape
        TensorShape([1, 4, 4, 4, 1])
    """

    rank = 3

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs) -> None:
        super().__init__(padding, data_format, **kwargs)


class _Cropping(_Edges):
    _argument = "cropping"

    def call(self, inputs):
        shape = inputs.shape.as_list()
        by_axis = self._by_axis()
        for axis, (before, after) in by_axis.items():
            if before + after > shape[axis]:
                raise ValueError(f'Layer "{self.name}": cropping {self._amounts} removes more '
                                 f"than the input shape {shape} holds.")
        return inputs[tuple(slice(by_axis[a][0], shape[a] - by_axis[a][1]) if a in by_axis
                            else slice(None) for a in range(len(shape)))]


class Cropping1D(_Cropping):
    """Removes steps at the start and end of [batch, steps, features].

    Args:
        cropping: an int (both ends) or (start, end).

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(5.0), [1, 5, 1])
        >>> tf.keras.layers.Cropping1D((1, 2))(x).numpy().ravel()
        array([1., 2.], dtype=float32)
    """

    rank = 1

    def __init__(self, cropping=(1, 1), **kwargs) -> None:
        super().__init__(cropping, **kwargs)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["data_format"]
        return config


class Cropping2D(_Cropping):
    """Removes rows and columns at the edges of [batch, height, width, channels] images.

    Args:
        cropping: an int, (rows, columns), or ((top, bottom), (left, right)).
        data_format: 'channels_last' (default) or 'channels_first'.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Cropping2D(((1, 0), (0, 2)))(tf.ones([1, 4, 4, 1])).shape
        TensorShape([1, 3, 2, 1])
    """

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs) -> None:
        super().__init__(cropping, data_format, **kwargs)


class Cropping3D(_Cropping):
    """Removes voxels at the edges of [batch, depth, height, width, channels] volumes: an
    int, 3 ints, or 3 (before, after) pairs.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Cropping3D()(tf.ones([1, 4, 4, 4, 1])).shape
        TensorShape([1, 2, 2, 2, 1])
    """

    rank = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs) -> None:
        super().__init__(cropping, data_format, **kwargs)


class RepeatVector(Layer):
    """Repeats each [features] vector of a [batch, features] input `n` times:
    [batch, n, features].

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.RepeatVector(3)(tf.constant([[1.0, 2.0]])).numpy()
        array([[[1., 2.],
                [1., 2.],
                [1., 2.]]], dtype=float32)
    """

    def __init__(self, n: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.n = int(n)
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return array_ops.tile(array_ops.expand_dims(inputs, 1), [1, self.n, 1])

    def get_config(self) -> dict:
        return {**super().get_config(), "n": self.n}


class Permute(Layer):
    """Permutes the non-batch axes: `dims` numbers them from 1 (Permute((2, 1)) swaps the
    two axes of [batch, a, b]).

    Raises:
        ValueError: `dims` not a permutation of 1..len(dims).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Permute((2, 1))(tf.ones([4, 2, 3])).shape
        TensorShape([4, 3, 2])
    """

    def __init__(self, dims, **kwargs) -> None:
        super().__init__(**kwargs)
        self.dims = tuple(int(d) for d in dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError("Invalid permutation argument `dims` for Permute Layer. The set "
                             "of indices in `dims` must be `{1, 2, ..., rank}`. Received: "
                             f"dims={dims}")
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def call(self, inputs):
        return array_ops.transpose(inputs, (0,) + self.dims)

    def get_config(self) -> dict:
        return {**super().get_config(), "dims": self.dims}
