"""Image files with Pillow: round trips, formats, channels, dtypes and errors."""
import io

import numpy as np
import pytest

import tapeflow as tf

Image = pytest.importorskip("PIL.Image")
PIXELS = np.random.default_rng(4).integers(0, 256, (6, 5, 3)).astype(np.uint8)


def _file(array, fmt: str, **kwargs) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format=fmt, **kwargs)
    return buffer.getvalue()


@pytest.mark.parametrize("channels", [1, 2, 3, 4])
def test_png_round_trip_is_exact(channels):
    pixels = np.random.default_rng(channels).integers(0, 256, (4, 3, channels)).astype(np.uint8)
    decoded = tf.image.decode_png(tf.image.encode_png(pixels, compression=9))
    assert decoded.dtype == tf.uint8
    np.testing.assert_array_equal(decoded.numpy(), pixels)


def test_decode_png_converts_channels():
    png = tf.image.encode_png(PIXELS)
    assert tf.image.decode_png(png, channels=1).shape == (6, 5, 1)
    assert tf.image.decode_png(png, channels=4).numpy()[..., 3].min() == 255


def test_jpeg_round_trip_is_close_and_recognised():
    smooth = np.repeat(np.repeat(PIXELS[:2, :2], 8, 0), 8, 1)
    jpeg = tf.image.encode_jpeg(smooth, quality=100, chroma_downsampling=False)
    assert bool(tf.image.is_jpeg(jpeg)) and not bool(tf.image.is_jpeg(tf.image.encode_png(smooth)))
    assert tf.image.extract_jpeg_shape(jpeg, tf.int64).numpy().tolist() == [16, 16, 3]
    decoded = tf.image.decode_jpeg(jpeg).numpy().astype(int)
    assert np.abs(decoded - smooth).mean() < 3
    assert tf.image.decode_jpeg(jpeg, ratio=2).shape == (8, 8, 3)
    assert tf.image.decode_jpeg(jpeg, channels=1).shape == (16, 16, 1)
    np.testing.assert_array_equal(tf.image.decode_and_crop_jpeg(jpeg, [2, 3, 4, 5]).numpy(),
                                  decoded[2:6, 3:8])


def test_gif_frames_and_decode_image():
    frames = [Image.fromarray(PIXELS), Image.fromarray(255 - PIXELS)]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:])
    gif = buffer.getvalue()
    assert tf.image.decode_gif(gif).shape == (2, 6, 5, 3)
    assert tf.image.decode_image(gif).shape == (2, 6, 5, 3)
    assert tf.image.decode_image(gif, expand_animations=False).shape == (6, 5, 3)
    floats = tf.image.decode_image(_file(PIXELS, "BMP"), dtype=tf.float32)
    np.testing.assert_allclose(floats.numpy(), PIXELS / 255, rtol=1e-6)
    np.testing.assert_array_equal(tf.image.decode_bmp(_file(PIXELS, "BMP")).numpy(), PIXELS)
    np.testing.assert_array_equal(
        tf.image.decode_webp(_file(PIXELS, "WEBP", lossless=True)).numpy(), PIXELS)


def test_adjust_jpeg_quality_keeps_shape_and_dtype():
    floats = PIXELS / np.float32(255)
    out = tf.image.adjust_jpeg_quality(floats, 90)
    assert out.dtype == tf.float32 and out.shape == floats.shape
    assert tf.image.adjust_jpeg_quality(np.stack([PIXELS] * 2), 50).shape == (2, 6, 5, 3)
    assert tf.image.stateless_random_jpeg_quality(PIXELS, 40, 60, (1, 2)).dtype == tf.uint8


@pytest.mark.parametrize("call, error", [
    (lambda: tf.image.decode_png(b"not an image"), tf.errors.InvalidArgumentError),
    (lambda: tf.image.decode_png(123), TypeError),
    (lambda: tf.image.decode_png(tf.image.encode_png(PIXELS), channels=2),
     tf.errors.InvalidArgumentError),
    (lambda: tf.image.decode_jpeg(b"\xff\xd8\xff", ratio=3), tf.errors.InvalidArgumentError),
    (lambda: tf.image.encode_png(PIXELS.astype(np.float32)), TypeError),
    (lambda: tf.image.encode_jpeg(PIXELS[..., :2]), tf.errors.InvalidArgumentError),
    (lambda: tf.image.encode_jpeg(PIXELS, quality=101), tf.errors.InvalidArgumentError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()
