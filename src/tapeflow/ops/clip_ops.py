"""Clipping: clip_by_value and clip_by_norm, composed of math ops as in TF."""
from __future__ import annotations

from ..framework.tensor import Tensor, convert_to_tensor
from .indexing_ops import where
from .comparison_ops import greater
from .math_ops import FLOAT, maximum, minimum, reduce_sum, require_dtype, sqrt
from .op_util import as_input


def clip_by_value(t, clip_value_min, clip_value_max, name=None) -> Tensor:
    """`t` with values below `clip_value_min` and above `clip_value_max` replaced by them.

    Computed as maximum(minimum(t, max), min), so at a bound the gradient goes to `t`.

    Raises:
        ValueError: the bounds would broadcast `t` to a larger shape.
        InvalidArgumentError: the dtypes differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.clip_by_value(tf.constant([-2.0, 0.5, 3.0]), 0.0, 1.0).numpy()
        array([0. , 0.5, 1. ], dtype=float32)
    """
    values = as_input(t)
    clipped = maximum(minimum(values, clip_value_max), clip_value_min, name=name)
    if clipped.shape != values.shape:
        raise ValueError(f"clip_by_value: the bounds broadcast t of shape {values.shape} to "
                         f"shape {clipped.shape}; they must be scalars or of t's shape.")
    return clipped


def clip_by_norm(t, clip_norm, axes=None, name=None) -> Tensor:
    """`t` scaled down where its L2 norm along `axes` exceeds `clip_norm`.

    t * clip_norm / max(norm(t), clip_norm); a zero `t` gets a zero (not nan) gradient.

    Args:
        t: a floating tensor.
        clip_norm: a positive scalar (or a tensor broadcasting against the norms).
        axes: None (the whole tensor), an int or a list of ints.

    Raises:
        ValueError: `clip_norm` would broadcast `t` to a larger shape.
        InvalidArgumentError: `t` is not floating, or an axis is out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0).numpy()
        array([0.6, 0.8], dtype=float32)
    """
    values = require_dtype("clip_by_norm", convert_to_tensor(t), FLOAT)
    l2sum = reduce_sum(values * values, axes, keepdims=True)
    # TF's double where: sqrt sees 1 where l2sum is 0, so its gradient there is not nan.
    positive = greater(l2sum, 0)
    l2norm = where(positive, sqrt(where(positive, l2sum, 1.0)), l2sum)
    scaled = values * clip_norm
    if scaled.shape != values.shape:
        raise ValueError(f"clip_by_norm: clip_norm broadcasts t of shape {values.shape} to "
                         f"shape {scaled.shape}.")
    return scaled / maximum(l2norm, clip_norm)
