"""Colour: dtype conversion, colour spaces, and brightness, contrast, saturation, hue and
gamma adjustments. All are built from tensor ops, so gradients come with them."""
from __future__ import annotations

import numpy as np

import tapeflow as tf

from ._util import image_tensor

_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]
_GRAY_WEIGHTS = [0.2989, 0.5870, 0.1140]


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Converts image values between dtypes, rescaling them: floats span [0, 1], integers
    [0, dtype.max].

    Float to integer scales by (max + 0.5) and truncates; integer to float scales by
    1 / max; between integers the values shift by the difference in bits.

    Args:
        image: an image tensor of a float or integer dtype.
        dtype: the dtype to convert to (float or integer).
        saturate: clip to the target dtype's range before casting.

    Returns:
        `image` in `dtype`.

    Raises:
        AttributeError: either dtype is neither float nor integer.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.convert_image_dtype(tf.constant([0, 255], tf.uint8), tf.float32).numpy()
        array([0., 1.], dtype=float32)
    """
    x = tf.convert_to_tensor(image)
    target = tf.as_dtype(dtype)
    if not (target.is_floating or target.is_integer):
        raise AttributeError(f"convert_image_dtype: dtype must be either floating point or "
                             f"integer, got {target.name}")
    source = x.dtype
    if not (source.is_floating or source.is_integer):
        raise AttributeError(f"convert_image_dtype: image dtype must be either floating "
                             f"point or integer, got {source.name}")
    if source == target:
        return tf.identity(x)
    if source.is_floating and target.is_floating:
        return tf.cast(x, target)
    if source.is_integer and target.is_floating:
        return tf.cast(x, target) * (1.0 / source.max)
    if source.is_floating:
        scaled = x * (target.max + 0.5)
    elif source.max > target.max:
        scaled = tf.math.floordiv(x, (source.max + 1) // (target.max + 1))
    else:
        widened = _saturate_cast(x, target) if saturate else tf.cast(x, target)
        return widened * ((target.max + 1) // (source.max + 1))
    return _saturate_cast(scaled, target) if saturate else tf.cast(scaled, target)


def _saturate_cast(x, dtype):
    """`x` clipped to `dtype`'s range, then cast."""
    low, high = max(x.dtype.min, dtype.min), min(x.dtype.max, dtype.max)
    if x.dtype.is_floating and dtype.is_integer:
        # The float nearest an integer limit may lie beyond it (2**31 for int32's max).
        limit = x.dtype.as_numpy_dtype(high)
        if int(limit) > high:
            high = np.nextafter(limit, x.dtype.as_numpy_dtype(0))
    return tf.cast(tf.clip_by_value(x, tf.cast(low, x.dtype), tf.cast(high, x.dtype)), dtype)


def _as_float(image):
    """The image as float16 or float32 (other dtypes converted to float32), and its dtype."""
    x = tf.convert_to_tensor(image)
    if x.dtype in (tf.float16, tf.float32):
        return x, x.dtype
    return convert_image_dtype(x, tf.float32), x.dtype


def _restored(x, dtype):
    return convert_image_dtype(x, dtype, saturate=True)


def _rgb_channels(images, fn_name: str):
    x = tf.convert_to_tensor(images)
    if x.shape.rank is None or x.shape.rank < 1 or x.shape[-1] != 3:
        raise ValueError(f"{fn_name}: the last dimension must be 3 (RGB), got shape "
                         f"{tuple(x.shape)}")
    return x


def _color_transform(images, matrix, fn_name: str):
    x = _rgb_channels(images, fn_name)
    return tf.tensordot(x, tf.constant(matrix, dtype=x.dtype), [[x.shape.rank - 1], [0]])


def rgb_to_yiq(images):
    """RGB to YIQ colour space, along the last axis.

    Args:
        images: a float tensor whose last dimension is 3, RGB in [0, 1].

    Returns:
        YIQ values, like `images`.

    Raises:
        ValueError: the last dimension is not 3.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.rgb_to_yiq(tf.constant([1.0, 0.0, 0.0])).numpy().round(4)
        array([0.299 , 0.5959, 0.2115], dtype=float32)
    """
    return _color_transform(images, _RGB_TO_YIQ, "rgb_to_yiq")


def yiq_to_rgb(images):
    """YIQ to RGB colour space, along the last axis: the inverse of `rgb_to_yiq`, with its
    arguments, result and errors.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.yiq_to_rgb(tf.constant([1.0, 0.0, 0.0])).numpy()
        array([1., 1., 1.], dtype=float32)
    """
    return _color_transform(images, _YIQ_TO_RGB, "yiq_to_rgb")


def rgb_to_yuv(images):
    """RGB to YUV colour space, along the last axis; arguments, result and errors as
    `rgb_to_yiq`.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.rgb_to_yuv(tf.constant([1.0, 0.0, 0.0])).numpy()
        array([ 0.299 , -0.1471,  0.615 ], dtype=float32)
    """
    return _color_transform(images, _RGB_TO_YUV, "rgb_to_yuv")


