"""Rearranging blocks of space and depth, reversing sequences and extracting image patches:
kernels and the public TF-named functions.

Each op is one `define_op` row; its gradient rule lives in `space_grad.py`. All of them move
elements without combining them (patches may repeat one), so they are linear.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import LINEAR, define_op
from ..framework.tensor import Tensor
from .op_util import as_input, index_input, int_values, normalize_axis


# -- kernels ---------------------------------------------------------------------------------
def _check_block(op_name: str, block_size: int) -> None:
    if block_size < 2:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: block_size must be at least 2, got {block_size}")


def _nhwc(op_name: str, x, data_format: str):
    if x.ndim != 4:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: input must be 4-D, got shape {list(x.shape)}")
    return x if data_format == "NHWC" else x.transpose(0, 2, 3, 1)


def _from_nhwc(x, data_format: str):
    return x if data_format == "NHWC" else x.transpose(0, 3, 1, 2)


def _depth_to_space(x, block_size, data_format):
    _check_block("DepthToSpace", block_size)
    y = _nhwc("DepthToSpace", x, data_format)
    b, h, w, c = y.shape
    if c % (block_size * block_size):
        raise errors.InvalidArgumentError(
            None, "DepthToSpace", f"DepthToSpace: Input depth dimension {c} should be divisible "
            f"by: {block_size * block_size}")
    depth = c // (block_size * block_size)
    y = y.reshape(b, h, w, block_size, block_size, depth).transpose(0, 1, 3, 2, 4, 5)
    return _from_nhwc(y.reshape(b, h * block_size, w * block_size, depth), data_format)


def _space_to_depth(x, block_size, data_format):
    _check_block("SpaceToDepth", block_size)
    y = _nhwc("SpaceToDepth", x, data_format)
    b, h, w, c = y.shape
    if h % block_size or w % block_size:
        raise errors.InvalidArgumentError(
            None, "SpaceToDepth", f"SpaceToDepth: Image width {w} and height {h} should be "
            f"divisible by block_size: {block_size}")
    y = y.reshape(b, h // block_size, block_size, w // block_size, block_size, c)
    y = y.transpose(0, 1, 3, 2, 4, 5)
    return _from_nhwc(y.reshape(b, h // block_size, w // block_size, block_size ** 2 * c),
                      data_format)


def _space_to_batch(x, block_shape, paddings):
    m = len(block_shape)
    if x.ndim < m + 1:
        raise errors.InvalidArgumentError(
            None, "SpaceToBatchND", f"SpaceToBatchND: input rank should be > {m} (the length "
            f"of block_shape), got shape {list(x.shape)}")
    padded = np.pad(x, [(0, 0)] + [tuple(p) for p in paddings] + [(0, 0)] * (x.ndim - m - 1))
    for i, (d, blk) in enumerate(zip(padded.shape[1:], block_shape)):
        if d % blk:
            raise errors.InvalidArgumentError(
                None, "SpaceToBatchND", f"SpaceToBatchND: padded_shape[{i}]={d} is not "
                f"divisible by block_shape[{i}]={blk}")
    batch, rest = padded.shape[0], padded.shape[m + 1:]
    split = [batch]
    for d, blk in zip(padded.shape[1:m + 1], block_shape):
        split += [d // blk, blk]
    y = padded.reshape(split + list(rest))
    perm = ([2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)]
            + list(range(1 + 2 * m, y.ndim)))
    y = y.transpose(perm)
    return y.reshape([batch * int(np.prod(block_shape))]
                     + [d // blk for d, blk in zip(padded.shape[1:m + 1], block_shape)]
                     + list(rest))


def _batch_to_space(x, block_shape, crops):
    m = len(block_shape)
    blocks = int(np.prod(block_shape))
    if x.ndim < m + 1 or x.shape[0] % blocks:
        raise errors.InvalidArgumentError(
            None, "BatchToSpaceND", f"BatchToSpaceND: input batch dimension ({x.shape[0]}) "
            f"should be divisible by the product of block sizes ({blocks}), and the rank "
            f"({x.ndim}) greater than {m}")
    batch = x.shape[0] // blocks
    spatial, rest = x.shape[1:m + 1], x.shape[m + 1:]
    y = x.reshape(list(block_shape) + [batch] + list(spatial) + list(rest))
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, y.ndim))
    y = y.transpose(perm).reshape([batch] + [d * blk for d, blk in zip(spatial, block_shape)]
                                  + list(rest))
    index = [slice(None)]
    for i, ((lo, hi), d) in enumerate(zip(crops, y.shape[1:m + 1])):
        if lo + hi > d:
            raise errors.InvalidArgumentError(
                None, "BatchToSpaceND", f"BatchToSpaceND: crops must be non-negative and fit: "
                f"crops[{i}] = [{lo}, {hi}] for a dimension of {d}")
        index.append(slice(lo, d - hi))
    return y[tuple(index)]


def _reverse_sequence(x, seq_lengths, seq_axis, batch_axis):
    if seq_lengths.shape != (x.shape[batch_axis],):
        raise errors.InvalidArgumentError(
            None, "ReverseSequence", f"ReverseSequence: seq_lengths must be 1-D with one entry "
            f"per batch element ({x.shape[batch_axis]}), got shape {list(seq_lengths.shape)}")
    n = x.shape[seq_axis]
    if seq_lengths.size and (seq_lengths.max() > n or seq_lengths.min() < 0):
        raise errors.InvalidArgumentError(
            None, "ReverseSequence", f"ReverseSequence: seq_lens({int(seq_lengths.max())}) > "
            f"input.dims({seq_axis}) = {n}, or negative")
    steps = np.arange(n)
    lengths = seq_lengths.astype(np.int64)[:, None]
    order = np.where(steps < lengths, lengths - 1 - steps, steps)  # [batch, n]
    shape = [1] * x.ndim
    shape[batch_axis], shape[seq_axis] = x.shape[batch_axis], n
    if batch_axis > seq_axis:
        order = order.T
    return np.take_along_axis(x, order.reshape(shape), axis=seq_axis)


def patch_positions(height: int, width: int, depth: int, sizes: tuple, strides: tuple,
                    rates: tuple, padding: str) -> np.ndarray:
    """For one image of [height, width, depth], the flat position each entry of its patches
    [rows, cols, k_rows * k_cols * depth] reads, -1 where it reads padding."""
    index = []
    for n, k, s, r in zip((height, width), sizes, strides, rates):
        span = (k - 1) * r + 1
        if padding == "SAME":
            out = -(-n // s)
            before = max((out - 1) * s + span - n, 0) // 2
        else:
            out = max(-(-(n - span + 1) // s), 0)
            before = 0
        index.append(np.arange(out)[:, None] * s - before + np.arange(k)[None, :] * r)
    rows, cols = index  # [out_rows, k_rows], [out_cols, k_cols]
    r = rows[:, None, :, None, None]
    c = cols[None, :, None, :, None]
    d = np.arange(depth)[None, None, None, None, :]
    flat = (r * width + c) * depth + d
    flat = np.where((r >= 0) & (r < height) & (c >= 0) & (c < width), flat, -1)
    return flat.reshape(rows.shape[0], cols.shape[0], -1)


def _extract_patches(images, sizes, strides, rates, padding):
    b, h, w, c = images.shape
    positions = patch_positions(h, w, c, sizes, strides, rates, padding)
    flat = np.concatenate([images.reshape(b, -1), np.zeros((b, 1), images.dtype)], axis=1)
    return flat[:, positions]


DepthToSpace = define_op("DepthToSpace", _depth_to_space, family=LINEAR)
SpaceToDepth = define_op("SpaceToDepth", _space_to_depth, family=LINEAR)
SpaceToBatchND = define_op("SpaceToBatchND", _space_to_batch, family=LINEAR)
BatchToSpaceND = define_op("BatchToSpaceND", _batch_to_space, family=LINEAR)
ReverseSequence = define_op("ReverseSequence", _reverse_sequence, family=LINEAR)
ExtractImagePatches = define_op("ExtractImagePatches", _extract_patches, family=LINEAR)


# -- public functions ------------------------------------------------------------------------
def _block_op(op, input, block_size, data_format) -> Tensor:  # noqa: A002  (TF's name)
    if data_format not in ("NHWC", "NCHW"):
        raise errors.InvalidArgumentError(
            None, op.name, f"{op.name}: data_format must be NHWC or NCHW, got {data_format!r}")
    return execute(op, (as_input(input),), {"block_size": int(block_size),
                                             "data_format": data_format})


def depth_to_space(input, block_size, data_format="NHWC", name=None) -> Tensor:  # noqa: A002
    """Moves blocks of `block_size * block_size` channels into spatial blocks:
    [b, h, w, c] becomes [b, h * block_size, w * block_size, c / block_size**2].

    Args:
        input: a 4-D tensor.
        block_size: an int >= 2 whose square divides the depth.
        data_format: "NHWC" (default) or "NCHW".

    Returns:
        The rearranged tensor, of `input`'s dtype.

    Raises:
        InvalidArgumentError: block_size < 2, the depth is not divisible by its square, the
            input is not 4-D, or an unknown data_format.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.depth_to_space(tf.reshape(tf.range(4), [1, 1, 1, 4]), 2)[0, :, :, 0].numpy()
        array([[0, 1],
               [2, 3]], dtype=int32)
    """
    return _block_op(DepthToSpace, input, block_size, data_format)


def space_to_depth(input, block_size, data_format="NHWC", name=None) -> Tensor:  # noqa: A002
    """Moves spatial blocks of `block_size * block_size` into channels, the inverse of
    `depth_to_space`: [b, h, w, c] becomes [b, h / block_size, w / block_size,
    c * block_size**2].

    Args:
        input: a 4-D tensor.
        block_size: an int >= 2 dividing the height and the width.
        data_format: "NHWC" (default) or "NCHW".

    Returns:
        The rearranged tensor, of `input`'s dtype.

    Raises:
        InvalidArgumentError: block_size < 2, it does not divide the height and width, the
            input is not 4-D, or an unknown data_format.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.space_to_depth(tf.reshape(tf.range(4), [1, 2, 2, 1]), 2).numpy().ravel()
        array([0, 1, 2, 3], dtype=int32)
    """
    return _block_op(SpaceToDepth, input, block_size, data_format)


def _pairs(op_name: str, value, m: int, what: str) -> tuple:
    flat = int_values(op_name, value, what)
    if len(flat) != 2 * m or any(v < 0 for v in flat):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: {what} must be a non-negative [{m}, 2] list, got "
            f"{value!r}")
    return tuple(zip(flat[::2], flat[1::2]))


def _blocks(op_name: str, block_shape) -> tuple:
    blocks = tuple(int_values(op_name, block_shape, "block_shape"))
    if any(b < 1 for b in blocks):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: block_shape must be positive, got {list(blocks)}")
    return blocks


def space_to_batch_nd(input, block_shape, paddings, name=None) -> Tensor:  # noqa: A002
    """Pads the spatial dimensions 1..M of `input` by `paddings` and moves their
    `block_shape` blocks into the batch dimension.

    Args:
        input: a tensor of shape [batch] + spatial (M dimensions) + remaining.
        block_shape: M positive ints.
        paddings: [M, 2] non-negative ints (before, after) per spatial dimension.

    Returns:
        A tensor of shape [batch * prod(block_shape)] + padded spatial / block_shape +
        remaining.

    Raises:
        InvalidArgumentError: a padded dimension is not divisible by its block, or malformed
            block_shape / paddings.

    Example:
        >>> import tapeflow as tf
        >>> tf.space_to_batch_nd(tf.reshape(tf.range(4), [1, 2, 2, 1]), [2, 2],
        ...                      [[0, 0], [0, 0]]).numpy().ravel()
        array([0, 1, 2, 3], dtype=int32)
    """
    blocks = _blocks("SpaceToBatchND", block_shape)
    pads = _pairs("SpaceToBatchND", paddings, len(blocks), "paddings")
    return execute(SpaceToBatchND, (as_input(input),), {"block_shape": blocks, "paddings": pads})


def space_to_batch(input, block_shape, paddings, name=None) -> Tensor:  # noqa: A002
    """`space_to_batch_nd` (TF 2's name for it).

    Raises:
        InvalidArgumentError: as `space_to_batch_nd`.

    Example:
        >>> import tapeflow as tf
        >>> tf.space_to_batch(tf.ones([1, 4, 1]), [2], [[0, 0]]).shape
        TensorShape([2, 2, 1])
    """
    return space_to_batch_nd(input, block_shape, paddings)


def batch_to_space(input, block_shape, crops, name=None) -> Tensor:  # noqa: A002
    """The inverse of `space_to_batch_nd`: moves blocks of the batch dimension back into the
    spatial dimensions 1..M and crops them by `crops`.

    Args:
        input: a tensor of shape [batch * prod(block_shape)] + spatial + remaining.
        block_shape: M positive ints.
        crops: [M, 2] non-negative ints (before, after) per spatial dimension.

    Returns:
        A tensor of shape [batch] + spatial * block_shape - crops + remaining.

    Raises:
        InvalidArgumentError: the batch is not divisible by prod(block_shape), the crops do
            not fit, or malformed block_shape / crops.

    Example:
        >>> import tapeflow as tf
        >>> tf.batch_to_space(tf.reshape(tf.range(4), [4, 1, 1, 1]), [2, 2],
        ...                   [[0, 0], [0, 0]]).numpy().ravel()
        array([0, 1, 2, 3], dtype=int32)
    """
    blocks = _blocks("BatchToSpaceND", block_shape)
    cuts = _pairs("BatchToSpaceND", crops, len(blocks), "crops")
    return execute(BatchToSpaceND, (as_input(input),), {"block_shape": blocks, "crops": cuts})


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None,  # noqa: A002
                     name=None) -> Tensor:
    """Reverses the first `seq_lengths[i]` entries along `seq_axis` of each slice `i` along
    `batch_axis`; the rest stay in place.

    Args:
        input: a tensor.
        seq_lengths: a 1-D int32/int64 tensor, one length per batch entry, each at most
            `input.shape[seq_axis]`.
        seq_axis: the axis to reverse (required).
        batch_axis: the batch axis (default 0).

    Returns:
        A tensor like `input`.

    Raises:
        TypeError: seq_axis is None.
        InvalidArgumentError: a length is too large, the lengths do not match the batch, or
            an axis is out of range or equal to the other.

    Example:
        >>> import tapeflow as tf
        >>> tf.reverse_sequence(tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 3], seq_axis=1).numpy()
        array([[2, 1, 3],
               [6, 5, 4]], dtype=int32)
    """
    if seq_axis is None:
        raise TypeError("reverse_sequence: Expected int for argument 'seq_dim' not None.")
    x = as_input(input)
    seq = normalize_axis("ReverseSequence", seq_axis, x.ndim)
    batch = normalize_axis("ReverseSequence", 0 if batch_axis is None else batch_axis, x.ndim)
    if seq == batch:
        raise errors.InvalidArgumentError(
            None, "ReverseSequence", f"ReverseSequence: seq_axis and batch_axis must differ, "
            f"both are {seq}")
    lengths = index_input("ReverseSequence", seq_lengths)
    return execute(ReverseSequence, (x, lengths), {"seq_axis": seq, "batch_axis": batch})


def _window(what: str, value) -> tuple:
    values = int_values("ExtractImagePatches", value, what)
    if len(values) != 4 or values[0] != 1 or values[3] != 1 or min(values) < 1:
        raise errors.InvalidArgumentError(
            None, "ExtractImagePatches", f"ExtractImagePatches: {what} must be [1, rows, cols, "
            f"1] with positive entries, got {value!r}")
    return tuple(values[1:3])


def patch_input(op_name: str, what: str, value, rank: int, padding) -> tuple:
    """The input of a patch extraction, checked to have `rank`, and its padding, "VALID"
    or "SAME" (any case).

    Raises:
        InvalidArgumentError: another rank or padding.
    """
    x = as_input(value)
    if x.ndim != rank:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: {what} must be {rank}-D, got shape {x.shape.as_list()}")
    padding = padding.upper() if isinstance(padding, str) else padding
    if padding not in ("VALID", "SAME"):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: padding must be VALID or SAME, got {padding!r}")
    return x, padding


def extract_patches(images, sizes, strides, rates, padding, name=None) -> Tensor:
    """The `sizes` patches of each image, `strides` apart, each reading every `rates`-th
    pixel, flattened into the depth: [b, h, w, c] becomes [b, out_rows, out_cols,
    k_rows * k_cols * c].

    Args:
        images: a 4-D [batch, height, width, depth] tensor.
        sizes, strides, rates: [1, rows, cols, 1] each.
        padding: "VALID" or "SAME" (zero padding, as convolutions pad).

    Returns:
        The patches, of `images`' dtype.

    Raises:
        InvalidArgumentError: images not 4-D, or malformed sizes / strides / rates / padding.

    Example:
        >>> import tapeflow as tf
        >>> image = tf.reshape(tf.range(9), [1, 3, 3, 1])
        >>> tf.image.extract_patches(image, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1],
        ...                          "VALID")[0, 0, 0].numpy()
        array([0, 1, 3, 4], dtype=int32)
    """
    x, padding = patch_input("ExtractImagePatches", "images", images, 4, padding)
    return execute(ExtractImagePatches, (x,), {
        "sizes": _window("sizes", sizes), "strides": _window("strides", strides),
        "rates": _window("rates", rates), "padding": padding})
