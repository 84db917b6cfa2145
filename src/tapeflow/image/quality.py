"""Image differences and quality measures: image_gradients, sobel_edges, total_variation,
psnr, ssim and ssim_multiscale. Built from tensor ops, so gradients come with them."""
from __future__ import annotations

import numpy as np

import tapeflow as tf

from ._util import image_tensor
from .color import convert_image_dtype


def image_gradients(image):
    """Forward differences along height and width, zero in the last row / column.

    Args:
        image: [batch, height, width, depth].

    Returns:
        (dy, dx), each shaped like `image`.

    Raises:
        ValueError: `image` is not 4-D.

    Example:
        >>> import tapeflow as tf
        >>> dy, dx = tf.image.image_gradients(tf.constant([[[[1.0], [4.0]]]]))
        >>> dx[0, 0, :, 0].numpy()
        array([3., 0.], dtype=float32)
    """
    x = tf.convert_to_tensor(image)
    if x.shape.rank != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not "
                         f"{tuple(x.shape)}.")
    dy = tf.pad(x[:, 1:] - x[:, :-1], [[0, 0], [0, 1], [0, 0], [0, 0]])
    dx = tf.pad(x[:, :, 1:] - x[:, :, :-1], [[0, 0], [0, 0], [0, 1], [0, 0]])
    return dy, dx


_SOBEL = np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], np.float32)


def sobel_edges(image):
    """Sobel filter responses (vertical then horizontal derivative) of each channel, with
    the image extended by reflection at its borders.

    Args:
        image: [batch, height, width, depth] float images.

    Returns:
        [batch, height, width, depth, 2]: dy in [..., 0], dx in [..., 1].

    Raises:
        ValueError: `image` is not 4-D.

    Example:
        >>> import tapeflow as tf
        >>> edges = tf.image.sobel_edges(tf.reshape(tf.range(9.0), [1, 3, 3, 1]))
        >>> edges[0, 1, 1, 0].numpy()
        array([24.,  8.], dtype=float32)
    """
    x = image_tensor(image, "sobel_edges", ranks=(4,))
    height, width = x.shape[1], x.shape[2]
    padded = tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    responses = []
    for kernel in (_SOBEL, _SOBEL.T):
        total = 0
        for i, j in zip(*np.nonzero(kernel)):
            total += float(kernel[i, j]) * padded[:, i:i + height, j:j + width, :]
        responses.append(total)
    return tf.stack(responses, axis=-1)


def total_variation(images, name=None):
    """The sum of absolute differences between neighbouring pixels (vertically and
    horizontally), per image.

    Args:
        images: [batch, height, width, channels] or one [height, width, channels] image.

    Returns:
        [batch] totals, or a scalar for one image.

    Raises:
        ValueError: images not of rank 3 or 4.

    Example:
        >>> import tapeflow as tf
        >>> tf.image.total_variation(tf.constant([[[0.0], [1.0]], [[3.0], [1.0]]])).numpy()
        np.float32(6.0)
    """
    x = tf.convert_to_tensor(images)
    if x.shape.rank not in (3, 4):
        raise ValueError(f"total_variation: 'images' must be either 3 or 4-dimensional, got "
                         f"shape {tuple(x.shape)}")
    axes = None if x.shape.rank == 3 else [1, 2, 3]
    rows = x[..., 1:, :, :] - x[..., :-1, :, :]
    cols = x[..., :, 1:, :] - x[..., :, :-1, :]
    return tf.reduce_sum(tf.abs(rows), axis=axes) + tf.reduce_sum(tf.abs(cols), axis=axes)


def _image_pair(a, b, fn_name: str):
    x, y = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    if x.shape.rank < 3 or y.shape.rank < 3:
        raise ValueError(f"{fn_name}: the images must be at least 3-D, got shapes "
                         f"{tuple(x.shape)} and {tuple(y.shape)}")
    if not x.shape[-3:].is_compatible_with(y.shape[-3:]):
        raise ValueError(f"{fn_name}: the images' last three dimensions must match, got "
                         f"shapes {tuple(x.shape)} and {tuple(y.shape)}")
    if x.dtype != y.dtype:
        raise TypeError(f"{fn_name}: the images must have one dtype, got {x.dtype.name} and "
                        f"{y.dtype.name}")
    return x, y


