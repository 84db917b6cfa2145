"""tf.image: patch extraction (the image-processing functions are not modelled)."""
from .ops.space_ops import extract_patches

__all__ = ["extract_patches"]
