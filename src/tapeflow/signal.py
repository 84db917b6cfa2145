"""tf.signal: discrete Fourier transforms, framing, windows, spectrograms, DCT, MDCT and mel
features."""
from .ops.signal_ops import (fft, fft2d, fft3d, fftshift, ifft, ifft2d, ifft3d, ifftshift, irfft,
                             irfft2d, irfft3d, rfft, rfft2d, rfft3d)
from .ops.spectral_ops import (dct, frame, hamming_window, hann_window, idct, inverse_stft,
                               inverse_stft_window_fn, linear_to_mel_weight_matrix,
                               mfccs_from_log_mel_spectrograms, overlap_and_add, stft)

__all__ = ["dct", "fft", "fft2d", "fft3d", "fftshift", "frame", "hamming_window", "hann_window",
           "idct", "ifft", "ifft2d", "ifft3d", "ifftshift", "inverse_stft",
           "inverse_stft_window_fn", "irfft", "irfft2d", "irfft3d", "linear_to_mel_weight_matrix",
           "mfccs_from_log_mel_spectrograms", "overlap_and_add", "rfft", "rfft2d", "rfft3d",
           "stft"]
from .ops.mdct_ops import (inverse_mdct, kaiser_bessel_derived_window,  # noqa: E402
                           kaiser_window, mdct, vorbis_window)
from .ops.signal_ops import fftnd, ifftnd, irfftnd, rfftnd  # noqa: E402

__all__ += ["fftnd", "ifftnd", "inverse_mdct", "irfftnd", "kaiser_bessel_derived_window",
            "kaiser_window", "mdct", "rfftnd", "vorbis_window"]
