"""Input checks shared by the tf.image functions: images of rank 3 or 4, integer sizes."""
from __future__ import annotations

import numpy as np

import tapeflow as tf


def image_tensor(image, fn_name: str, ranks=(3, 4), what: str = "image"):
    """`image` as a tensor whose rank is one of `ranks` (None: at least 3).

    Raises:
        ValueError: the rank is not allowed.
    """
    x = tf.convert_to_tensor(image)
    rank = x.shape.rank
    if ranks is None and rank < 3:
        raise ValueError(f"{fn_name}: '{what}' (shape {tuple(x.shape)}) must be at least "
                         f"three-dimensional.")
    if ranks is not None and rank not in ranks:
        allowed = " or ".join(str(r) for r in ranks)
        raise ValueError(f"{fn_name}: '{what}' (shape {tuple(x.shape)}) must have {allowed} "
                         f"dimensions.")
    return x


def batched(x):
    """`x` as a batch of images (a leading axis added to one image), and whether it was."""
    if x.shape.rank == 3:
        return tf.expand_dims(x, 0), False
    return x, True


def unbatched(x, was_batched: bool):
    return x if was_batched else tf.squeeze(x, 0)


def static_int(value, fn_name: str, what: str) -> int:
    """`value` (a Python int or an integer tensor with a value) as an int.

    Raises:
        TypeError: not an integer.
    """
    known = tf.get_static_value(value) if tf.is_tensor(value) else value
    array = np.asarray(known)
    if array.ndim != 0 or array.dtype.kind not in "iu":
        raise TypeError(f"{fn_name}: {what} must be an integer, got {value!r}")
    return int(array)

