"""tf.image against TensorFlow: values, dtypes and shapes of every function, gradients with
respect to the float arguments, and the exception classes of bad input; each case written
once against a module `tf`."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

_RNG = np.random.default_rng(11)
IMAGES = _RNG.uniform(0, 1, (2, 6, 7, 3)).astype(np.float32)
IMAGE = IMAGES[0]
SMALL = _RNG.uniform(0, 1, (2, 4, 5, 2)).astype(np.float32)
UINT8 = _RNG.integers(0, 256, (5, 4, 3)).astype(np.uint8)
BIG = _RNG.uniform(0, 1, (2, 40, 36, 3)).astype(np.float32)
BOXES = np.array([[0.1, 0.2, 0.9, 0.7], [-0.1, 0.3, 0.5, 1.2], [0.8, 0.9, 0.2, 0.1],
                  [0.25, 0.25, 0.25, 0.75]], np.float32)
NMS_BOXES = _RNG.uniform(0, 1, (30, 4)).astype(np.float32)
NMS_BOXES[:, 2:] = NMS_BOXES[:, :2] + _RNG.uniform(0.05, 0.4, (30, 2))
NMS_SCORES = _RNG.permutation(30).astype(np.float32) / 30
METHODS = ["bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
           "mitchellcubic"]
SIZES = [(3, 4), (9, 11), (6, 14), (1, 1), (6, 7)]


def raised(fn, *args, **kwargs):
    """The class name of what `fn` raises, or its result."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return ("raised", type(e).__name__)


# Values (and the gradients of float outputs with respect to float arguments): {label:
# (fn(tf, *args), args)}.
GRADIENT_CASES = {
    **{f"resize {m} to {s}, antialias={a}": (
        lambda tf, x, m=m, s=s, a=a: tf.image.resize(x, s, method=m, antialias=a), (SMALL,))
       for m in METHODS if m != "area" for s in SIZES for a in (False, True)
       if not (a and m == "nearest")},
    "resize one image, preserve_aspect_ratio": (
        lambda tf, x: tf.image.resize(x, [12, 12], preserve_aspect_ratio=True), (IMAGE,)),
    "resize bicubic, preserve_aspect_ratio": (
        lambda tf, x: tf.image.resize(x, [3, 30], "bicubic", preserve_aspect_ratio=True),
        (IMAGES,)),
    "resize_with_pad": (lambda tf, x: [tf.image.resize_with_pad(x, 9, 5),
                                       tf.image.resize_with_pad(x, 4, 12, method="bicubic"),
                                       tf.image.resize_with_pad(x, 8, 8, antialias=True)],
                        (IMAGES,)),
    "resize_with_crop_or_pad": (lambda tf, x: [tf.image.resize_with_crop_or_pad(x, 3, 9),
                                               tf.image.resize_with_crop_or_pad(x, 8, 2),
                                               tf.image.resize_with_crop_or_pad(x[0], 5, 5)],
                                (IMAGES,)),
    "crop_and_resize bilinear": (
        lambda tf, x, b: tf.image.crop_and_resize(x, b, [0, 1, 1, 0], [3, 4]), (IMAGES, BOXES)),
    "crop_and_resize nearest": (
        lambda tf, x, b: tf.image.crop_and_resize(x, b, [1, 0, 1, 0], [5, 2], method="nearest",
                                                  extrapolation_value=-1.0), (IMAGES, BOXES)),
    "crop_and_resize to 1x1": (
        lambda tf, x, b: tf.image.crop_and_resize(x, b, [0, 0, 1, 1], [1, 1]), (IMAGES, BOXES)),
    "geometry": (lambda tf, x: [tf.image.flip_left_right(x), tf.image.flip_up_down(x),
                                tf.image.transpose(x), tf.image.transpose(x[0]),
                                tf.image.rot90(x), tf.image.rot90(x[0], 2),
                                tf.image.rot90(x, k=3), tf.image.rot90(x, -1),
                                tf.image.central_crop(x, 0.5), tf.image.central_crop(x[0], 0.3),
                                tf.image.crop_to_bounding_box(x, 1, 2, 4, 3),
                                tf.image.pad_to_bounding_box(x[0], 2, 1, 9, 9)], (IMAGES,)),
    "colour spaces": (lambda tf, x: [tf.image.rgb_to_yiq(x), tf.image.yiq_to_rgb(x),
                                     tf.image.rgb_to_yuv(x), tf.image.yuv_to_rgb(x),
                                     tf.image.rgb_to_grayscale(x), tf.image.rgb_to_hsv(x),
                                     tf.image.grayscale_to_rgb(x[..., :1])], (IMAGES,)),
    "adjustments": (lambda tf, x: [tf.image.adjust_brightness(x, 0.2),
                                   tf.image.adjust_gamma(x, 0.7, 1.3),
                                   tf.image.per_image_standardization(x),
                                   tf.image.per_image_standardization(x[0])], (IMAGES,)),
    "float64": (lambda tf, x: [tf.image.adjust_brightness(x, 0.2), tf.image.rgb_to_grayscale(x),
                               tf.image.adjust_gamma(x, 2.0), tf.image.rgb_to_yiq(x),
                               tf.image.per_image_standardization(x),
                               tf.image.resize(x, [3, 3]), tf.image.resize(x, [3, 3], "nearest"),
                               tf.image.convert_image_dtype(x, tf.float32)],
                (IMAGES.astype(np.float64),)),
    "image_gradients, sobel_edges, total_variation": (
        lambda tf, x: [*tf.image.image_gradients(x), tf.image.sobel_edges(x),
                       tf.image.total_variation(x), tf.image.total_variation(x[0])], (IMAGES,)),
    "psnr": (lambda tf, a, b: [tf.image.psnr(a, b, 1.0), tf.image.psnr(a[0], b[0], 2.0)],
             (IMAGES, IMAGES[::-1])),
    "ssim": (lambda tf, a, b: [tf.image.ssim(a, b, 1.0),
                               tf.image.ssim(a, b, 1.0, filter_size=5, filter_sigma=0.8),
                               tf.image.ssim(a, b, 1.0, return_index_map=True)],
             (BIG, BIG[::-1] * 0.5 + 0.25 * BIG)),
    "ssim_multiscale": (lambda tf, a, b: tf.image.ssim_multiscale(
        a, b, 1.0, power_factors=(0.3, 0.4, 0.3), filter_size=5),
        (BIG, BIG[::-1] * 0.5 + 0.25 * BIG)),
    # The box ops have no gradient (LookupError), their integer outputs none to give.
    "non_max_suppression_with_scores": (
        lambda tf, b, s: tf.image.non_max_suppression_with_scores(b, s, 5, 0.3), (NMS_BOXES,
                                                                                NMS_SCORES)),
    "combined_non_max_suppression": (
        lambda tf, b, s: tf.image.combined_non_max_suppression(b[None, :, None], s[None, :, None],
                                                               4, 6)[:3], (NMS_BOXES, NMS_SCORES)),
    "draw_bounding_boxes": (lambda tf, x, b: tf.image.draw_bounding_boxes(x, [b, b], [[1.0] * 4]),
                            (IMAGES, BOXES)),
}

