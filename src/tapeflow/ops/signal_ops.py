"""Discrete Fourier transforms over the innermost 1, 2 or 3 axes or over any axes (the n-D
ones), and the spectrum shifts; kernels and the public TF-named functions.

The transforms are the one primitive of tf.signal: no composition of existing ops computes an
O(n log n) DFT, so each is one `define_op` row (gradient rules in `signal_grad.py`); every
other tf.signal function (spectral_ops.py) is composed of them and other ops. The primitives
see their input already cropped or zero-padded to `fft_length`, so that step gets its
gradient from StridedSlice and Pad.
"""
from __future__ import annotations

import functools
import math
import warnings

import numpy as np

from ..framework import dtypes
from ..framework.errors import invalid_argument
from ..framework.execute import execute
from ..framework.registry import LINEAR, TRANSPARENT, define_op
from ..framework.tensor import Tensor, constant
from ..framework.variables import Variable
from .array_ops import pad, roll
from .math_ops import cast
from .op_util import NO_ATTRS, as_input, int_values, normalize_axes

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


# -- kernels ---------------------------------------------------------------------------------
def _axes(rank: int) -> tuple:
    return tuple(range(-rank, 0))


def _fft(x, rank):
    return np.fft.fftn(x, axes=_axes(rank)).astype(x.dtype, copy=False)


def _ifft(x, rank):
    return np.fft.ifftn(x, axes=_axes(rank)).astype(x.dtype, copy=False)


def _rfft(x, fft_length):
    return np.fft.rfftn(x, s=fft_length, axes=_axes(len(fft_length))).astype(
        _COMPLEX_OF[x.dtype], copy=False)


def _irfft(x, fft_length):
    return np.fft.irfftn(x, s=fft_length, axes=_axes(len(fft_length))).astype(
        x.real.dtype, copy=False)


def _fftnd(x, axes):
    return np.fft.fftn(x, axes=axes).astype(x.dtype, copy=False)


def _ifftnd(x, axes):
    return np.fft.ifftn(x, axes=axes).astype(x.dtype, copy=False)


def _rfftnd(x, fft_length, axes):
    return np.fft.rfftn(x, s=fft_length, axes=axes).astype(_COMPLEX_OF[x.dtype], copy=False)


def _irfftnd(x, fft_length, axes):
    return np.fft.irfftn(x, s=fft_length, axes=axes).astype(x.real.dtype, copy=False)


# -- ops -------------------------------------------------------------------------------------
# Primitives because no composition of existing ops computes a DFT in O(n log n). All are
# linear over the reals (IRFFT reads conjugates, so not over the complex numbers) and act on
# the innermost axes, which leaves their gradient rules blind to leading batch axes.
FFT, FFT2D, FFT3D = (define_op(f"FFT{s}", functools.partial(_fft, rank=r), family=LINEAR,
                               batching=TRANSPARENT) for r, s in ((1, ""), (2, "2D"), (3, "3D")))
IFFT, IFFT2D, IFFT3D = (define_op(f"IFFT{s}", functools.partial(_ifft, rank=r), family=LINEAR,
                                  batching=TRANSPARENT)
                        for r, s in ((1, ""), (2, "2D"), (3, "3D")))
RFFT, RFFT2D, RFFT3D = (define_op(f"RFFT{s}", _rfft, family=LINEAR, batching=TRANSPARENT)
                        for s in ("", "2D", "3D"))
IRFFT, IRFFT2D, IRFFT3D = (define_op(f"IRFFT{s}", _irfft, family=LINEAR, batching=TRANSPARENT)
                           for s in ("", "2D", "3D"))
