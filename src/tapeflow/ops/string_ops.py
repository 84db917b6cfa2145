"""tf.strings: ops on string tensors (object arrays of `bytes`), vectorized over the array
with NumPy (`np.frompyfunc` applies a bytes method elementwise without a Python loop per
element; lengths and byte matrices come from `string_values`), and their public functions.

Regular expressions use RE2's syntax as TF does, run by Python's `re` on the text decoded
as UTF-8 (undecodable bytes kept as they are, so `.` matches one character as RE2's UTF-8
mode does): RE2's POSIX classes (`[[:digit:]]`) and `\\z` are translated; lookarounds and
backreferences, which RE2 does not have, are an InvalidArgumentError as in TF.

Splitting ops return (values, row splits) from their kernels, the parts of a RaggedTensor.
None of these ops has a gradient.
"""
from __future__ import annotations

import re

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.string_values import as_value
from ..framework.tensor import Tensor
from .dispatch import add_dispatch_support
from .op_util import NO_ATTRS, as_input, int_value, normalize_axes
from .string_util import lengths, ragged_result, string_input

__all__ = ["ngram_attrs", "join", "reduce_join", "length", "substr", "lower", "upper", "strip",
           "regex_full_match", "regex_replace", "split", "bytes_split", "ngrams",
           "unsorted_segment_join"]


# -- kernels ---------------------------------------------------------------------------------
def _join(*inputs, separator):
    shapes = list(dict.fromkeys(x.shape for x in inputs if x.ndim))
    if len(shapes) > 1:
        first, second = shapes[:2]
        raise errors.InvalidArgumentError(
            None, "StringJoin", f"StringJoin: Input shapes do not match: {list(first)} vs. "
            f"{list(second)}")
    if not inputs:
        return np.array(b"", object)
    out = inputs[0]
    for x in inputs[1:]:
        out = np.add(np.add(out, separator), x) if separator else np.add(out, x)
    return as_value(out) if len(inputs) > 1 else np.array(out, object)


def _reduce_join(x, axes, keepdims, separator):
    moved = np.moveaxis(x, axes, range(x.ndim - len(axes), x.ndim)) if axes else x
    rows = moved.reshape(moved.shape[:moved.ndim - len(axes)] + (-1,))
    out = np.empty(rows.shape[:-1], object)
    flat_out, flat_rows = out.reshape(-1), rows.reshape(-1, rows.shape[-1])
    flat_out[:] = [separator.join(row) for row in flat_rows.tolist()]
    if keepdims:
        out = out.reshape([1 if a in axes else d for a, d in enumerate(x.shape)])
    return out


def _length(x, unit):
    if unit == "BYTE":
        return lengths(x).astype(np.int32)
    # UTF-8 characters: the bytes that do not continue a character (0b10xxxxxx).
    counts = _byte_counts(x, lambda b: (b & 0xC0) != 0x80)
    return counts.astype(np.int32)


def _byte_counts(x, predicate):
    """Per element, how many of its bytes `predicate` (on a uint8 array) holds for."""
    n = lengths(x)
    data = np.frombuffer(b"".join(x.reshape(-1).tolist()), np.uint8)
    starts = np.concatenate([[0], np.cumsum(n.reshape(-1))])
    marks = np.concatenate([[0], np.cumsum(predicate(data))])
    return (marks[starts[1:]] - marks[starts[:-1]]).reshape(x.shape)


def _substr(x, pos, size, unit):
    if pos.shape != size.shape:
        raise errors.InvalidArgumentError(
            None, "Substr", f"Substr: pos and len should have the same shape, got: "
            f"{list(pos.shape)} vs. {list(size.shape)}")
    x, pos, size = np.broadcast_arrays(x, pos, size)
    text = x if unit == "BYTE" else _decode(x)
    n = lengths(text) if unit == "BYTE" else np.frompyfunc(len, 1, 1)(text).astype(np.int64)
    start = np.where(pos < 0, pos + n, pos)
    bad = (start < 0) | (start > n)
    if bad.any():
        i = int(np.flatnonzero(bad.reshape(-1))[0])
        shown = f" {x.reshape(-1)[i]!r}" if unit == "BYTE" else ""
        raise errors.InvalidArgumentError(
            None, "Substr", f"Substr: pos {int(pos.reshape(-1)[i])} out of range for string"
            f"{shown} at index {i}")
    stop = np.minimum(start + np.maximum(size, 0), n)
    stop = np.where(size < 0, n, stop)  # a negative length takes the rest
    out = np.frompyfunc(lambda s, a, b: s[a:b], 3, 1)(text, start, stop)
    return as_value(out if unit == "BYTE" else _encode(out))


