"""Geometry of images: flips, rotations, transposition, crops and pads. Each is built from
array ops, so gradients come with them."""
from __future__ import annotations

import tapeflow as tf

from ._util import batched, image_tensor, static_int, unbatched


def positive_target(value, fn_name: str, what: str) -> int:
    """A target size as an int > 0 (ValueError otherwise)."""
    value = static_int(value, fn_name, what)
    if value <= 0:
        raise ValueError(f"{fn_name}: {what} must be > 0, got {value}.")
    return value


def _non_negative(value, fn_name: str, what: str) -> int:
    value = static_int(value, fn_name, what)
    if value < 0:
        raise ValueError(f"{fn_name}: {what} must be >= 0, got {value}.")
    return value


def flip_left_right(image):
    """Reverses the width axis of an image or a batch of images.

    Args:
        image: [..., height, width, channels], at least 3-D.

    Returns:
        The flipped images.

    Raises:
        ValueError: fewer than 3 dimensions.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.flip_left_right(tf.constant([[[1], [2]]]))[0, :, 0].numpy()
        array([2, 1], dtype=int32)
    """
    return tf.reverse(image_tensor(image, "flip_left_right", ranks=None), [-2])


def flip_up_down(image):
    """Reverses the height axis of an image or a batch of images; arguments, result and
    errors as `flip_left_right`.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.flip_up_down(tf.constant([[[1]], [[2]]]))[:, 0, 0].numpy()
        array([2, 1], dtype=int32)
    """
    return tf.reverse(image_tensor(image, "flip_up_down", ranks=None), [-3])


def transpose(image, name=None):
    """Swaps the height and width axes of an image or a batch of images.

    Args:
        image: [batch, height, width, channels] or [height, width, channels].

    Returns:
        [..., width, height, channels].

    Raises:
        ValueError: not of rank 3 or 4.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.transpose(tf.zeros([2, 3, 1])).shape
        TensorShape([3, 2, 1])
    """
    x = image_tensor(image, "transpose")
    return tf.transpose(x, [0, 2, 1, 3] if x.shape.rank == 4 else [1, 0, 2])


def rot90(image, k=1, name=None):
    """Rotates images counter-clockwise by `k` quarter turns.

    Args:
        image: [batch, height, width, channels] or [height, width, channels].
        k: an int, the number of quarter turns (any sign).

    Returns:
        The rotated images.

    Raises:
        ValueError: not of rank 3 or 4.
        TypeError: k is not an integer.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.rot90(tf.constant([[[1], [2]], [[3], [4]]]))[:, :, 0].numpy()
        array([[2, 4],
               [1, 3]], dtype=int32)
    """
    x = image_tensor(image, "rot90")
    turns = static_int(k, "rot90", "k") % 4
    for _ in range(turns):
        x = flip_up_down(transpose(x))
    return x


def central_crop(image, central_fraction):
    """Crops the central `central_fraction` of each image's height and width.

    Args:
        image: [batch, height, width, channels] or [height, width, channels].
        central_fraction: a float in (0, 1].

    Returns:
        The cropped images.

    Raises:
        ValueError: central_fraction outside (0, 1], or images not of rank 3 or 4.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.central_crop(tf.zeros([4, 8, 1]), 0.5).shape
        TensorShape([2, 4, 1])
    """
    if not 0.0 < central_fraction <= 1.0:
        raise ValueError(f"central_crop: central_fraction must be within (0, 1], got "
                         f"{central_fraction}")
    x = image_tensor(image, "central_crop")
    if central_fraction == 1.0:
        return x
    height, width = x.shape[-3], x.shape[-2]
    top = int((height - height * central_fraction) / 2)
    left = int((width - width * central_fraction) / 2)
    return crop_to_bounding_box(x, top, left, height - 2 * top, width - 2 * left)


