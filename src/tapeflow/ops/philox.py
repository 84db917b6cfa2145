"""Philox4x32-10 and TF's transforms of its bits: the kernels of tf.random's stateless ops
and of `tf.random.Generator`.

A Philox stream is a 64-bit key and a 128-bit counter; block `i` is the cipher of
`counter + i`: four uint32 words. Each distribution turns blocks into values in groups,
one block per group (a group is four float32/float16 values or two float64/int64 values),
so that output `j` depends only on the key, the counter and `j`, as in TF's CPU kernels.
The transforms use TF's bit layouts (mantissa bits for uniforms, Box-Muller for normals,
rejection of |x| >= 2 for truncated normals with 256 blocks reserved per output group);
float32 Box-Muller calls `logf`/`sincosf` as computed by glibc, emulated here in float64
(checked on every float32 the transform can produce), and float64 calls the platform's
`log`, `sin` and `cos`.
"""
from __future__ import annotations

import math

import numpy as np

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_LOW32 = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)
_MASK64 = 2 ** 64 - 1
_MASK128 = 2 ** 128 - 1
# Blocks a stateful or truncated-normal draw reserves per output (group): TF's constant.
RESERVED_PER_OUTPUT = 256
_SEED_KEY = 0x02461E293EC8F720


def blocks(key: int, counter: int, offsets) -> np.ndarray:
    """Philox4x32-10 of `counter + offsets` (mod 2**128) under `key`: uint32 [n, 4]."""
    offsets = np.asarray(offsets, dtype=np.uint64)
    lo = np.uint64(counter & _MASK64) + offsets
    hi = np.uint64((counter >> 64) & _MASK64) + (lo < offsets).astype(np.uint64)
    # The four words held in uint64 (each below 2**32): products need no conversions.
    c0, c1, c2, c3 = lo & _LOW32, lo >> _32, hi & _LOW32, hi >> _32
    k0, k1 = key & 0xFFFFFFFF, (key >> 32) & 0xFFFFFFFF
    for _ in range(10):
        p0, p1 = c0 * _M0, c2 * _M1
        c0 = np.right_shift(p1, _32, out=c0)
        c0 ^= c1
        c0 ^= np.uint64(k0)
        c2 = np.right_shift(p0, _32, out=c2)
        c2 ^= c3
        c2 ^= np.uint64(k1)
        c1 = np.bitwise_and(p1, _LOW32, out=p1)
        c3 = np.bitwise_and(p0, _LOW32, out=p0)
        k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
    return np.stack([c0, c1, c2, c3], axis=-1).astype(np.uint32)


def key_counter_from_seed(seed0: int, seed1: int) -> tuple:
    """The (key, counter) TF's stateless ops derive from a two-integer seed: one Philox block
    of the seed under a fixed key scrambles it."""
    counter = (seed0 & _MASK64) | (seed1 & _MASK64) << 64
    mix = [int(w) for w in blocks(_SEED_KEY, counter, [0])[0]]
    return mix[0] | mix[1] << 32, (mix[2] | mix[3] << 32) << 64


def skip(counter: int, delta: int) -> int:
    """`counter` advanced by `delta` blocks, wrapping at 2**128."""
    return (counter + delta) & _MASK128