_DECODE = np.frompyfunc(lambda b: b.decode("utf-8", "surrogateescape"), 1, 1)
_ENCODE = np.frompyfunc(lambda s: s.encode("utf-8", "surrogateescape"), 1, 1)


def _decode(x):
    return _DECODE(x) if x.size else np.empty(x.shape, object)


def _encode(x):
    return as_value(_ENCODE(x)) if x.size else np.empty(x.shape, object)


_ELEMENTWISE = {"lower": np.frompyfunc(bytes.lower, 1, 1),
                "upper": np.frompyfunc(bytes.upper, 1, 1),
                "strip": np.frompyfunc(lambda b: b.strip(b" \t\n\v\f\r"), 1, 1)}
_TEXT = {"lower": np.frompyfunc(str.lower, 1, 1), "upper": np.frompyfunc(str.upper, 1, 1)}


def _case(x, method, encoding):
    if encoding == "":
        return as_value(_ELEMENTWISE[method](x)) if x.size else x.copy()
    if encoding.lower().replace("-", "") != "utf8":
        raise errors.InvalidArgumentError(
            None, f"String{method.title()}", f"String{method.title()}: encoding must be '' "
            f"or 'utf-8', got {encoding!r}")
    return _encode(_TEXT[method](_decode(x))) if x.size else x.copy()


def _strip(x):
    return as_value(_ELEMENTWISE["strip"](x)) if x.size else x.copy()


# -- regular expressions (RE2 syntax on Python's re) -----------------------------------------
_POSIX = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7f", "blank": "\\t ",
          "cntrl": "\\x00-\\x1f\\x7f", "digit": "0-9", "graph": "!-~", "lower": "a-z",
          "print": " -~", "punct": "!-/:-@\\[-`{-~", "space": "\\t\\n\\v\\f\\r ",
          "upper": "A-Z", "word": "0-9A-Za-z_", "xdigit": "0-9A-Fa-f"}
_UNSUPPORTED = [(re.compile(r"\(\?<?[=!]"), "invalid perl operator: (?="),
                (re.compile(r"(?<!\\)(?:\\\\)*\\[1-9]"), "invalid escape sequence: \\1")]
_PATTERNS: dict = {}


def compile_pattern(op_name: str, pattern: bytes):
    """`pattern` (RE2 syntax) compiled for Python's re, cached.

    Raises:
        InvalidArgumentError: an invalid pattern, or one using what RE2 lacks (lookarounds,
            backreferences).
    """
    compiled = _PATTERNS.get(pattern)
    if compiled is not None:
        return compiled
    text = pattern.decode("utf-8", "surrogateescape")
    for construct, message in _UNSUPPORTED:
        if construct.search(text):
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: Invalid pattern: {text}, error: {message} (RE2 "
                "syntax has no lookarounds or backreferences)")
    translated = re.sub(r"\[:(\^?)(\w+):\]",
                        lambda m: ("^" if m.group(1) else "") + _POSIX.get(m.group(2), m.group(0))
                        if m.group(1) == "" else m.group(0), text)
    translated = re.sub(r"(?<!\\)((?:\\\\)*)\\z", r"\1\\Z", translated)
    try:
        compiled = re.compile(translated)
    except re.error as e:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: Invalid pattern: {text}, error: {e}") from None
    if len(_PATTERNS) > 256:
        _PATTERNS.clear()
    _PATTERNS[pattern] = compiled
    return compiled


def _python_rewrite(rewrite: str) -> str:
    r"""RE2's rewrite string (`\0`..`\9` name groups, `\\` is a backslash) as Python's."""
    return re.sub(r"\\(\d|\\)|\\", lambda m: "\\\\" if m.group(1) in (None, "\\")
                  else f"\\g<{m.group(1)}>", rewrite)


def _on_bytes(x, compiled):
    """The pattern compiled for bytes when it and all of `x` are ASCII (where text and bytes
    match alike), which saves decoding; None otherwise."""
    if not compiled.pattern.isascii() or not b"".join(x.reshape(-1).tolist()).isascii():
        return None
    return _BYTES_PATTERNS.get(compiled) or _BYTES_PATTERNS.setdefault(
        compiled, re.compile(compiled.pattern.encode("ascii"), compiled.flags & ~re.UNICODE))


