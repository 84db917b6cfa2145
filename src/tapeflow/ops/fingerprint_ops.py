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

__all__ = ["fingerprint"]

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


def _fingerprint(data, method):
    if method != "farmhash64":
        raise errors.InvalidArgumentError(
            None, "Fingerprint", f"Fingerprint: Unsupported fingerprint method: {method}")
    rows = np.ascontiguousarray(data).reshape(data.shape[0], int(np.prod(data.shape[1:])))
    return np.array([list(_fingerprint64(row.tobytes()).to_bytes(8, "little")) for row in rows],
                    np.uint8).reshape(data.shape[0], 8)


Fingerprint = define_op("Fingerprint", _fingerprint)
no_gradient("Fingerprint")


def fingerprint(data, method="farmhash64", name=None) -> Tensor:
    """A fingerprint of each row (`data[i]`) of `data`: FarmHash Fingerprint64 of its bytes,
    as 8 uint8 values (little-endian), the same values TF gives. Not differentiable.

    Args:
        data: a tensor of rank >= 1 (numbers or bools; tapeflow has no string tensors).
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
