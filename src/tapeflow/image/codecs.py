"""Image files: decoding and encoding PNG, JPEG, GIF, BMP and WebP with Pillow (the `image`
extra, imported on first use).

tapeflow has no string tensors: encoded images are Python `bytes` (what `open(path,
"rb").read()` gives), decoders return uint8 tensors, encoders return bytes.
"""
from __future__ import annotations

import io

import numpy as np

import tapeflow as tf

from .color import convert_image_dtype


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("tf.image decodes and encodes image files with Pillow: pip install "
                          "'tapeflow[image]' (or pip install pillow)") from None
    return Image


def _contents(contents, fn_name: str) -> bytes:
    if tf.is_tensor(contents) or isinstance(contents, np.ndarray):
        contents = np.asarray(contents).item() if np.ndim(contents) == 0 else contents
    if not isinstance(contents, (bytes, bytearray)):
        raise TypeError(f"{fn_name}: contents must be the encoded image as bytes, got "
                        f"{type(contents).__name__}")
    return bytes(contents)


def _open(contents, fn_name: str):
    data = _contents(contents, fn_name)
    try:
        image = _pillow().open(io.BytesIO(data))
        image.load()
    except (OSError, SyntaxError, ValueError) as e:
        raise tf.errors.InvalidArgumentError(
            None, fn_name, f"{fn_name}: cannot decode the image ({len(data)} bytes): "
            f"{e}") from None
    return image


# Pillow modes for each channel count asked for, and the channel count of each mode.
_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}
_CHANNELS = {"1": 1, "L": 1, "I": 1, "I;16": 1, "LA": 2, "RGB": 3, "RGBA": 4, "CMYK": 3,
             "YCbCr": 3}


def _pixels(image, channels: int, fn_name: str, allowed=(0, 1, 3, 4)):
    """One frame as a [height, width, channels] uint8 array; channels 0 keeps the file's."""
    if channels not in allowed:
        raise tf.errors.InvalidArgumentError(
            None, fn_name, f"{fn_name}: channels must be one of {list(allowed)}, got "
            f"{channels}")
    if channels == 0:
        mode = image.mode
        if mode == "P":
            mode = "RGBA" if "transparency" in image.info else "RGB"
        channels = _CHANNELS.get(mode, 3)
    return np.asarray(image.convert(_MODES[channels]), np.uint8).reshape(
        image.height, image.width, channels)


def _uint8(dtype, fn_name: str) -> None:
    if tf.as_dtype(dtype) != tf.uint8:
        raise TypeError(f"{fn_name}: only uint8 output is supported, got "
                        f"{tf.as_dtype(dtype).name}")