_BYTES_PATTERNS: dict = {}


def _regex_full_match(x, pattern):
    if x.size == 0:
        return np.zeros(x.shape, bool)
    compiled = compile_pattern("StaticRegexFullMatch", bytes(pattern))
    ascii_pattern = _on_bytes(x, compiled)
    if ascii_pattern is not None:
        return np.not_equal(np.frompyfunc(ascii_pattern.fullmatch, 1, 1)(x), None).astype(bool)
    match = np.frompyfunc(compiled.fullmatch, 1, 1)
    return np.not_equal(match(_decode(x)), None).astype(bool)


def _regex_replace(x, pattern, rewrite, replace_global):
    if x.size == 0:
        return x.copy()
    compiled = compile_pattern("StaticRegexReplace", bytes(pattern))
    template = _python_rewrite(bytes(rewrite).decode("utf-8", "surrogateescape"))
    count = 0 if replace_global else 1
    ascii_pattern = _on_bytes(x, compiled)
    if ascii_pattern is not None and template.isascii():
        btemplate = template.encode("ascii")
        replace = np.frompyfunc(lambda s: ascii_pattern.sub(btemplate, s, count=count), 1, 1)
        return as_value(replace(x))
    replace = np.frompyfunc(lambda s: compiled.sub(template, s, count=count), 1, 1)
    return _encode(replace(_decode(x)))


# -- splitting (kernels return values and row splits) ----------------------------------------
def _split(x, sep, maxsplit):
    flat = x.reshape(-1).tolist()
    sep = bytes(sep) if sep is not None else None
    if sep == b"":
        sep = None  # TF: an empty separator splits on whitespace
    maxsplit = -1 if maxsplit is None else int(maxsplit)
    if sep is None:
        parts = [s.split(None, maxsplit) for s in flat]
    else:
        parts = [s.split(sep, maxsplit) if s else [] for s in flat]
    return _rows(parts)


def _rows(parts: list):
    """(values, row splits) of a list of lists of bytes."""
    splits = np.zeros(len(parts) + 1, np.int64)
    np.cumsum([len(p) for p in parts], out=splits[1:])
    values = np.empty(int(splits[-1]), object)
    values[:] = [v for p in parts for v in p]
    return values, splits


def _bytes_split(x):
    flat = x.reshape(-1).tolist()
    return _rows([[s[i:i + 1] for i in range(len(s))] for s in flat])


def _unsorted_segment_join(x, ids, num_segments, separator):
    if ids.size and (ids.min() < 0 or ids.max() >= num_segments):
        raise errors.InvalidArgumentError(
            None, "UnsortedSegmentJoin", "UnsortedSegmentJoin: segment_ids are not allowed to "
            f"exceed num_segments ({num_segments}) or to have negative values; got "
            f"{ids.reshape(-1).tolist()}")
    if x.shape[:ids.ndim] != ids.shape:
        raise errors.InvalidArgumentError(
            None, "UnsortedSegmentJoin", f"UnsortedSegmentJoin: segment_ids shape "
            f"{list(ids.shape)} must be a prefix of the input's {list(x.shape)}")
    inner = x.shape[ids.ndim:]
    rows = x.reshape((ids.size, -1))
    order = np.argsort(ids.reshape(-1), kind="stable")
    out = np.full((num_segments, rows.shape[1]), b"", object)
    groups = np.split(order, np.cumsum(np.bincount(ids.reshape(-1), minlength=num_segments))[:-1])
    for segment, members in enumerate(groups):
        if members.size:
            out[segment] = [separator.join(col) for col in rows[members].T.tolist()]
    return out.reshape((num_segments,) + inner)


def _ngrams(x, *data_splits, widths, separator, pad_left, pad_right, padding_width,
            preserve_short_sequences):
    if data_splits:  # the rows of a ragged input: x[splits[i]:splits[i + 1]]
        flat, bounds = x.tolist(), data_splits[0].tolist()
        rows = [flat[a:b] for a, b in zip(bounds[:-1], bounds[1:])]
    else:
        rows = x.reshape(-1, x.shape[-1]).tolist() if x.ndim else [[x[()]]]
    out = []
    for row in rows:
        grams = []
        for width in widths:
            pad = width - 1 if padding_width is None or padding_width < 0 else padding_width
            if pad_left is None:
                pad = 0
            seq = [pad_left] * pad + row + [pad_right] * pad if pad else row
            count = len(seq) - width + 1
            if count <= 0 and preserve_short_sequences and not grams and seq:
                grams.append(separator.join(seq))
                continue
            grams.extend(separator.join(seq[i:i + width]) for i in range(max(count, 0)))
        out.append(grams)
    return _rows(out)