def _box(fn_name: str, image, offset_height, offset_width, target_height, target_width):
    """The images as a batch (and whether they were one), and the box's offsets (>= 0) and
    target size (> 0)."""
    x, was_batched = batched(image_tensor(image, fn_name))
    return (x, was_batched, _non_negative(offset_height, fn_name, "offset_height"),
            _non_negative(offset_width, fn_name, "offset_width"),
            positive_target(target_height, fn_name, "target_height"),
            positive_target(target_width, fn_name, "target_width"))


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The target_height x target_width window of each image whose top-left corner is at
    (offset_height, offset_width).

    Args:
        image: [batch, height, width, channels] or [height, width, channels].
        offset_height, offset_width: non-negative ints.
        target_height, target_width: positive ints; the window lies within the image.

    Returns:
        The cropped images.

    Raises:
        ValueError: a negative offset, a target that is not positive, a window reaching
            outside the image, or images not of rank 3 or 4.

    Example:
        >>> import tapeflow as tf
        >>> image = tf.reshape(tf.range(9), [3, 3, 1])
        >>> tf.image.crop_to_bounding_box(image, 1, 1, 2, 2)[:, :, 0].numpy()
        array([[4, 5],
               [7, 8]], dtype=int32)
    """
    name = "crop_to_bounding_box"
    x, was_batched, top, left, rows, cols = _box(name, image, offset_height, offset_width,
                                                 target_height, target_width)
    if x.shape[2] < cols + left:
        raise ValueError(f"{name}: width must be >= target + offset, got width {x.shape[2]}, "
                         f"target {cols}, offset {left}.")
    if x.shape[1] < rows + top:
        raise ValueError(f"{name}: height must be >= target + offset, got height "
                         f"{x.shape[1]}, target {rows}, offset {top}.")
    return unbatched(x[:, top:top + rows, left:left + cols, :], was_batched)


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Pads each image with zeros to target_height x target_width, with its top-left corner
    at (offset_height, offset_width).

    Args:
        image: [batch, height, width, channels] or [height, width, channels].
        offset_height, offset_width: non-negative ints.
        target_height, target_width: ints at least the image's size plus the offset.

    Returns:
        The padded images.

    Raises:
        ValueError: a negative offset, a target too small, or images not of rank 3 or 4.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.pad_to_bounding_box(tf.ones([1, 1, 1]), 1, 0, 2, 2)[:, :, 0].numpy()
        array([[0., 0.],
               [1., 0.]], dtype=float32)
    """
    name = "pad_to_bounding_box"
    x, was_batched, top, left, rows, cols = _box(name, image, offset_height, offset_width,
                                                 target_height, target_width)
    bottom, right = rows - top - x.shape[1], cols - left - x.shape[2]
    if right < 0:
        raise ValueError(f"{name}: width must be <= target - offset, got width {x.shape[2]}, "
                         f"target {cols}, offset {left}")
    if bottom < 0:
        raise ValueError(f"{name}: height must be <= target - offset, got height "
                         f"{x.shape[1]}, target {rows}, offset {top}")
    padded = tf.pad(x, [[0, 0], [top, bottom], [left, right], [0, 0]])
    return unbatched(padded, was_batched)


