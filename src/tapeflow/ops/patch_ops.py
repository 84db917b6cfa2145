"""`extract_volume_patches`: the 3-D patches of volumes, built from 2-D image patches of
each depth slice and a gather of depth windows, so its gradient comes from theirs."""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.tensor import Tensor
from .array_ops import pad, reshape, transpose
from .gather_ops import gather
from .op_util import int_values
from .space_ops import extract_patches, patch_input

__all__ = ["extract_volume_patches"]


def _window(what: str, value) -> tuple:
    values = int_values("ExtractVolumePatches", value, what)
    if len(values) != 5 or values[0] != 1 or values[4] != 1 or min(values) < 1:
        raise errors.InvalidArgumentError(
            None, "ExtractVolumePatches", f"ExtractVolumePatches: {what} must be [1, planes, "
            f"rows, cols, 1] with positive entries, got {value!r}")
    return tuple(values[1:4])


def extract_volume_patches(input, ksizes, strides, padding, name=None) -> Tensor:  # noqa: A002
    """The `ksizes` patches of each volume, `strides` apart, flattened into the depth:
    [b, planes, rows, cols, c] becomes [b, out_planes, out_rows, out_cols,
    k_planes * k_rows * k_cols * c].

    Args:
        input: a 5-D tensor.
        ksizes, strides: [1, planes, rows, cols, 1] each.
        padding: "VALID" or "SAME" (zero padding, as 3-D convolutions pad).

    Returns:
        The patches, of `input`'s dtype.

    Raises:
        InvalidArgumentError: input not 5-D, or malformed ksizes / strides / padding.

    Example:
        >>> import tapeflow as tf
        >>> volume = tf.reshape(tf.range(8), [1, 2, 2, 2, 1])
        >>> tf.extract_volume_patches(volume, [1, 2, 2, 2, 1], [1, 1, 1, 1, 1],
        ...                           "VALID").numpy().ravel()
        array([0, 1, 2, 3, 4, 5, 6, 7], dtype=int32)
    """
    x, padding = patch_input("ExtractVolumePatches", "input", input, 5, padding)
    (kd, kh, kw), (sd, sh, sw) = _window("ksizes", ksizes), _window("strides", strides)
    batch, depth, height, width, channels = x.shape.as_list()
    planes = extract_patches(reshape(x, [-1, height, width, channels]), [1, kh, kw, 1],
                             [1, sh, sw, 1], [1, 1, 1, 1], padding)
    out_rows, out_cols, flat = planes.shape.as_list()[1:]
    planes = reshape(planes, [-1, depth, out_rows, out_cols, flat])
    if padding == "SAME":
        out_depth = -(-depth // sd)
        total = max((out_depth - 1) * sd + kd - depth, 0)
        planes = pad(planes, [[0, 0], [total // 2, total - total // 2], [0, 0], [0, 0], [0, 0]])
    else:
        out_depth = max(-(-(depth - kd + 1) // sd), 0)
    starts = np.arange(out_depth)[:, None] * sd + np.arange(kd)[None, :]
    windows = gather(planes, starts.astype(np.int32), axis=1)  # [b, od, kd, rows, cols, flat]
    windows = transpose(windows, [0, 1, 3, 4, 2, 5])
    return reshape(windows, [-1, out_depth, out_rows, out_cols, kd * flat])