StringJoin = define_op("StringJoin", _join)
ReduceJoin = define_op("ReduceJoin", _reduce_join)
StringLength = define_op("StringLength", _length)
Substr = define_op("Substr", _substr)
StringLower = define_op("StringLower", lambda x, encoding: _case(x, "lower", encoding))
StringUpper = define_op("StringUpper", lambda x, encoding: _case(x, "upper", encoding))
StringStrip = define_op("StringStrip", _strip)
StaticRegexFullMatch = define_op("StaticRegexFullMatch", _regex_full_match)
StaticRegexReplace = define_op("StaticRegexReplace", _regex_replace)
StringSplitRows = define_op("StringSplitRows", _split, num_outputs=2)
StringBytesSplit = define_op("StringBytesSplit", _bytes_split, num_outputs=2)
UnsortedSegmentJoin = define_op("UnsortedSegmentJoin", _unsorted_segment_join)
StringNGrams = define_op("StringNGrams", _ngrams, num_outputs=2)
for _op in ("StringJoin", "ReduceJoin", "StringLength", "Substr", "StringLower", "StringUpper",
            "StringStrip", "StaticRegexFullMatch", "StaticRegexReplace", "StringSplitRows",
            "StringBytesSplit", "UnsortedSegmentJoin", "StringNGrams"):
    no_gradient(_op)


# -- public functions ------------------------------------------------------------------------
def _bytes_attr(value) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


@add_dispatch_support
def join(inputs, separator="", name=None) -> Tensor:
    """Concatenates the strings of `inputs` elementwise, with `separator` between them
    (op `StringJoin`); scalars broadcast, the other inputs must have one shape.

    Args:
        inputs: a list of string tensors (or values convertible to them).
        separator: the string put between the joined elements.

    Returns:
        A string tensor of the non-scalar inputs' shape.

    Raises:
        InvalidArgumentError: the non-scalar inputs' shapes differ, or an input is not a
            string.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.join([["a", "b"], "x"], separator="-").numpy()
        array([b'a-x', b'b-x'], dtype=object)
    """
    tensors = tuple(string_input("StringJoin", x) for x in inputs)
    return execute(StringJoin, tensors, {"separator": _bytes_attr(separator)})


@add_dispatch_support
def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None) -> Tensor:
    """Joins the strings along `axis` (all axes when None) in order, with `separator`
    between them (op `ReduceJoin`).

    Args:
        inputs: a string tensor.
        axis: None, an int or a list of ints in [-rank, rank).
        keepdims: keep the reduced axes with length 1.
        separator: the string put between the joined elements.

    Returns:
        A string tensor without the reduced axes (or with them of length 1).

    Raises:
        InvalidArgumentError: an axis out of range, or a non-string input.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=1, separator=",").numpy()
        array([b'a,b', b'c,d'], dtype=object)
    """
    x = string_input("ReduceJoin", inputs)
    axes = normalize_axes("ReduceJoin", axis, x.ndim)
    return execute(ReduceJoin, (x,), {"axes": tuple(axes), "keepdims": bool(keepdims),
                                      "separator": _bytes_attr(separator)})


_UNITS = ("BYTE", "UTF8_CHAR")


def _unit(op_name: str, unit: str) -> str:
    if unit not in _UNITS:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: Value for attr 'unit' of {unit!r} is not in the list "
            f"of allowed values: \"BYTE\", \"UTF8_CHAR\"")
    return unit


@add_dispatch_support(elementwise=1)
def length(input, unit="BYTE", name=None) -> Tensor:  # noqa: A002  (TF's name)
    """The length of each string, in bytes or (`unit="UTF8_CHAR"`) UTF-8 characters (op
    `StringLength`); in characters, each byte that does not continue a character counts.

    Returns:
        An int32 tensor of the input's shape.

    Raises:
        InvalidArgumentError: another unit, or a non-string input.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.length(["ab", "é"], unit="UTF8_CHAR").numpy()
        array([2, 1], dtype=int32)
    """
    x = string_input("StringLength", input)
    return execute(StringLength, (x,), {"unit": _unit("StringLength", unit)})


