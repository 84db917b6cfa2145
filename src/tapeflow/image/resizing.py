"""Resizing images: `resize` with every method, `resize_with_pad`, and `crop_and_resize`."""
from __future__ import annotations

import numpy as np

import tapeflow as tf

from ..ops import image_ops
from ._util import batched, image_tensor, unbatched


class ResizeMethod:
    """The interpolation methods of `resize`, by TF's names.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.ResizeMethod.BILINEAR
        'bilinear'
    """

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


# The methods that resample with ScaleAndTranslate, by its kernel names; bilinear and
# bicubic do too when antialiased.
_SAMPLED = {"lanczos3": "lanczos3", "lanczos5": "lanczos5", "gaussian": "gaussian",
            "mitchellcubic": "mitchellcubic"}
_ANTIALIASED = {"bilinear": "triangle", "bicubic": "keyscubic"}
_OPS = {"bilinear": image_ops.ResizeBilinear, "nearest": image_ops.ResizeNearestNeighbor,
        "bicubic": image_ops.ResizeBicubic, "area": image_ops.ResizeArea}


def _size(size) -> tuple:
    known = tf.get_static_value(size) if tf.is_tensor(size) else size
    array = np.asarray(known)
    if array.dtype.kind == "O" or array.ndim != 1 or array.shape[0] != 2:
        raise ValueError("resize: 'size' must be a 1-D Tensor of 2 elements: new_height, "
                         f"new_width; got {size!r}")
    if array.dtype.kind not in "iu":
        raise ValueError(f"resize: 'size' must be a 1-D int32 Tensor, got {size!r}")
    return int(array[0]), int(array[1])


def _fitted(height: int, width: int, size: tuple) -> tuple:
    """The largest size within `size` with the aspect ratio of height x width."""
    factor = min(np.float32(size[0]) / np.float32(height), np.float32(size[1]) / np.float32(width))
    return (int(np.round(factor * np.float32(height))), int(np.round(factor * np.float32(width))))


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None):
    """Resizes images to `size` with `method`.

    Every method except nearest-neighbour returns float32 (integer and float64 images are
    converted first); nearest keeps the dtype. Pixel centres sit at half-integers, as TF 2's
    resize does. Gradients flow to the images for every method.

    Args:
        images: [batch, height, width, channels] or [height, width, channels].
        size: [new_height, new_width], ints.
        method: a `ResizeMethod` or its string: bilinear, nearest, bicubic, area, lanczos3,
            lanczos5, gaussian, mitchellcubic.
        preserve_aspect_ratio: fit within `size` keeping the aspect ratio.
        antialias: widen the filter when downsampling (not for nearest or area).

    Returns:
        The resized images, of rank like `images`.

    Raises:
        ValueError: images not of rank 3 or 4, a malformed `size`, or an unknown method.
        InvalidArgumentError: a size that is not positive, or an empty image.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.resize(tf.constant([[[1.0], [3.0]]]), [1, 4])[0, :, 0].numpy()
        array([1. , 1.5, 2.5, 3. ], dtype=float32)
    """
    x = tf.convert_to_tensor(images)
    if x.shape.rank not in (3, 4):
        raise ValueError(f"resize: 'images' must have either 3 or 4 dimensions, got shape "
                         f"{tuple(x.shape)}")
    size = _size(size)
    method = str(method).lower()
    if method not in _OPS and method not in _SAMPLED:
        raise ValueError(f"resize: Resize method is not implemented: {method}")
    x, was_batched = batched(x)
    height, width = x.shape[1], x.shape[2]
    if preserve_aspect_ratio and height and width:
        size = _fitted(height, width, size)
    if min(size) <= 0:
        raise tf.errors.InvalidArgumentError(
            None, "Resize", f"resize: output dimensions must be positive, got {list(size)}")
    if method != "nearest" and x.dtype != tf.float32:
        x = tf.cast(x, tf.float32)
    kernel = _SAMPLED.get(method) or (_ANTIALIASED.get(method) if antialias else None)
    if kernel is None:
        y = _OPS[method](x, size=size)
    else:
        y = image_ops.ScaleAndTranslate(
            x, size=size, scale=(size[0] / height, size[1] / width), translation=(0.0, 0.0),
            kernel_type=kernel, antialias=bool(antialias))
    return unbatched(y, was_batched)


