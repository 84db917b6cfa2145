"""Flips, rotations, transposition, crops and pads: values against NumPy, gradients and
errors (against TF: tests/parity/test_image_parity.py)."""
import numpy as np
import pytest

import tapeflow as tf

IMAGES = np.arange(2 * 4 * 5 * 3, dtype=np.float32).reshape(2, 4, 5, 3)


@pytest.mark.parametrize("fn, expected", [
    (tf.image.flip_left_right, IMAGES[:, :, ::-1]),
    (tf.image.flip_up_down, IMAGES[:, ::-1]),
    (tf.image.transpose, IMAGES.transpose(0, 2, 1, 3)),
    (tf.image.rot90, np.rot90(IMAGES, 1, axes=(1, 2))),
    (lambda x: tf.image.rot90(x, k=-3), np.rot90(IMAGES, 1, axes=(1, 2))),
    (lambda x: tf.image.rot90(x, 2), np.rot90(IMAGES, 2, axes=(1, 2))),
    (lambda x: tf.image.central_crop(x, 0.5), IMAGES[:, 1:3, 1:4]),
    (lambda x: tf.image.central_crop(x, 1.0), IMAGES),
    (lambda x: tf.image.crop_to_bounding_box(x, 1, 2, 3, 2), IMAGES[:, 1:4, 2:4]),
    (lambda x: tf.image.pad_to_bounding_box(x, 1, 0, 6, 6),
     np.pad(IMAGES, [(0, 0), (1, 1), (0, 1), (0, 0)])),
    (lambda x: tf.image.resize_with_crop_or_pad(x, 2, 7),
     np.pad(IMAGES[:, 1:3], [(0, 0), (0, 0), (1, 1), (0, 0)])),
])
def test_values_of_a_batch_and_of_one_image(fn, expected):
    np.testing.assert_array_equal(fn(IMAGES).numpy(), expected)
    np.testing.assert_array_equal(fn(IMAGES[1]).numpy(), expected[1])


def test_gradients_flow_back_through_geometry():
    x = tf.constant(IMAGES)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.image.pad_to_bounding_box(
            tf.image.rot90(tf.image.central_crop(x, 0.5)), 1, 1, 6, 6))
    grad = tape.gradient(y, x).numpy()
    expected = np.zeros_like(IMAGES)
    expected[:, 1:3, 1:4] = 1
    np.testing.assert_array_equal(grad, expected)


@pytest.mark.parametrize("call, error", [
    (lambda: tf.image.flip_left_right(np.ones((3, 3))), ValueError),
    (lambda: tf.image.transpose(np.ones((1, 2, 3, 4, 5))), ValueError),
    (lambda: tf.image.rot90(IMAGES, 1.0), TypeError),
    (lambda: tf.image.central_crop(IMAGES, 0.0), ValueError),
    (lambda: tf.image.central_crop(IMAGES, 1.1), ValueError),
    (lambda: tf.image.crop_to_bounding_box(IMAGES, -1, 0, 2, 2), ValueError),
    (lambda: tf.image.crop_to_bounding_box(IMAGES, 0, 0, 0, 2), ValueError),
    (lambda: tf.image.crop_to_bounding_box(IMAGES, 2, 0, 3, 2), ValueError),
    (lambda: tf.image.pad_to_bounding_box(IMAGES, 0, 2, 4, 6), ValueError),
    (lambda: tf.image.resize_with_crop_or_pad(IMAGES, 0, 2), ValueError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_glimpses_read_their_window_and_fill_the_outside():
    image = tf.reshape(tf.range(36.0), [1, 6, 6, 1])
    inside = tf.image.extract_glimpse(image, [2, 3], [[1.0, 2.0]], centered=False,
                                      normalized=False)
    np.testing.assert_array_equal(inside[0, :, :, 0].numpy(), [[8, 9, 10], [14, 15, 16]])
    corner = tf.image.extract_glimpse(image, [3, 3], [[1.0, 1.0]], noise="zero")
    np.testing.assert_array_equal(corner[0, :, :, 0].numpy(), [[28, 29, 0], [34, 35, 0],
                                                               [0, 0, 0]])
    noisy = tf.image.extract_glimpse(image, [3, 3], [[1.0, 1.0]]).numpy()
    assert 0 <= noisy.min() and noisy.max() <= 35


def test_glimpse_gradient_reaches_the_window_only():
    image = tf.constant(np.ones((1, 4, 4, 1), np.float32))
    with tf.GradientTape() as tape:
        tape.watch(image)
        total = tf.reduce_sum(tf.image.extract_glimpse(image, [3, 3], [[2.0, 2.0]],
                                                       centered=False, normalized=False))
    expected = np.zeros((4, 4))
    expected[2:, 2:] = 1
    np.testing.assert_array_equal(tape.gradient(total, image)[0, :, :, 0].numpy(), expected)


def test_glimpse_errors():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.image.extract_glimpse(IMAGES, [2, 2], [[0.0, 0.0]] * 2, noise="salt")
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.image.extract_glimpse(IMAGES, [2, 2], [[0.0, 0.0]])