@add_dispatch_support(elementwise=1)
def substr(input, pos, len, unit="BYTE", name=None) -> Tensor:  # noqa: A002
    """The substrings of `len` bytes (or UTF-8 characters) starting at `pos` (op `Substr`);
    a negative `pos` counts from the end, a substring ending past the end is cut there.
    `pos` and `len` have one shape, which broadcasts with the input's.

    Raises:
        InvalidArgumentError: a `pos` out of range for its string, `pos` and `len` of
            different shapes, or another unit.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.substr(["hello", "world"], 1, 3).numpy()
        array([b'ell', b'orl'], dtype=object)
    """
    x = string_input("Substr", input)
    p, n = np.asarray(getattr(pos, "_value", pos)), np.asarray(getattr(len, "_value", len))
    if p.dtype.kind not in "iu" or n.dtype.kind not in "iu":
        raise TypeError(f"Substr: pos and len must be integers, got {p.dtype} and {n.dtype}")
    return execute(Substr, (x, Tensor(p.astype(np.int64)), Tensor(n.astype(np.int64))),
                   {"unit": _unit("Substr", unit)})


@add_dispatch_support(elementwise=1)
def lower(input, encoding="", name=None) -> Tensor:  # noqa: A002
    """Each string in lower case (op `StringLower`): ASCII letters only, or with
    `encoding="utf-8"` every letter of the UTF-8 text.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.lower(["HeLLo", "ÀB"], encoding="utf-8").numpy()[0]
        b'hello'
    """
    return execute(StringLower, (string_input("StringLower", input),), {"encoding": encoding})


@add_dispatch_support(elementwise=1)
def upper(input, encoding="", name=None) -> Tensor:  # noqa: A002
    """Each string in upper case (op `StringUpper`): ASCII letters only, or with
    `encoding="utf-8"` every letter of the UTF-8 text.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.upper(["ab"]).numpy()
        array([b'AB'], dtype=object)
    """
    return execute(StringUpper, (string_input("StringUpper", input),), {"encoding": encoding})


@add_dispatch_support(elementwise=1)
def strip(input, name=None) -> Tensor:  # noqa: A002
    """Each string without leading and trailing ASCII whitespace (op `StringStrip`).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.strip(["  a b \\n"]).numpy()
        array([b'a b'], dtype=object)
    """
    return execute(StringStrip, (string_input("StringStrip", input),), NO_ATTRS)


def _pattern(op_name: str, pattern) -> bytes:
    value = getattr(pattern, "_value", pattern)
    if isinstance(value, np.ndarray):
        if value.ndim:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: the pattern must be a scalar, got shape "
                f"{list(value.shape)}")
        value = value[()]
    return _bytes_attr(value)


@add_dispatch_support(elementwise=1)
def regex_full_match(input, pattern, name=None) -> Tensor:  # noqa: A002
    """Whether each whole string matches `pattern` (RE2 syntax; op `StaticRegexFullMatch`).

    Raises:
        InvalidArgumentError: an invalid pattern (lookarounds and backreferences are not
            RE2's).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.regex_full_match(["ab", "abc"], "a.").numpy()
        array([ True, False])
    """
    x = string_input("StaticRegexFullMatch", input)
    return execute(StaticRegexFullMatch, (x,),
                   {"pattern": _pattern("StaticRegexFullMatch", pattern)})


@add_dispatch_support(elementwise=1)
def regex_replace(input, pattern, rewrite, replace_global=True, name=None) -> Tensor:  # noqa: A002
    r"""Replaces the matches of `pattern` (RE2 syntax) by `rewrite`, in which `\0` is the
    match and `\1`..`\9` its groups; all matches, or the first with `replace_global=False`
    (op `StaticRegexReplace`).

    Raises:
        InvalidArgumentError: an invalid pattern.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.regex_replace(["ab12"], r"(\d)(\d)", r"\2\1").numpy()
        array([b'ab21'], dtype=object)
    """
    x = string_input("StaticRegexReplace", input)
    return execute(StaticRegexReplace, (x,), {
        "pattern": _pattern("StaticRegexReplace", pattern),
        "rewrite": _pattern("StaticRegexReplace", rewrite),
        "replace_global": bool(replace_global)})