def resize_with_crop_or_pad(image, target_height, target_width):
    """Crops or zero-pads each image, centred, to target_height x target_width.

    Args:
        image: [batch, height, width, channels] or [height, width, channels].
        target_height, target_width: positive ints.

    Returns:
        The images, of `image`'s dtype.

    Raises:
        ValueError: a target that is not positive, or images not of rank 3 or 4.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.resize_with_crop_or_pad(tf.ones([4, 1, 1]), 2, 3)[:, :, 0].numpy()
        array([[0., 1., 0.],
               [0., 1., 0.]], dtype=float32)
    """
    name = "resize_with_crop_or_pad"
    x = image_tensor(image, name)
    rows = positive_target(target_height, name, "target_height")
    cols = positive_target(target_width, name, "target_width")
    height, width = x.shape[-3], x.shape[-2]
    cropped = crop_to_bounding_box(x, max((height - rows) // 2, 0), max((width - cols) // 2, 0),
                                   min(rows, height), min(cols, width))
    return pad_to_bounding_box(cropped, max((rows - height) // 2, 0),
                               max((cols - width) // 2, 0), rows, cols)


def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                    noise="uniform", name=None):
    """Windows of `size` from a batch of images, one at each image's offset; where a window
    reaches outside its image, the outside is noise (uniform between the channel's minimum
    and maximum, Gaussian with its mean and deviation, or zero).

    The offset (y, x) is the window's top-left corner in pixels; `normalized` scales it by
    the image size; `centered` measures it from the image centre (and, normalized, places the
    window's centre there: -1 and 1 are the image's edges). Corners truncate toward zero.

    Args:
        input: [batch, height, width, channels] float images.
        size: [glimpse_height, glimpse_width] ints.
        offsets: [batch, 2] float (y, x) per image.
        centered, normalized: how offsets are read.
        noise: "uniform", "gaussian" or "zero".

    Returns:
        [batch, glimpse_height, glimpse_width, channels] float32; gradients flow to the
        pixels the windows read.

    Raises:
        InvalidArgumentError: input not 4-D, offsets not [batch, 2], or an unknown noise.

    Example:
        >>> import tapeflow as tf
        >>> image = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> tf.image.extract_glimpse(image, [2, 2], [[0.0, 0.0]])[0, :, :, 0].numpy()
        array([[ 5.,  6.],
               [ 9., 10.]], dtype=float32)
    """
    fn = "extract_glimpse"
    x = tf.cast(tf.convert_to_tensor(input), tf.float32)
    if x.shape.rank != 4:
        raise tf.errors.InvalidArgumentError(
            None, fn, f"{fn}: input must be 4-D, got shape {x.shape.as_list()}")
    if noise not in ("uniform", "gaussian", "zero"):
        raise tf.errors.InvalidArgumentError(
            None, fn, f"{fn}: noise must be 'uniform', 'gaussian' or 'zero', got {noise!r}")
    batch, height, width, channels = x.shape.as_list()
    offsets = tf.cast(tf.convert_to_tensor(offsets), tf.float32)
    if offsets.shape.as_list() != [batch, 2]:
        raise tf.errors.InvalidArgumentError(
            None, fn, f"{fn}: offsets must be [batch ({batch}), 2], got shape "
            f"{offsets.shape.as_list()}")
    rows, cols = (static_int(s, fn, "size") for s in
                  (tf.get_static_value(size) if tf.is_tensor(size) else size))
    extent = tf.constant([height, width], tf.float32)
    if normalized and centered:
        corner = (offsets * extent + extent - tf.constant([rows, cols], tf.float32)) / 2.0
    elif normalized:
        corner = offsets * extent
    else:
        corner = offsets + extent / 2.0 if centered else offsets
    top, left = tf.unstack(tf.cast(corner, tf.int32), axis=1)  # truncates toward zero
    row = top[:, None] + tf.range(rows)  # [batch, rows]
    col = left[:, None] + tf.range(cols)  # [batch, cols]
    inside = ((row >= 0) & (row < height))[:, :, None] & ((col >= 0) & (col < width))[:, None]
    shape = [batch, rows, cols]
    where = tf.stack([tf.broadcast_to(tf.range(batch)[:, None, None], shape),
                      tf.broadcast_to(tf.clip_by_value(row, 0, height - 1)[:, :, None], shape),
                      tf.broadcast_to(tf.clip_by_value(col, 0, width - 1)[:, None, :], shape)],
                     axis=-1)
    window = tf.gather_nd(x, where)
    if noise == "zero":
        fill = tf.zeros_like(window)
    elif noise == "uniform":
        low = tf.reduce_min(x, axis=[1, 2], keepdims=True)
        high = tf.reduce_max(x, axis=[1, 2], keepdims=True)
        fill = low + (high - low) * tf.random.uniform([batch, rows, cols, channels])
    else:
        mean, variance = tf.nn.moments(x, axes=[1, 2], keepdims=True)
        fill = mean + tf.sqrt(variance) * tf.random.normal([batch, rows, cols, channels])
    return tf.where(inside[:, :, :, None], window, tf.stop_gradient(fill))
