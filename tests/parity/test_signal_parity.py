"""tf.signal's values, dtypes, shapes and error classes, each case written once against a
module `tf` and run with tapeflow and with TensorFlow (the DFT family's gradients are rows of
the op table)."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

_RNG = np.random.default_rng(7)
X32 = _RNG.standard_normal((2, 37)).astype(np.float32)
X64 = _RNG.standard_normal((3, 4, 6))
Z64 = X64 + 1j * _RNG.standard_normal((3, 4, 6))
MEL = _RNG.uniform(-3.0, 1.0, (2, 5, 12)).astype(np.float32)


def raised(fn, *args, **kwargs):
    """The class name of what `fn` raises, or its result."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return ("raised", type(e).__name__)


CASES = {
    # The DFT family: dtypes, default and explicit fft_length.
    "fft family": lambda tf: [f(tf.constant(z)) for z in (Z64, Z64.astype(np.complex64))
                              for f in (tf.signal.fft, tf.signal.ifft, tf.signal.fft2d,
                                        tf.signal.ifft2d, tf.signal.fft3d, tf.signal.ifft3d)],
    "rfft family": lambda tf: [
        f(tf.constant(x)) for x in (X64, X32[None])
        for f in (tf.signal.rfft, tf.signal.rfft2d, tf.signal.rfft3d)] + [
        tf.signal.rfft(tf.constant(X32), fft_length=[16]),
        tf.signal.rfft2d(tf.constant(X64), fft_length=[6, 9])],
    "irfft family": lambda tf: [
        f(tf.constant(z)) for z in (Z64, Z64.astype(np.complex64))
        for f in (tf.signal.irfft, tf.signal.irfft2d, tf.signal.irfft3d)] + [
        tf.signal.irfft(tf.constant(Z64), fft_length=[9]),
        tf.signal.irfft2d(tf.constant(Z64.astype(np.complex64)), fft_length=[3, 12])],
    # (TF's fft keeps complex128 NumPy data complex128 on its first call in a process only.)
    "numpy data": lambda tf: [f(data) for f in (tf.signal.fft, tf.signal.ifft, tf.signal.fft2d,
                                                tf.signal.rfft, tf.signal.irfft)
                              for data in (X64, X32, [[1.0, 2.0]])]
    + [f(Z64) for f in (tf.signal.ifft, tf.signal.fft3d, tf.signal.irfft2d)],
    "variables": lambda tf: [tf.signal.fft(tf.Variable(Z64)), tf.signal.rfft(tf.Variable(X32)),
                             tf.signal.dct(tf.Variable(X32)),
                             tf.signal.frame(tf.Variable(X32), 5, 5)],
    "fft of a float": lambda tf: raised(tf.signal.fft, tf.constant(X32)),
    "rfft of a complex": lambda tf: raised(tf.signal.rfft, tf.constant(Z64)),
    "irfft of a float": lambda tf: raised(tf.signal.irfft, tf.constant(X32)),
    "fft2d of a vector": lambda tf: raised(tf.signal.fft2d, tf.constant(Z64[0, 0])),
    "rfft3d of a matrix": lambda tf: raised(tf.signal.rfft3d, tf.constant(X32)),
    "irfft2d of a vector": lambda tf: raised(tf.signal.irfft2d, tf.constant(Z64[0, 0])),
    "fftshift": lambda tf: [tf.signal.fftshift(X64), tf.signal.ifftshift(X64),
                            tf.signal.fftshift(X64, axes=1), tf.signal.ifftshift(X64, axes=[0, 2])],
    # Framing.
    "frame": lambda tf: [tf.signal.frame(X32, 8, 3), tf.signal.frame(X32, 8, 3, pad_end=True),
                         tf.signal.frame(X64, 3, 2, axis=1, pad_end=True, pad_value=7.0),
                         tf.signal.frame(tf.range(5), 8, 2),
                         tf.signal.frame(tf.range(5), 2, 1, axis=0)],
    "overlap_and_add": lambda tf: [tf.signal.overlap_and_add(X64, 2),
                                   tf.signal.overlap_and_add(X64, 6),
                                   tf.signal.overlap_and_add(X64, 4),
                                   tf.signal.overlap_and_add(X32, 5)],
    # Windows.
    "windows": lambda tf: [w(n, periodic=p, dtype=d) for w in (tf.signal.hann_window,
                                                                tf.signal.hamming_window)
                           for n in (0, 1, 2, 7, 8) for p in (True, False)
                           for d in (tf.float32, tf.float64)],
    "window of an int dtype": lambda tf: raised(tf.signal.hann_window, 4, dtype=tf.int32),
    "framing errors": lambda tf: [raised(tf.signal.hann_window, -1),
                                  raised(tf.signal.frame, tf.constant(1.0), 2, 1),
                                  raised(tf.signal.frame, tf.zeros([4]), 2, 0),
                                  raised(tf.signal.overlap_and_add, tf.zeros([4]), 1),
                                  raised(tf.signal.overlap_and_add, tf.zeros([2, 4]), 0),
                                  tf.signal.frame(tf.zeros([4]), 0, 1)],
    # Short-time Fourier transforms.
    "stft": lambda tf: [tf.signal.stft(X32, 16, 4), tf.signal.stft(X32, 10, 3, pad_end=True),
                        tf.signal.stft(X64, 4, 1, fft_length=7, window_fn=None),
                        tf.signal.stft(X32, 8, 2,
                                       window_fn=tf.signal.hamming_window)],
    "inverse_stft": lambda tf: [
        tf.signal.inverse_stft(tf.signal.stft(X32, 16, 4), 16, 4),
        tf.signal.inverse_stft(tf.signal.stft(X32, 16, 4), 16, 4,
                               window_fn=tf.signal.inverse_stft_window_fn(4)),
        tf.signal.inverse_stft(Z64, 12, 3), tf.signal.inverse_stft(Z64, 6, 2, fft_length=10),
        tf.signal.inverse_stft(Z64, 12, 3, fft_length=8),
        tf.signal.stft(X64, 12, 3, fft_length=8),
        tf.signal.inverse_stft_window_fn(3)(10, tf.float64),
        tf.signal.inverse_stft_window_fn(4, tf.signal.hamming_window)(16, tf.float32)],
    # Discrete cosine transforms.
    "dct": lambda tf: [tf.signal.dct(X64, type=t, norm=norm) for t in (1, 2, 3, 4)
                       for norm in ((None, "ortho") if t > 1 else (None,))]
    + [tf.signal.dct(X32, n=20), tf.signal.dct(X32, type=3, n=40, norm="ortho")],
    "idct": lambda tf: [tf.signal.idct(X64, type=t, norm=norm) for t in (1, 2, 3, 4)
                        for norm in ((None, "ortho") if t > 1 else (None,))],
    "dct errors": lambda tf: [raised(tf.signal.dct, X32, type=5),
                              raised(tf.signal.dct, X32, axis=0),
                              raised(tf.signal.dct, X32, norm="forward"),
                              raised(tf.signal.dct, X32, type=1, norm="ortho"),
                              raised(tf.signal.dct, X32, n=0),
                              raised(tf.signal.dct, tf.ones([4], tf.float16)),
                              raised(tf.signal.dct, tf.ones([4], tf.int32)),
                              raised(tf.signal.dct, tf.ones([1]), type=1),
                              tf.signal.dct(X32, n=np.int64(3))],
    # Mel features.
    "mel weight matrix": lambda tf: [
        tf.signal.linear_to_mel_weight_matrix(),
        tf.signal.linear_to_mel_weight_matrix(40, 257, 16000, 20.0, 8000.0, tf.float64),
        tf.signal.linear_to_mel_weight_matrix(8, 33, 22050.0, 0.0, 4000.0)],
    "mel weight matrix errors": lambda tf: [
        raised(tf.signal.linear_to_mel_weight_matrix, 0),
        raised(tf.signal.linear_to_mel_weight_matrix, lower_edge_hertz=-1.0),
        raised(tf.signal.linear_to_mel_weight_matrix, lower_edge_hertz=4000.0),
        raised(tf.signal.linear_to_mel_weight_matrix, upper_edge_hertz=5000.0),
        raised(tf.signal.linear_to_mel_weight_matrix, dtype=tf.int32)],
    "mfccs": lambda tf: [tf.signal.mfccs_from_log_mel_spectrograms(MEL),
                         tf.signal.mfccs_from_log_mel_spectrograms(MEL.astype(np.float64))],
    "mfccs of a spectrogram": lambda tf: tf.signal.mfccs_from_log_mel_spectrograms(
        tf.math.log(tf.tensordot(tf.abs(tf.signal.stft(X32, 32, 8)),
                                 tf.signal.linear_to_mel_weight_matrix(10, 17), 1) + 1e-6)),
}


@pytest.mark.parametrize("label", list(CASES))
def test_signal_matches_tensorflow(label, parity):
    theirs = parity.describe(parity.tf, raised(CASES[label], parity.tf))
    ours = parity.describe(tapeflow, raised(CASES[label], tapeflow))
    # float32 transforms by different FFT algorithms agree to a few ulps of their largest term
    parity.assert_same(ours, theirs, rtol=2e-5, atol=2e-5, where=label)