# Values only: TF has no gradient for these (its AdjustHue, AdjustSaturation, AdjustContrastv2,
# HSVToRGB and ResizeArea give LookupError or None); tapeflow's, built from
# differentiable ops, are checked in tests/image.
VALUE_CASES = {
    "resize area": lambda tf: [tf.image.resize(SMALL, s, "area") for s in SIZES],
    "adjust hue, saturation, contrast": lambda tf: [
        tf.image.adjust_hue(IMAGES, 0.3), tf.image.adjust_hue(IMAGES, -0.8),
        tf.image.adjust_saturation(IMAGES, 0.4), tf.image.adjust_saturation(IMAGES, 3.0),
        tf.image.adjust_contrast(IMAGES, 1.7), tf.image.hsv_to_rgb(IMAGES),
        tf.image.adjust_hue(UINT8, 0.2), tf.image.adjust_saturation(UINT8, 0.5),
        tf.image.adjust_contrast(UINT8, 0.5)],
    "integer images": lambda tf: [
        tf.image.resize(UINT8, [7, 2]), tf.image.resize(UINT8, [7, 9], "nearest"),
        tf.image.adjust_brightness(UINT8, 0.3), tf.image.adjust_gamma(UINT8, 0.5),
        tf.image.rgb_to_grayscale(UINT8), tf.image.per_image_standardization(UINT8),
        tf.image.flip_left_right(UINT8), tf.image.resize_with_crop_or_pad(UINT8, 7, 2)],
    "convert_image_dtype": lambda tf: [
        tf.image.convert_image_dtype(UINT8, d) for d in (tf.float32, tf.float16, tf.int32,
                                                         tf.int8, tf.int64, tf.uint8)] + [
        tf.image.convert_image_dtype(IMAGE * 1.2 - 0.1, d, saturate=True)
        for d in (tf.uint8, tf.int32, tf.int8)] + [
        tf.image.convert_image_dtype(IMAGE, tf.uint8),
        tf.image.convert_image_dtype(tf.constant([-5, 0, 7, 2 ** 31 - 1]), tf.uint8),
        tf.image.convert_image_dtype(tf.constant([-5, 0, 7, 2 ** 31 - 1]), tf.float64),
        tf.image.convert_image_dtype(tf.constant([-5, 0, 7, 127], tf.int8), tf.int32)],
    "non_max_suppression": lambda tf: [
        tf.image.non_max_suppression(NMS_BOXES, NMS_SCORES, 10),
        tf.image.non_max_suppression(NMS_BOXES, NMS_SCORES, 30, 0.2, 0.3),
        tf.image.non_max_suppression(NMS_BOXES[:, [2, 3, 0, 1]], NMS_SCORES, 5, 0.0),
        tf.image.non_max_suppression(NMS_BOXES, NMS_SCORES, 0)],
    "non_max_suppression_with_scores": lambda tf: [
        tf.image.non_max_suppression_with_scores(NMS_BOXES, NMS_SCORES, 10),
        tf.image.non_max_suppression_with_scores(NMS_BOXES, NMS_SCORES, 12, 0.5, 0.1, 0.5)],
    "non_max_suppression_padded": lambda tf: [
        tf.image.non_max_suppression_padded(tf.constant(NMS_BOXES), NMS_SCORES, 40, 0.3,
                                            pad_to_max_output_size=True),
        tf.image.non_max_suppression_padded(tf.constant(NMS_BOXES), NMS_SCORES, 5, 0.3),
        tf.image.non_max_suppression_padded(tf.constant(NMS_BOXES.reshape(2, 3, 5, 4)),
                                            NMS_SCORES.reshape(2, 3, 5), 4, 0.3,
                                            pad_to_max_output_size=True)],
    "non_max_suppression_overlaps": lambda tf: [
        tf.image.non_max_suppression_overlaps(NMS_BOXES[:8, :1] * NMS_BOXES[:8, 1], NMS_SCORES[:8],
                                              5, 0.2),
        tf.image.non_max_suppression_overlaps(NMS_BOXES[:8, :1] * NMS_BOXES[:8, 1], NMS_SCORES[:8],
                                              5, 0.5, 0.4)],
    "combined_non_max_suppression": lambda tf: [
        tf.image.combined_non_max_suppression(
            NMS_BOXES.reshape(2, 15, 1, 4), _RNG_SCORES.reshape(2, 15, 3), 3, 7, 0.3),
        tf.image.combined_non_max_suppression(
            NMS_BOXES.reshape(2, 15, 1, 4) * 1.5, _RNG_SCORES.reshape(2, 15, 3), 2, 20, 0.3,
            0.2, pad_per_class=True, clip_boxes=False)],
    # (TF's ExtractGlimpse has no gradient; tapeflow's reads the pixels the windows read.)
    "extract_glimpse": lambda tf: [
        tf.image.extract_glimpse(IMAGES, s, o, centered=c, normalized=n, noise="zero")
        for s in ([3, 3], [4, 2]) for c in (True, False) for n in (True, False)
        for o in ([[0.0, 0.0], [0.3, -0.45]], [[-0.9, 0.6], [1.0, 1.0]],
                  [[2.5, -1.5], [-0.5, 4.7]])] + [
        tf.shape(tf.image.extract_glimpse(IMAGES, [2, 9], [[0.0, 0.0]] * 2)),
        tf.image.extract_glimpse(IMAGES, [2, 2], [[0.0, 0.0]] * 2, noise="gaussian")],
    "draw_bounding_boxes": lambda tf: [
        tf.image.draw_bounding_boxes(IMAGES, np.stack([BOXES, BOXES[::-1]]),
                                     [[1.0, 0.0, 0.5, 1.0], [0.2, 0.3, 0.4, 1.0]]),
        tf.image.draw_bounding_boxes(IMAGES[..., :1], np.stack([BOXES, BOXES]), None)],
    "random functions keep shapes and dtypes": lambda tf: [
        tf.shape(f) for f in (
            tf.image.random_flip_left_right(IMAGES, seed=1), tf.image.random_flip_up_down(IMAGE),
            tf.image.random_brightness(IMAGE, 0.2), tf.image.random_contrast(IMAGE, 0.5, 1.5),
            tf.image.random_saturation(IMAGE, 0.5, 1.5), tf.image.random_hue(IMAGE, 0.2),
            tf.image.random_crop(IMAGE, [3, 3, 3]),
            tf.image.stateless_random_crop(IMAGE, [2, 5, 3], seed=(1, 2)),
            tf.image.stateless_random_flip_left_right(IMAGES, seed=(1, 2)),
            tf.image.stateless_random_flip_up_down(IMAGE, seed=(1, 2)),
            tf.image.stateless_random_brightness(IMAGE, 0.2, seed=(1, 2)),
            tf.image.stateless_random_contrast(IMAGE, 0.5, 1.5, seed=(1, 2)),
            tf.image.stateless_random_saturation(IMAGE, 0.5, 1.5, seed=(1, 2)),
            tf.image.stateless_random_hue(IMAGE, 0.2, seed=(1, 2)))] + [
        (t.dtype, tf.shape(t)) for t in (
            *tf.image.sample_distorted_bounding_box([40, 30, 3], BOXES[None, 2:3], seed=4),
            *tf.image.stateless_sample_distorted_bounding_box(
                tf.constant([40, 30, 3], tf.int64), BOXES[None, :1], seed=(1, 2),
                min_object_covered=0.5, aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 0.9)),
            *tf.image.stateless_sample_distorted_bounding_box(
                [40, 30, 3], np.zeros((1, 0, 4), np.float32), seed=(1, 2),
                use_image_if_no_bounding_boxes=True))],
}
_RNG_SCORES = _RNG.uniform(0, 1, 90).astype(np.float32)

