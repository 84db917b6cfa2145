"""The modified discrete cosine transform (tf.signal.mdct, inverse_mdct) and the windows made
for it: Kaiser, Kaiser-Bessel-derived and Vorbis. All are composed of framing, the type-4 DCT
and array ops, whose gradients they get; windows are constants."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..framework.errors import invalid_argument
from ..framework.tensor import Tensor, constant
from .array_ops import concat, reverse
from .op_util import as_input
from .spectral_ops import _float_dtype, _one_int, dct, frame, overlap_and_add


def _window_length(op_name: str, window_length, dtype) -> tuple:
    dtype = _float_dtype(op_name, dtype)
    length = _one_int(op_name, window_length, "window_length")
    if length < 0:
        raise invalid_argument(op_name, f"window_length must be non-negative, got {length}")
    return length, dtype._np


def _kaiser(length: int, beta: float, np_dtype) -> np.ndarray:
    if length == 1:
        return np.ones(1, np_dtype)
    half = (length - 1) / 2.0
    ratio = (np.arange(length) - half) / half
    return (np.i0(beta * np.sqrt(np.maximum(1.0 - ratio * ratio, 0.0))) /
            np.i0(beta)).astype(np_dtype)


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None) -> Tensor:
    """The Kaiser window I0(beta sqrt(1 - (2n / (N - 1) - 1)^2)) / I0(beta), N = window_length.

    Args:
        window_length: the number of samples.
        beta: the shape parameter (larger: narrower main lobe in time).
        dtype: a floating dtype.

    Returns:
        A [window_length] tensor of `dtype`.

    Raises:
        ValueError: dtype is not floating.
        InvalidArgumentError: window_length is not positive.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.kaiser_window(4, beta=2.0).numpy()
        array([0.4387, 0.9243 , 0.9243 , 0.4387], dtype=float32)
    """
    length, np_dtype = _window_length("kaiser_window", window_length, dtype)
    if length == 0:  # TF's window is a range that cannot be empty
        raise invalid_argument("kaiser_window", "window_length must be positive, got 0")
    return constant(_kaiser(length, float(beta), np_dtype))


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32,
                                 name=None) -> Tensor:
    """The Kaiser-Bessel-derived window: the square root of the normalized running sum of a
    Kaiser window of window_length // 2 + 1 samples, mirrored. Its length is even:
    2 * (window_length // 2), as in TF.

    Args:
        window_length: the number of samples.
        beta: the Kaiser window's shape parameter.
        dtype: a floating dtype.

    Returns:
        A [2 * (window_length // 2)] tensor of `dtype`.

    Raises:
        ValueError: dtype is not floating.
        InvalidArgumentError: window_length is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.kaiser_bessel_derived_window(4, beta=2.0).numpy()
        array([0.4834, 0.8754 , 0.8754 , 0.4834], dtype=float32)
    """
    length, np_dtype = _window_length("kaiser_bessel_derived_window", window_length, dtype)
    running = np.cumsum(_kaiser(length // 2 + 1, float(beta), np_dtype))
    half = np.sqrt(running[:-1] / running[-1]).astype(np_dtype)
    return constant(np.concatenate([half, half[::-1]]))


def vorbis_window(window_length, dtype=dtypes.float32, name=None) -> Tensor:
    """The Vorbis power-complementary window sin(pi / 2 sin^2(pi (n + 1/2) / N)).

    Args:
        window_length: the number of samples N.
        dtype: a floating dtype.

    Returns:
        A [window_length] tensor of `dtype`.

    Raises:
        ValueError: dtype is not floating.
        InvalidArgumentError: window_length is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.vorbis_window(4).numpy()
        array([0.228, 0.9737 , 0.9737 , 0.228], dtype=float32)
    """
    length, np_dtype = _window_length("vorbis_window", window_length, dtype)
    n = np.arange(length).astype(np_dtype)
    inner = np.sin(np_dtype.type(np.pi) / np_dtype.type(max(length, 1)) *
                   (n + np_dtype.type(0.5)))
    return constant(np.sin(np_dtype.type(np.pi / 2.0) * inner * inner).astype(np_dtype))


def _windowed(frames: Tensor, window_fn, length: int) -> Tensor:
    if window_fn is None:
        return frames * (1.0 / np.sqrt(2.0))
    return frames * window_fn(length, dtype=frames.dtype)


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None,
         name=None) -> Tensor:
    """The modified discrete cosine transform of frames of `frame_length` samples, half
    overlapping: frame_length // 2 coefficients per frame.

    Args:
        signals: a float32/float64 [..., samples] tensor.
        frame_length: samples per frame, a multiple of 4.
        window_fn: `window_fn(frame_length, dtype=...)` makes the window (vorbis_window by
            default; kaiser_bessel_derived_window or None, a flat 1/sqrt(2), also invert
            exactly); w[n]^2 + w[n + frame_length / 2]^2 = 1 makes inverse_mdct exact.
        pad_end: pad the end with zeros so that the last samples make a frame.
        norm: None (the unnormalized type-4 DCT) or "ortho".

    Returns:
        A [..., frames, frame_length // 2] tensor of the signals' dtype.

    Raises:
        ValueError: a scalar signal, or frame_length not a multiple of 4.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.mdct(tf.ones([16]), 8).shape
        TensorShape([3, 4])
    """
    x = as_input(signals)
    if x.ndim == 0:
        raise ValueError("mdct: signals must have rank >= 1, got a scalar")
    length = _one_int("mdct", frame_length, "frame_length")
    if length % 4 != 0:
        raise ValueError(f"mdct: the frame length must be a multiple of 4, got {length}")
    frames = _windowed(frame(x, length, length // 2, pad_end=pad_end), window_fn, length)
    quarter = length // 4
    a, b, c, d = (frames[..., i * quarter:(i + 1) * quarter] for i in range(4))
    rearranged = concat([-reverse(c, [-1]) - d, a - reverse(b, [-1])], axis=-1)
    return dct(rearranged, type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None) -> Tensor:
    """The inverse of `mdct`: each frame's inverse type-4 DCT, unfolded, windowed and
    overlap-added at half a frame's step.

    Args:
        mdcts: a float32/float64 [..., frames, frame_length // 2] tensor.
        window_fn: the window `mdct` used (see there).
        norm: None or "ortho", as `mdct` used.

    Returns:
        A [..., (frames - 1) * (frame_length // 2) + frame_length] tensor.

    Raises:
        ValueError: mdcts of rank below 2, or a norm other than None and "ortho".

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.inverse_mdct(tf.signal.mdct(tf.ones([16]), 8)).shape
        TensorShape([16])
    """
    x = as_input(mdcts)
    if x.ndim < 2:
        raise ValueError(f"inverse_mdct: mdcts must have rank >= 2, got shape "
                         f"{x.shape.as_list()}")
    half = x.shape[-1]
    if norm is None:
        unfolded = dct(x, type=4) * (0.5 / half)
    elif norm == "ortho":
        unfolded = dct(x, type=4, norm="ortho")
    else:
        raise ValueError(f"inverse_mdct: norm must be None or 'ortho', got {norm!r}")
    first, second = unfolded[..., :half // 2], unfolded[..., half // 2:]
    frames = concat([second, -reverse(second, [-1]), -reverse(first, [-1]), -first], axis=-1)
    return overlap_and_add(_windowed(frames, window_fn, 2 * half), half)
