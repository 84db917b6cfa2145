"""tf.signal: discrete Fourier transforms, framing, windows, spectrograms, DCT and mel
features."""
from .ops.signal_ops import (fft, fft2d, fft3d, fftshift, ifft, ifft2d, ifft3d, ifftshift, irfft,
                             irfft2d, irfft3d, rfft, rfft2d, rfft3d)

__all__ = ["fft", "fft2d", "fft3d", "fftshift", "ifft", "ifft2d", "ifft3d", "ifftshift", "irfft",
           "irfft2d", "irfft3d", "rfft", "rfft2d", "rfft3d"]
