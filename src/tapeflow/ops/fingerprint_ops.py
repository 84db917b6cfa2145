"""`fingerprint`: FarmHash's 64-bit fingerprint (Fingerprint64, the "farmhash64" method) of
each row's bytes, as 8 little-endian uint8 values; TF's values exactly. Integer outputs: no
gradient."""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.tensor import Tensor
from .op_util import as_input

__all__ = ["fingerprint", "fingerprint64_strings", "hash64_strings", "siphash_strings"]

# 64-bit arithmetic, and FarmHash's constants.
M = (1 << 64) - 1
K0, K1, K2 = 0xc3a5c85c97cb3127, 0xb492b66fbe98f273, 0x9ae16a3b2f90404f


def _f64(s, i):
    return int.from_bytes(s[i:i + 8], "little")


def _f32(s, i):
    return int.from_bytes(s[i:i + 4], "little")


def _rot(v, r):
    return v if r == 0 else ((v >> r) | (v << (64 - r))) & M


def _shift_mix(v):
    return v ^ (v >> 47)


def _len16(u, v, mul):
    a = ((u ^ v) * mul) & M
    a ^= a >> 47
    b = ((v ^ a) * mul) & M
    b ^= b >> 47
    return (b * mul) & M


def _len0to16(s):
    n = len(s)
    if n >= 8:
        mul = K2 + n * 2
        a = (_f64(s, 0) + K2) & M
        b = _f64(s, n - 8)
        c = (_rot(b, 37) * mul + a) & M
        d = ((_rot(a, 25) + b) * mul) & M
        return _len16(c, d, mul)
    if n >= 4:
        mul = K2 + n * 2
        return _len16((n + (_f32(s, 0) << 3)) & M, _f32(s, n - 4), mul)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * K2) ^ (z * K0)) & M) * K2) & M
    return K2


def _len17to32(s):
    n = len(s)
    mul = K2 + n * 2
    a = (_f64(s, 0) * K1) & M
    b = _f64(s, 8)
    c = (_f64(s, n - 8) * mul) & M
    d = (_f64(s, n - 16) * K2) & M
    return _len16((_rot((a + b) & M, 43) + _rot(c, 30) + d) & M,
                  (a + _rot((b + K2) & M, 18) + c) & M, mul)


def _len33to64(s):
    n = len(s)
    mul = K2 + n * 2
    a = (_f64(s, 0) * K2) & M
    b = _f64(s, 8)
    c = (_f64(s, n - 8) * mul) & M
    d = (_f64(s, n - 16) * K2) & M
    y = (_rot((a + b) & M, 43) + _rot(c, 30) + d) & M
    z = _len16(y, (a + _rot((b + K2) & M, 18) + c) & M, mul)
    e = (_f64(s, 16) * mul) & M
    f = _f64(s, 24)
    g = ((y + _f64(s, n - 32)) * mul) & M
    h = ((z + _f64(s, n - 24)) * mul) & M
    return _len16((_rot((e + f) & M, 43) + _rot(g, 30) + h) & M,
                  (e + _rot((f + a) & M, 18) + g) & M, mul)


def _weak32(s, i, a, b):
    w, x, y, z = _f64(s, i), _f64(s, i + 8), _f64(s, i + 16), _f64(s, i + 24)
    a = (a + w) & M
    b = _rot((b + a + z) & M, 21)
    c = a
    a = (a + x + y) & M
    b = (b + _rot(a, 44)) & M
    return (a + z) & M, (b + c) & M


def _fingerprint64(s: bytes) -> int:
    """FarmHash Fingerprint64 (its "na" Hash64) of `s`."""
    n = len(s)
    if n <= 16:
        return _len0to16(s)
    if n <= 32:
        return _len17to32(s)
    if n <= 64:
        return _len33to64(s)
    seed = 81
    x = seed
    y = (seed * K1 + 113) & M
    z = (_shift_mix((y * K2 + 113) & M) * K2) & M
    v, w = (0, 0), (0, 0)
    x = (x * K2 + _f64(s, 0)) & M
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x = (_rot((x + y + v[0] + _f64(s, i + 8)) & M, 37) * K1) & M
        y = (_rot((y + v[1] + _f64(s, i + 48)) & M, 42) * K1) & M
        x ^= w[1]
        y = (y + v[0] + _f64(s, i + 40)) & M
        z = (_rot((z + w[0]) & M, 33) * K1) & M
        v = _weak32(s, i, (v[1] * K1) & M, (x + w[0]) & M)
        w = _weak32(s, i + 32, (z + w[1]) & M, (y + _f64(s, i + 16)) & M)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = K1 + ((z & 0xff) << 1)
    i = last64
    w = ((w[0] + ((n - 1) & 63)) & M, w[1])
    v = ((v[0] + w[0]) & M, v[1])
    w = ((w[0] + v[0]) & M, w[1])
    x = (_rot((x + y + v[0] + _f64(s, i + 8)) & M, 37) * mul) & M
    y = (_rot((y + v[1] + _f64(s, i + 48)) & M, 42) * mul) & M
    x ^= (w[1] * 9) & M
    y = (y + v[0] * 9 + _f64(s, i + 40)) & M
    z = (_rot((z + w[0]) & M, 33) * mul) & M
    v = _weak32(s, i, (v[1] * mul) & M, (x + w[0]) & M)
    w = _weak32(s, i + 32, (z + w[1]) & M, (y + _f64(s, i + 16)) & M)
    z, x = x, z
    return _len16((_len16(v[0], w[0], mul) + _shift_mix(y) * K0 + z) & M,
                  (_len16(v[1], w[1], mul) + x) & M, mul)


