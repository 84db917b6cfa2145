"""Random augmentations: each draws what it should, repeats under the same seeds, and checks
its arguments as TF does (against TF's shapes, dtypes and errors:
tests/parity/test_image_parity.py)."""
import numpy as np
import pytest

import tapeflow as tf

IMAGES = np.random.default_rng(2).uniform(0, 1, (8, 4, 5, 3)).astype(np.float32)
STATELESS = [
    lambda x, s: tf.image.stateless_random_flip_left_right(x, s),
    lambda x, s: tf.image.stateless_random_flip_up_down(x, s),
    lambda x, s: tf.image.stateless_random_brightness(x, 0.3, s),
    lambda x, s: tf.image.stateless_random_contrast(x, 0.2, 1.8, s),
    lambda x, s: tf.image.stateless_random_saturation(x, 0.2, 1.8, s),
    lambda x, s: tf.image.stateless_random_hue(x, 0.4, s),
    lambda x, s: tf.image.stateless_random_crop(x, [4, 2, 3, 3], s),
]
STATEFUL = [
    lambda x: tf.image.random_flip_left_right(x, seed=3),
    lambda x: tf.image.random_flip_up_down(x, seed=3),
    lambda x: tf.image.random_brightness(x, 0.3, seed=3),
    lambda x: tf.image.random_contrast(x, 0.2, 1.8, seed=3),
    lambda x: tf.image.random_saturation(x, 0.2, 1.8, seed=3),
    lambda x: tf.image.random_hue(x, 0.4, seed=3),
    lambda x: tf.image.random_crop(x, [4, 2, 3, 3], seed=3),
]


@pytest.mark.parametrize("fn", STATELESS)
def test_stateless_repeats_for_a_seed_and_varies_with_it(fn):
    first = fn(IMAGES, (1, 2)).numpy()
    np.testing.assert_array_equal(fn(IMAGES, (1, 2)).numpy(), first)
    assert any(not np.array_equal(fn(IMAGES, (1, k)).numpy(), first) for k in range(3, 9))


@pytest.mark.parametrize("fn", STATEFUL)
def test_stateful_repeats_after_set_seed(fn):
    tf.random.set_seed(7)
    first = [fn(IMAGES).numpy() for _ in range(2)]
    tf.random.set_seed(7)
    second = [fn(IMAGES).numpy() for _ in range(2)]
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])


def test_flips_flip_each_image_or_leave_it():
    out = tf.image.random_flip_left_right(IMAGES, seed=5).numpy()
    flipped = [np.array_equal(o, x[:, ::-1]) for o, x in zip(out, IMAGES)]
    kept = [np.array_equal(o, x) for o, x in zip(out, IMAGES)]
    assert all(f or k for f, k in zip(flipped, kept)) and any(flipped) and any(kept)


def test_crop_is_a_window_of_the_input():
    crop = tf.image.random_crop(IMAGES[0], [2, 3, 3], seed=4).numpy()
    windows = [IMAGES[0, i:i + 2, j:j + 3] for i in range(3) for j in range(3)]
    assert any(np.array_equal(crop, w) for w in windows)


def test_augmentations_in_a_function_pass_gradients():
    x = tf.constant(IMAGES)
    augment = tf.function(lambda x: tf.image.random_crop(
        tf.image.random_flip_left_right(x), [8, 2, 2, 3]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(augment(x))
    grad = tape.gradient(total, x).numpy()
    assert grad.sum() == 8 * 2 * 2 * 3 and set(np.unique(grad)) <= {0.0, 1.0}


@pytest.mark.parametrize("call", [
    lambda: tf.image.random_brightness(IMAGES, -0.1),
    lambda: tf.image.random_contrast(IMAGES, 1.0, 1.0),
    lambda: tf.image.random_contrast(IMAGES, -1.0, 1.0),
    lambda: tf.image.random_saturation(IMAGES, 2.0, 1.0),
    lambda: tf.image.random_hue(IMAGES, 0.6),
    lambda: tf.image.random_hue(IMAGES, -0.1),
    lambda: tf.image.random_jpeg_quality(IMAGES[0], 50, 40),
    lambda: tf.image.random_jpeg_quality(IMAGES[0], 50, 140),
    lambda: tf.image.random_crop(IMAGES, [2, 2]),
])
def test_value_errors(call):
    with pytest.raises(ValueError):
        call()


def test_crop_larger_than_the_input():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.image.random_crop(IMAGES, [9, 2, 2, 3])