def yuv_to_rgb(images):
    """YUV to RGB colour space, along the last axis: the inverse of `rgb_to_yuv`, with its
    arguments, result and errors.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.yuv_to_rgb(tf.constant([1.0, 0.0, 0.0])).numpy()
        array([1., 1., 1.], dtype=float32)
    """
    return _color_transform(images, _YUV_TO_RGB, "yuv_to_rgb")


def rgb_to_grayscale(images, name=None):
    """Luma of RGB images: a weighted sum of the channels, keeping a last axis of 1.

    Args:
        images: [..., 3] images of a float or integer dtype.

    Returns:
        [..., 1] images of `images`' dtype.

    Raises:
        ValueError: the last dimension is not 3.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.rgb_to_grayscale(tf.constant([[[1.0, 1.0, 1.0]]])).numpy().round(4)
        array([[[0.9999]]], dtype=float32)
    """
    x = _rgb_channels(images, "rgb_to_grayscale")
    floats = convert_image_dtype(x, tf.float32)
    gray = tf.tensordot(floats, tf.constant(_GRAY_WEIGHTS), [[x.shape.rank - 1], [0]])
    return convert_image_dtype(tf.expand_dims(gray, -1), x.dtype)


def grayscale_to_rgb(images, name=None):
    """Repeats the single channel of grayscale images three times.

    Args:
        images: [..., 1] images, at least 2-D.

    Returns:
        [..., 3] images of `images`' dtype.

    Raises:
        ValueError: the last dimension is not 1, or fewer than 2 dimensions.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.grayscale_to_rgb(tf.constant([[[0.5]]])).numpy()
        array([[[0.5, 0.5, 0.5]]], dtype=float32)
    """
    x = tf.convert_to_tensor(images)
    if x.shape.rank < 2 or x.shape[-1] != 1:
        raise ValueError(f"grayscale_to_rgb: the last dimension of a grayscale image should "
                         f"be size 1, got shape {tuple(x.shape)}")
    return tf.tile(x, [1] * (x.shape.rank - 1) + [3])


def rgb_to_hsv(images, name=None):
    """RGB to HSV (hue, saturation, value), all in [0, 1], along the last axis.

    Args:
        images: a float tensor whose last dimension is 3, RGB in [0, 1].

    Returns:
        HSV values, like `images`.

    Raises:
        ValueError: the last dimension is not 3.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.rgb_to_hsv(tf.constant([0.0, 1.0, 0.0])).numpy().round(4)
        array([0.3333, 1.    , 1.    ], dtype=float32)
    """
    x = _rgb_channels(images, "rgb_to_hsv")
    r, g, b = tf.unstack(x, axis=-1)
    value = tf.reduce_max(x, axis=-1)
    spread = value - tf.reduce_min(x, axis=-1)
    saturation = tf.where(value > 0, spread / tf.where(value > 0, value, 1.0), 0.0)
    safe = tf.where(spread > 0, spread, 1.0)
    hue = tf.where(tf.equal(r, value), (g - b) / safe,
                   tf.where(tf.equal(g, value), (b - r) / safe + 2.0, (r - g) / safe + 4.0)) / 6.0
    hue = tf.where(spread > 0, hue, 0.0)
    hue = tf.where(hue < 0, hue + 1.0, hue)
    return tf.stack([hue, saturation, value], axis=-1)


def hsv_to_rgb(images, name=None):
    """HSV to RGB, along the last axis (the inverse of `rgb_to_hsv`).

    Args:
        images: a float tensor whose last dimension is 3, HSV in [0, 1].

    Returns:
        RGB values, like `images`.

    Raises:
        ValueError: the last dimension is not 3.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.hsv_to_rgb(tf.constant([1 / 3, 1.0, 1.0])).numpy().round(4)
        array([0., 1., 0.], dtype=float32)
    """
    x = _rgb_channels(images, "hsv_to_rgb")
    hue, saturation, value = tf.unstack(x, axis=-1)
    sector = hue * 6.0
    channels = []
    for shift in (5.0, 3.0, 1.0):  # red, green, blue
        k = tf.math.floormod(sector + shift, 6.0)
        ramp = tf.clip_by_value(tf.minimum(k, 4.0 - k), 0.0, 1.0)
        channels.append(value - value * saturation * ramp)
    return tf.stack(channels, axis=-1)


def adjust_brightness(image, delta):
    """Adds `delta` to every value of `image` (as floats in [0, 1] for integer images).

    Args:
        image: images of any float or integer dtype.
        delta: a scalar to add.

    Returns:
        The brightened images, of `image`'s dtype (integer results saturate).

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_brightness(tf.constant([0.2, 0.5]), 0.1).numpy()
        array([0.3, 0.6], dtype=float32)
    """
    x, dtype = _as_float(image)
    return _restored(x + tf.cast(delta, x.dtype), dtype)