@add_dispatch_support
def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """Splits each string at `sep` (runs of ASCII whitespace when None, dropping empty
    parts), at most `maxsplit` times.

    Returns:
        For a scalar, a 1-D string tensor; otherwise a RaggedTensor with one more
        dimension.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.split("a b  c").numpy()
        array([b'a', b'b', b'c'], dtype=object)
    """
    x = string_input("StringSplitRows", input)
    values, splits = execute(StringSplitRows, (x,), {
        "sep": None if sep is None else _bytes_attr(sep), "maxsplit": int(maxsplit)})
    return ragged_result(values, splits, x)


@add_dispatch_support
def bytes_split(input, name=None):  # noqa: A002
    """Splits each string into its bytes.

    Returns:
        For a scalar, a 1-D string tensor; otherwise a RaggedTensor with one more
        dimension.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.bytes_split("abc").numpy()
        array([b'a', b'b', b'c'], dtype=object)
    """
    x = string_input("StringBytesSplit", input)
    values, splits = execute(StringBytesSplit, (x,), NO_ATTRS)
    return ragged_result(values, splits, x)


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None) -> Tensor:
    """Joins the rows of `inputs` that share a segment id, in order (op
    `UnsortedSegmentJoin`); an empty segment gives b"".

    Args:
        inputs: a string tensor.
        segment_ids: integers in [0, num_segments), a prefix of `inputs`' shape.
        num_segments: the number of segments.
        separator: the string put between the joined elements.

    Raises:
        InvalidArgumentError: an id out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.unsorted_segment_join(["a", "b", "c"], [1, 0, 1], 2).numpy()
        array([b'b', b'ac'], dtype=object)
    """
    x = string_input("UnsortedSegmentJoin", inputs)
    ids = as_input(segment_ids)
    num = int_value("UnsortedSegmentJoin", num_segments, "num_segments")
    return execute(UnsortedSegmentJoin, (x, ids), {"num_segments": num,
                                                   "separator": _bytes_attr(separator)})


def ngram_attrs(ngram_width, separator, pad_values, padding_width,
                preserve_short_sequences) -> dict:
    """The attributes of op StringNGrams for `ngrams`' arguments.

    Raises:
        ValueError: a non-positive width, or bad pad values.
    """
    widths = tuple(ngram_width) if isinstance(ngram_width, (list, tuple)) else (ngram_width,)
    if any(int(w) <= 0 for w in widths):
        raise ValueError(f"ngram_width must be > 0, got {ngram_width}")
    if pad_values is None:
        left = right = None
    elif isinstance(pad_values, (list, tuple)):
        if len(pad_values) != 2:
            raise ValueError("pad_values must be a string, tuple or list of 2 strings.")
        left, right = (_bytes_attr(v) for v in pad_values)
    else:
        left = right = _bytes_attr(pad_values)
    if padding_width is not None and int(padding_width) <= 0:
        raise ValueError(f"padding_width must be > 0, got {padding_width}")
    return {"widths": tuple(int(w) for w in widths), "separator": _bytes_attr(separator),
            "pad_left": left, "pad_right": right, "padding_width": padding_width,
            "preserve_short_sequences": bool(preserve_short_sequences)}


@add_dispatch_support
def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The n-grams of each row (the last axis) of `data`, joined with `separator`.

    Args:
        data: a string tensor (its last axis holds the sequences).
        ngram_width: an int or a tuple of them (all widths, in order).
        separator: put between the joined elements.
        pad_values: a string or a (left, right) pair padding each sequence, or None.
        padding_width: how many pad values on each side (default: width - 1).
        preserve_short_sequences: a sequence too short for any n-gram gives one of all of
            it.

    Returns:
        For a rank-1 input a 1-D tensor; for higher ranks a tensor whose last axis holds
        each row's n-grams (rows must give equally many; a RaggedTensor otherwise).

    Raises:
        ValueError: a non-positive width, or bad pad values.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.ngrams(tf.constant(["a", "b", "c"]), 2).numpy()
        array([b'a b', b'b c'], dtype=object)
    """
    x = string_input("StringNGrams", data)
    values, splits = execute(StringNGrams, (x,), ngram_attrs(
        ngram_width, separator, pad_values, padding_width, preserve_short_sequences))
    if x.ndim <= 1:
        return values
    counts = np.diff(splits._value)
    if counts.size and (counts == counts[0]).all():
        return Tensor(values._value.reshape(tuple(x.shape[:-1]) + (int(counts[0]),)))
    return ragged_result(values, splits, Tensor(np.empty(x.shape[:-1], object)))


# The ragged versions of the string ops (and of unicode_ops'), registered for dispatch once
# the string ops exist.
from .ragged import ragged_string_ops  # noqa: E402,F401
