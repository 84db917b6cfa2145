"""image_gradients, sobel_edges, total_variation, psnr, ssim and ssim_multiscale: values on
images whose answers are known, gradients, and errors (against TF:
tests/parity/test_image_parity.py)."""
import numpy as np
import pytest

import tapeflow as tf

RNG = np.random.default_rng(9)
IMAGES = RNG.uniform(0, 1, (2, 24, 24, 3)).astype(np.float32)


def test_image_gradients_of_a_ramp():
    ramp = tf.reshape(tf.range(12.0), [1, 3, 4, 1])
    dy, dx = tf.image.image_gradients(ramp)
    np.testing.assert_array_equal(dy[0, :, :, 0].numpy(), [[4] * 4, [4] * 4, [0] * 4])
    np.testing.assert_array_equal(dx[0, :, :, 0].numpy(), [[1, 1, 1, 0]] * 3)


def test_sobel_edges_of_a_ramp_inside():
    ramp = tf.reshape(tf.range(25.0), [1, 5, 5, 1])
    edges = tf.image.sobel_edges(ramp)
    assert edges.shape == (1, 5, 5, 1, 2)
    np.testing.assert_array_equal(edges[0, 1:4, 1:4, 0].numpy(), np.full((3, 3, 2), [40, 8]))


def test_total_variation():
    image = tf.constant([[[0.0], [1.0]], [[3.0], [1.0]]])
    assert float(tf.image.total_variation(image)) == 6.0
    np.testing.assert_array_equal(tf.image.total_variation(tf.stack([image, 2 * image])).numpy(),
                                  [6.0, 12.0])


def test_psnr_and_ssim_of_identical_images():
    assert np.all(np.isinf(tf.image.psnr(IMAGES, IMAGES, 1.0).numpy()))
    np.testing.assert_allclose(tf.image.ssim(IMAGES, IMAGES, 1.0).numpy(), [1, 1], rtol=1e-6)
    np.testing.assert_allclose(
        tf.image.ssim_multiscale(IMAGES, IMAGES, 1.0, power_factors=(0.5, 0.5),
                                 filter_size=5).numpy(), [1, 1], rtol=1e-5)


def test_psnr_of_uint8():
    a = tf.zeros([2, 2, 1], tf.uint8)
    b = tf.fill([2, 2, 1], tf.constant(51, tf.uint8))
    np.testing.assert_allclose(float(tf.image.psnr(a, b, 255)), 20 * np.log10(5), rtol=1e-6)


def test_ssim_gradient_matches_finite_differences():
    a = IMAGES[:1, :6, :6, :1]
    b = np.clip(a + 0.1, 0, 1)
    theoretical, numerical = tf.test.compute_gradient(
        lambda x: tf.image.ssim(x, b, 1.0, filter_size=3), [a], delta=1e-2)
    np.testing.assert_allclose(theoretical[0], numerical[0], atol=2e-3)


@pytest.mark.parametrize("call, error", [
    (lambda: tf.image.image_gradients(IMAGES[0]), ValueError),
    (lambda: tf.image.sobel_edges(IMAGES[0]), ValueError),
    (lambda: tf.image.total_variation(IMAGES[0, 0]), ValueError),
    (lambda: tf.image.psnr(IMAGES, IMAGES[:, :3], 1.0), ValueError),
    (lambda: tf.image.psnr(IMAGES, IMAGES.astype(np.float64), 1.0), TypeError),
    (lambda: tf.image.ssim(IMAGES[:, :5], IMAGES[:, :5], 1.0), tf.errors.InvalidArgumentError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()
