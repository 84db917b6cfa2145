"""tf.image's names: every one of TF 2.21's that tapeflow has resolves, and the namespace
exports nothing TF lacks."""
import tapeflow as tf

# TF 2.21's tf.image, less the names tapeflow does not provide (listed below).
TF_NAMES = {
    "ResizeMethod", "adjust_brightness", "adjust_contrast", "adjust_gamma", "adjust_hue",
    "adjust_jpeg_quality", "adjust_saturation", "central_crop", "combined_non_max_suppression",
    "convert_image_dtype", "crop_and_resize", "crop_to_bounding_box", "decode_and_crop_jpeg",
    "decode_bmp", "decode_gif", "decode_image", "decode_jpeg", "decode_png", "decode_webp",
    "draw_bounding_boxes", "encode_jpeg", "encode_png", "extract_glimpse", "extract_jpeg_shape",
    "extract_patches", "flip_left_right", "flip_up_down", "grayscale_to_rgb", "hsv_to_rgb",
    "image_gradients", "is_jpeg", "non_max_suppression", "non_max_suppression_overlaps",
    "non_max_suppression_padded", "non_max_suppression_with_scores", "pad_to_bounding_box",
    "per_image_standardization", "psnr", "random_brightness", "random_contrast", "random_crop",
    "random_flip_left_right", "random_flip_up_down", "random_hue", "random_jpeg_quality",
    "random_saturation", "resize", "resize_with_crop_or_pad", "resize_with_pad",
    "rgb_to_grayscale", "rgb_to_hsv", "rgb_to_yiq", "rgb_to_yuv", "rot90",
    "sample_distorted_bounding_box", "sobel_edges", "ssim", "ssim_multiscale",
    "stateless_random_brightness", "stateless_random_contrast", "stateless_random_crop",
    "stateless_random_flip_left_right", "stateless_random_flip_up_down", "stateless_random_hue",
    "stateless_random_jpeg_quality", "stateless_random_saturation",
    "stateless_sample_distorted_bounding_box", "total_variation", "transpose", "yiq_to_rgb",
    "yuv_to_rgb",
}
NOT_PROVIDED = {"decode_jxl", "generate_bounding_box_proposals"}


def test_every_name_resolves():
    assert all(callable(getattr(tf.image, name)) for name in TF_NAMES)


def test_the_namespace_exports_only_tf_names():
    assert set(tf.image.__all__) == TF_NAMES
    public = {n for n in dir(tf.image) if not n.startswith("_")}
    assert not (public - TF_NAMES - set(tf.image.__all__)) - _MODULES
    assert not NOT_PROVIDED & public


# The package's modules, which `dir` lists beside the functions.
_MODULES = {"augment", "boxes", "codecs", "color", "cropping", "quality", "resizing"}