def decode_png(contents, channels=0, dtype=tf.uint8, name=None):
    """Decodes a PNG image.

    Args:
        contents: the PNG file as bytes.
        channels: 0 (as in the file), 1 (grayscale), 3 (RGB) or 4 (RGBA).
        dtype: uint8.

    Returns:
        A [height, width, channels] uint8 tensor.

    Raises:
        InvalidArgumentError: undecodable contents or a bad channel count.
        TypeError: contents not bytes, or a dtype other than uint8.
        ImportError: Pillow is not installed.

    Example:
        >>> import tapeflow as tf
        >>> png = tf.image.encode_png(tf.constant([[[0], [255]]], tf.uint8))
        >>> tf.image.decode_png(png)[:, :, 0].numpy()
        array([[  0, 255]], dtype=uint8)
    """
    _uint8(dtype, "decode_png")
    return tf.constant(_pixels(_open(contents, "decode_png"), channels, "decode_png"))


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """Decodes a JPEG image.

    Args:
        contents: the JPEG file as bytes.
        channels: 0 (as in the file), 1 (grayscale) or 3 (RGB).
        ratio: downscale by 1, 2, 4 or 8 while decoding.
        fancy_upscaling, try_recover_truncated, acceptable_fraction, dct_method: accepted
            for compatibility; Pillow's decoder settings apply.

    Returns:
        A [height / ratio, width / ratio, channels] uint8 tensor.

    Raises:
        InvalidArgumentError: undecodable contents, a bad channel count or ratio.
        TypeError: contents not bytes.
        ImportError: Pillow is not installed.

    Example:
        >>> import tapeflow as tf
        >>> jpeg = tf.image.encode_jpeg(tf.fill([8, 8, 3], tf.constant(128, tf.uint8)))
        >>> tf.image.decode_jpeg(jpeg).shape
        TensorShape([8, 8, 3])
    """
    if ratio not in (1, 2, 4, 8):
        raise tf.errors.InvalidArgumentError(
            None, "decode_jpeg", f"decode_jpeg: ratio must be 1, 2, 4 or 8, got {ratio}")
    image = _open(contents, "decode_jpeg")
    if ratio > 1:
        image = image.reduce(ratio)
    return tf.constant(_pixels(image, channels, "decode_jpeg", allowed=(0, 1, 3)))


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                         name=None):
    """Decodes the `crop_window` [y, x, height, width] of a JPEG image.

    Args:
        contents: the JPEG file as bytes.
        crop_window: [offset_y, offset_x, height, width] ints within the image.
        channels, ratio, ...: as `decode_jpeg`.

    Returns:
        A [height, width, channels] uint8 tensor.

    Raises:
        InvalidArgumentError: undecodable contents, or a window outside the image.
        ImportError: Pillow is not installed.

    Example:
        >>> import tapeflow as tf
        >>> jpeg = tf.image.encode_jpeg(tf.zeros([8, 8, 3], tf.uint8))
        >>> tf.image.decode_and_crop_jpeg(jpeg, [2, 2, 4, 3]).shape
        TensorShape([4, 3, 3])
    """
    image = decode_jpeg(contents, channels, ratio)
    window = [int(v) for v in np.asarray(tf.get_static_value(
        tf.convert_to_tensor(crop_window))).ravel()]
    y, x, height, width = window
    if min(window) < 0 or y + height > image.shape[0] or x + width > image.shape[1]:
        raise tf.errors.InvalidArgumentError(
            None, "decode_and_crop_jpeg", f"decode_and_crop_jpeg: crop window {window} "
            f"is not within the image of shape {image.shape.as_list()}")
    return image[y:y + height, x:x + width]


def decode_bmp(contents, channels=0, name=None):
    """Decodes a BMP image.

    Args:
        contents: the BMP file as bytes.
        channels: 0 (as in the file), 1, 3 or 4.

    Returns:
        A [height, width, channels] uint8 tensor.

    Raises:
        InvalidArgumentError: undecodable contents or a bad channel count.
        ImportError: Pillow is not installed.

    Example:
        >>> import io
        >>> import numpy as np
        >>> from PIL import Image
        >>> import tapeflow as tf
        >>> buffer = io.BytesIO()
        >>> Image.fromarray(np.zeros((2, 3, 3), np.uint8)).save(buffer, format="BMP")
        >>> tf.image.decode_bmp(buffer.getvalue()).shape
        TensorShape([2, 3, 3])
    """
    return tf.constant(_pixels(_open(contents, "decode_bmp"), channels, "decode_bmp"))


def _frames(image, fn_name: str) -> np.ndarray:
    frames = []
    for k in range(getattr(image, "n_frames", 1)):
        image.seek(k)
        frames.append(_pixels(image, 3, fn_name))
    return np.stack(frames)


def decode_gif(contents, name=None):
    """Decodes every frame of a GIF image.

    Args:
        contents: the GIF file as bytes.

    Returns:
        A [num_frames, height, width, 3] uint8 tensor.

    Raises:
        InvalidArgumentError: undecodable contents.
        ImportError: Pillow is not installed.

    Example:
        >>> import io
        >>> import numpy as np
        >>> from PIL import Image
        >>> import tapeflow as tf
        >>> buffer = io.BytesIO()
        >>> Image.fromarray(np.zeros((2, 3, 3), np.uint8)).save(buffer, format="GIF")
        >>> tf.image.decode_gif(buffer.getvalue()).shape
        TensorShape([1, 2, 3, 3])
    """
    return tf.constant(_frames(_open(contents, "decode_gif"), "decode_gif"))


