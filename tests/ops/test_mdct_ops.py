"""The MDCT and its windows (mdct_ops): perfect reconstruction, the windows' defining
properties, gradients and errors (values against TF in tests/parity/test_special_parity.py)."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import errors

from .test_math_ops import grad


@pytest.mark.parametrize("window_fn", [tf.signal.vorbis_window,
                                       tf.signal.kaiser_bessel_derived_window, None])
@pytest.mark.parametrize("norm", [None, "ortho"])
def test_inverse_mdct_reconstructs_the_signal(window_fn, norm):
    samples, length = 48, 8
    x = np.random.default_rng(2).standard_normal(samples)
    padded = np.pad(x, (length // 2, 0))
    coefficients = tf.signal.mdct(padded, length, window_fn=window_fn, pad_end=True, norm=norm)
    assert coefficients.shape == [13, 4]
    back = tf.signal.inverse_mdct(coefficients, window_fn=window_fn, norm=norm).numpy()
    np.testing.assert_allclose(back[length // 2:length // 2 + samples], x, atol=1e-12)


@pytest.mark.parametrize("window_fn", [tf.signal.vorbis_window,
                                       tf.signal.kaiser_bessel_derived_window])
def test_mdct_windows_are_power_complementary(window_fn):
    w = window_fn(16, dtype=tf.float64).numpy()
    np.testing.assert_allclose(w[:8] ** 2 + w[8:] ** 2, 1.0, atol=1e-12)
    np.testing.assert_allclose(w, w[::-1], atol=1e-12)


def test_kaiser_window_is_numpys():
    for n, beta in ((1, 12.0), (7, 3.0), (10, 12.0)):
        np.testing.assert_allclose(tf.signal.kaiser_window(n, beta, tf.float64).numpy(),
                                   np.kaiser(n, beta), rtol=1e-12)
    assert tf.signal.kaiser_bessel_derived_window(7).shape == [6]  # 2 * (7 // 2), as TF


def test_mdct_gradient_is_the_transposed_transform():
    x = np.random.default_rng(4).standard_normal(16)
    g = grad(lambda v: tf.reduce_sum(tf.signal.mdct(v, 8, norm="ortho") ** 2) / 2, x)
    m = tf.signal.mdct(np.eye(16), 8, norm="ortho").numpy().reshape(16, -1)
    np.testing.assert_allclose(g.numpy(), m @ (m.T @ x), atol=1e-12)


@pytest.mark.parametrize("call,error", [
    (lambda: tf.signal.mdct(tf.ones([16]), 6), ValueError),
    (lambda: tf.signal.mdct(tf.constant(1.0), 4), ValueError),
    (lambda: tf.signal.inverse_mdct(tf.ones([4])), ValueError),
    (lambda: tf.signal.inverse_mdct(tf.ones([2, 4]), norm="forward"), ValueError),
    (lambda: tf.signal.vorbis_window(4, dtype=tf.int32), ValueError),
    (lambda: tf.signal.kaiser_window(0), errors.InvalidArgumentError),
    (lambda: tf.signal.kaiser_bessel_derived_window(-1), errors.InvalidArgumentError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()
