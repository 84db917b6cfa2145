"""keras.config: the default float type and dtype policy, and the image layout."""
from __future__ import annotations

from .backend import floatx, image_data_format, set_floatx
from .mixed_precision import dtype_policy, set_dtype_policy

__all__ = ["floatx", "set_floatx", "dtype_policy", "set_dtype_policy", "image_data_format"]
