"""tf.image inside tf.function, traced for images whose batch size the graph knows only when
it runs: the same values as eagerly."""
import numpy as np
import pytest

import tapeflow as tf

IMAGES = np.random.default_rng(8).uniform(0, 1, (2, 6, 7, 3)).astype(np.float32)
FUNCTIONS = {
    "resize": lambda x: tf.image.resize(x, [3, 4], "lanczos3", antialias=True),
    "resize_with_pad": lambda x: tf.image.resize_with_pad(x, 4, 9),
    "resize_with_crop_or_pad": lambda x: tf.image.resize_with_crop_or_pad(x, 3, 9),
    "crop_and_resize": lambda x: tf.image.crop_and_resize(x, [[0.1, 0.0, 0.9, 1.0]], [1],
                                                          [2, 2]),
    "geometry": lambda x: [tf.image.rot90(x), tf.image.central_crop(x, 0.5),
                           tf.image.pad_to_bounding_box(x, 1, 1, 9, 9)],
    "colour": lambda x: [tf.image.adjust_hue(x, 0.1), tf.image.rgb_to_grayscale(x),
                         tf.image.adjust_contrast(x, 2.0), tf.image.per_image_standardization(x),
                         tf.image.convert_image_dtype(x, tf.uint8)],
    "quality": lambda x: [tf.image.sobel_edges(x), tf.image.total_variation(x),
                          tf.image.ssim(x, x * 0.5, 1.0, filter_size=3),
                          tf.image.ssim_multiscale(x, x * 0.5, 1.0, (0.5, 0.5), filter_size=3),
                          tf.image.psnr(x, x * 0.5, 1.0), tf.image.image_gradients(x)[1]],
    "stateless augmentation": lambda x: tf.image.stateless_random_flip_up_down(x, (1, 2)),
}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_traced_with_an_unknown_batch_gives_the_eager_values(name):
    fn = FUNCTIONS[name]
    traced = tf.function(fn, input_signature=[tf.TensorSpec([None, 6, 7, 3], tf.float32)])
    traced_results, eager_results = ([r] if tf.is_tensor(r) else r
                                     for r in (traced(IMAGES), fn(IMAGES)))
    for ours, eager in zip(traced_results, eager_results):
        assert ours.shape == eager.shape
        np.testing.assert_allclose(ours.numpy(), eager.numpy(), rtol=1e-6, atol=1e-6)
