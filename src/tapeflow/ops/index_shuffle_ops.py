"""tf.random.experimental.index_shuffle and tf.random_index_shuffle: where an index lands in a
pseudorandom permutation of [0, max_index], with TF's permutations.

The permutation is a Simon block cipher (TF's key schedule and round function) on the
smallest even number of bits, at least 16, that holds max_index; values above max_index are
encrypted again until they fall inside (cycle walking), which makes it a bijection.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import define_op
from ..framework.tensor import Tensor, convert_to_tensor
from .array_ops import pad
from .op_util import as_input


def _simon_round_keys(key, width: int, rounds: int) -> list:
    """Simon's key schedule for `width`-bit words from three key words [n, 3]."""
    mask = np.uint64(2 ** width - 1)
    keys = [key[:, i] & mask for i in range(3)]
    constant, z = np.uint64(0xFFFFFFFC & (2 ** width - 1)), 0x7369F885192C0EF5 & (2 ** width - 1)
    for i in range(3, rounds):
        last = keys[i - 1]
        keys.append(constant ^ np.uint64(z & 1) ^ keys[i - 3] ^ _rotate(last, width - 3, width)
                    ^ _rotate(last, width - 4, width))
        z >>= 1
    return keys


def _rotate(x, left: int, width: int):
    """`x` rotated left by `left` bits within `width`-bit words."""
    mask = np.uint64(2 ** width - 1)
    return ((x << np.uint64(left)) | (x >> np.uint64(width - left))) & mask


def _index_shuffle(index, seed, max_index, *, rounds):
    # A Simon block cipher on the smallest even number (>= 16) of bits that holds max_index,
    # re-encrypting values above max_index (cycle walking): a bijection of [0, max_index].
    out_shape = np.broadcast_shapes(index.shape, max_index.shape, seed.shape[:-1])
    n = int(np.prod(out_shape))
    values = np.broadcast_to(index, out_shape).astype(np.uint64).reshape(n)
    top = np.broadcast_to(max_index, out_shape).astype(np.uint64).reshape(n)
    key = np.broadcast_to(seed.astype(np.int64) & 0xFFFFFFFF, (n, 3)).astype(np.uint64)
    bits = np.ceil(np.log2(np.maximum(top, 1).astype(np.float64))).astype(np.uint64)
    widths = np.maximum(bits + bits % 2, 16) // 2
    out = np.zeros(n, np.uint64)
    groups, which = np.unique(np.column_stack([widths, key, top]), axis=0, return_inverse=True)
    for g, (width, k0, k1, k2, limit) in enumerate(groups.tolist()):
        rows = np.nonzero(which.reshape(-1) == g)[0]
        if limit == 0:
            continue
        round_keys = _simon_round_keys(np.array([[k0, k1, k2]], np.uint64), width, rounds)
        if width <= 10:  # a table of the whole block: walks on a small range are long
            table = _simon_encrypt(np.arange(2 ** (2 * width), dtype=np.uint64), round_keys,
                                   width)
            mask = np.uint64(2 ** (2 * width) - 1)
            out[rows] = _walked(table, np.uint64(limit), 2 * width)[values[rows] & mask]
            continue
        current = _simon_encrypt(values[rows], round_keys, width)
        while (current > limit).any():
            outside = current > limit
            current[outside] = _simon_encrypt(current[outside], round_keys, width)
        out[rows] = current
    return out.astype(index.dtype).reshape(out_shape)


def _simon_encrypt(values, round_keys, width: int):
    mask = np.uint64(2 ** width - 1)
    left, right = (values >> np.uint64(width)) & mask, values & mask
    for i in range(0, len(round_keys), 2):
        left = left ^ _simon_f(right, width) ^ round_keys[i]
        right = right ^ _simon_f(left, width) ^ round_keys[i + 1]
    return (left << np.uint64(width)) | right


def _walked(table, limit, bits: int):
    """For each start, the first value <= limit along `table`'s cycle after it, by pointer
    doubling (a cycle is at most 2**bits long)."""
    jump = table.copy()
    for _ in range(bits + 1):
        outside = jump > limit
        if not outside.any():
            break
        jump[outside] = jump[jump[outside]]
    return jump


def _simon_f(x, width: int):
    return (_rotate(x, 1, width) & _rotate(x, 8, width)) ^ _rotate(x, 2, width)


RandomIndexShuffle = define_op("RandomIndexShuffle", _index_shuffle)
RandomIndexShuffle.shape_fn = lambda inputs, attrs: [(inputs[0]._value.dtype, tuple(
    np.broadcast_shapes(inputs[0]._dims, inputs[2]._dims, inputs[1]._dims[:-1])))]


def random_index_shuffle(index, seed, max_index, rounds=4, name=None) -> Tensor:
    """The position of `index` in a pseudorandom permutation of [0, max_index] chosen by
    `seed` (shape [3], or [n, 3] for a batch): TF's permutation bit for bit.

    Raises:
        InvalidArgumentError: a seed not of shape [3] / [n, 3], batch sizes that differ,
            `rounds` odd or below 4, or non-integer inputs.

    Example:
        >>> import tapeflow as tf
        >>> tf.random_index_shuffle(tf.range(4), [498247692, 5, 9], 3).numpy()
        array([2, 0, 1, 3], dtype=int32)
    """
    index, seed = as_input(index), as_input(seed)
    max_index = convert_to_tensor(max_index, dtype=index.dtype)
    batch = {d for x in (index, max_index) for d in x.shape.as_list()[:1]} | set(
        seed.shape.as_list()[:-1])
    if not (index.dtype.is_integer and seed.dtype.is_integer) or index.ndim > 1 \
            or max_index.ndim > 1 or seed.ndim not in (1, 2) or seed.shape[-1] != 3 \
            or len(batch) > 1 or rounds < 4 or rounds % 2:
        raise errors.InvalidArgumentError(
            None, "RandomIndexShuffle", f"RandomIndexShuffle: index and max_index must be "
            f"integer scalars or vectors and seed an integer [3] or [n, 3] tensor with one batch "
            f"size, rounds even and >= 4; got index {index.shape.as_list()}, seed "
            f"{seed.shape.as_list()} ({seed.dtype.name}), max_index {max_index.shape.as_list()}, "
            f"rounds={rounds}")
    return execute(RandomIndexShuffle, (index, seed, max_index), {"rounds": int(rounds)})


def index_shuffle(index, seed, max_index) -> Tensor:
    """The position of `index` in a pseudorandom permutation of [0, max_index] chosen by a
    stateless seed (shape [2], or [n, 2] for a batch): TF's permutation bit for bit.

    Raises:
        InvalidArgumentError: see `tf.random_index_shuffle`.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.experimental.index_shuffle(tf.range(4), seed=[5, 9], max_index=3).numpy()
        array([2, 0, 1, 3], dtype=int32)
    """
    seed = as_input(seed)
    padded = pad(seed, [[1, 0]] + [[0, 0]] * (seed.ndim - 1), constant_values=498247692)
    return random_index_shuffle(index, padded, max_index)