def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR,
                    antialias=False):
    """Resizes `image` to fit within target_height x target_width keeping its aspect ratio,
    then pads it with zeros (evenly on both sides) to that size.

    Args:
        image: [batch, height, width, channels] or [height, width, channels].
        target_height, target_width: positive ints.
        method, antialias: as `resize`.

    Returns:
        The resized, padded images (float32 unless method is nearest).

    Raises:
        ValueError: a target that is not positive, or images not of rank 3 or 4.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.resize_with_pad(tf.ones([2, 4, 1]), 4, 4)[:, :, 0].numpy()
        array([[0., 0., 0., 0.],
               [1., 1., 1., 1.],
               [1., 1., 1., 1.],
               [0., 0., 0., 0.]], dtype=float32)
    """
    from .cropping import pad_to_bounding_box, positive_target
    x = image_tensor(image, "resize_with_pad")
    target_height = positive_target(target_height, "resize_with_pad", "target_height")
    target_width = positive_target(target_width, "resize_with_pad", "target_width")
    height, width = (np.float32(d) for d in x.shape[-3:-1])
    ratio = max(width / np.float32(target_width), height / np.float32(target_height))
    new_height, new_width = height / ratio, width / ratio
    resized = resize(x, [int(np.floor(new_height)), int(np.floor(new_width))], method=method,
                     antialias=antialias)
    top = max(0, int(np.floor((np.float32(target_height) - new_height) / 2)))
    left = max(0, int(np.floor((np.float32(target_width) - new_width) / 2)))
    return pad_to_bounding_box(resized, top, left, target_height, target_width)


def _sample_positions(starts, ends, extent: int, count: int):
    """Where the `count` samples of each box fall along an axis of `extent` pixels, from the
    boxes' normalized `starts` and `ends` ([boxes] each): [boxes, count]."""
    span = np.float32(extent - 1)
    if count > 1:
        step = (ends - starts) * span / np.float32(count - 1)
        return starts[:, None] * span + tf.range(count, dtype=tf.float32)[None, :] * step[:, None]
    return (0.5 * (starts + ends) * span)[:, None]


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0, name=None):
    """Crops boxes out of a batch of images and resizes each crop to `crop_size`.

    Box corners are normalized: (0, 0) is the centre of the top-left pixel and (1, 1) that of
    the bottom-right one; samples outside the image take `extrapolation_value`. Gradients
    flow to the image and to the boxes (for nearest, the boxes get the gradient the bilinear
    crop would have, as TF's).

    Args:
        image: [batch, height, width, depth].
        boxes: [num_boxes, 4] float (y1, x1, y2, x2); y1 > y2 flips the crop.
        box_indices: [num_boxes] ints in [0, batch): the image each box crops.
        crop_size: [crop_height, crop_width], positive ints.
        method: "bilinear" or "nearest".
        extrapolation_value: the value of samples outside the image.

    Returns:
        [num_boxes, crop_height, crop_width, depth] float32.

    Raises:
        InvalidArgumentError: an unknown method, image not 4-D, boxes not [num_boxes, 4], or
            a crop size that is not positive.
        OutOfRangeError: a box index outside [0, batch).

    Example:
        >>> import tapeflow as tf
        >>> image = tf.reshape(tf.range(9.0), [1, 3, 3, 1])
        >>> tf.image.crop_and_resize(image, [[0.0, 0.0, 0.5, 0.5]], [0], [2, 2])[0, :, :, 0].numpy()
        array([[0., 1.],
               [3., 4.]], dtype=float32)
    """
    x = tf.convert_to_tensor(image)
    if method not in ("bilinear", "nearest"):
        raise tf.errors.InvalidArgumentError(
            None, "CropAndResize", f"CropAndResize: method must be 'bilinear' or 'nearest', "
            f"got {method!r}")
    if x.shape.rank != 4:
        raise tf.errors.InvalidArgumentError(
            None, "CropAndResize", f"CropAndResize: input image must be 4-D, got shape "
            f"{x.shape.as_list()}")
    if x.dtype != tf.float32:
        x = tf.cast(x, tf.float32)
    boxes = tf.cast(tf.convert_to_tensor(boxes), tf.float32)
    if boxes.shape.rank != 2 or boxes.shape[1] != 4:
        raise tf.errors.InvalidArgumentError(
            None, "CropAndResize", f"CropAndResize: boxes must be [num_boxes, 4], got shape "
            f"{boxes.shape.as_list()}")
    indices = np.asarray(tf.get_static_value(tf.convert_to_tensor(box_indices)))
    if indices.shape != (boxes.shape[0],):
        raise tf.errors.InvalidArgumentError(
            None, "CropAndResize", f"CropAndResize: box_indices must have one entry per box "
            f"({boxes.shape[0]}), got shape {list(indices.shape)}")
    batch = x.shape[0]  # (None when a graph knows it only when it runs)
    if indices.size and (indices.min() < 0 or batch is not None and indices.max() >= batch):
        raise tf.errors.OutOfRangeError(
            None, "CropAndResize", f"CropAndResize: box_indices has values outside [0, "
            f"{batch}): {indices.tolist()}")
    crop = _size(crop_size)
    if min(crop) <= 0:
        raise tf.errors.InvalidArgumentError(
            None, "CropAndResize", f"CropAndResize: crop dimensions must be positive, got "
            f"{list(crop)}")
    if method == "bilinear":
        return _crop(x, boxes, indices, crop, "bilinear", extrapolation_value)
    # TF gives the boxes of a nearest crop the gradient of the bilinear one.
    held = tf.stop_gradient(x)
    bilinear = _crop(held, boxes, indices, crop, "bilinear", extrapolation_value)
    nearest = _crop(x, tf.stop_gradient(boxes), indices, crop, "nearest", extrapolation_value)
    return nearest + (bilinear - tf.stop_gradient(bilinear))


