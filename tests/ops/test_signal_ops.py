"""tf.signal: the DFT family against NumPy's, the composites against their definitions, and
TF's errors. Gradients are checked by the op table (test_op_table.py), values against TF in
tests/parity/test_signal_parity.py."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import errors

RNG = np.random.default_rng(3)
Z = RNG.standard_normal((2, 3, 4, 5)) + 1j * RNG.standard_normal((2, 3, 4, 5))
X = RNG.standard_normal((2, 3, 4, 6))


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_transforms_match_numpy(rank):
    axes = tuple(range(-rank, 0))
    suffix = "" if rank == 1 else f"{rank}d"
    fft, ifft = getattr(tf.signal, f"fft{suffix}"), getattr(tf.signal, f"ifft{suffix}")
    rfft, irfft = getattr(tf.signal, f"rfft{suffix}"), getattr(tf.signal, f"irfft{suffix}")
    np.testing.assert_allclose(fft(tf.constant(Z)).numpy(), np.fft.fftn(Z, axes=axes))
    np.testing.assert_allclose(ifft(tf.constant(Z)).numpy(), np.fft.ifftn(Z, axes=axes))
    lengths = [3] * (rank - 1) + [7]  # cropped, padded, and an odd last length
    np.testing.assert_allclose(rfft(tf.constant(X), lengths).numpy(),
                               np.fft.rfftn(X, s=lengths, axes=axes))
    np.testing.assert_allclose(irfft(tf.constant(Z), lengths).numpy(),
                               np.fft.irfftn(Z, s=lengths, axes=axes), atol=1e-12)
    assert rfft(tf.constant(X, tf.float32)).dtype == tf.complex64
    assert irfft(tf.constant(Z, tf.complex64)).dtype == tf.float32
    assert irfft(tf.constant(Z)).shape[-1] == 8  # 2 * (bins - 1)


def test_transforms_in_a_graph():
    f = tf.function(lambda x: tf.signal.irfft(tf.signal.rfft(x) * 2.0))
    np.testing.assert_allclose(f(tf.constant(X)).numpy(), 2 * X)


@pytest.mark.parametrize("call,error", [
    (lambda: tf.signal.fft(tf.constant([1.0])), errors.InvalidArgumentError),
    (lambda: tf.signal.fft2d(tf.constant([1j])), errors.InvalidArgumentError),
    (lambda: tf.signal.rfft(tf.constant([1j])), ValueError),
    (lambda: tf.signal.irfft(tf.constant([1.0])), ValueError),
    (lambda: tf.signal.rfft2d(tf.constant([1.0])), ValueError),
    (lambda: tf.signal.rfft(tf.constant([1.0]), [2, 3]), errors.InvalidArgumentError),
    (lambda: tf.signal.frame(tf.constant(1.0), 2, 1), ValueError),
    (lambda: tf.signal.frame(tf.zeros([4]), 2, 0), errors.InvalidArgumentError),
    (lambda: tf.signal.overlap_and_add(tf.zeros([4]), 1), ValueError),
    (lambda: tf.signal.overlap_and_add(tf.zeros([2, 4]), 0), errors.InvalidArgumentError),
    (lambda: tf.signal.hann_window(-1), errors.InvalidArgumentError),
    (lambda: tf.signal.hann_window(3, dtype=tf.int32), ValueError),
    (lambda: tf.signal.dct(tf.zeros([4]), type=5), ValueError),
    (lambda: tf.signal.dct(tf.zeros([4]), type=1, norm="ortho"), ValueError),
    (lambda: tf.signal.dct(tf.zeros([4, 4]), axis=0), NotImplementedError),
    (lambda: tf.signal.dct(tf.zeros([4], tf.int32)), TypeError),
    (lambda: tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=5000.0), ValueError),
    (lambda: tf.signal.mfccs_from_log_mel_spectrograms(tf.zeros([2, 0])), ValueError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_shifts_invert_each_other():
    x = tf.reshape(tf.range(15), [3, 5])
    np.testing.assert_array_equal(tf.signal.fftshift(x).numpy(), np.fft.fftshift(x.numpy()))
    np.testing.assert_array_equal(tf.signal.ifftshift(x, axes=1).numpy(),
                                  np.fft.ifftshift(x.numpy(), axes=1))


def test_overlap_and_add_of_frames_counts_the_overlaps():
    signal = tf.constant(X[0, 0, 0])
    frames = tf.signal.frame(signal, 4, 2)
    assert frames.shape == [2, 4]
    np.testing.assert_allclose(tf.signal.overlap_and_add(frames, 2).numpy(),
                               X[0, 0, 0] * [1, 1, 2, 2, 1, 1])


def test_windows_match_numpy():
    np.testing.assert_allclose(tf.signal.hann_window(9, periodic=False).numpy(), np.hanning(9),
                               atol=1e-7)
    np.testing.assert_allclose(tf.signal.hamming_window(8, dtype=tf.float64).numpy(),
                               np.hamming(9)[:-1])
    assert tf.signal.hann_window(1).numpy().tolist() == [1.0]


def test_inverse_stft_inverts_stft():
    x = tf.constant(RNG.standard_normal(64))
    spectrogram = tf.signal.stft(x, 16, 4)
    assert spectrogram.shape == [13, 9] and spectrogram.dtype == tf.complex128
    y = tf.signal.inverse_stft(spectrogram, 16, 4,
                               window_fn=tf.signal.inverse_stft_window_fn(4))
    np.testing.assert_allclose(y.numpy()[12:-12], x.numpy()[12:-12])


@pytest.mark.parametrize("kind,norm", [(1, None)] + [(k, n) for k in (2, 3, 4)
                                                      for n in (None, "ortho")])
def test_dct_matches_scipy(kind, norm):
    scipy_fft = pytest.importorskip("scipy.fft")
    np.testing.assert_allclose(tf.signal.dct(tf.constant(X), type=kind, norm=norm).numpy(),
                               scipy_fft.dct(X, type=kind, norm=norm), atol=1e-12)
    inverse = tf.signal.idct(tf.signal.dct(tf.constant(X), type=kind, norm=norm), type=kind,
                             norm=norm).numpy()
    scale = 1.0 if norm else 2.0 * (5 if kind == 1 else 6)
    np.testing.assert_allclose(inverse / scale, X, atol=1e-12)


def test_mel_weights_are_triangles_over_the_spectrum():
    weights = tf.signal.linear_to_mel_weight_matrix(10, 65, 16000, 100.0, 7000.0).numpy()
    assert weights.shape == (65, 10) and weights.dtype == np.float32
    assert (weights >= 0).all() and not weights[0].any()
    assert (weights.argmax(axis=0)[1:] > weights.argmax(axis=0)[:-1]).all()


def test_graph_with_an_unknown_batch():
    @tf.function(input_signature=[tf.TensorSpec([None, 8], tf.complex64)])
    def spectrum_gradient(z):
        with tf.GradientTape() as tape:
            tape.watch(z)
            loss = tf.reduce_sum(tf.abs(tf.signal.fft(z)))
        return tape.gradient(loss, z)

    z = Z[0, 0, :, :4].astype(np.complex64)
    z = np.concatenate([z, z], axis=1)
    with tf.GradientTape() as tape:
        constant = tf.constant(z)
        tape.watch(constant)
        loss = tf.reduce_sum(tf.abs(tf.signal.fft(constant)))
    np.testing.assert_allclose(spectrum_gradient(z).numpy(),
                               tape.gradient(loss, constant).numpy(), rtol=1e-5)
    with pytest.raises(ValueError, match="must be known"):
        tf.function(lambda x: tf.signal.stft(x, 4, 2),
                    input_signature=[tf.TensorSpec([None], tf.float32)])(tf.zeros([8]))


# -- the n-D transforms ---------------------------------------------------------------------------
@pytest.mark.parametrize("axes,lengths,norm", [(None, None, None), ([0, 2], [3, 2], "ortho"),
                                                ([-1, 0], [5, 1], "forward"), ([1], None, None)])
def test_nd_transforms_match_numpy(axes, lengths, norm):
    z = Z[0, :2, :3, :4]
    x = z.real
    numpy_norm = norm or "backward"
    np.testing.assert_allclose(
        tf.signal.fftnd(tf.constant(z), lengths, axes, norm).numpy(),
        np.fft.fftn(z, s=lengths, axes=axes, norm=numpy_norm), atol=1e-12)
    np.testing.assert_allclose(
        tf.signal.ifftnd(tf.constant(z), lengths, axes, norm).numpy(),
        np.fft.ifftn(z, s=lengths, axes=axes, norm=numpy_norm), atol=1e-12)
    out = tf.signal.rfftnd(tf.constant(x), lengths, axes, norm)
    assert out.dtype == tf.complex128
    np.testing.assert_allclose(out.numpy(), np.fft.rfftn(x, s=lengths, axes=axes,
                                                         norm=numpy_norm), atol=1e-12)
    back = tf.signal.irfftnd(tf.constant(z), lengths, axes, norm)
    assert back.dtype == tf.float64
    np.testing.assert_allclose(back.numpy(), np.fft.irfftn(z, s=lengths, axes=axes,
                                                           norm=numpy_norm), atol=1e-12)


def test_nd_transforms_invert_each_other_and_take_tf_s_top_level_names():
    x = tf.constant(Z[0, :2, :3, :4].real.astype(np.float32))
    np.testing.assert_allclose(tf.signal.irfftnd(tf.signal.rfftnd(x)).numpy(), x.numpy(),
                               atol=1e-5)
    assert tf.rfftnd(x, [2, 3, 4], [0, 1, 2], Tcomplex=tf.complex128).dtype == tf.complex128
    assert tf.irfftnd(tf.signal.rfftnd(x), [2, 3, 4], [0, 1, 2]).dtype == tf.float32
    np.testing.assert_allclose(tf.ifftnd(tf.fftnd(tf.cast(x, tf.complex64), [2, 3, 4],
                                                  [0, 1, 2]), [2, 3, 4], [0, 1, 2]).numpy(),
                               x.numpy(), atol=1e-5)


@pytest.mark.parametrize("call,error", [
    (lambda: tf.signal.fftnd(tf.ones([2, 2])), errors.InvalidArgumentError),
    (lambda: tf.signal.rfftnd(tf.ones([2, 2], tf.complex64)), ValueError),
    (lambda: tf.signal.irfftnd(tf.ones([2, 2])), ValueError),
    (lambda: tf.signal.fftnd(tf.ones([2, 2], tf.complex64), axes=[0, 0]),
     errors.InvalidArgumentError),
    (lambda: tf.signal.fftnd(tf.ones([2, 2], tf.complex64), axes=[2]),
     errors.InvalidArgumentError),
    (lambda: tf.signal.fftnd(tf.ones([2, 2], tf.complex64), [2], [0, 1]),
     errors.InvalidArgumentError),
    (lambda: tf.signal.fftnd(tf.ones([2, 2], tf.complex64), norm="unitary"), ValueError),
    (lambda: tf.rfftnd(tf.ones([2]), [2], [0], Tcomplex=tf.float32),
     errors.InvalidArgumentError),
])
def test_nd_errors(call, error):
    with pytest.raises(error):
        call()


def test_nd_transform_in_a_graph_with_an_unknown_batch():
    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def spectrum(x):
        return tf.signal.rfftnd(x, [6], [1])

    x = Z[0, 0, :3, :4].real.astype(np.float32)
    np.testing.assert_allclose(spectrum(x).numpy(), np.fft.rfftn(x, s=[6], axes=[1]),
                               rtol=1e-5, atol=1e-6)