def _words(key, counter, size, per_block):
    """The blocks of `ceil(size / per_block)` groups, one block per group."""
    return blocks(key, counter, np.arange(-(-size // per_block), dtype=np.uint64))


def _unit_float32(x):
    return ((x & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1)


def _unit_float16(x):
    bits = ((x & np.uint32(0x3FF)) | np.uint32(0x3C00)).astype(np.uint16)
    return bits.view(np.float16) - np.float16(1)


def _unit_bfloat16(x, dtype):
    bits = ((x & np.uint32(0x7F)) | np.uint32(0x3F80)).astype(np.uint16)
    return bits.view(dtype) - dtype.type(1)


def _half(dtype) -> bool:
    """Whether `dtype` is a 16-bit float (float16, bfloat16): drawn from one word each,
    normals computed in float32 and rounded."""
    return dtype.itemsize == 2 and dtype.kind != "i" and dtype.kind != "u"


def unit_float64(x0, x1):
    bits = (x0 & np.uint32(0xFFFFF)).astype(np.uint64) << np.uint64(32) | x1.astype(np.uint64)
    return (bits | np.uint64(1023 << 52)).view(np.float64) - 1.0


def _pairs(words):
    """The 64-bit integers of consecutive word pairs (low word first)."""
    return (words[..., 0::2].astype(np.uint64)
            | words[..., 1::2].astype(np.uint64) << np.uint64(32))


def uniform(key: int, counter: int, size: int, dtype) -> np.ndarray:
    """`size` floats in [0, 1): float32/float16 from one word each, float64 from two."""
    dtype = np.dtype(dtype)
    if dtype == np.float64:
        words = _words(key, counter, size, 2)
        return unit_float64(words[:, 0::2], words[:, 1::2]).reshape(-1)[:size]
    words = _words(key, counter, size, 4).reshape(-1)[:size]
    if dtype == np.float16:
        return _unit_float16(words)
    return _unit_bfloat16(words, dtype) if _half(dtype) else _unit_float32(words)


def uniform_int(key: int, counter: int, size: int, dtype, low: int, high: int) -> np.ndarray:
    """`size` integers in [low, high): TF's `low + bits % (high - low)`."""
    dtype = np.dtype(dtype)
    utype = np.dtype(f"uint{dtype.itemsize * 8}")
    span = utype.type((high - low) % 2 ** (8 * dtype.itemsize))
    bits = full_int(key, counter, size, utype)
    return (utype.type(low % 2 ** (8 * dtype.itemsize)) + bits % span).view(dtype)


def full_int(key: int, counter: int, size: int, dtype) -> np.ndarray:
    """`size` integers over the whole range of a 32- or 64-bit `dtype`."""
    dtype = np.dtype(dtype)
    if dtype.itemsize == 8:
        return _pairs(_words(key, counter, size, 2)).reshape(-1)[:size].view(dtype)
    return _words(key, counter, size, 4).reshape(-1)[:size].view(dtype)


def _box_muller_float32(x0, x1):
    u1 = np.maximum(_unit_float32(x0), np.float32(1e-7))
    v1 = (2 * math.pi * _unit_float32(x1).astype(np.float64)).astype(np.float32)
    radius = np.sqrt(np.float32(-2) * _logf(u1))
    sin, cos = _sincosf(v1)
    return sin * radius, cos * radius


def _box_muller_float64(x0, x1, x2, x3):
    u1 = np.maximum(unit_float64(x0, x1), 1e-7)
    v1 = 2 * math.pi * unit_float64(x2, x3)
    radius = np.sqrt(-2.0 * _libm(math.log, u1))
    return np.sin(v1) * radius, np.cos(v1) * radius


def _normal_groups(words, dtype):
    """Box-Muller values of blocks `words` [..., 4], in TF's order: [..., per_group]."""
    if dtype == np.float64:
        return np.stack(_box_muller_float64(*np.moveaxis(words, -1, 0)), axis=-1)
    first, second = _box_muller_float32(words[..., 0::2], words[..., 1::2])
    values = np.stack([first, second], axis=-1).reshape(words.shape)
    return values.astype(dtype) if _half(dtype) else values


def normal(key: int, counter: int, size: int, dtype) -> np.ndarray:
    """`size` standard normals: two per word pair (float32, float16) or per block (float64)."""
    dtype = np.dtype(dtype)
    words = _words(key, counter, size, 2 if dtype == np.float64 else 4)
    return _normal_groups(words, dtype).reshape(-1)[:size]


def truncated_normal(key: int, counter: int, size: int, dtype) -> np.ndarray:
    """`size` standard normals within (-2, 2): each group reads the blocks from its reserved
    range in order and keeps the first candidates inside the bounds."""
    dtype = np.dtype(dtype)
    per_group = 2 if dtype == np.float64 else 4
    groups = -(-size // per_group)
    stride = per_group * RESERVED_PER_OUTPUT // 4
    out = np.empty((groups, per_group), dtype)
    pending = np.arange(groups, dtype=np.uint64)
    # Bounds are checked before a float16 (bfloat16) rounding, as TF does.
    exact = np.float64 if dtype == np.float64 else np.float32
    earlier = np.empty((groups, 0), exact)
    start, read = 0, 1  # one block is enough for most groups (each candidate is kept w.p. 0.95)
    while pending.size:
        offsets = pending[:, None] * np.uint64(stride) + np.arange(start, start + read,
                                                                    dtype=np.uint64)
        candidates = np.concatenate([earlier, _normal_groups(
            blocks(key, counter, offsets), exact).reshape(pending.size, -1)], axis=1)
        inside = np.abs(candidates) < 2
        kept = inside & (np.cumsum(inside, axis=1) <= per_group)
        done = kept.sum(axis=1) == per_group
        out[pending[done].astype(np.intp)] = candidates[done][kept[done]].reshape(-1, per_group)
        earlier, pending = candidates[~done], pending[~done]
        start, read = start + read, 2
    return out.reshape(-1)[:size]


def categorical(key: int, counter: int, logits, num_samples: int) -> np.ndarray:
    """`num_samples` class indices per row of `logits` [batch, classes]: each sample takes a
    float64 from two words, row after row, and scales it by the row's total of
    exp(logit - max) over finite logits, as TF's CPU kernel in one shard."""
    batch = logits.shape[0]
    words = blocks(key, counter, np.arange(-(-batch * num_samples // 2),
                                           dtype=np.uint64)).reshape(-1, 2)
    draws = unit_float64(words[:, 0], words[:, 1])[:batch * num_samples].reshape(
        batch, num_samples)
    finite = np.isfinite(logits)
    top = np.max(np.where(finite, logits, -np.inf), axis=1, keepdims=True).astype(np.float64)
    cdf = np.cumsum(np.where(finite, np.exp(logits.astype(np.float64) - top), 0.0), axis=1)
    return np.array([np.searchsorted(cdf[b], draws[b] * cdf[b, -1], side="right")
                     for b in range(batch)], np.int64).reshape(batch, num_samples)


def _libm(fn, values):
    """`fn` (a `math` function: the platform's libm, as TF's kernels call it) per element;
    where `math` refuses a value (log(0), an overflow) NumPy's answer (-inf, inf, nan)."""
    flat = np.asarray(values, np.float64).reshape(-1).tolist()
    try:
        out = np.fromiter(map(fn, flat), np.float64, len(flat))
    except (ValueError, OverflowError):
        out = np.array([_guarded(fn, x) for x in flat], np.float64)
    return out.reshape(np.shape(values))


def _guarded(fn, x: float) -> float:
    try:
        return fn(x)
    except OverflowError:
        return math.inf
    except ValueError:
        with np.errstate(all="ignore"):
            return float(getattr(np, fn.__name__, lambda _: math.inf)(x))


class _Lanes:
    """Independent draws per output (lane), as TF's gamma and Poisson kernels make them: lane
    i reads the blocks reserved for it from block 256 i on, a block per request, and uses a
    block's two (float64) or four (float32) values from the last one down."""

    def __init__(self, key: int, counter: int, lanes: int, dtype, reserved=None) -> None:
        self.key, self.counter, self.dtype = key, counter, np.dtype(dtype)
        self.position = np.arange(lanes, dtype=np.uint64) * np.uint64(RESERVED_PER_OUTPUT) \
            if reserved is None else np.arange(lanes, dtype=np.uint64) * reserved
        width = 2 if self.dtype == np.float64 else 4
        self.stock = {kind: (np.zeros((lanes, width), self.dtype), np.zeros(lanes, int))
                      for kind in ("uniform", "normal")}

    def _take(self, kind: str, lanes, fill):
        values, left = self.stock[kind]
        fresh = lanes[left[lanes] == 0]
        if fresh.size:
            values[fresh] = fill(blocks(self.key, self.counter, self.position[fresh]))
            left[fresh] = values.shape[1]
            self.position[fresh] += np.uint64(1)
        left[lanes] -= 1
        return values[lanes, left[lanes]]

    def uniform(self, lanes):
        if self.dtype == np.float64:
            return self._take("uniform", lanes, lambda w: np.stack(
                [unit_float64(w[:, 0], w[:, 1]), unit_float64(w[:, 2], w[:, 3])], axis=1))
        return self._take("uniform", lanes, _unit_float32)

    def normal(self, lanes):
        return self._take("normal", lanes, lambda w: _normal_groups(w, self.dtype))


def gamma(key: int, counter: int, alphas, samples_per_alpha: int) -> np.ndarray:
    """Standard gamma samples in float64, `samples_per_alpha` per concentration, laid out
    [samples_per_alpha, len(alphas)]: TF's kernel (output i * samples_per_alpha + j is
    sample j of alpha i): an exponential -log1p(-u) for alpha 1, else Marsaglia and Tsang's
    transformed rejection, and for alpha < 1 a boost by uniform ** (1 / alpha)."""
    alphas = np.asarray(alphas, np.float64).reshape(-1)
    alpha = np.repeat(alphas, samples_per_alpha)
    draws = _Lanes(key, counter, alpha.size, np.float64)
    result = np.zeros(alpha.size)
    exponential = np.nonzero(alpha == 1)[0]
    result[exponential] = -_libm(math.log1p, -draws.uniform(exponential))
    # (TF's kernel never returns for these; here nan, or inf for an infinite alpha)
    invalid = ~(alpha > 0) | np.isinf(alpha)
    result[invalid] = np.where(np.isinf(alpha[invalid]), np.inf, np.nan)
    pending = np.nonzero((alpha != 1) & ~invalid)[0]
    boost = alpha < 1
    d = alpha + np.where(boost, 2.0 / 3, -1.0 / 3)
    c = 1.0 / 3 / np.sqrt(d)
    while pending.size:
        x = draws.normal(pending)
        v = 1 + c[pending] * x
        tried, x, v = pending[v > 0], x[v > 0], v[v > 0]
        v = v * v * v
        u = draws.uniform(tried)
        accept = u < 1 - 0.0331 * (x * x) * (x * x)
        unsure = ~accept
        accept[unsure] = _libm(math.log, u[unsure]) < 0.5 * x[unsure] * x[unsure] + d[tried][
            unsure] * (1 - v[unsure] + _libm(math.log, v[unsure]))
        done = tried[accept]
        result[done] = d[done] * v[accept]
        boosted = done[boost[done]]
        result[boosted] *= np.fromiter(map(math.pow, draws.uniform(boosted).tolist(),
                                           (1 / alpha[boosted]).tolist()), np.float64,
                                       boosted.size)
        pending = np.setdiff1d(pending, done, assume_unique=True)
    return result.reshape(alphas.size, samples_per_alpha).T


def poisson(key: int, counter: int, rates, samples_per_rate: int) -> np.ndarray:
    """Poisson samples in float64, `samples_per_rate` per rate, laid out
    [samples_per_rate, len(rates)]: TF's kernel (outputs as `gamma`'s), in float64 with the
    platform's exp, log and lgamma: Knuth's product of uniforms below rate 10, Hormann's
    transformed rejection from 10 on."""
    rate = np.repeat(np.asarray(rates, np.float64).reshape(-1), samples_per_rate)
    draws = _Lanes(key, counter, rate.size, np.float64)
    result = np.zeros(rate.size)
    # (TF's kernel never returns for these; here the rate itself)
    invalid = ~np.isfinite(rate)
    result[invalid] = rate[invalid]
    knuth = np.nonzero(rate < 10)[0]
    bound = _libm(math.exp, -rate[knuth])
    product, count = np.ones(knuth.size), np.zeros(knuth.size)
    pending = np.arange(knuth.size)
    while pending.size:
        product[pending] = product[pending] * draws.uniform(knuth[pending])
        hit = product[pending] <= bound[pending]
        result[knuth[pending[hit]]] = count[pending[hit]]
        pending = pending[~hit]
        count[pending] += 1
    hormann = np.nonzero(~(rate < 10) & ~invalid)[0]
    r = rate[hormann]
    log_rate = _libm(math.log, r)
    b = 0.931 + 2.53 * np.sqrt(r)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    box = 0.9277 - 3.6224 / (b - 2)
    pending = np.arange(hormann.size)
    while pending.size:
        lanes = hormann[pending]
        u = draws.uniform(lanes) - 0.5
        v = draws.uniform(lanes)
        shifted = 0.5 - np.abs(u)
        p = pending
        k = np.floor((2 * a[p] / shifted + b[p]) * u + r[p] + 0.43)
        accept = (shifted >= 0.07) & (v <= box[p])
        test = ~accept & ~((k < 0) | ((shifted < 0.013) & (v > shifted)))
        q = p[test]
        s = _libm(math.log, v[test] * inv_alpha[q] / (a[q] / (shifted[test] * shifted[test])
                                                       + b[q]))
        t = -r[q] + k[test] * log_rate[q] - _libm(math.lgamma, k[test] + 1)
        accept[test] = s <= t
        result[lanes[accept]] = k[accept]
        pending = pending[~accept]
    return result.reshape(-1, samples_per_rate).T


_STIRLING_TAILS = np.array([0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                            0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                            0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                            0.00833056343336287])


def _stirling_tail(k):
    """log k! minus Stirling's approximation: a table to 9, the series beyond."""
    squared = (k + 1) * (k + 1)
    series = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / squared) / squared) / (k + 1)
    return np.where(k <= 9, _STIRLING_TAILS[np.clip(k, 0, 9).astype(int)], series)


def binomial(key: int, counter: int, counts, probs, samples_per_batch: int) -> np.ndarray:
    """Binomial samples in float64 for flat parameter batches `counts`, `probs` (of one float
    dtype, in which the method is chosen), laid out [samples_per_batch, batches]: TF's
    kernel (outputs as `gamma`'s): inversion by geometric sums (42 blocks reserved per output)
    where the mean (of successes or of failures, the rarer) is below 10, else Hormann's
    BTRS (256 blocks per output)."""
    counts, probs = np.asarray(counts), np.asarray(probs)
    one = probs.dtype.type(1)
    flipped = probs > probs.dtype.type(0.5)
    q = np.where(flipped, one - probs, probs)  # the rarer outcome's probability, in T
    small = counts * q < probs.dtype.type(10)
    count = np.repeat(counts.astype(np.float64), samples_per_batch)
    p = np.repeat(q.astype(np.float64), samples_per_batch)
    flip = np.repeat(flipped, samples_per_batch)
    lanes = np.arange(count.size)
    prob = np.repeat(probs, samples_per_batch)
    result = np.where(np.isnan(prob), np.nan, np.where(prob >= one, count, 0.0))
    drawn = (count > 0) & (prob > 0) & (prob < one)
    inversion = lanes[drawn & np.repeat(small, samples_per_batch)]
    result[inversion] = _binomial_inversion(_Lanes(key, counter, count.size, np.float64, 42),
                                            inversion, count[inversion], p[inversion])
    btrs = lanes[drawn & ~np.repeat(small, samples_per_batch)]
    result[btrs] = _btrs(_Lanes(key, counter, count.size, np.float64), btrs, count[btrs],
                         p[btrs])
    result = np.where(drawn & flip, count - result, result)
    return result.reshape(-1, samples_per_batch).T


def _binomial_inversion(draws, lanes, count, p):
    """How many geometric(p) waits fit in `count` trials, for each lane."""
    step = _libm(math.log1p, -p)
    total, successes, out = np.zeros(lanes.size), np.zeros(lanes.size), np.zeros(lanes.size)
    pending = np.arange(lanes.size)
    while pending.size:
        total[pending] += np.ceil(_libm(math.log, draws.uniform(lanes[pending])) / step[pending])
        over = total[pending] > count[pending]
        out[pending[over]] = successes[pending[over]]
        pending = pending[~over]
        successes[pending] += 1
    return out


def _btrs(draws, lanes, count, p):
    """Hormann's transformed rejection with squeeze, per lane."""
    stddev = np.sqrt(count * p * (1 - p))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = count * p + 0.5
    box = 0.92 - 4.2 / b
    r = p / (1 - p)
    alpha = (2.83 + 5.1 / b) * stddev
    m = np.floor((count + 1) * p)
    out = np.zeros(lanes.size)
    pending = np.arange(lanes.size)
    while pending.size:
        i = pending
        u = draws.uniform(lanes[i])
        v = draws.uniform(lanes[i])
        u = u - 0.5
        us = 0.5 - np.abs(u)
        k = np.floor((2 * a[i] / us + b[i]) * u + c[i])
        accept = (us >= 0.07) & (v <= box[i])
        test = ~accept & ~((k < 0) | (k > count[i]))
        j, kt, n, mj, rj = i[test], k[test], count[i][test], m[i][test], r[i][test]
        lhs = _libm(math.log, v[test] * alpha[j] / (a[j] / (us[test] * us[test]) + b[j]))
        bound = ((mj + 0.5) * _libm(math.log, (mj + 1) / (rj * (n - mj + 1)))
                 + (n + 1) * _libm(math.log, (n - mj + 1) / (n - kt + 1))
                 + (kt + 0.5) * _libm(math.log, rj * (n - kt + 1) / (kt + 1))
                 + _stirling_tail(mj) + _stirling_tail(n - mj) - _stirling_tail(kt)
                 - _stirling_tail(n - kt))
        accept[test] = lhs <= bound
        out[i[accept]] = k[accept]
        pending = pending[~accept]
    return out


def shuffle_blocks(rows: int) -> int:
    """The blocks a shuffle of `rows` rows reserves (a word per swap)."""
    return -(-(rows - 1) // 4) if rows > 1 else 0


def shuffled(key: int, counter: int, value):
    """`value` with its rows permuted as TF's kernel does: a forward Fisher-Yates shuffle
    that swaps row i with row i + word_i % (rows - i); a value of at most one row or one
    element stays as it is."""
    rows = value.shape[0] if value.ndim else 0
    if rows <= 1 or value.size <= 1:
        return value
    words = blocks(key, counter, np.arange(shuffle_blocks(rows), dtype=np.uint64)).reshape(-1)
    starts = np.arange(rows - 1, dtype=np.uint64)
    partners = (starts + words[:rows - 1].astype(np.uint64) % (np.uint64(rows) - starts)).tolist()
    order = list(range(rows))
    for i, j in enumerate(partners):
        order[i], order[j] = order[j], order[i]
    return value[order]


# glibc's logf and sincosf (the float32 Box-Muller's), evaluated in float64 as glibc does.
_H = float.fromhex
_LOGF_TABLE = np.array([[_H(c), _H(lc)] for c, lc in [
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"),
    ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"),
    ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"),
    ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"),
    ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"),
    ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"),
    ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"),
    ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"),
    ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2")]])
_LOGF_POLY = [_H("-0x1.00ea348b88334p-2"), _H("0x1.5575b0be00b6ap-2"),
              _H("-0x1.ffffef20a4123p-2")]
_LN2 = _H("0x1.62e42fefa39efp-1")


def _logf(x):
    """log of positive normal float32 `x`: a 16-interval table and a cubic in float64."""
    ix = x.view(np.uint32)
    offset = ix - np.uint32(0x3F330000)
    index = (offset >> np.uint32(19)) % 16
    exponent = (offset.view(np.int32) >> 23).astype(np.float64)
    z = (ix - (offset & np.uint32(0x1FF << 23))).view(np.float32).astype(np.float64)
    r = z * _LOGF_TABLE[index, 0] - 1
    y0 = _LOGF_TABLE[index, 1] + exponent * _LN2
    r2 = r * r
    y = _LOGF_POLY[0] * r2 + (_LOGF_POLY[1] * r + _LOGF_POLY[2])
    return (y * r2 + (y0 + r)).astype(np.float32)


_HALF_PI_INV_2_24 = _H("0x1.45F306DC9C883p+23")
_HALF_PI = _H("0x1.921FB54442D18p0")
_COS_POLY = [1.0, _H("-0x1.ffffffd0c621cp-2"), _H("0x1.55553e1068f19p-5"),
             _H("-0x1.6c087e89a359dp-10"), _H("0x1.99343027bf8c3p-16")]
_SIN_POLY = [_H("-0x1.555545995a603p-3"), _H("0x1.1107605230bc4p-7"),
             _H("-0x1.994eb3774cf24p-13")]


def _top12(x):
    return (x.view(np.uint32) >> np.uint32(20)) & np.uint32(0x7FF)


def _sincosf(y):
    """(sin, cos) of float32 `y` in [0, 120): a quadrant reduction and two polynomials."""
    x = y.astype(np.float64)
    top = _top12(y)
    quadrant = ((x * _HALF_PI_INV_2_24).astype(np.int32) + 0x800000) >> 24
    quadrant[top < _top12(np.float32(math.pi / 4))] = 0
    x = x - quadrant * _HALF_PI
    flip = np.where(quadrant & 2, -1.0, 1.0)  # the cosine's sign in quadrants 2 and 3
    xs = x * np.array([1.0, -1.0, -1.0, 1.0])[quadrant & 3]
    x2 = x * x
    x3, x4 = x2 * xs, x2 * x2
    c = flip * _COS_POLY[0] + x2 * (flip * _COS_POLY[1]) + x4 * (flip * _COS_POLY[2])
    cos = (c + x4 * x2 * (flip * _COS_POLY[3] + x2 * (flip * _COS_POLY[4]))).astype(np.float32)
    s = xs + x3 * _SIN_POLY[0]
    sin = (s + x3 * x2 * (_SIN_POLY[1] + x2 * _SIN_POLY[2])).astype(np.float32)
    odd = (quadrant & 1).astype(bool)
    tiny = top < _top12(np.float32(2.0 ** -12))
    return (np.where(tiny, y, np.where(odd, cos, sin)),
            np.where(tiny, np.float32(1), np.where(odd, sin, cos)))