ERROR_CASES = {
    "resize of a matrix": lambda tf: tf.image.resize(np.ones((5, 3)), [2, 2]),
    "resize to three sizes": lambda tf: tf.image.resize(IMAGE, [2, 2, 2]),
    "resize to a float size": lambda tf: tf.image.resize(IMAGE, [2.0, 2.0]),
    "resize to zero": lambda tf: tf.image.resize(IMAGE, [0, 2]),
    "resize by an unknown method": lambda tf: tf.image.resize(IMAGE, [2, 2], method="foo"),
    "resize of an empty image": lambda tf: tf.image.resize(np.ones((0, 5, 3), np.float32),
                                                           [8, 8]),
    "resize_with_pad to zero": lambda tf: tf.image.resize_with_pad(IMAGE, 0, 9),
    "resize_with_crop_or_pad to zero": lambda tf: tf.image.resize_with_crop_or_pad(IMAGE, 3, 0),
    "central_crop of 0": lambda tf: tf.image.central_crop(IMAGE, 0.0),
    "central_crop of 1.5": lambda tf: tf.image.central_crop(IMAGE, 1.5),
    "crop outside": lambda tf: tf.image.crop_to_bounding_box(IMAGE, 1, 1, 9, 4),
    "crop at a negative offset": lambda tf: tf.image.crop_to_bounding_box(IMAGE, -1, 1, 2, 2),
    "pad to less": lambda tf: tf.image.pad_to_bounding_box(IMAGE, 1, 1, 3, 9),
    "flip a matrix": lambda tf: tf.image.flip_left_right(np.ones((3, 3))),
    "rot90 by a float": lambda tf: tf.image.rot90(IMAGE, k=2.0),
    "transpose of 5-D": lambda tf: tf.image.transpose(np.ones((1, 2, 3, 4, 5))),
    "crop_and_resize by area": lambda tf: tf.image.crop_and_resize(IMAGES, BOXES, [0] * 4,
                                                                   [3, 4], method="area"),
    "crop_and_resize of box index 5": lambda tf: tf.image.crop_and_resize(
        IMAGES, BOXES, [0, 5, 0, 0], [3, 4]),
    "crop_and_resize to 0": lambda tf: tf.image.crop_and_resize(IMAGES, BOXES, [0] * 4, [0, 4]),
    "crop_and_resize of 3-D": lambda tf: tf.image.crop_and_resize(IMAGE, BOXES, [0] * 4, [3, 4]),
    "grayscale of 3 channels": lambda tf: tf.image.grayscale_to_rgb(tf.constant(IMAGE)),
    "image_gradients of 3-D": lambda tf: tf.image.image_gradients(tf.constant(IMAGE)),
    "total_variation of 2-D": lambda tf: tf.image.total_variation(tf.constant(IMAGE[0])),
    "negative gamma": lambda tf: tf.image.adjust_gamma(IMAGE, -1.0),
    "random_brightness below 0": lambda tf: tf.image.random_brightness(IMAGE, -0.1),
    "random_contrast upper <= lower": lambda tf: tf.image.random_contrast(IMAGE, 0.5, 0.5),
    "random_contrast below 0": lambda tf: tf.image.random_contrast(IMAGE, -0.5, 0.5),
    "random_hue above 0.5": lambda tf: tf.image.random_hue(IMAGE, 0.6),
    "random_saturation upper <= lower": lambda tf: tf.image.random_saturation(IMAGE, 2.0, 1.0),
    "random_crop too big": lambda tf: tf.image.random_crop(IMAGE, [7, 3, 3]),
    "nms iou above 1": lambda tf: tf.image.non_max_suppression(NMS_BOXES, NMS_SCORES, 3, 1.5),
    "nms of 3 coordinates": lambda tf: tf.image.non_max_suppression(NMS_BOXES[:, :3],
                                                                     NMS_SCORES, 3),
    "ssim smaller than the filter": lambda tf: tf.image.ssim(IMAGES, IMAGES, 1.0),
    "convert to bool": lambda tf: tf.image.convert_image_dtype(IMAGE, tf.bool),
    "distorted box outside [0, 1]": lambda tf: tf.image.stateless_sample_distorted_bounding_box(
        [40, 30, 3], BOXES[None], seed=(1, 2)),
    "distorted box without boxes": lambda tf: tf.image.stateless_sample_distorted_bounding_box(
        [40, 30, 3], np.zeros((1, 0, 4), np.float32), seed=(1, 2)),
}