def _crop(x, boxes, indices, crop: tuple, method: str, extrapolation_value):
    height, width = x.shape[1], x.shape[2]
    rows = _sample_positions(boxes[:, 0], boxes[:, 2], height, crop[0])  # [boxes, crop_h]
    cols = _sample_positions(boxes[:, 1], boxes[:, 3], width, crop[1])  # [boxes, crop_w]
    inside = ((rows >= 0) & (rows <= height - 1))[:, :, None] & \
        ((cols >= 0) & (cols <= width - 1))[:, None, :]
    batch = tf.constant(indices.astype(np.int32))[:, None, None]

    def pixels(r, c):
        r = tf.clip_by_value(tf.cast(r, tf.int32), 0, height - 1)[:, :, None]
        c = tf.clip_by_value(tf.cast(c, tf.int32), 0, width - 1)[:, None, :]
        shape = [len(indices), crop[0], crop[1]]
        where = tf.stack([tf.broadcast_to(batch, shape), tf.broadcast_to(r, shape),
                          tf.broadcast_to(c, shape)], axis=-1)
        return tf.gather_nd(x, where)  # [boxes, crop_h, crop_w, depth]

    if method == "nearest":
        values = pixels(tf.floor(rows + 0.5), tf.floor(cols + 0.5))
    else:
        top, left = tf.floor(rows), tf.floor(cols)
        bottom, right = tf.math.ceil(rows), tf.math.ceil(cols)
        row_lerp = (rows - top)[:, :, None, None]
        col_lerp = (cols - left)[:, None, :, None]
        upper = pixels(top, left) + (pixels(top, right) - pixels(top, left)) * col_lerp
        lower = pixels(bottom, left) + (pixels(bottom, right) - pixels(bottom, left)) * col_lerp
        values = upper + (lower - upper) * row_lerp
    fill = tf.cast(extrapolation_value, tf.float32)
    return tf.where(inside[:, :, :, None], values, fill)
