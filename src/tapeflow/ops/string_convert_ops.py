"""Strings to and from other things: `to_number`, `as_string`, `format` and the hash buckets
(`to_hash_bucket_fast`: FarmHash Fingerprint64, `to_hash_bucket`: MurmurHash64A,
`to_hash_bucket_strong`: SipHash-2-4, all TF's values). Parsing and printing run over the
whole array in NumPy (its text-to-number casts, `np.char.mod`); none has a gradient."""
from __future__ import annotations

import re

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.string_values import as_value
from ..framework.tensor import Tensor
from .fingerprint_ops import fingerprint64_strings, hash64_strings, siphash_strings
from .logging_ops import format_array
from .dispatch import add_dispatch_support
from .op_util import as_input, int_value
from .string_util import string_input

__all__ = ["parse_numbers", "to_number", "as_string", "format", "to_hash_bucket_fast", "to_hash_bucket",
           "to_hash_bucket_strong"]

_NUMBER_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
_HEX_FLOAT = re.compile(rb"\s*[+-]?0[xX][0-9a-fA-F]*\.?[0-9a-fA-F]*([pP][+-]?\d+)?\s*")


# -- kernels ---------------------------------------------------------------------------------
def _parse_one(text: bytes, np_dtype):
    """One string as a number of `np_dtype`, or None where TF's parser refuses it."""
    if b"_" in text:
        return None
    try:
        if np_dtype.kind == "f":
            return float(text) if not _HEX_FLOAT.fullmatch(text) else float.fromhex(
                text.decode().strip())
        value = int(text)
        info = np.iinfo(np_dtype)
        return value if info.min <= value <= info.max else None
    except ValueError:
        return None


def parse_numbers(texts: list, np_dtype) -> np.ndarray:
    """`texts` (bytes) as a 1-D array of `np_dtype` numbers, parsed by NumPy at once (by
    element only to find a refused one).

    Raises:
        ValueError: with the first text that is not such a number as its message.
    """
    np_dtype = np.dtype(np_dtype)
    wide = np.float64 if np_dtype.kind == "f" else np.int64
    try:
        if b"_" in b"".join(texts):
            raise ValueError("underscores")  # NumPy's parser takes 1_000; TF's does not
        parsed = (np.array(texts, dtype=bytes) if texts else np.zeros(0, "S1")).astype(wide)
        if np_dtype == np.int32 and parsed.size and (
                parsed.min() < -2 ** 31 or parsed.max() >= 2 ** 31):
            raise OverflowError("int32")
    except (ValueError, OverflowError):
        values = [_parse_one(t, np_dtype) for t in texts]
        if None in values:
            bad = texts[values.index(None)]
            raise ValueError(bad.decode("utf-8", "backslashreplace")) from None
        parsed = np.array(values, wide)
    with np.errstate(over="ignore"):
        return parsed.astype(np_dtype)


def _to_number(x, out_type):
    try:
        return parse_numbers(x.reshape(-1).tolist(), out_type).reshape(x.shape)
    except ValueError as e:
        raise errors.InvalidArgumentError(
            None, "StringToNumber", f"StringToNumberOp could not correctly convert string: "
            f"{e}") from None


def _as_string(x, spec):
    kind = x.dtype.kind
    if kind == "O":
        return x.copy()
    if kind == "b":
        return as_value(np.where(x, b"true", b"false").astype(object))
    values = x.astype(np.float64) if kind == "f" else x
    if kind == "c":
        real = np.char.mod(spec, x.real.astype(np.float64))
        imag = np.char.mod(spec, x.imag.astype(np.float64))
        text = np.char.add(np.char.add(np.char.add("(", real), ","), np.char.add(imag, ")"))
    else:
        text = np.char.mod(spec, values)
    return as_value(np.char.encode(np.asarray(text), "ascii").astype(object))