@pytest.mark.parametrize("label", list(GRADIENT_CASES))
def test_values_and_gradients_match_tensorflow(label, parity):
    fn, args = GRADIENT_CASES[label]
    theirs = parity.evaluate(parity.tf, lambda *a: fn(parity.tf, *a), args, order=1, key=label)
    ours = parity.evaluate(tapeflow, lambda *a: fn(tapeflow, *a), args, order=1, key=label)
    # float32 kernels summing in different orders agree to a few ulps of their inputs
    parity.assert_same(ours, theirs, rtol=2e-5, atol=2e-5, where=label)


@pytest.mark.parametrize("label", list(VALUE_CASES))
def test_values_match_tensorflow(label, parity):
    theirs = parity.describe(parity.tf, VALUE_CASES[label](parity.tf))
    ours = parity.describe(tapeflow, VALUE_CASES[label](tapeflow))
    parity.assert_same(ours, theirs, rtol=2e-5, atol=2e-5, where=label)


@pytest.mark.parametrize("label", list(ERROR_CASES))
def test_errors_match_tensorflow(label, parity):
    theirs = raised(ERROR_CASES[label], parity.tf)
    ours = raised(ERROR_CASES[label], tapeflow)
    assert isinstance(theirs, tuple) and ours == theirs, f"{label}: {ours} vs TF {theirs}"


# (TF has no gradient for ResizeBicubicGrad and ScaleAndTranslateGrad; tapeflow's second
# order of every method is a row of the op table.)
@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_second_order_of_resize_matches_tensorflow(method, parity):
    label = f"second order {method}"

    def fn(tf):
        return lambda x: tf.image.resize(x * x, [5, 3], method=method)
    theirs = parity.evaluate(parity.tf, fn(parity.tf), (SMALL,), order=2, key=label)
    ours = parity.evaluate(tapeflow, fn(tapeflow), (SMALL,), order=2, key=label)
    parity.assert_same(ours, theirs, rtol=2e-5, atol=2e-5, where=label)


# TF 2.21's tf.image names tapeflow does not provide: JPEG XL decoding (Pillow has no
# decoder), and region proposals (TF's kernel runs on GPUs only).
NOT_PROVIDED = {"decode_jxl", "generate_bounding_box_proposals"}


def test_names_are_tensorflows(tensorflow):
    theirs = {n for n in dir(tensorflow.image) if not n.startswith("_")}
    assert set(tapeflow.image.__all__) == theirs - NOT_PROVIDED
