"""tf.signal's framing, windows, spectrograms, DCT and mel features, composed of the DFT
family (signal_ops.py) and other ops, so their gradients come from those ops' rules.
Windows and mel matrices are constants, computed with NumPy in the requested dtype."""
from __future__ import annotations

import math

import numpy as np

from ..framework import dtypes
from ..framework.errors import invalid_argument
from ..framework.tensor import Tensor, constant
from .array_ops import expand_dims, pad, reshape, squeeze, transpose
from .gather_ops import gather, unsorted_segment_sum
from .math_ops import matmul, reduce_sum
from .op_util import as_input, int_values, normalize_axis
from .signal_ops import fit_innermost, irfft, rfft


def _one_int(op_name: str, value, what: str) -> int:
    values = int_values(op_name, value, what)
    if len(values) != 1:
        raise ValueError(f"{op_name}: {what} must be a scalar integer, got {value!r}")
    return values[0]


def _float_dtype(op_name: str, dtype) -> dtypes.DType:
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"{op_name}: dtype must be a floating point type, got {dtype.name}")
    return dtype


# -- framing ---------------------------------------------------------------------------------
def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1,
          name=None) -> Tensor:
    """Slides a window of `frame_length` samples, `frame_step` apart, along `axis`.

    Args:
        signal: a tensor of rank >= 1.
        frame_length: samples per frame.
        frame_step: samples between the starts of consecutive frames.
        pad_end: pad the end with `pad_value` so that every sample starts a frame's step:
            ceil(length / frame_step) frames instead of 1 + (length - frame_length) //
            frame_step.
        pad_value: the padding value when `pad_end`.
        axis: the axis to frame.

    Returns:
        `signal.shape[:axis] + [frames, frame_length] + signal.shape[axis + 1:]`.

    Raises:
        ValueError: a rank-0 signal, or a framed axis of unknown length in a graph.
        InvalidArgumentError: `axis` is out of range, frame_length is negative or frame_step
            not positive.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.frame(tf.range(6), 3, 2, pad_end=True).numpy()
        array([[0, 1, 2],
               [2, 3, 4],
               [4, 5, 0]], dtype=int32)
    """
    x = as_input(signal)
    if x.ndim == 0:
        raise ValueError(f"frame: signal must have rank at least 1, got shape "
                         f"{x.shape.as_list()}")
    length = _one_int("frame", frame_length, "frame_length")
    step = _one_int("frame", frame_step, "frame_step")
    if length < 0 or step <= 0:
        raise invalid_argument("frame", f"frame_length ({length}) must be non-negative and "
                                        f"frame_step ({step}) positive")
    a = normalize_axis("frame", axis, x.ndim)
    samples = x.shape.as_list()[a]
    if samples is None:
        raise ValueError(f"frame: the length of axis {a} must be known while a graph is built, "
                         f"got signal shape {x.shape}")
    if pad_end:
        frames = -(-samples // step)
        extra = max(0, (frames - 1) * step + length - samples)
        paddings = [[0, 0]] * x.ndim
        paddings[a] = [0, extra]
        x = pad(x, paddings, constant_values=pad_value)
    else:
        frames = max(0, 1 + (samples - length) // step)
    starts = np.arange(frames, dtype=np.int32)[:, None] * step
    # Gathered off axis 0, so that the signal's gradient is dense, as TF's.
    framed = gather(expand_dims(x, 0), starts + np.arange(length, dtype=np.int32), axis=a + 1)
    return squeeze(framed, [0])


def overlap_and_add(signal, frame_step, name=None) -> Tensor:
    """Adds up frames placed `frame_step` apart: the inverse of `frame` up to the window.

    Args:
        signal: a [..., frames, frame_length] tensor.
        frame_step: samples between the starts of consecutive frames.

    Returns:
        A [..., (frames - 1) * frame_step + frame_length] tensor of the signal's dtype.

    Raises:
        ValueError: the signal's rank is below 2, or its shape is unknown in a graph.
        InvalidArgumentError: frame_step is not positive.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.overlap_and_add(tf.ones([3, 4]), 2).numpy()
        array([1., 1., 2., 2., 2., 2., 1., 1.], dtype=float32)
    """
    x = as_input(signal)
    if x.ndim < 2:
        raise ValueError(f"overlap_and_add: signal must have rank at least 2, got shape "
                         f"{x.shape.as_list()}")
    step = _one_int("overlap_and_add", frame_step, "frame_step")
    if step <= 0:
        raise invalid_argument("overlap_and_add", f"frame_step must be positive, got {step}")
    *lead, frames, length = x.shape.as_list()
    if None in lead or frames is None or length is None:
        raise ValueError(f"overlap_and_add: the signal's shape must be known while a graph is "
                         f"built, got {x.shape}")
    samples = max(0, (frames - 1) * step + length)
    # Samples first, then one segment sum puts each at its place in the output.
    flat = transpose(reshape(x, [math.prod(lead), frames * length]))
    places = (np.arange(frames, dtype=np.int32)[:, None] * step
              + np.arange(length, dtype=np.int32)).ravel()
    summed = unsorted_segment_sum(flat, places, samples)
    return reshape(transpose(summed), lead + [samples])


# -- windows ---------------------------------------------------------------------------------
def _raised_cosine(op_name: str, window_length, periodic, dtype, a: float, b: float) -> Tensor:
    dtype = _float_dtype(op_name, dtype)
    length = _one_int(op_name, window_length, "window_length")
    if length < 0:
        raise invalid_argument(op_name, f"window_length must be non-negative, got {length}")
    np_dtype = dtype._np
    if length == 1:
        return constant(np.ones(1, np_dtype))
    # A periodic window of even length is the symmetric one of length + 1 less its last
    # sample; TF applies `periodic` to even lengths only.
    even = 1 - length % 2
    denominator = np_dtype.type(length + bool(periodic) * even - 1)
    n = np.arange(length).astype(np_dtype)
    two_pi = np_dtype.type(2.0 * np.pi)
    window = np_dtype.type(a) - np_dtype.type(b) * np.cos(two_pi * n / denominator)
    return constant(window.astype(np_dtype))


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None) -> Tensor:
    """The Hann window 0.5 - 0.5 cos(2 pi n / N); N = window_length, less 1 unless periodic.

    Raises:
        ValueError: dtype is not floating.
        InvalidArgumentError: window_length is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.hann_window(4).numpy()
        array([0. , 0.5, 1. , 0.5], dtype=float32)
    """
    return _raised_cosine("hann_window", window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None) -> Tensor:
    """The Hamming window 0.54 - 0.46 cos(2 pi n / N); N = window_length, less 1 unless
    periodic.

    Raises:
        ValueError: dtype is not floating.
        InvalidArgumentError: window_length is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.hamming_window(4).numpy().round(4)
        array([0.08, 0.54, 1.  , 0.54], dtype=float32)
    """
    return _raised_cosine("hamming_window", window_length, periodic, dtype, 0.54, 0.46)


# -- short-time Fourier transforms -----------------------------------------------------------
def _fft_length(frame_length: int, fft_length) -> int:
    if fft_length is None:
        return 1 << max(0, frame_length - 1).bit_length()  # the next power of 2
    return _one_int("stft", fft_length, "fft_length")


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None) -> Tensor:
    """The short-time Fourier transform: the RFFT of each windowed frame of the signals.

    Args:
        signals: a float32/float64 [..., samples] tensor.
        frame_length: samples per frame.
        frame_step: samples between frame starts.
        fft_length: the FFT size (default: the power of 2 at or above frame_length).
        window_fn: `window_fn(frame_length, dtype=...)` makes the window; None for none.
        pad_end: pad the signal's end with zeros (see `frame`).

    Returns:
        A complex [..., frames, fft_length // 2 + 1] tensor.

    Raises:
        ValueError: signals of rank 0 or not float32/float64, or bad lengths.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.stft(tf.ones([8]), 4, 2, window_fn=None).shape
        TensorShape([3, 3])
    """
    x = as_input(signals)
    length = _one_int("stft", frame_length, "frame_length")
    n = _fft_length(length, fft_length)
    framed = frame(x, length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(length, dtype=framed.dtype)
    return rfft(framed, [n])


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None) -> Tensor:
    """Rebuilds signals from their STFT: the IRFFT of each frame, cut or zero-padded to
    frame_length, windowed and overlap-added. With the window from
    `inverse_stft_window_fn` it inverts `stft`.

    Args:
        stfts: a complex [..., frames, bins] tensor.
        frame_length: samples per frame.
        frame_step: samples between frame starts.
        fft_length: the FFT size (default: the power of 2 at or above frame_length).
        window_fn: `window_fn(frame_length, dtype=...)` makes the window; None for none.

    Returns:
        A real [..., (frames - 1) * frame_step + frame_length] tensor.

    Raises:
        ValueError: stfts of rank < 2 or not complex, or bad lengths.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.normal([32], seed=1)
        >>> window = tf.signal.inverse_stft_window_fn(4)
        >>> y = tf.signal.inverse_stft(tf.signal.stft(x, 16, 4), 16, 4, window_fn=window)
        >>> bool(tf.reduce_max(tf.abs(y[12:-12] - x[12:-12])) < 1e-5)
        True
    """
    x = as_input(stfts)
    if x.ndim < 2:
        raise ValueError(f"inverse_stft: stfts must have rank at least 2, got shape "
                         f"{x.shape.as_list()}")
    length = _one_int("inverse_stft", frame_length, "frame_length")
    n = _fft_length(length, fft_length)
    frames = fit_innermost(irfft(x, [n]), (length,))
    if window_fn is not None:
        frames = frames * window_fn(length, dtype=frames.dtype)
    return overlap_and_add(frames, frame_step)


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """The window function that makes `inverse_stft` invert `stft` with
    `forward_window_fn`: the forward window over the sum of its overlapping squares.

    Args:
        frame_step: samples between frame starts.
        forward_window_fn: the window function `stft` used.

    Returns:
        `window_fn(frame_length, dtype)` for `inverse_stft`.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.inverse_stft_window_fn(2)(4, tf.float32).numpy()
        array([0., 1., 1., 1.], dtype=float32)
    """
    step = _one_int("inverse_stft_window_fn", frame_step, "frame_step")

    def inverse_stft_window(frame_length, dtype):
        length = _one_int("inverse_stft_window_fn", frame_length, "frame_length")
        forward = forward_window_fn(length, dtype=dtype)
        overlaps = -(-length // step)
        squares = pad(forward * forward, [[0, overlaps * step - length]])
        denominator = reduce_sum(reshape(squares, [overlaps, step]), 0)
        return forward / gather(denominator, np.arange(length) % step)

    return inverse_stft_window


# -- discrete cosine transforms --------------------------------------------------------------
def _dct_matrix(kind: int, size: int, ortho: bool) -> np.ndarray:
    """The [size, size] matrix C of the DCT of type `kind`: y = C x."""
    k = np.arange(size)[:, None]
    n = np.arange(size)[None, :]
    if kind == 1:
        matrix = 2.0 * np.cos(np.pi * k * n / (size - 1))
        matrix[:, 0] = 1.0
        matrix[:, -1] = (-1.0) ** np.arange(size)
    elif kind == 2:
        matrix = 2.0 * np.cos(np.pi * k * (2 * n + 1) / (2 * size))
        if ortho:
            matrix[0] *= np.sqrt(1.0 / (4 * size))
            matrix[1:] *= np.sqrt(1.0 / (2 * size))
    elif kind == 3:
        matrix = 2.0 * np.cos(np.pi * n * (2 * k + 1) / (2 * size))
        matrix[:, 0] = 1.0
        if ortho:
            matrix[:, 0] *= np.sqrt(1.0 / size)
            matrix[:, 1:] *= np.sqrt(1.0 / (2 * size))
    else:
        matrix = 2.0 * np.cos(np.pi * (2 * n + 1) * (2 * k + 1) / (4 * size))
        if ortho:
            matrix *= np.sqrt(1.0 / (2 * size))
    return matrix


def dct(input, type=2, n=None, axis=-1, norm=None, name=None) -> Tensor:  # noqa: A002
    """The discrete cosine transform of type 1, 2, 3 or 4 along the last axis (scipy's
    definitions, unnormalized or orthonormal).

    Args:
        input: a float32 or float64 tensor of rank >= 1.
        type: 1, 2, 3 or 4.
        n: the transform length: the last axis is cropped or zero-padded to it first.
        axis: must be -1.
        norm: None or "ortho" (not with type 1).

    Returns:
        A tensor of the input's dtype, the last axis of length n.

    Raises:
        ValueError: a bad type, norm, or n; type 1 on fewer than 2 samples or with "ortho";
            a scalar input.
        TypeError: an input that is not float32 or float64.
        NotImplementedError: axis is not -1.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.dct(tf.constant([1.0, 2.0, 3.0])).numpy()
        array([12.      , -3.464102,  0.      ], dtype=float32)
    """
    x = as_input(input)
    if type not in (1, 2, 3, 4):
        raise ValueError(f"dct: Types I, II, III and IV (I)DCT are supported, got type {type}")
    if axis != -1:
        raise NotImplementedError(f"dct: axis must be -1. Got: {axis}")
    if n is not None:
        n = _one_int("dct", n, "n")
        if n < 1:
            raise ValueError(f"dct: n should be a positive integer or None, got {n}")
    if norm not in (None, "ortho"):
        raise ValueError(f"dct: Unknown normalization. Expected None or 'ortho', got: {norm}")
    if type == 1 and norm == "ortho":
        raise ValueError("dct: Normalization is not supported for the Type-I DCT.")
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"dct: input must be a float32 or float64 tensor, got "
                        f"{x.dtype.name} of shape {x.shape.as_list()}")
    if x.ndim == 0:
        raise ValueError("dct: input must have rank at least 1, got a scalar")
    if n is not None:
        x = fit_innermost(x, (n,))
    *lead, size = x.shape.as_list()
    if type == 1 and size < 2:
        raise ValueError(f"dct: Type-I DCT requires the dimension to be greater than one, got "
                         f"shape {x.shape.as_list()}")
    matrix = constant(_dct_matrix(type, size, norm == "ortho").T.astype(x.dtype._np))
    return reshape(matmul(reshape(x, [-1, size]), matrix), lead + [size])