def _hash_buckets(x, num_buckets, method, key):
    flat = x.reshape(-1).tolist()
    if method == "fast":
        hashes = fingerprint64_strings(flat)
    elif method == "murmur":
        hashes = hash64_strings(flat)
    else:
        hashes = siphash_strings(flat, *key)
    return (hashes % np.uint64(num_buckets)).astype(np.int64).reshape(x.shape)


StringToNumber = define_op("StringToNumber", _to_number)
AsString = define_op("AsString", _as_string)
StringToHashBucketFast = define_op(
    "StringToHashBucketFast", lambda x, num_buckets: _hash_buckets(x, num_buckets, "fast", None))
StringToHashBucket = define_op(
    "StringToHashBucket", lambda x, num_buckets: _hash_buckets(x, num_buckets, "murmur", None))
StringToHashBucketStrong = define_op(
    "StringToHashBucketStrong",
    lambda x, num_buckets, key: _hash_buckets(x, num_buckets, "strong", key))
for _op in ("StringToNumber", "AsString", "StringToHashBucketFast", "StringToHashBucket",
            "StringToHashBucketStrong"):
    no_gradient(_op)


# -- public functions ------------------------------------------------------------------------
@add_dispatch_support(elementwise=1)
def to_number(input, out_type=dtypes.float32, name=None) -> Tensor:  # noqa: A002  (TF's name)
    """Parses each string as a number of `out_type` (op `StringToNumber`): decimal or
    scientific notation, inf and nan, surrounding whitespace allowed; integers must be
    whole and in range.

    Args:
        input: a string tensor.
        out_type: float32 (default), float64, int32 or int64.

    Raises:
        InvalidArgumentError: a string that is not a number of that type.
        TypeError: another out_type.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.to_number(["1.5", " -2", "3e2"]).numpy()
        array([  1.5,  -2. , 300. ], dtype=float32)
    """
    x = string_input("StringToNumber", input)
    out = dtypes.as_dtype(out_type)
    if out not in _NUMBER_TYPES:
        raise TypeError(f"StringToNumber: out_type must be float32, float64, int32 or int64, "
                        f"got {out.name}")
    return execute(StringToNumber, (x,), {"out_type": out._np})


_FLAGS = (" ", "+", "-", "0", "#")


@add_dispatch_support(elementwise=1)
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",  # noqa: A002
              name=None) -> Tensor:
    """Each element as a string, printed as C's printf does (op `AsString`): floats with
    `%f` (`%e` with `scientific`, `%g` with `shortest`) and `precision` digits (6 by
    default), integers with `%d`, bools as true/false, complex as (re,im), strings as they
    are; `width` pads to that many characters, `fill` is a printf flag (' ', '+', '-',
    '0', '#').

    Raises:
        InvalidArgumentError: both scientific and shortest, a precision for a non-float, or
            an unsupported fill.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.as_string(tf.constant([1.5, 2.0]), precision=2).numpy()
        array([b'1.50', b'2.00'], dtype=object)
    """
    x = as_input(input)
    fail = lambda message: errors.InvalidArgumentError(None, "AsString", f"AsString: {message}")  # noqa: E731
    if scientific and shortest:
        raise fail("Cannot select both scientific and shortest notation")
    if len(fill) > 1:
        raise fail("Fill string must be one or fewer characters")
    if fill and fill not in _FLAGS:
        raise fail(f'Fill argument not supported: "{fill}"')
    kind = x.dtype._np.kind
    if precision >= 0 and kind not in "fc":
        raise fail(f"precision not supported for datatype {x.dtype.name}")
    spec = "%" + fill + (str(width) if width >= 0 else "")
    if kind in "fc":
        spec += (f".{precision}" if precision >= 0 else "") + (
            "e" if scientific else "g" if shortest else "f")
    else:
        spec += "d"
    return execute(AsString, (x,), {"spec": spec})