def adjust_contrast(images, contrast_factor):
    """Scales each channel's deviation from its mean over height and width by
    `contrast_factor`.

    Args:
        images: [..., height, width, channels], at least 3-D.
        contrast_factor: a scalar multiplier.

    Returns:
        The adjusted images, of `images`' dtype.

    Raises:
        ValueError: fewer than 3 dimensions.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_contrast(tf.constant([[[0.0], [1.0]]]), 2.0)[0, :, 0].numpy()
        array([-0.5,  1.5], dtype=float32)
    """
    x, dtype = _as_float(image_tensor(images, "adjust_contrast", ranks=None, what="images"))
    mean = tf.reduce_mean(x, axis=[-3, -2], keepdims=True)
    return _restored((x - mean) * tf.cast(contrast_factor, x.dtype) + mean, dtype)


def adjust_gamma(image, gamma=1, gain=1):
    """Gamma correction: `gain * image ** gamma` (on floats in [0, 1] for integer images).

    Args:
        image: images of any float or integer dtype.
        gamma: a non-negative scalar.
        gain: a scalar multiplier.

    Returns:
        The corrected images, of `image`'s dtype.

    Raises:
        ValueError: gamma is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_gamma(tf.constant([0.25, 1.0]), gamma=0.5).numpy()
        array([0.5, 1. ], dtype=float32)
    """
    x, dtype = _as_float(image)
    known = tf.get_static_value(gamma) if tf.is_tensor(gamma) else gamma
    if known is not None and np.any(np.asarray(known) < 0):
        raise ValueError(f"adjust_gamma: Gamma should be a non-negative real number, got "
                         f"{known}")
    return _restored(tf.cast(gain, x.dtype) * x ** tf.cast(gamma, x.dtype), dtype)


def adjust_hue(image, delta, name=None):
    """Rotates the hue of RGB images by `delta` (a fraction of the colour circle).

    Args:
        image: [..., 3] RGB images.
        delta: a scalar in [-1, 1].

    Returns:
        The adjusted images, of `image`'s dtype.

    Raises:
        ValueError: the last dimension is not 3.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_hue(tf.constant([1.0, 0.0, 0.0]), 1 / 3).numpy().round(4)
        array([0., 1., 0.], dtype=float32)
    """
    x, dtype = _as_float(_rgb_channels(image, "adjust_hue"))
    hue, saturation, value = tf.unstack(rgb_to_hsv(x), axis=-1)
    hue = tf.math.floormod(hue + tf.cast(delta, x.dtype), 1.0)
    return convert_image_dtype(hsv_to_rgb(tf.stack([hue, saturation, value], -1)), dtype)


def adjust_saturation(image, saturation_factor, name=None):
    """Scales the saturation of RGB images by `saturation_factor` (clipped to [0, 1]).

    Args:
        image: [..., 3] RGB images.
        saturation_factor: a non-negative scalar.

    Returns:
        The adjusted images, of `image`'s dtype.

    Raises:
        ValueError: the last dimension is not 3.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_saturation(tf.constant([1.0, 0.5, 0.5]), 0.0).numpy()
        array([1., 1., 1.], dtype=float32)
    """
    x, dtype = _as_float(_rgb_channels(image, "adjust_saturation"))
    hue, saturation, value = tf.unstack(rgb_to_hsv(x), axis=-1)
    saturation = tf.clip_by_value(saturation * tf.cast(saturation_factor, x.dtype), 0.0, 1.0)
    return convert_image_dtype(hsv_to_rgb(tf.stack([hue, saturation, value], -1)), dtype)


def per_image_standardization(image):
    """Scales each image to zero mean and unit variance over its height, width and
    channels (the deviation floored at 1 / sqrt(pixel count)).

    Args:
        image: [..., height, width, channels], at least 3-D.

    Returns:
        The standardized images: float16 for float16 input, float32 otherwise.

    Raises:
        ValueError: fewer than 3 dimensions.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.per_image_standardization(tf.constant([[[1.0], [3.0]]]))[0, :, 0].numpy()
        array([-1.,  1.], dtype=float32)
    """
    x = image_tensor(image, "per_image_standardization", ranks=None)
    if x.dtype != tf.float16:
        x = convert_image_dtype(x, tf.float32)
    axes = [-1, -2, -3]
    pixels = int(np.prod(x.shape[-3:]))
    deviation = tf.maximum(tf.math.reduce_std(x, axis=axes, keepdims=True),
                           tf.cast(1.0 / np.sqrt(np.float32(pixels)), x.dtype))
    return (x - tf.reduce_mean(x, axis=axes, keepdims=True)) / deviation
