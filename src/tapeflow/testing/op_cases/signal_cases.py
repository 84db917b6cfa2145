"""Gradient-check rows for signal_ops (the DFT family), through the real loss of
`complex_row`; odd and even lengths, and fft_length cropping and padding."""
import tapeflow as tf

from ._table import case, normal
from .math_cases import complex_row, pair

_COMPLEX = {1: (tf.signal.fft, tf.signal.ifft), 2: (tf.signal.fft2d, tf.signal.ifft2d),
            3: (tf.signal.fft3d, tf.signal.ifft3d)}
_REAL = {1: (tf.signal.rfft, tf.signal.irfft), 2: (tf.signal.rfft2d, tf.signal.irfft2d),
         3: (tf.signal.rfft3d, tf.signal.irfft3d)}
_SHAPES = {1: ((2, 5), (6,)), 2: ((2, 3, 4), (3, 5)), 3: ((2, 3, 2), (2, 2, 3))}
_SUFFIX = {1: "", 2: "2D", 3: "3D"}


def _real_out(fn):
    """`fn` of a real tensor, its complex result seen through re(y) + im(y) / 2."""
    def row(x):
        y = fn(x)
        return tf.math.real(y) + 0.5 * tf.math.imag(y)
    return row


for _rank, (_forward, _inverse) in _COMPLEX.items():
    for _shape in _SHAPES[_rank]:
        case(f"FFT{_SUFFIX[_rank]}", complex_row(_forward), *pair(*_shape), label=str(_shape))
        case(f"IFFT{_SUFFIX[_rank]}", complex_row(_inverse), *pair(*_shape), label=str(_shape))
for _rank, (_forward, _inverse) in _REAL.items():
    for _shape in _SHAPES[_rank]:
        case(f"RFFT{_SUFFIX[_rank]}", _real_out(_forward), normal(*_shape), label=str(_shape))
        _bins = _shape[:-1] + (_shape[-1] // 2 + 1,)
        for _n in (_shape[-1], _shape[-1] + 1):  # the last bin real (even n) or not
            _lengths = list(_shape[len(_shape) - _rank:-1]) + [_n]
            case(f"IRFFT{_SUFFIX[_rank]}",
                 complex_row(lambda z, f=_inverse, n=_lengths: f(z, fft_length=n)),
                 *pair(*_bins), label=f"{_bins} to {_lengths}")
case("RFFT", _real_out(lambda x: tf.signal.rfft(x, fft_length=[3])), normal(2, 5),
     label="cropped")
case("RFFT", _real_out(lambda x: tf.signal.rfft(x, fft_length=[8])), normal(5), label="padded")
case("IRFFT", complex_row(lambda z: tf.signal.irfft(z, fft_length=[4])), *pair(5),
     label="cropped bins")

# The composite functions, each under the op that carries its gradient.
case("GatherV2", lambda x: tf.signal.frame(x, 4, 3, pad_end=True), normal(2, 11), label="frame")
case("GatherV2", lambda x: tf.signal.frame(x, 3, 2, axis=0), normal(7, 2), label="frame axis 0")
case("UnsortedSegmentSum", lambda x: tf.signal.overlap_and_add(x, 3), normal(2, 4, 5),
     label="overlap_and_add")
case("RFFT", _real_out(lambda x: tf.signal.stft(x, 8, 3, pad_end=True)), normal(2, 20),
     label="stft")
case("IRFFT", complex_row(lambda z: tf.signal.inverse_stft(z, 6, 2, fft_length=8)), *pair(3, 5),
     label="inverse_stft")
for _type in (1, 2, 3, 4):
    case("BatchMatMulV2", lambda x, t=_type: tf.signal.dct(x, type=t), normal(2, 6),
         label=f"dct type {_type}")
case("BatchMatMulV2", lambda x: tf.signal.idct(x, norm="ortho", n=8), normal(3, 5),
     label="idct ortho n=8")
case("BatchMatMulV2", tf.signal.mfccs_from_log_mel_spectrograms, normal(2, 3, 6), label="mfccs")

# The n-D transforms: all axes, chosen axes with cropping and padding, each norm.
for _axes, _lengths, _norm in [(None, None, None), ([0, 2], [3, 2], "ortho"),
                               ([-1, 0], [5, 1], "forward"), ([1], None, None)]:
    _label = f"axes={_axes},fft_length={_lengths},norm={_norm}"
    case("FFTND", complex_row(lambda z, a=_axes, n=_lengths, m=_norm: tf.signal.fftnd(
        z, fft_length=n, axes=a, norm=m)), *pair(2, 3, 4), label=_label)
    case("IFFTND", complex_row(lambda z, a=_axes, n=_lengths, m=_norm: tf.signal.ifftnd(
        z, fft_length=n, axes=a, norm=m)), *pair(2, 3, 4), label=_label)
    case("RFFTND", _real_out(lambda x, a=_axes, n=_lengths, m=_norm: tf.signal.rfftnd(
        x, fft_length=n, axes=a, norm=m)), normal(2, 3, 4), label=_label)
for _axes, _lengths, _norm in [(None, [2, 3, 4], None), (None, [2, 3, 5], "ortho"),
                               ([0, 1], [3, 4], "forward"), ([2, 0], [3, 2], None)]:
    case("IRFFTND", complex_row(lambda z, a=_axes, n=_lengths, m=_norm: tf.signal.irfftnd(
        z, fft_length=n, axes=a, norm=m)), *pair(2, 3, 3),
        label=f"axes={_axes},fft_length={_lengths},norm={_norm}")
case("BatchMatMulV2", lambda x: tf.signal.mdct(x, 8), normal(2, 20), label="mdct")
case("BatchMatMulV2", lambda x: tf.signal.mdct(x, 8, window_fn=None, pad_end=True,
                                               norm="ortho"), normal(18), label="mdct ortho")
case("BatchMatMulV2", lambda x: tf.signal.inverse_mdct(
    x, window_fn=tf.signal.kaiser_bessel_derived_window), normal(3, 4), label="inverse_mdct")