def format(template, inputs, placeholder="{}", summarize=3, name=None) -> Tensor:  # noqa: A001
    """`template` with each `placeholder` replaced by the next of `inputs` printed as
    tf.print prints it (strings quoted, long dimensions summarized to `summarize` entries
    at each end; -1 for all).

    Args:
        template: a Python string.
        inputs: a tensor, or a list or tuple of tensors and Python values.
        placeholder: the placeholder in `template`.
        summarize: entries printed at each end of a dimension.

    Returns:
        A scalar string tensor.

    Raises:
        ValueError: the number of placeholders differs from the number of inputs.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.format("x={}", [tf.constant([1, 2])]).numpy()
        b'x=[1 2]'
    """
    items = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    parts = template.split(placeholder)
    if len(parts) - 1 != len(items):
        raise ValueError(f"The template expects {len(parts) - 1} tensors, but the inputs only "
                         f"has {len(items)}. Please ensure the number of placeholders in "
                         "template matches inputs length.")
    texts = [format_array(as_input(item)._value, summarize) for item in items]
    out = parts[0] + "".join(t + p for t, p in zip(texts, parts[1:]))
    return Tensor(np.array(out.encode("utf-8", "surrogateescape"), object))


def _num_buckets(op_name: str, num_buckets) -> int:
    n = int_value(op_name, num_buckets, "num_buckets")
    if n < 1:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: Value for attr 'num_buckets' of {n} must be at least "
            "minimum 1")
    return n


@add_dispatch_support(elementwise=1)
def to_hash_bucket_fast(input, num_buckets, name=None) -> Tensor:  # noqa: A002
    """Each string's FarmHash Fingerprint64 modulo `num_buckets` (op
    `StringToHashBucketFast`): the buckets TF gives, so hashed features agree with TF's.

    Returns:
        An int64 tensor of the input's shape.

    Raises:
        InvalidArgumentError: num_buckets < 1.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.to_hash_bucket_fast(["a", "hello"], 10).numpy()
        array([9, 6])
    """
    x = string_input("StringToHashBucketFast", input)
    return execute(StringToHashBucketFast, (x,),
                   {"num_buckets": _num_buckets("StringToHashBucketFast", num_buckets)})


@add_dispatch_support(elementwise=1)
def to_hash_bucket(input, num_buckets, name=None) -> Tensor:  # noqa: A002
    """Each string's 64-bit MurmurHash (TF's legacy `Hash64`) modulo `num_buckets` (op
    `StringToHashBucket`); `to_hash_bucket_fast` is faster in TF, with other values.

    Raises:
        InvalidArgumentError: num_buckets < 1.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.to_hash_bucket(["a", "hello"], 10).numpy()
        array([8, 8])
    """
    x = string_input("StringToHashBucket", input)
    return execute(StringToHashBucket, (x,),
                   {"num_buckets": _num_buckets("StringToHashBucket", num_buckets)})


@add_dispatch_support(elementwise=1)
def to_hash_bucket_strong(input, num_buckets, key, name=None) -> Tensor:  # noqa: A002
    """Each string's SipHash-2-4 under the 128-bit `key` (two uint64s) modulo `num_buckets`
    (op `StringToHashBucketStrong`): buckets an adversary cannot aim at without the key.

    Raises:
        InvalidArgumentError: num_buckets < 1, or a key that is not two numbers.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.to_hash_bucket_strong(["a", "hello"], 1000, [0xDECAF, 12345678901]).numpy()
        array([603, 281])
    """
    x = string_input("StringToHashBucketStrong", input)
    k = np.asarray(getattr(key, "_value", key)).reshape(-1)
    if k.size != 2:
        raise errors.InvalidArgumentError(
            None, "StringToHashBucketStrong", f"StringToHashBucketStrong: Key must have 2 "
            f"elements, got {k.size}")
    return execute(StringToHashBucketStrong, (x,), {
        "num_buckets": _num_buckets("StringToHashBucketStrong", num_buckets),
        "key": (int(k[0]) % 2 ** 64, int(k[1]) % 2 ** 64)})