def decode_webp(contents, channels=0, dtype=tf.uint8, name=None):
    """Decodes a WebP image (its first frame).

    Args:
        contents: the WebP file as bytes.
        channels: 0 (as in the file), 3 or 4.
        dtype: uint8.

    Returns:
        A [height, width, channels] uint8 tensor.

    Raises:
        InvalidArgumentError: undecodable contents or a bad channel count.
        ImportError: Pillow is not installed.

    Example:
        >>> import io
        >>> import numpy as np
        >>> from PIL import Image
        >>> import tapeflow as tf
        >>> buffer = io.BytesIO()
        >>> Image.fromarray(np.zeros((2, 3, 3), np.uint8)).save(buffer, format="WEBP")
        >>> tf.image.decode_webp(buffer.getvalue()).shape
        TensorShape([2, 3, 3])
    """
    _uint8(dtype, "decode_webp")
    return tf.constant(_pixels(_open(contents, "decode_webp"), channels, "decode_webp",
                               allowed=(0, 3, 4)))


def decode_image(contents, channels=None, dtype=tf.uint8, name=None, expand_animations=True):
    """Decodes a BMP, GIF, JPEG, PNG or WebP image, whichever `contents` holds.

    Args:
        contents: the file as bytes.
        channels: None or 0 (as in the file), 1, 3 or 4.
        dtype: the output dtype; not uint8 rescales as `convert_image_dtype`.
        expand_animations: GIFs give all frames [num_frames, height, width, 3]; otherwise
            the first frame only.

    Returns:
        [height, width, channels] (or [num_frames, ...] for an animation) of `dtype`.

    Raises:
        InvalidArgumentError: undecodable contents.
        ImportError: Pillow is not installed.

    Example:
        >>> import tapeflow as tf
        >>> png = tf.image.encode_png(tf.constant([[[0], [255]]], tf.uint8))
        >>> tf.image.decode_image(png, dtype=tf.float32)[:, :, 0].numpy()
        array([[0., 1.]], dtype=float32)
    """
    image = _open(contents, "decode_image")
    if image.format == "GIF" and expand_animations:
        pixels = _frames(image, "decode_image")
    else:
        pixels = _pixels(image, channels or 0, "decode_image")
    return convert_image_dtype(tf.constant(pixels), dtype)


def _encodable(image, fn_name: str, channels: tuple) -> np.ndarray:
    x = tf.convert_to_tensor(image)
    if x.dtype != tf.uint8:
        raise TypeError(f"{fn_name}: image must be uint8, got {x.dtype.name}")
    if x.shape.rank != 3 or x.shape[-1] not in channels:
        raise tf.errors.InvalidArgumentError(
            None, fn_name, f"{fn_name}: image must be [height, width, channels] with channels "
            f"in {list(channels)}, got shape {x.shape.as_list()}")
    pixels = x.numpy()
    return pixels[:, :, 0] if pixels.shape[-1] == 1 else pixels


def encode_png(image, compression=-1, name=None) -> bytes:
    """Encodes an image as PNG.

    Args:
        image: [height, width, channels] uint8, channels 1 to 4.
        compression: 0 (none) to 9 (most); -1 for the default.

    Returns:
        The PNG file as bytes.

    Raises:
        TypeError: image not uint8.
        InvalidArgumentError: image not 3-D with 1 to 4 channels.
        ImportError: Pillow is not installed.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.encode_png(tf.zeros([2, 2, 3], tf.uint8))[:4]
        b'\\x89PNG'
    """
    pixels = _encodable(image, "encode_png", (1, 2, 3, 4))
    mode = "LA" if pixels.ndim == 3 and pixels.shape[-1] == 2 else None
    buffer = io.BytesIO()
    _pillow().fromarray(pixels, mode).save(buffer, format="PNG",
                                           compress_level=6 if compression == -1 else compression)
    return buffer.getvalue()