def idct(input, type=2, n=None, axis=-1, norm=None, name=None) -> Tensor:  # noqa: A002
    """The inverse DCT: the DCT of the inverse type (2 and 3 swap). Unnormalized, it is
    the inverse up to a factor 1 / (2 n) (1 / (2 (n - 1)) for type 1).

    Raises:
        ValueError, TypeError, NotImplementedError: as `dct`.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([1.0, 2.0, 3.0])
        >>> tf.signal.idct(tf.signal.dct(x, norm="ortho"), norm="ortho").numpy().round(4)
        array([1., 2., 3.], dtype=float32)
    """
    if type not in (1, 2, 3, 4):
        raise ValueError(f"idct: Types I, II, III and IV (I)DCT are supported, got type {type}")
    return dct(input, type={1: 1, 2: 3, 3: 2, 4: 4}[type], n=n, axis=axis, norm=norm)


# -- mel features ----------------------------------------------------------------------------
def _hertz_to_mel(frequencies):
    return 1127.0 * np.log(1.0 + frequencies / 700.0)


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=dtypes.float32, name=None) -> Tensor:
    """The [num_spectrogram_bins, num_mel_bins] matrix that maps linear-frequency spectrogram
    bins (0 to sample_rate / 2) to triangular mel bands between the edge frequencies (the
    mel scale 1127 ln(1 + f / 700)); the DC bin gets no weight.

    Raises:
        ValueError: num_mel_bins not positive, lower_edge_hertz negative or not below
            upper_edge_hertz, upper_edge_hertz above the Nyquist frequency, a non-positive
            sample_rate, or a dtype that is not floating.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.linear_to_mel_weight_matrix(4, 9, 8000, 100.0, 4000.0).shape
        TensorShape([9, 4])
    """
    dtype = _float_dtype("linear_to_mel_weight_matrix", dtype)
    mel_bins = _one_int("linear_to_mel_weight_matrix", num_mel_bins, "num_mel_bins")
    bins = _one_int("linear_to_mel_weight_matrix", num_spectrogram_bins,
                    "num_spectrogram_bins")
    rate, lower, upper = (float(np.asarray(getattr(v, "_value", v)))
                          for v in (sample_rate, lower_edge_hertz, upper_edge_hertz))
    if mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {mel_bins}")
    if lower < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower}")
    if lower >= upper:
        raise ValueError(f"lower_edge_hertz {lower} >= upper_edge_hertz {upper}")
    if rate <= 0.0:
        raise ValueError(f"sample_rate must be positive. Got: {rate}")
    if upper > rate / 2:
        raise ValueError(f"upper_edge_hertz must not be larger than the Nyquist frequency "
                         f"(sample_rate / 2). Got {upper} for sample_rate: {rate}")
    spectrogram_mel = _hertz_to_mel(np.linspace(0.0, rate / 2, bins)[1:])[:, None]
    edges = np.linspace(_hertz_to_mel(lower), _hertz_to_mel(upper), mel_bins + 2)
    left, center, right = edges[:-2], edges[1:-1], edges[2:]
    rising = (spectrogram_mel - left) / (center - left)
    falling = (right - spectrogram_mel) / (right - center)
    weights = np.maximum(0.0, np.minimum(rising, falling))
    return constant(np.pad(weights, [[1, 0], [0, 0]]).astype(dtype._np))


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None) -> Tensor:
    """Mel-frequency cepstral coefficients: the orthonormal-scaled type-2 DCT of log-mel
    spectrograms along their last axis (keep the first few for features).

    Raises:
        ValueError: the last axis is empty.
        TypeError: the input is not float32 or float64.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.signal.mfccs_from_log_mel_spectrograms(tf.ones([2, 4]))[0, 0])
        2.828427
    """
    x = as_input(log_mel_spectrograms)
    bins = x.shape.as_list()[-1] if x.ndim else 0
    if bins <= 0:
        raise ValueError(f"mfccs_from_log_mel_spectrograms: num_mel_bins must be positive, "
                         f"got shape {x.shape.as_list()}")
    return dct(x, type=2) * (1.0 / math.sqrt(2.0 * bins))
