"""Random augmentations: random_* draw from the seeded stateful generators (tf.random.set_seed
and the op `seed`), stateless_random_* from a [2] seed alone. Sequences are deterministic for
given seeds but not bit-identical to TF's."""
from __future__ import annotations

import tapeflow as tf

from ._util import image_tensor
from .codecs import adjust_jpeg_quality
from .color import adjust_brightness, adjust_contrast, adjust_hue, adjust_saturation


def _uniform(shape, low, high, seed, stateless: bool):
    if stateless:
        return tf.random.stateless_uniform(shape, seed=seed, minval=low, maxval=high)
    return tf.random.uniform(shape, minval=low, maxval=high, seed=seed)


def _flip(image, axis: int, seed, stateless: bool, fn_name: str):
    x = image_tensor(image, fn_name)
    if x.shape.rank == 3:
        flip = _uniform([], 0.0, 1.0, seed, stateless) < 0.5
    else:
        flip = tf.reshape(_uniform(tf.shape(x)[:1], 0.0, 1.0, seed, stateless) < 0.5,
                          [-1, 1, 1, 1])
    return tf.where(flip, tf.reverse(x, [axis]), x)


def random_flip_left_right(image, seed=None):
    """Flips each image left to right with probability 1/2.

    Args:
        image: [batch, height, width, channels] or [height, width, channels].
        seed: the op seed (with tf.random.set_seed's global seed).

    Returns:
        The images, each flipped or not.

    Raises:
        ValueError: not of rank 3 or 4.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_flip_left_right(tf.ones([2, 2, 1]), seed=1).shape
        TensorShape([2, 2, 1])
    """
    return _flip(image, -2, seed, False, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    """Flips each image upside down with probability 1/2; arguments, result and errors as
    `random_flip_left_right`.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_flip_up_down(tf.ones([2, 2, 1]), seed=1).shape
        TensorShape([2, 2, 1])
    """
    return _flip(image, -3, seed, False, "random_flip_up_down")


def stateless_random_flip_left_right(image, seed):
    """`random_flip_left_right` decided by `seed` alone.

    Args:
        image: [batch, height, width, channels] or [height, width, channels].
        seed: [2] ints.

    Returns:
        The images, each flipped or not.

    Raises:
        ValueError: not of rank 3 or 4.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.reshape(tf.range(4.0), [1, 4, 1])
        >>> a = tf.image.stateless_random_flip_left_right(x, seed=(1, 2))
        >>> bool(tf.reduce_all(a == tf.image.stateless_random_flip_left_right(x, seed=(1, 2))))
        True
    """
    return _flip(image, -2, seed, True, "stateless_random_flip_left_right")


def stateless_random_flip_up_down(image, seed):
    """`random_flip_up_down` decided by `seed` ([2] ints) alone.

    Raises:
        ValueError: not of rank 3 or 4.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_flip_up_down(tf.ones([2, 2, 1]), seed=(1, 2)).shape
        TensorShape([2, 2, 1])
    """
    return _flip(image, -3, seed, True, "stateless_random_flip_up_down")


def _check_delta(max_delta, fn_name: str, limit=None) -> None:
    if limit is not None and max_delta > limit:
        raise ValueError(f"{fn_name}: max_delta must be <= {limit}, got {max_delta}.")
    if max_delta < 0:
        raise ValueError(f"{fn_name}: max_delta must be non-negative, got {max_delta}.")


def _check_range(lower, upper, fn_name: str) -> None:
    if upper <= lower:
        raise ValueError(f"{fn_name}: upper must be > lower, got lower {lower}, upper "
                         f"{upper}.")
    if lower < 0:
        raise ValueError(f"{fn_name}: lower must be non-negative, got {lower}.")


def _brightness(image, max_delta, seed, stateless: bool, fn_name: str):
    _check_delta(max_delta, fn_name)
    return adjust_brightness(image, _uniform([], -max_delta, max_delta, seed, stateless))


def _contrast(image, lower, upper, seed, stateless: bool, fn_name: str):
    _check_range(lower, upper, fn_name)
    return adjust_contrast(image, _uniform([], lower, upper, seed, stateless))


def _saturation(image, lower, upper, seed, stateless: bool, fn_name: str):
    _check_range(lower, upper, fn_name)
    return adjust_saturation(image, _uniform([], lower, upper, seed, stateless))


def _hue(image, max_delta, seed, stateless: bool, fn_name: str):
    _check_delta(max_delta, fn_name, limit=0.5)
    return adjust_hue(image, _uniform([], -max_delta, max_delta, seed, stateless))


def random_brightness(image, max_delta, seed=None):
    """`adjust_brightness` by a delta drawn uniformly from [-max_delta, max_delta).

    Args:
        image: images of any float or integer dtype.
        max_delta: a non-negative float.
        seed: the op seed.

    Returns:
        The adjusted images.

    Raises:
        ValueError: max_delta is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_brightness(tf.zeros([1, 1, 1]), 0.0).numpy().ravel()
        array([0.], dtype=float32)
    """
    return _brightness(image, max_delta, seed, False, "random_brightness")


def stateless_random_brightness(image, max_delta, seed):
    """`random_brightness` decided by `seed` ([2] ints) alone.

    Raises:
        ValueError: max_delta is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_brightness(tf.zeros([1, 1, 1]), 0.5, (1, 2)).shape
        TensorShape([1, 1, 1])
    """
    return _brightness(image, max_delta, seed, True, "stateless_random_brightness")


def random_contrast(image, lower, upper, seed=None):
    """`adjust_contrast` by a factor drawn uniformly from [lower, upper).

    Args:
        image: [..., height, width, channels] images.
        lower, upper: 0 <= lower < upper.
        seed: the op seed.

    Returns:
        The adjusted images.

    Raises:
        ValueError: upper <= lower or lower < 0.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_contrast(tf.ones([2, 2, 1]), 0.5, 1.5).numpy().ravel()
        array([1., 1., 1., 1.], dtype=float32)
    """
    return _contrast(image, lower, upper, seed, False, "random_contrast")


def stateless_random_contrast(image, lower, upper, seed):
    """`random_contrast` decided by `seed` ([2] ints) alone.

    Raises:
        ValueError: upper <= lower or lower < 0.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_contrast(tf.ones([2, 2, 1]), 0.5, 1.5, (1, 2)).shape
        TensorShape([2, 2, 1])
    """
    return _contrast(image, lower, upper, seed, True, "stateless_random_contrast")


def random_saturation(image, lower, upper, seed=None):
    """`adjust_saturation` by a factor drawn uniformly from [lower, upper).

    Args:
        image: [..., 3] RGB images.
        lower, upper: 0 <= lower < upper.
        seed: the op seed.

    Returns:
        The adjusted images.

    Raises:
        ValueError: upper <= lower or lower < 0.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_saturation(tf.ones([1, 1, 3]), 0.5, 1.5).numpy().ravel()
        array([1., 1., 1.], dtype=float32)
    """
    return _saturation(image, lower, upper, seed, False, "random_saturation")


def stateless_random_saturation(image, lower, upper, seed=None):
    """`random_saturation` decided by `seed` ([2] ints) alone.

    Raises:
        ValueError: upper <= lower or lower < 0.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_saturation(tf.ones([1, 1, 3]), 0.5, 1.5, (1, 2)).shape
        TensorShape([1, 1, 3])
    """
    return _saturation(image, lower, upper, seed, True, "stateless_random_saturation")


def random_hue(image, max_delta, seed=None):
    """`adjust_hue` by a delta drawn uniformly from [-max_delta, max_delta).

    Args:
        image: [..., 3] RGB images.
        max_delta: a float in [0, 0.5].
        seed: the op seed.

    Returns:
        The adjusted images.

    Raises:
        ValueError: max_delta outside [0, 0.5].

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_hue(tf.ones([1, 1, 3]), 0.2).numpy().ravel()
        array([1., 1., 1.], dtype=float32)
    """
    return _hue(image, max_delta, seed, False, "random_hue")


def stateless_random_hue(image, max_delta, seed):
    """`random_hue` decided by `seed` ([2] ints) alone.

    Raises:
        ValueError: max_delta outside [0, 0.5].

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_hue(tf.ones([1, 1, 3]), 0.2, (1, 2)).shape
        TensorShape([1, 1, 3])
    """
    return _hue(image, max_delta, seed, True, "stateless_random_hue")


def _crop(value, size, seed, stateless: bool, fn_name: str):
    x = tf.convert_to_tensor(value)
    size = [int(s) for s in (tf.get_static_value(size) if tf.is_tensor(size) else size)]
    shape = x.shape.as_list()
    if len(size) != len(shape):
        raise ValueError(f"{fn_name}: size must have one entry per dimension of value "
                         f"({len(shape)}), got {size}")
    if any(s > d or s < 0 for s, d in zip(size, shape)):
        raise tf.errors.InvalidArgumentError(
            None, fn_name, f"{fn_name}: Need value.shape >= size, got {shape} and {size}")
    limit = tf.constant([d - s + 1 for s, d in zip(size, shape)], tf.float32)
    draws = _uniform([len(shape)], 0.0, 1.0, seed, stateless)
    offsets = tf.unstack(tf.cast(tf.minimum(tf.floor(draws * limit), limit - 1), tf.int32))
    # Gathers rather than a slice: the offsets may be known only when a graph runs.
    for axis, (s, d, offset) in enumerate(zip(size, shape, offsets)):
        if s < d:
            x = tf.gather(x, offset + tf.range(s), axis=axis)
    return x


def random_crop(value, size, seed=None, name=None):
    """A `size` window of `value` at a random offset (uniform over the positions that fit).

    Args:
        value: a tensor.
        size: one int per dimension of value, each at most that dimension.
        seed: the op seed.

    Returns:
        The crop, of shape `size`.

    Raises:
        ValueError: size has the wrong length.
        InvalidArgumentError: size exceeds value's shape.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_crop(tf.zeros([4, 4, 3]), [2, 2, 3], seed=1).shape
        TensorShape([2, 2, 3])
    """
    return _crop(value, size, seed, False, "random_crop")


def stateless_random_crop(value, size, seed, name=None):
    """`random_crop` placed by `seed` ([2] ints) alone.

    Raises:
        ValueError: size has the wrong length.
        InvalidArgumentError: size exceeds value's shape.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_crop(tf.zeros([4, 4, 3]), [2, 2, 3], seed=(1, 2)).shape
        TensorShape([2, 2, 3])
    """
    return _crop(value, size, seed, True, "stateless_random_crop")


def _jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed, stateless: bool,
                  fn_name: str):
    if min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100 or \
            max_jpeg_quality > 100:
        raise ValueError(f"{fn_name}: jpeg_quality must be in [0,100], got "
                         f"[{min_jpeg_quality}, {max_jpeg_quality}]")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError(f"{fn_name}: `min_jpeg_quality` must be less than "
                         f"`max_jpeg_quality`, got {min_jpeg_quality} and {max_jpeg_quality}")
    quality = _uniform([], float(min_jpeg_quality), float(max_jpeg_quality), seed, stateless)
    return adjust_jpeg_quality(image, int(tf.floor(quality)))


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """`adjust_jpeg_quality` with a quality drawn uniformly from [min, max) (needs Pillow).

    Args:
        image: [height, width, channels] (or batched) images.
        min_jpeg_quality, max_jpeg_quality: ints, 0 <= min < max <= 100.
        seed: the op seed.

    Returns:
        The re-encoded images, of `image`'s dtype.

    Raises:
        ValueError: qualities outside [0, 100] or min >= max.
        ImportError: Pillow is not installed.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.random_jpeg_quality(tf.zeros([8, 8, 3]), 70, 90).shape
        TensorShape([8, 8, 3])
    """
    return _jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed, False,
                         "random_jpeg_quality")


def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    """`random_jpeg_quality` decided by `seed` ([2] ints) alone.

    Raises:
        ValueError: qualities outside [0, 100] or min >= max.
        ImportError: Pillow is not installed.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.stateless_random_jpeg_quality(tf.zeros([8, 8, 3]), 70, 90, (1, 2)).shape
        TensorShape([8, 8, 3])
    """
    return _jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed, True,
                         "stateless_random_jpeg_quality")
