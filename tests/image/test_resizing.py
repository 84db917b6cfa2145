"""resize, resize_with_pad and crop_and_resize: values, dtypes, gradients (each resize is
linear, so its gradient is its adjoint), graph mode and errors. Values against TF:
tests/parity/test_image_parity.py; the resize ops to second order: the op-case table."""
import numpy as np
import pytest

import tapeflow as tf

RNG = np.random.default_rng(3)
IMAGES = RNG.uniform(0, 1, (2, 5, 6, 3)).astype(np.float32)
METHODS = ["bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
           "mitchellcubic"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("size", [(3, 4), (8, 9)])
def test_gradient_is_the_adjoint(method, antialias, size):
    x = tf.constant(IMAGES)
    upstream = tf.constant(RNG.standard_normal((2, *size, 3)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, size, method=method, antialias=antialias)
    grad = tape.gradient(y, x, output_gradients=upstream)
    # <resize(x), g> = <x, resize^T(g)> for a linear map.
    np.testing.assert_allclose(np.sum(y.numpy() * upstream.numpy()),
                               np.sum(IMAGES * grad.numpy()), rtol=1e-4)


@pytest.mark.parametrize("method", METHODS)
def test_same_size_interpolates_to_the_identity_and_constants_stay(method):
    if method not in ("gaussian", "mitchellcubic"):  # (these two smooth)
        np.testing.assert_allclose(tf.image.resize(IMAGES, [5, 6], method=method).numpy(),
                                   IMAGES, atol=1e-6)
    ones = tf.image.resize(tf.ones([4, 4, 1]), [7, 3], method=method).numpy()
    np.testing.assert_allclose(ones, 1.0, atol=1e-5)


@pytest.mark.parametrize("method", METHODS)
def test_a_nan_pixel_reaches_only_the_outputs_near_it(method):
    image = np.ones((1, 12, 12, 1), np.float32)
    image[0, 0, 0, 0] = np.nan
    out = tf.image.resize(image, [24, 24], method=method).numpy()[0, :, :, 0]
    assert np.isnan(out[0, 0]) and np.isfinite(out[12:, :]).all() and np.isfinite(out[:, 12:]).all()


def test_dtypes():
    ints = tf.constant(RNG.integers(0, 255, (4, 4, 3)).astype(np.uint8))
    assert tf.image.resize(ints, [2, 2]).dtype == tf.float32
    assert tf.image.resize(ints, [2, 2], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR).dtype \
        == tf.uint8
    assert tf.image.resize(IMAGES.astype(np.float64), [2, 2]).dtype == tf.float32
    assert tf.image.resize(IMAGES.astype(np.float16), [2, 2], "nearest").dtype == tf.float16


def test_nearest_and_bilinear_values():
    x = tf.constant([[[0.0], [10.0]]])  # one row, two pixels
    np.testing.assert_array_equal(tf.image.resize(x, [1, 4], "nearest")[0, :, 0].numpy(),
                                  [0, 0, 10, 10])
    np.testing.assert_allclose(tf.image.resize(x, [1, 4])[0, :, 0].numpy(), [0, 2.5, 7.5, 10])
    np.testing.assert_allclose(tf.image.resize(x, [1, 1], "area")[0, :, 0].numpy(), [5.0])


def test_preserve_aspect_ratio():
    assert tf.image.resize(IMAGES, [10, 10], preserve_aspect_ratio=True).shape == (2, 8, 10, 3)
    assert tf.image.resize(IMAGES[0], [3, 30], preserve_aspect_ratio=True).shape == (3, 4, 3)


def test_resize_with_pad_centres_the_image():
    out = tf.image.resize_with_pad(tf.ones([2, 4, 1]), 6, 4)[:, :, 0].numpy()
    np.testing.assert_array_equal(out[:, 0], [0, 0, 1, 1, 0, 0])


def test_resize_in_a_function_and_a_jacobian():
    resize = tf.function(lambda x: tf.image.resize(x, [3, 2], "bicubic"))
    np.testing.assert_allclose(resize(IMAGES).numpy(),
                               tf.image.resize(IMAGES, [3, 2], "bicubic").numpy(), rtol=1e-6)
    x = tf.constant(IMAGES[:1, :3, :3, :1])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, [2, 2])
    assert tape.jacobian(y, x).shape == (1, 2, 2, 1, 1, 3, 3, 1)


@pytest.mark.parametrize("call, error", [
    (lambda: tf.image.resize(np.ones((5, 3)), [2, 2]), ValueError),
    (lambda: tf.image.resize(IMAGES, [2, 2, 2]), ValueError),
    (lambda: tf.image.resize(IMAGES, [2.0, 2.0]), ValueError),
    (lambda: tf.image.resize(IMAGES, [2, 2], method="cubic"), ValueError),
    (lambda: tf.image.resize(IMAGES, [0, 2]), tf.errors.InvalidArgumentError),
    (lambda: tf.image.resize(np.ones((0, 2, 1), np.float32), [2, 2]),
     tf.errors.InvalidArgumentError),
    (lambda: tf.image.resize_with_pad(IMAGES, 0, 3), ValueError),
])
def test_resize_errors(call, error):
    with pytest.raises(error):
        call()


# No sample falls on a pixel centre (where the gradient has a kink).
BOXES = np.array([[0.13, 0.21, 0.87, 0.77], [-0.2, 0.33, 0.55, 1.2], [0.8, 0.9, 0.2, 0.1]],
                 np.float32)


def _numerical_gradient(f, x, eps=1e-3):
    x = x.astype(np.float64)
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (f(up) - f(down)) / (2 * eps)
    return grad


def test_crop_and_resize_gradients_match_finite_differences():
    weights = RNG.standard_normal((3, 4, 3, 3))

    def loss(image, boxes):
        crops = tf.image.crop_and_resize(tf.constant(image, tf.float32),
                                         tf.constant(boxes, tf.float32), [0, 1, 1], [4, 3])
        return float(tf.reduce_sum(crops * weights))

    image, boxes = tf.constant(IMAGES), tf.constant(BOXES)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([image, boxes])
        crops = tf.image.crop_and_resize(image, boxes, [0, 1, 1], [4, 3])
        value = tf.reduce_sum(crops * weights)
    np.testing.assert_allclose(tape.gradient(value, image).numpy(),
                               _numerical_gradient(lambda i: loss(i, BOXES), IMAGES),
                               atol=2e-3)
    np.testing.assert_allclose(tape.gradient(value, boxes).numpy(),
                               _numerical_gradient(lambda b: loss(IMAGES, b), BOXES),
                               rtol=2e-2, atol=2e-2)


def test_crop_and_resize_nearest_and_extrapolation():
    image = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    crop = tf.image.crop_and_resize(image, [[0.0, 0.0, 1.0, 1.0]], [0], [4, 4], "nearest")
    np.testing.assert_array_equal(crop[0, :, :, 0].numpy(), np.arange(16).reshape(4, 4))
    outside = tf.image.crop_and_resize(image, [[-1.0, 0.0, 0.0, 1.0]], [0], [2, 2],
                                       extrapolation_value=-5.0)
    np.testing.assert_array_equal(outside[0, 0, :, 0].numpy(), [-5.0, -5.0])


@pytest.mark.parametrize("call, error", [
    (lambda: tf.image.crop_and_resize(IMAGES, BOXES, [0, 0, 2], [2, 2]),
     tf.errors.OutOfRangeError),
    (lambda: tf.image.crop_and_resize(IMAGES, BOXES, [0, 0], [2, 2]),
     tf.errors.InvalidArgumentError),
    (lambda: tf.image.crop_and_resize(IMAGES[0], BOXES, [0, 0, 0], [2, 2]),
     tf.errors.InvalidArgumentError),
    (lambda: tf.image.crop_and_resize(IMAGES, BOXES[:, :3], [0, 0, 0], [2, 2]),
     tf.errors.InvalidArgumentError),
    (lambda: tf.image.crop_and_resize(IMAGES, BOXES, [0, 0, 0], [2, 0]),
     tf.errors.InvalidArgumentError),
    (lambda: tf.image.crop_and_resize(IMAGES, BOXES, [0, 0, 0], [2, 2], method="area"),
     tf.errors.InvalidArgumentError),
])
def test_crop_and_resize_errors(call, error):
    with pytest.raises(error):
        call()
