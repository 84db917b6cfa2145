"""tf.image: resizing, cropping and geometry, colour, quality measures, boxes, random
augmentations, and image files (with Pillow)."""
from ..ops.space_ops import extract_patches
from .augment import (random_brightness, random_contrast, random_crop, random_flip_left_right,
                      random_flip_up_down, random_hue, random_jpeg_quality, random_saturation,
                      stateless_random_brightness, stateless_random_contrast,
                      stateless_random_crop, stateless_random_flip_left_right,
                      stateless_random_flip_up_down, stateless_random_hue,
                      stateless_random_jpeg_quality, stateless_random_saturation)
from .boxes import (combined_non_max_suppression, draw_bounding_boxes, non_max_suppression,
                    non_max_suppression_overlaps, non_max_suppression_padded,
                    non_max_suppression_with_scores, sample_distorted_bounding_box,
                    stateless_sample_distorted_bounding_box)
from .codecs import (adjust_jpeg_quality, decode_and_crop_jpeg, decode_bmp, decode_gif,
                     decode_image, decode_jpeg, decode_png, decode_webp, encode_jpeg, encode_png,
                     extract_jpeg_shape, is_jpeg)
from .color import (adjust_brightness, adjust_contrast, adjust_gamma, adjust_hue,
                    adjust_saturation, convert_image_dtype, grayscale_to_rgb, hsv_to_rgb,
                    per_image_standardization, rgb_to_grayscale, rgb_to_hsv, rgb_to_yiq,
                    rgb_to_yuv, yiq_to_rgb, yuv_to_rgb)
from .cropping import (central_crop, crop_to_bounding_box, extract_glimpse, flip_left_right,
                       flip_up_down, pad_to_bounding_box, resize_with_crop_or_pad, rot90,
                       transpose)
from .quality import image_gradients, psnr, sobel_edges, ssim, ssim_multiscale, total_variation
from .resizing import ResizeMethod, crop_and_resize, resize, resize_with_pad

__all__ = [
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
]