def _as_float32(a, b, max_val, fn_name: str) -> tuple:
    a, b = _image_pair(a, b, fn_name)
    max_val = convert_image_dtype(tf.cast(max_val, a.dtype), tf.float32)
    return convert_image_dtype(a, tf.float32), convert_image_dtype(b, tf.float32), max_val


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio between two batches of images, in decibels.

    Args:
        a, b: images [..., height, width, channels] of one dtype.
        max_val: the dynamic range of the values (255 for uint8, 1.0 for float in [0, 1]).

    Returns:
        float32, one value per image (the leading dimensions of `a`).

    Raises:
        ValueError: shapes not compatible or fewer than 3 dimensions.
        TypeError: different dtypes.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.image.psnr(tf.zeros([2, 2, 1]), tf.fill([2, 2, 1], 0.1), 1.0))
        20.0
    """
    a, b, max_val = _as_float32(a, b, max_val, "psnr")
    mse = tf.reduce_mean(tf.math.squared_difference(a, b), [-3, -2, -1])
    return (20.0 * tf.math.log(max_val) / np.float32(np.log(10.0))
            - np.float32(10 / np.log(10)) * tf.math.log(mse))


def _gaussian_filter(size: int, sigma: float, channels: int):
    coords = np.arange(size, dtype=np.float32) - np.float32(size - 1) / 2
    g = np.square(coords) * np.float32(-0.5 / np.square(np.float32(sigma)))
    g = (g[None, :] + g[:, None]).reshape(-1)
    g = np.exp(g - g.max())
    g = (g / g.sum()).astype(np.float32).reshape(size, size, 1, 1)
    return tf.constant(np.tile(g, [1, 1, channels, 1]))


def _ssim_per_channel(x, y, max_val, filter_size, filter_sigma, k1, k2, index_map=False):
    """Luminance times contrast-structure, and contrast-structure alone, per channel
    (or per position with `index_map`)."""
    height, width, channels = x.shape[-3:]
    if height < filter_size or width < filter_size:
        raise tf.errors.InvalidArgumentError(
            None, "ssim", f"ssim: the images ({height}x{width}) must be at least as large as "
                          f"the filter ({filter_size}x{filter_size})")
    kernel = _gaussian_filter(filter_size, filter_sigma, channels)

    def local_mean(v):
        flat = tf.reshape(v, [-1, height, width, channels])
        out = tf.nn.depthwise_conv2d(flat, kernel, strides=[1, 1, 1, 1], padding="VALID")
        return _unflattened(out, v)

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mean_x, mean_y = local_mean(x), local_mean(y)
    num0 = mean_x * mean_y * 2.0
    den0 = tf.square(mean_x) + tf.square(mean_y)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = local_mean(x * y) * 2.0
    den1 = local_mean(tf.square(x) + tf.square(y))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    if index_map:
        return luminance * cs, cs
    return tf.reduce_mean(luminance * cs, [-3, -2]), tf.reduce_mean(cs, [-3, -2])


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
    """Structural similarity between two batches of images, averaged over channels.

    Local statistics use a Gaussian window of `filter_size` (VALID positions only).

    Args:
        img1, img2: images [..., height, width, channels] of one dtype, at least
            filter_size x filter_size.
        max_val: the dynamic range of the values.
        filter_size, filter_sigma: the Gaussian window.
        k1, k2: the stabilizing constants.
        return_index_map: return the SSIM of every window position instead of the mean.

    Returns:
        float32 SSIM per image ([...]), or per position with `return_index_map`.

    Raises:
        ValueError: shapes not compatible or fewer than 3 dimensions.
        InvalidArgumentError: images smaller than the filter.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.stateless_uniform([16, 16, 1], seed=[1, 2])
        >>> float(tf.image.ssim(x, x, 1.0))
        1.0
    """
    x, y, max_val = _as_float32(img1, img2, max_val, "ssim")
    values, _ = _ssim_per_channel(x, y, max_val, filter_size, filter_sigma, k1, k2,
                                  return_index_map)
    return tf.reduce_mean(values, [-1])


def ssim_multiscale(img1, img2, max_val, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                    filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
    """Multi-scale structural similarity: contrast-structure at each of
    len(power_factors) scales (each half the last, by 2x2 average pooling) and SSIM at the
    coarsest, combined as a weighted geometric mean.

    Args:
        img1, img2: images [..., height, width, channels] of one dtype, large enough for
            the filter at the coarsest scale.
        max_val: the dynamic range of the values.
        power_factors: the weight of each scale.
        filter_size, filter_sigma, k1, k2: as `ssim`.

    Returns:
        float32 MS-SSIM per image.

    Raises:
        ValueError: shapes not compatible or fewer than 3 dimensions.
        InvalidArgumentError: images too small for the filter at the coarsest scale.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.stateless_uniform([64, 64, 1], seed=[1, 2])
        >>> round(float(tf.image.ssim_multiscale(x, x, 1.0, filter_size=3)), 4)
        1.0
    """
    x, y, max_val = _as_float32(img1, img2, max_val, "ssim_multiscale")
    scales = []
    for k in range(len(power_factors)):
        if k > 0:
            x, y = _halved(x), _halved(y)
        ssim_per_channel, cs = _ssim_per_channel(x, y, max_val, filter_size, filter_sigma,
                                                 k1, k2)
        scales.append(tf.nn.relu(cs))
    scales[-1] = tf.nn.relu(ssim_per_channel)
    combined = tf.reduce_prod(tf.pow(tf.stack(scales, axis=-1),
                                     tf.constant(power_factors, tf.float32)), [-1])
    return tf.reduce_mean(combined, [-1])


def _halved(images):
    """2x2 average pooling, an odd height or width first extended by its mirror image."""
    height, width, channels = images.shape[-3:]
    flat = tf.reshape(images, [-1, height, width, channels])
    if height % 2 or width % 2:
        flat = tf.pad(flat, [[0, 0], [0, height % 2], [0, width % 2], [0, 0]],
                      mode="SYMMETRIC")
    return _unflattened(tf.nn.avg_pool2d(flat, ksize=2, strides=2, padding="VALID"), images)


def _unflattened(images, like):
    """A batch of images [n, h, w, c] reshaped to the leading dimensions of `like` (which a
    graph may know only when it runs)."""
    dims = like.shape[:-3].as_list() + images.shape[1:].as_list()
    if None not in dims:
        return tf.reshape(images, dims)
    shape = tf.concat([tf.shape(like)[:-3], tf.shape(images)[1:]], 0)
    return tf.ensure_shape(tf.reshape(images, shape), dims)