# -- the same hashes over many strings at once: rows of a zero-padded byte matrix ----------
def _byte_rows(strings: list, lengths: np.ndarray) -> np.ndarray:
    """`strings` as the rows of a uint8 matrix, zero-padded with 8 spare columns."""
    width = (int(lengths.max()) if lengths.size else 0) + 8
    rows = np.zeros((len(strings), width), np.uint8)
    rows[np.arange(width) < lengths[:, None]] = np.frombuffer(b"".join(strings), np.uint8)
    return rows


def _word(rows: np.ndarray, offsets, size: int = 8) -> np.ndarray:
    """The little-endian `size`-byte word at `offsets` (per row) of each row, as uint64."""
    if np.ndim(offsets) == 0:  # one offset for all rows: a slice
        start = int(offsets)
        taken = np.ascontiguousarray(rows[:, start:start + size])
    else:
        index = np.asarray(offsets, np.int64).reshape(-1, 1) + np.arange(size)
        taken = np.ascontiguousarray(np.take_along_axis(rows, index, axis=1))
    return taken.view("<u8" if size == 8 else "<u4").reshape(-1).astype(np.uint64)


def _fingerprint64_short(rows: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Fingerprint64 of rows of at most 64 bytes (`n` uint64 lengths, all in one of the
    classes 0, 1-3, 4-7, 8-16, 17-32, 33-64): the scalar code's arithmetic on uint64
    arrays, which wraps as the & M masks do."""
    first = int(n[0])
    mul = K2 + n * np.uint64(2)
    if first == 0:
        return np.full(n.shape, K2, np.uint64)
    if first < 4:
        r = np.arange(len(n))
        y = rows[r, 0].astype(np.uint64) + (rows[r, (n >> np.uint64(1)).astype(np.int64)]
                                            .astype(np.uint64) << np.uint64(8))
        z = n + (rows[r, (n - np.uint64(1)).astype(np.int64)].astype(np.uint64) << np.uint64(2))
        return _shift_mix((y * K2) ^ (z * K0)) * K2
    end = n.astype(np.int64)
    if first < 8:
        return _len16(n + (_word(rows, 0, 4) << np.uint64(3)), _word(rows, end - 4, 4), mul)
    if first <= 16:
        a = _word(rows, 0) + K2
        b = _word(rows, end - 8)
        return _len16(_rot(b, 37) * mul + a, (_rot(a, 25) + b) * mul, mul)
    k = K1 if first <= 32 else K2
    a = _word(rows, 0) * k
    b = _word(rows, 8)
    c = _word(rows, end - 8) * mul
    d = _word(rows, end - 16) * K2
    if first <= 32:
        return _len16(_rot(a + b, 43) + _rot(c, 30) + d, a + _rot(b + K2, 18) + c, mul)
    y = _rot(a + b, 43) + _rot(c, 30) + d
    z = _len16(y, a + _rot(b + K2, 18) + c, mul)
    e = _word(rows, 16) * mul
    f = _word(rows, 24)
    g = (y + _word(rows, end - 32)) * mul
    h = (z + _word(rows, end - 24)) * mul
    return _len16(_rot(e + f, 43) + _rot(g, 30) + h, e + _rot(f + a, 18) + g, mul)


_CLASSES = np.array([0, 1, 4, 8, 17, 33, 65])


def fingerprint64_strings(strings: list) -> np.ndarray:
    """FarmHash Fingerprint64 of each of `strings` (bytes), as uint64: vectorized over the
    strings of each length class up to 64 bytes, the scalar code for longer ones."""
    n = np.fromiter(map(len, strings), np.int64, len(strings))
    out = np.empty(len(strings), np.uint64)
    long = np.flatnonzero(n > 64)
    if long.size:
        out[long] = [_fingerprint64(strings[i]) for i in long.tolist()]
        strings = list(strings)
        for i in long.tolist():
            strings[i] = b""
        n = np.where(n > 64, 0, n)
    rows = _byte_rows(strings, n)
    group = np.searchsorted(_CLASSES, n, side="right")
    group[long] = 0
    with np.errstate(over="ignore"):
        for g in np.flatnonzero(np.bincount(group, minlength=len(_CLASSES))):
            if g == 0:
                continue
            members = np.flatnonzero(group == g)
            lengths = n[members]
            out[members] = _fingerprint64_short(rows[members], lengths.astype(np.uint64))
    return out


_MURMUR = 0xc6a4a7935bd1e995
_HASH64_SEED = 0xDECAFCAFFE


def hash64_strings(strings: list) -> np.ndarray:
    """The 64-bit MurmurHash (MurmurHash64A, seed 0xDECAFCAFFE) of each of `strings`, as
    uint64: the hash TF's `to_hash_bucket` uses."""
    n = np.fromiter(map(len, strings), np.int64, len(strings))
    rows = _byte_rows(strings, n)
    m = np.uint64(_MURMUR)
    with np.errstate(over="ignore"):
        h = np.uint64(_HASH64_SEED) ^ (n.astype(np.uint64) * m)
        words = n // 8
        for j in range(int(words.max()) if n.size else 0):
            k = _word(rows, 8 * j) * m
            k ^= k >> np.uint64(47)
            k *= m
            h = np.where(words > j, (h ^ k) * m, h)
        tail = _word(rows, 8 * words)  # the last n % 8 bytes, zero-padded
        h = np.where(n % 8 > 0, (h ^ tail) * m, h)
        h ^= h >> np.uint64(47)
        h *= m
        h ^= h >> np.uint64(47)
    return h


def _sip_round(v0, v1, v2, v3):
    v0 = v0 + v1
    v1 = _rot(v1, 64 - 13) ^ v0
    v0 = _rot(v0, 64 - 32)
    v2 = v2 + v3
    v3 = _rot(v3, 64 - 16) ^ v2
    v0 = v0 + v3
    v3 = _rot(v3, 64 - 21) ^ v0
    v2 = v2 + v1
    v1 = _rot(v1, 64 - 17) ^ v2
    v2 = _rot(v2, 64 - 32)
    return v0, v1, v2, v3


def siphash_strings(strings: list, key0: int, key1: int) -> np.ndarray:
    """SipHash-2-4 of each of `strings` with the 128-bit key (key0, key1), as uint64: the
    hash TF's `to_hash_bucket_strong` uses."""
    n = np.fromiter(map(len, strings), np.int64, len(strings))
    rows = _byte_rows(strings, n)
    k0, k1 = np.uint64(key0), np.uint64(key1)
    with np.errstate(over="ignore"):
        v0 = np.full(len(n), k0 ^ np.uint64(0x736f6d6570736575))
        v1 = np.full(len(n), k1 ^ np.uint64(0x646f72616e646f6d))
        v2 = np.full(len(n), k0 ^ np.uint64(0x6c7967656e657261))
        v3 = np.full(len(n), k1 ^ np.uint64(0x7465646279746573))
        words = n // 8
        for j in range(int(words.max()) if n.size else 0):
            m = _word(rows, 8 * j)
            live = words > j
            r0, r1, r2, r3 = _sip_round(*_sip_round(v0, v1, v2, v3 ^ m))
            v0, v1, v2, v3 = (np.where(live, r0 ^ m, v0), np.where(live, r1, v1),
                              np.where(live, r2, v2), np.where(live, r3, v3))
        b = _word(rows, 8 * words) | (n.astype(np.uint64) << np.uint64(56))
        v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3 ^ b))
        v0 = v0 ^ b
        v2 = v2 ^ np.uint64(0xff)
        for _ in range(4):
            v0, v1, v2, v3 = _sip_round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def _fingerprint(data, method):
    if method != "farmhash64":
        raise errors.InvalidArgumentError(
            None, "Fingerprint", f"Fingerprint: Unsupported fingerprint method: {method}")
    rows = np.ascontiguousarray(data).reshape(data.shape[0], int(np.prod(data.shape[1:])))
    hashes = fingerprint64_strings([row.tobytes() for row in rows]).astype("<u8")
    return hashes.view(np.uint8).reshape(data.shape[0], 8)


Fingerprint = define_op("Fingerprint", _fingerprint)
no_gradient("Fingerprint")


def fingerprint(data, method="farmhash64", name=None) -> Tensor:
    """A fingerprint of each row (`data[i]`) of `data`: FarmHash Fingerprint64 of its bytes,
    as 8 uint8 values (little-endian), the same values TF gives. Not differentiable.

    Args:
        data: a tensor of rank >= 1 (numbers or bools).
        method: "farmhash64".

    Returns:
        A [data.shape[0], 8] uint8 tensor.

    Raises:
        InvalidArgumentError: a scalar, or another method.

    Example:
        >>> import tapeflow as tf
        >>> tf.fingerprint(tf.constant([[1.0, 2.0]])).numpy().tolist()
        [[223, 178, 164, 36, 10, 49, 237, 154]]
    """
    x = as_input(data)
    if x.ndim == 0:
        raise errors.InvalidArgumentError(
            None, "Fingerprint", f"Fingerprint: `data` should have at least one dimension, "
            f"got a scalar of {x.dtype.name}")
    return execute(Fingerprint, (x,), {"method": str(method)})