def encode_jpeg(image, format="", quality=95, progressive=False,  # noqa: A002  (TF's name)
                optimize_size=False, chroma_downsampling=True, density_unit="in", x_density=300,
                y_density=300, xmp_metadata="", name=None) -> bytes:
    """Encodes an image as JPEG.

    Args:
        image: [height, width, channels] uint8, channels 1 or 3.
        format: "", "grayscale" or "rgb" (must match the channels when given).
        quality: 0 to 100.
        progressive, optimize_size, chroma_downsampling: JPEG encoder settings.
        density_unit, x_density, y_density: the resolution stored in the file.
        xmp_metadata: accepted for compatibility (not written).

    Returns:
        The JPEG file as bytes.

    Raises:
        TypeError: image not uint8.
        InvalidArgumentError: image not 3-D with 1 or 3 channels, or a quality outside
            [0, 100].
        ImportError: Pillow is not installed.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.encode_jpeg(tf.zeros([2, 2, 3], tf.uint8))[:2]
        b'\\xff\\xd8'
    """
    pixels = _encodable(image, "encode_jpeg", (1, 3))
    if not 0 <= quality <= 100:
        raise tf.errors.InvalidArgumentError(
            None, "encode_jpeg", f"encode_jpeg: quality must be in [0, 100], got {quality}")
    dpi = (x_density, y_density) if density_unit == "in" else \
        (x_density * 2.54, y_density * 2.54)
    buffer = io.BytesIO()
    _pillow().fromarray(pixels).save(buffer, format="JPEG", quality=int(quality),
                                     progressive=bool(progressive),
                                     optimize=bool(optimize_size),
                                     subsampling=2 if chroma_downsampling else 0, dpi=dpi)
    return buffer.getvalue()


def is_jpeg(contents, name=None):
    """Whether `contents` starts like a JPEG file.

    Args:
        contents: bytes.

    Returns:
        A scalar bool tensor.

    Raises:
        TypeError: contents not bytes.

    Example:
        >>> import tapeflow as tf
        >>> bool(tf.image.is_jpeg(b"\\xff\\xd8\\xff\\xe0"))
        True
    """
    return tf.constant(_contents(contents, "is_jpeg")[:3] == b"\xff\xd8\xff")


def extract_jpeg_shape(contents, output_type=tf.int32, name=None):
    """The [height, width, channels] of a JPEG image, read from its header.

    Args:
        contents: the JPEG file as bytes.
        output_type: int32 or int64.

    Returns:
        A [3] tensor of `output_type`.

    Raises:
        InvalidArgumentError: undecodable contents.
        ImportError: Pillow is not installed.

    Example:
        >>> import tapeflow as tf
        >>> jpeg = tf.image.encode_jpeg(tf.zeros([4, 6, 3], tf.uint8))
        >>> tf.image.extract_jpeg_shape(jpeg).numpy()
        array([4, 6, 3], dtype=int32)
    """
    data = _contents(contents, "extract_jpeg_shape")
    try:
        image = _pillow().open(io.BytesIO(data))
    except OSError as e:
        raise tf.errors.InvalidArgumentError(
            None, "extract_jpeg_shape", f"extract_jpeg_shape: not a JPEG image: {e}") from None
    return tf.constant([image.height, image.width, _CHANNELS.get(image.mode, 3)],
                       dtype=output_type)


def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """Re-encodes images as JPEG at `jpeg_quality` and decodes them again (compression
    artefacts as augmentation).

    Args:
        image: [height, width, channels] or [batch, height, width, channels], channels 1 or
            3, any float or integer dtype.
        jpeg_quality: an int in [0, 100].
        dct_method: accepted for compatibility.

    Returns:
        The images, of `image`'s dtype.

    Raises:
        InvalidArgumentError: a channel count other than 1 or 3.
        ImportError: Pillow is not installed.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.adjust_jpeg_quality(tf.fill([8, 8, 3], 0.5), 90).shape
        TensorShape([8, 8, 3])
    """
    x = tf.convert_to_tensor(image)
    pixels = convert_image_dtype(x, tf.uint8, saturate=True)
    quality = int(tf.get_static_value(jpeg_quality) if tf.is_tensor(jpeg_quality)
                  else jpeg_quality)

    def roundtrip(one):
        return decode_jpeg(encode_jpeg(one, quality=quality), channels=one.shape[-1])

    out = roundtrip(pixels) if x.shape.rank == 3 else \
        tf.stack([roundtrip(one) for one in tf.unstack(pixels)])
    return convert_image_dtype(out, x.dtype, saturate=True)
