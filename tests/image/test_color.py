"""Colour: convert_image_dtype's scaling rules, colour-space round trips, adjustments and
their gradients (values against TF: tests/parity/test_image_parity.py)."""
import numpy as np
import pytest

import tapeflow as tf

RNG = np.random.default_rng(5)
RGB = RNG.uniform(0.05, 0.95, (2, 3, 4, 3)).astype(np.float32)


@pytest.mark.parametrize("values, source, target, saturate, expected", [
    ([0, 128, 255], tf.uint8, tf.float32, False, [0.0, 128 / 255, 1.0]),
    ([0.0, 0.5, 1.0], tf.float32, tf.uint8, False, [0, 127, 255]),
    ([-0.5, 1.5], tf.float32, tf.uint8, True, [0, 255]),
    ([0, 255], tf.uint8, tf.int32, False, [0, 255 * 2 ** 23]),
    ([0, 2 ** 31 - 1], tf.int32, tf.uint8, False, [0, 255]),
    ([-128, 127], tf.int8, tf.int16, False, [-32768, 32512]),
    ([0.25], tf.float32, tf.float64, False, [0.25]),
])
def test_convert_image_dtype(values, source, target, saturate, expected):
    out = tf.image.convert_image_dtype(tf.constant(values, source), target, saturate=saturate)
    assert out.dtype == target
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)


def test_convert_image_dtype_errors():
    with pytest.raises(AttributeError):
        tf.image.convert_image_dtype(RGB, tf.bool)
    with pytest.raises(AttributeError):
        tf.image.convert_image_dtype(tf.constant([True]), tf.float32)


@pytest.mark.parametrize("forward, inverse", [
    (tf.image.rgb_to_hsv, tf.image.hsv_to_rgb), (tf.image.rgb_to_yiq, tf.image.yiq_to_rgb),
    (tf.image.rgb_to_yuv, tf.image.yuv_to_rgb)])
def test_colour_spaces_round_trip(forward, inverse):
    # (TF's YIQ and YUV matrices are inverses to about 1e-5.)
    np.testing.assert_allclose(inverse(forward(RGB)).numpy(), RGB, atol=1e-4)


def test_hsv_of_grays_and_primaries():
    hsv = tf.image.rgb_to_hsv(tf.constant([[0.5, 0.5, 0.5], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]))
    np.testing.assert_allclose(hsv.numpy(), [[0, 0, 0.5], [2 / 3, 1, 1], [0, 0, 0]], atol=1e-6)


def test_grayscale_round_trip_and_dtype():
    gray = tf.image.rgb_to_grayscale(tf.constant([[[255, 255, 255]]], tf.uint8))
    assert gray.dtype == tf.uint8 and gray.shape == (1, 1, 1)
    assert tf.image.grayscale_to_rgb(gray).shape == (1, 1, 3)
    with pytest.raises(ValueError):
        tf.image.grayscale_to_rgb(RGB)
    with pytest.raises(ValueError):
        tf.image.rgb_to_grayscale(RGB[..., :2])


def test_adjustments_keep_dtype_and_saturate():
    ints = tf.constant([[[250, 10, 0]]], tf.uint8)
    assert tf.image.adjust_brightness(ints, 0.1).numpy().tolist() == [[[255, 35, 25]]]
    assert tf.image.adjust_gamma(ints, 1.0).dtype == tf.uint8
    with pytest.raises(ValueError):
        tf.image.adjust_gamma(RGB, -1.0)


def test_hue_rotation_by_a_full_turn_and_zero_saturation():
    np.testing.assert_allclose(tf.image.adjust_hue(RGB, 1.0).numpy(), RGB, atol=1e-5)
    gray = tf.image.adjust_saturation(RGB, 0.0).numpy()
    np.testing.assert_allclose(gray, np.repeat(RGB.max(-1, keepdims=True), 3, -1), atol=1e-6)


def test_per_image_standardization():
    out = tf.image.per_image_standardization(RGB).numpy()
    np.testing.assert_allclose(out.mean(axis=(1, 2, 3)), 0, atol=1e-5)
    np.testing.assert_allclose(out.std(axis=(1, 2, 3)), 1, atol=1e-4)
    flat = tf.image.per_image_standardization(tf.ones([2, 2, 1], tf.uint8))
    assert flat.dtype == tf.float32 and not flat.numpy().any()


@pytest.mark.parametrize("fn", [
    lambda x: tf.image.adjust_hue(x, 0.2), lambda x: tf.image.adjust_saturation(x, 0.6),
    lambda x: tf.image.adjust_contrast(x, 1.5), tf.image.rgb_to_hsv, tf.image.hsv_to_rgb,
    lambda x: tf.image.adjust_gamma(x, 1.5), tf.image.per_image_standardization,
    tf.image.rgb_to_grayscale])
def test_gradients_match_finite_differences(fn):
    # float32, as the adjustments compute (float64 images are converted, as TF's are); the
    # channels of each pixel far apart (the hue has kinks where two are equal)
    pixels = np.array([[[[0.9, 0.5, 0.1], [0.2, 0.7, 0.4]], [[0.3, 0.1, 0.8], [0.6, 0.9, 0.3]]]],
                      np.float32)
    theoretical, numerical = tf.test.compute_gradient(fn, [pixels], delta=1e-3)
    np.testing.assert_allclose(theoretical[0], numerical[0], atol=5e-3)
