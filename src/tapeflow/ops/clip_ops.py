"""Clipping: clip_by_value, clip_by_norm, clip_by_global_norm and global_norm, composed
of math ops as in TF."""
from __future__ import annotations

from collections.abc import Sequence

from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor, convert_to_tensor
from .array_ops import stack
from .dispatch import add_dispatch_support
from .indexing_ops import where
from .comparison_ops import greater
from .math_ops import FLOAT, cast, maximum, minimum, reduce_sum, require_dtype, sqrt
from .nn_ops import l2_loss
from .op_util import as_input


@add_dispatch_support(elementwise=1)
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


def _values(what: str, t_list) -> list:
    """The dense values of each entry of `t_list` (an IndexedSlices' values; None kept)."""
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError(f"{what}: `t_list` should be a sequence of tensors. Received "
                        f"{type(t_list)}.")
    return [None if t is None else convert_to_tensor(t.values if isinstance(t, IndexedSlices)
                                                     else t) for t in t_list]


def _global_norm(values: list) -> Tensor:
    squares = [l2_loss(v) for v in values if v is not None]
    if not squares:
        raise ValueError("global_norm: `t_list` holds no tensors (only None entries).")
    return sqrt(reduce_sum(stack(squares)) * 2.0)


def global_norm(t_list, name=None) -> Tensor:
    """sqrt(sum of the squared L2 norms of the tensors in `t_list`); None entries are
    skipped, an IndexedSlices counts its values.

    Raises:
        TypeError: `t_list` is not a sequence.
        InvalidArgumentError: tensors of different dtypes.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.linalg.global_norm([tf.constant([3.0]), None, tf.constant([[4.0]])]))
        5.0
    """
    return _global_norm(_values("global_norm", t_list))


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None) -> tuple:
    """The tensors of `t_list` scaled together so that their global norm is at most
    `clip_norm`: each becomes t * clip_norm / max(global_norm, clip_norm).

    Args:
        t_list: tensors, IndexedSlices (their values are scaled) or None (kept).
        clip_norm: a positive scalar.
        use_norm: the global norm to use instead of computing it.

    Returns:
        (the clipped list, the global norm before clipping). A global norm of inf or nan
        makes every value nan, as in TF.

    Raises:
        TypeError: `t_list` is not a sequence.
        InvalidArgumentError: tensors of different dtypes.

    Example:
        >>> import tapeflow as tf
        >>> clipped, norm = tf.clip_by_global_norm([tf.constant([6.0]), tf.constant([8.0])],
        ...                                        5.0)
        >>> [c.numpy().tolist() for c in clipped], float(norm)
        ([[3.0], [4.0]], 10.0)
    """
    values = _values("clip_by_global_norm", t_list)
    norm = _global_norm(values) if use_norm is None else convert_to_tensor(use_norm)
    clip_norm = cast(clip_norm, norm.dtype)
    # norm - norm is 0, or nan where the norm is not finite, which then spreads to all.
    scale = clip_norm * minimum(1.0 / norm, 1.0 / clip_norm) + (norm - norm)
    clipped = []
    for t, v in zip(t_list, values):
        if v is None:
            clipped.append(None)
        elif isinstance(t, IndexedSlices):
            clipped.append(IndexedSlices(v * cast(scale, v.dtype), t.indices, t.dense_shape))
        else:
            clipped.append(v * cast(scale, v.dtype))
    return clipped, norm