# The n-D transforms over any axes (an `axes` attribute of negative axes, so that the rules
# stay blind to leading batch axes).
FFTND = define_op("FFTND", _fftnd, family=LINEAR, batching=TRANSPARENT)
IFFTND = define_op("IFFTND", _ifftnd, family=LINEAR, batching=TRANSPARENT)
RFFTND = define_op("RFFTND", _rfftnd, family=LINEAR, batching=TRANSPARENT)
IRFFTND = define_op("IRFFTND", _irfftnd, family=LINEAR, batching=TRANSPARENT)
COMPLEX_OPS = {1: (FFT, IFFT), 2: (FFT2D, IFFT2D), 3: (FFT3D, IFFT3D)}
REAL_OPS = {1: (RFFT, IRFFT), 2: (RFFT2D, IRFFT2D), 3: (RFFT3D, IRFFT3D)}


# -- public functions ------------------------------------------------------------------------
def _converted(value, default) -> Tensor:
    """A tensor as it is; other data cast to `default`, as TF's transforms convert it
    (imaginary parts dropped for a real default)."""
    if isinstance(value, (Tensor, Variable)):
        return value
    array = np.asarray(value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return constant(array.astype(default))


def _of_rank(op_name: str, x: Tensor, rank: int) -> Tensor:
    if x.ndim < rank:
        message = f"Input must have rank of at least {rank} but got: {x.shape.as_list()}"
        # TF's real transforms check the rank while converting: a ValueError.
        if "R" in op_name:
            raise ValueError(f"{op_name}: {message}")
        raise invalid_argument(op_name, message)
    return x


def fit_axes(x: Tensor, axes: tuple, lengths: tuple) -> Tensor:
    """`x` cropped or zero-padded at the end of `axes` (non-negative) to `lengths`."""
    shape = x.shape.as_list()
    fitted = dict(zip(axes, lengths))
    if all(shape[a] == n for a, n in fitted.items()):
        return x
    if any(shape[a] is None for a in fitted):
        raise ValueError(f"the sizes of the transformed axes {list(axes)} must be known to "
                         f"crop or pad them to {list(lengths)}; got shape {shape}")
    if any(n < shape[a] for a, n in fitted.items()):
        x = x[tuple(slice(None, fitted[i]) if i in fitted else slice(None)
                    for i in range(len(shape)))]
    if any(n > shape[a] for a, n in fitted.items()):
        x = pad(x, [[0, max(fitted[i] - shape[i], 0) if i in fitted else 0]
                    for i in range(len(shape))])
    return x


def fit_innermost(x: Tensor, lengths: tuple) -> Tensor:
    """`x` cropped or zero-padded at the end of its innermost axes to `lengths`."""
    return fit_axes(x, tuple(range(x.ndim - len(lengths), x.ndim)), lengths)


def _complex_transform(rank: int, inverse: bool):
    op = COMPLEX_OPS[rank][inverse]
    what = f"{'inverse ' if inverse else ''}{rank}-D discrete Fourier transform"

    def transform(input, name=None) -> Tensor:  # noqa: A002  (TF's argument name)
        x = _converted(input, np.complex64)
        if not x.dtype.is_complex:
            raise invalid_argument(op.name, f"expected a complex64 or complex128 tensor, got "
                                            f"dtype {x.dtype.name} (shape {x.shape.as_list()})")
        x = _of_rank(op.name, x, rank)
        return execute(op, (x,), NO_ATTRS)

    name = f"{'i' if inverse else ''}fft{'' if rank == 1 else f'{rank}d'}"
    shape = [[1.0 + 0j] * 2] * 2 if rank == 2 else [[[1.0 + 0j] * 2] * 2] * 2 if rank == 3 \
        else [1.0 + 0j, 1.0 + 0j]
    value = 2 ** rank if not inverse else 1
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"""The {what} over the innermost {rank} axes{
        ' (normalized by their size)' if inverse else ''}.

    Args:
        input: a complex64 or complex128 tensor of rank >= {rank}; other data (NumPy arrays,
            lists) becomes complex64, as in TF.

    Returns:
        A tensor of the input's shape and dtype.

    Raises:
        InvalidArgumentError: the input is not complex, or its rank is below {rank}.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.{name}(tf.constant({shape}, tf.complex64)).numpy().ravel()[0]
        np.complex64({value}+0j)
    """
    return transform


fft, ifft = _complex_transform(1, False), _complex_transform(1, True)
fft2d, ifft2d = _complex_transform(2, False), _complex_transform(2, True)
fft3d, ifft3d = _complex_transform(3, False), _complex_transform(3, True)


def _lengths(op_name: str, fft_length, rank: int) -> tuple:
    lengths = tuple(int_values(op_name, fft_length, "fft_length"))
    if len(lengths) != rank or any(n < 0 for n in lengths):
        raise invalid_argument(op_name, f"fft_length must be {rank} non-negative integers, got "
                                        f"{fft_length!r}")
    return lengths


def _real_transform(rank: int, inverse: bool):
    op = REAL_OPS[rank][inverse]

    def converted(value, default, allowed: tuple) -> Tensor:
        x = _converted(value, default)
        if x.dtype not in allowed:
            raise ValueError(f"{op.name} requires tf.{allowed[0].name} or tf.{allowed[1].name} "
                             f"inputs, got: {x.dtype.name} tensor of shape {x.shape.as_list()}")
        return _of_rank(op.name, x, rank)

    def forward(input_tensor, fft_length=None, name=None) -> Tensor:
        x = converted(input_tensor, np.float32, (dtypes.float32, dtypes.float64))
        lengths = tuple(x.shape.as_list()[-rank:]) if fft_length is None else \
            _lengths(op.name, fft_length, rank)
        return execute(op, (fit_innermost(x, lengths),), {"fft_length": lengths})

    def inverse_(input_tensor, fft_length=None, name=None) -> Tensor:
        x = converted(input_tensor, np.complex64, (dtypes.complex64, dtypes.complex128))
        inner = x.shape.as_list()[-rank:]
        lengths = tuple(inner[:-1]) + (2 * (inner[-1] - 1),) if fft_length is None else \
            _lengths(op.name, fft_length, rank)
        bins = lengths[:-1] + (lengths[-1] // 2 + 1,)
        return execute(op, (fit_innermost(x, bins),), {"fft_length": lengths})

    transform = inverse_ if inverse else forward
    name = f"{'ir' if inverse else 'r'}fft{'' if rank == 1 else f'{rank}d'}"
    transform.__name__ = transform.__qualname__ = name
    if inverse:
        transform.__doc__ = f"""The real signal of length `fft_length` whose {rank}-D DFT has
    the non-negative-frequency half spectrum `input_tensor` (innermost {rank} axes).

    The input's innermost axis is cropped or zero-padded to `fft_length[-1] // 2 + 1` bins
    and its other transformed axes to `fft_length`; the imaginary parts of the bins that must
    be real are ignored.

    Args:
        input_tensor: a complex64 or complex128 tensor of rank >= {rank}; other data (NumPy
            arrays, lists) becomes complex64, as in TF.
        fft_length: {rank} ints (default: the input's sizes, the last as 2 * (bins - 1)).

    Returns:
        float32 for complex64 input, float64 for complex128, of the innermost shape
        `fft_length`.

    Raises:
        ValueError: the input is not complex.
        InvalidArgumentError: its rank is below {rank}, or a bad `fft_length`.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.ones([{', '.join(['4'] * rank)}])
        >>> tf.signal.{name}(tf.signal.r{name[2:]}(x)).numpy().ravel()[:2]
        array([1., 1.], dtype=float32)
    """
    else:
        transform.__doc__ = f"""The {rank}-D DFT of a real signal over its innermost {rank} axes:
    the non-negative-frequency half `fft_length[-1] // 2 + 1` of the innermost axis.

    The input is cropped or zero-padded at the end to `fft_length` first.

    Args:
        input_tensor: a float32 or float64 tensor of rank >= {rank}; other data (NumPy
            arrays, lists) becomes float32 (imaginary parts dropped), as in TF.
        fft_length: {rank} ints (default: the input's innermost sizes).

    Returns:
        complex64 for float32 input, complex128 for float64.

    Raises:
        ValueError: the input is not float32 or float64.
        InvalidArgumentError: its rank is below {rank}, or a bad `fft_length`.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.{name}(tf.ones([{', '.join(['4'] * rank)}])).numpy().ravel()[:2]
        array([{4 ** rank}.+0.j,  0.+0.j], dtype=complex64)
    """
    return transform


rfft, irfft = _real_transform(1, False), _real_transform(1, True)
rfft2d, irfft2d = _real_transform(2, False), _real_transform(2, True)
rfft3d, irfft3d = _real_transform(3, False), _real_transform(3, True)


def _shift(x, axes, sign: int, op_name: str) -> Tensor:
    x = as_input(x)
    axes = normalize_axes(op_name, axes, x.ndim)
    shape = x.shape.as_list()
    return roll(x, [(shape[a] // 2 if sign > 0 else -(shape[a] // 2)) for a in axes], list(axes))


def fftshift(x, axes=None, name=None) -> Tensor:
    """Moves the zero-frequency entry to the centre of `axes` (default all): a roll by
    size // 2.

    Raises:
        InvalidArgumentError: an axis is out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.fftshift(tf.constant([0, 1, 2, -2, -1])).numpy()
        array([-2, -1,  0,  1,  2], dtype=int32)
    """
    return _shift(x, axes, 1, "fftshift")


def ifftshift(x, axes=None, name=None) -> Tensor:
    """The inverse of `fftshift`: a roll by -(size // 2) along `axes` (default all).

    Raises:
        InvalidArgumentError: an axis is out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.signal.ifftshift(tf.constant([-2, -1, 0, 1, 2])).numpy()
        array([ 0,  1,  2, -2, -1], dtype=int32)
    """
    return _shift(x, axes, -1, "ifftshift")


# -- n-D transforms over chosen axes -----------------------------------------------------------
_NORMS = ("backward", "forward", "ortho")


def _nd_plan(op_name: str, x: Tensor, fft_length, axes, norm, bins: bool) -> tuple:
    """(non-negative axes, lengths, the input scale) of an n-D transform; `bins`: the input
    holds half spectra along the last axis (IRFFTND), so the default length is 2 (bins - 1)."""
    axes = tuple(range(x.ndim)) if axes is None else normalize_axes(op_name, list(
        int_values(op_name, axes, "axes")), x.ndim)
    if len(set(axes)) != len(axes):
        raise invalid_argument(op_name, f"axes must be distinct, got {list(axes)}")
    shape = x.shape.as_list()
    if fft_length is None:
        lengths = tuple(shape[a] for a in axes)
        if bins and axes:
            lengths = lengths[:-1] + (max(0, 2 * (lengths[-1] - 1)),)
    else:
        lengths = _lengths(op_name, fft_length, len(axes))
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f"{op_name}: norm must be one of {_NORMS} or None, got {norm!r}")
    n = math.prod(lengths)
    scale = {"backward": 1.0, "forward": 1.0 / n if n else 1.0,
             "ortho": 1.0 / math.sqrt(n) if n else 1.0}[norm]
    return axes, lengths, scale


def _scaled(x: Tensor, scale: float) -> Tensor:
    return x if scale == 1.0 else x * scale


def _negative(axes: tuple, rank: int) -> tuple:
    return tuple(a - rank for a in axes)


def _complex_nd(op, inverse: bool):
    def transform(input_tensor, fft_length=None, axes=None, norm=None, name=None) -> Tensor:
        x = _converted(input_tensor, np.complex64)
        if not x.dtype.is_complex:
            raise invalid_argument(op.name, f"expected a complex64 or complex128 tensor, got "
                                            f"dtype {x.dtype.name} (shape {x.shape.as_list()})")
        axes, lengths, scale = _nd_plan(op.name, x, fft_length, axes, norm, False)
        x = _scaled(fit_axes(x, axes, lengths), 1.0 / scale if inverse else scale)
        return execute(op, (x,), {"axes": _negative(axes, x.ndim)})
    return transform


def _real_nd(op, inverse: bool):
    def transform(input_tensor, fft_length=None, axes=None, norm=None, name=None) -> Tensor:
        x = _converted(input_tensor, np.complex64 if inverse else np.float32)
        allowed = (dtypes.complex64, dtypes.complex128) if inverse else \
            (dtypes.float32, dtypes.float64)
        if x.dtype not in allowed:
            raise ValueError(f"{op.name} requires tf.{allowed[0].name} or tf.{allowed[1].name} "
                             f"inputs, got: {x.dtype.name} tensor of shape {x.shape.as_list()}")
        axes, lengths, scale = _nd_plan(op.name, x, fft_length, axes, norm, inverse)
        if not axes:
            raise invalid_argument(op.name, "needs at least one axis to transform")
        fitted = lengths[:-1] + (lengths[-1] // 2 + 1,) if inverse else lengths
        x = _scaled(fit_axes(x, axes, fitted), 1.0 / scale if inverse else scale)
        return execute(op, (x,), {"fft_length": lengths, "axes": _negative(axes, x.ndim)})
    return transform


def _nd_doc(what: str, dtypes_in: str, returns: str, raises: str, example: str,
            result: str) -> str:
    return f"""The {what} over `axes` (default all).

    Each transformed axis is first cropped or zero-padded at its end to `fft_length` (default:
    its size{', the last as 2 * (bins - 1)' if 'inverse real' in what else ''}).

    Args:
        input_tensor: {dtypes_in}; other data (NumPy arrays, lists) is converted, as in TF.
        fft_length: one length per axis in `axes`.
        axes: the axes to transform, distinct, in [-rank, rank).
        norm: "backward" (None: no scaling forward, 1/n inverse), "forward" (the reverse)
            or "ortho" (1/sqrt(n) both ways), n the product of `fft_length`.

    Returns:
        {returns}

    Raises:
        {raises}

    Example:
        >>> import tapeflow as tf
        >>> {example}
        {result}
    """


fftnd = _complex_nd(FFTND, False)
ifftnd = _complex_nd(IFFTND, True)
rfftnd = _real_nd(RFFTND, False)
irfftnd = _real_nd(IRFFTND, True)
for _fn, _name, _what in [(fftnd, "fftnd", "n-D discrete Fourier transform"),
                          (ifftnd, "ifftnd", "inverse n-D discrete Fourier transform")]:
    _fn.__name__ = _fn.__qualname__ = _name
    _fn.__doc__ = _nd_doc(
        _what, "a complex64 or complex128 tensor", "A tensor of the input's dtype, its "
        "transformed axes of lengths `fft_length`.", "InvalidArgumentError: the input is not "
        "complex, or bad axes or lengths.\n        ValueError: an unknown norm.",
        f"tf.signal.{_name}(tf.ones([2, 2], tf.complex64)).numpy()[0, 0]",
        "np.complex64(4+0j)" if _name == "fftnd" else "np.complex64(1+0j)")
rfftnd.__name__ = rfftnd.__qualname__ = "rfftnd"
rfftnd.__doc__ = _nd_doc(
    "n-D DFT of a real signal (the last axis in `axes` keeps its fft_length // 2 + 1 "
    "non-negative frequencies)", "a float32 or float64 tensor",
    "complex64 for float32 input, complex128 for float64.", "ValueError: the input is not "
    "float32 or float64, or an unknown norm.\n        InvalidArgumentError: bad axes or "
    "lengths.", "tf.signal.rfftnd(tf.ones([2, 4])).shape", "TensorShape([2, 3])")
irfftnd.__name__ = irfftnd.__qualname__ = "irfftnd"
irfftnd.__doc__ = _nd_doc(
    "inverse real n-D DFT: the real signal whose rfftnd is the input (half spectra along "
    "the last axis in `axes`)", "a complex64 or complex128 tensor",
    "float32 for complex64 input, float64 for complex128.", "ValueError: the input is not "
    "complex, or an unknown norm.\n        InvalidArgumentError: bad axes or lengths.",
    "tf.signal.irfftnd(tf.signal.rfftnd(tf.ones([2, 4]))).numpy()[0]",
    "array([1., 1., 1., 1.], dtype=float32)")


# TF's top-level names are the raw ops: `fft_length` and `axes` required, no `norm`; the
# real ones name their output dtype.
def raw_fftnd(input, fft_length, axes, name=None) -> Tensor:  # noqa: A002  (TF's name)
    """tf.signal.fftnd as TF's raw op `FFTND`: `fft_length` and `axes` required.

    Raises:
        InvalidArgumentError: the input is not complex, or bad axes or lengths.

    Example:
        >>> import tapeflow as tf
        >>> tf.fftnd(tf.ones([2, 4], tf.complex64), [2, 4], [0, 1]).numpy()[0, 0]
        np.complex64(8+0j)
    """
    return fftnd(input, fft_length, axes)


def raw_ifftnd(input, fft_length, axes, name=None) -> Tensor:  # noqa: A002  (TF's name)
    """tf.signal.ifftnd as TF's raw op `IFFTND`: `fft_length` and `axes` required.

    Raises:
        InvalidArgumentError: the input is not complex, or bad axes or lengths.

    Example:
        >>> import tapeflow as tf
        >>> tf.ifftnd(tf.ones([2, 4], tf.complex64), [2, 4], [0, 1]).numpy()[0, 0]
        np.complex64(1+0j)
    """
    return ifftnd(input, fft_length, axes)


def raw_rfftnd(input, fft_length, axes, Tcomplex=dtypes.complex64,  # noqa: A002, N803
               name=None) -> Tensor:
    """tf.signal.rfftnd as TF's raw op `RFFTND`: `fft_length` and `axes` required, the
    output of dtype `Tcomplex` (complex64 or complex128).

    Raises:
        ValueError: the input is not float32 or float64.
        InvalidArgumentError: bad axes, lengths or Tcomplex.

    Example:
        >>> import tapeflow as tf
        >>> tf.rfftnd(tf.ones([2, 4]), [2, 4], [0, 1]).shape
        TensorShape([2, 3])
    """
    return _as_dtype("RFFTND", rfftnd(input, fft_length, axes), Tcomplex, "Tcomplex")


def raw_irfftnd(input, fft_length, axes, Treal=dtypes.float32,  # noqa: A002, N803
                name=None) -> Tensor:
    """tf.signal.irfftnd as TF's raw op `IRFFTND`: `fft_length` and `axes` required, the
    output of dtype `Treal` (float32 or float64).

    Raises:
        ValueError: the input is not complex.
        InvalidArgumentError: bad axes, lengths or Treal.

    Example:
        >>> import tapeflow as tf
        >>> tf.irfftnd(tf.ones([2, 3], tf.complex64), [2, 4], [0, 1]).shape
        TensorShape([2, 4])
    """
    return _as_dtype("IRFFTND", irfftnd(input, fft_length, axes), Treal, "Treal")


def _as_dtype(op_name: str, x: Tensor, dtype, attr: str) -> Tensor:
    dtype = dtypes.as_dtype(dtype)
    allowed = (dtypes.complex64, dtypes.complex128) if attr == "Tcomplex" else \
        (dtypes.float32, dtypes.float64)
    if dtype not in allowed:
        raise invalid_argument(op_name, f"{attr} must be {allowed[0].name} or "
                                        f"{allowed[1].name}, got {dtype.name}")
    return x if x.dtype == dtype else cast(x, dtype)
