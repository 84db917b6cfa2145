"""tf.io's string codecs: web-safe base64, raw bytes to numbers, CSV records and compressed
strings. Kernels run over the whole array (joined bytes, `np.frombuffer`, `np.frompyfunc`);
none has a gradient."""
from __future__ import annotations

import base64
import gzip
import re
import zlib

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.string_values import as_value
from ..framework.tensor import Tensor
from .dispatch import add_dispatch_support
from .op_util import NO_ATTRS, as_input
from .string_convert_ops import parse_numbers
from .string_util import lengths, string_input

__all__ = ["encode_base64", "decode_base64", "decode_raw", "decode_csv", "decode_compressed"]


# -- kernels ---------------------------------------------------------------------------------
def _elementwise(fn, x):
    return as_value(np.frompyfunc(fn, 1, 1)(x)) if x.size else np.empty(x.shape, object)


def _encode_base64(x, pad):
    encode = base64.urlsafe_b64encode if pad else \
        (lambda s: base64.urlsafe_b64encode(s).rstrip(b"="))
    return _elementwise(encode, x)


_BASE64 = re.compile(rb"[A-Za-z0-9_-]*={0,2}")


def _decode_one(s: bytes) -> bytes:
    if not _BASE64.fullmatch(s):
        raise errors.InvalidArgumentError(None, "DecodeBase64",
                                          "DecodeBase64: Invalid character found in base64.")
    s = s.rstrip(b"=")
    if len(s) % 4 == 1:
        raise errors.InvalidArgumentError(
            None, "DecodeBase64", "DecodeBase64: Base64 string length cannot be 1 modulo 4.")
    return base64.urlsafe_b64decode(s + b"=" * (-len(s) % 4))


def _decode_base64(x):
    return _elementwise(_decode_one, x)


def _decode_raw(x, out_type, little_endian, fixed_length):
    item = np.dtype(out_type).newbyteorder("<" if little_endian else ">")
    flat = x.reshape(-1).tolist()
    if fixed_length is not None:
        flat = [s[:fixed_length].ljust(fixed_length, b"\0") for s in flat]
    sizes = lengths(np.array(flat, object)) if flat else np.zeros(0, np.int64)
    if sizes.size and (sizes != sizes[0]).any():
        i = int(np.flatnonzero(sizes != sizes[0])[0])
        raise errors.InvalidArgumentError(
            None, "DecodeRaw", f"DecodeRaw: DecodeRaw requires input strings to all be the same "
            f"size, but element {i} has size {int(sizes[0])} != {int(sizes[i])}")
    size = int(sizes[0]) if sizes.size else 0
    if size % item.itemsize:
        raise errors.InvalidArgumentError(
            None, "DecodeRaw", f"DecodeRaw: Input to DecodeRaw has length {size} that is not a "
            f"multiple of {item.itemsize}, the size of {dtypes.as_dtype(out_type).name}")
    values = np.frombuffer(b"".join(flat), item).astype(np.dtype(out_type))
    return values.reshape(x.shape + (size // item.itemsize,))


def _decompress(x, compression_type):
    def decompress(s: bytes) -> bytes:
        try:
            if compression_type == "ZLIB":
                return zlib.decompress(s)
            if compression_type == "GZIP":
                return gzip.decompress(s)
        except (zlib.error, OSError, EOFError) as e:
            # TF's words: "inflate() failed with error -3: incorrect header check"
            found = re.match(r"Error (-?\d+) while decompressing data: (.*)", str(e))
            detail = f"inflate() failed with error {found[1]}: {found[2]}" if found else \
                f"inflate() failed: {e}"
            raise errors.DataLossError(
                None, "DecodeCompressed", f"DecodeCompressed: {detail} (the {compression_type} "
                f"data is corrupted)") from None
        return s
    return _elementwise(decompress, x)


_QUOTED = re.compile(rb'"((?:[^"]|"")*)"')


def _csv_fields(record: bytes, delim: bytes, quotes: bool, index: int) -> list:
    """The fields of one CSV record; quoted fields may hold the delimiter and "" quotes."""
    if not quotes or b'"' not in record:
        return record.split(delim) if record else []
    fields, i, n = [], 0, len(record)
    while True:
        if i < n and record[i:i + 1] == b'"':
            m = _QUOTED.match(record, i)
            end = m.end() if m else -1
            if m is None or (end < n and record[end:end + 1] != delim):
                raise errors.InvalidArgumentError(
                    None, "DecodeCSV", f"DecodeCSV: Quoted field has to end with quote "
                    f"followed by delim or end (record {index})")
            fields.append(m.group(1).replace(b'""', b'"'))
            i = end
        else:
            j = record.find(delim, i)
            j = n if j < 0 else j
            fields.append(record[i:j])
            i = j
        if i >= n:
            return fields
        i += len(delim)
        if i == n:
            fields.append(b"")
            return fields


def _decode_csv(records, *defaults, field_delim, use_quote_delim, na_value, select_cols):
    flat = records.reshape(-1).tolist()
    rows = [_csv_fields(r, field_delim, use_quote_delim, k) for k, r in enumerate(flat)]
    wanted = len(defaults) if select_cols is None else None
    columns = select_cols if select_cols is not None else range(len(defaults))
    for k, row in enumerate(rows):
        if wanted is not None and len(row) != wanted:
            raise errors.InvalidArgumentError(
                None, "DecodeCSV", f"DecodeCSV: Expect {wanted} fields but have {len(row)} in "
                f"record {k}")
        if select_cols is not None and len(row) <= select_cols[-1]:
            raise errors.InvalidArgumentError(
                None, "DecodeCSV", f"DecodeCSV: Expect at least {select_cols[-1] + 1} fields "
                f"but have {len(row)} in record {k}")
    outs = []
    for f, (column, default) in enumerate(zip(columns, defaults)):
        texts = [row[column] for row in rows]
        missing = [t == b"" or t == na_value for t in texts]
        if any(missing) and default.size == 0:
            k = missing.index(True)
            raise errors.InvalidArgumentError(
                None, "DecodeCSV", f"DecodeCSV: Field {f} is required but missing in record "
                f"{k}!")
        fill = default.reshape(-1)[0] if default.size else None
        if default.dtype.kind == "O":
            column_values = np.empty(len(texts), object)
            column_values[:] = [fill if m else t for t, m in zip(texts, missing)]
        else:
            present = [t for t, m in zip(texts, missing) if not m]
            try:
                parsed = parse_numbers(present, default.dtype)
            except ValueError as e:
                bad = str(e)
                k = next(i for i, (t, m) in enumerate(zip(texts, missing))
                         if not m and t.decode("utf-8", "replace") == bad)
                raise errors.InvalidArgumentError(
                    None, "DecodeCSV", f"DecodeCSV: Field {f} in record {k} is not a valid "
                    f"{dtypes.as_dtype(default.dtype).name}: {bad}") from None
            column_values = np.full(len(texts), fill if fill is not None else 0, default.dtype)
            column_values[~np.array(missing, bool)] = parsed
        outs.append(column_values.reshape(records.shape))
    return tuple(outs)


EncodeBase64 = define_op("EncodeBase64", _encode_base64)
DecodeBase64 = define_op("DecodeBase64", _decode_base64)
DecodeRaw = define_op("DecodeRaw", _decode_raw)
DecodeCompressed = define_op("DecodeCompressed", _decompress)


def _raw_specs(inputs, attrs):
    """DecodeRaw's output: the input's shape and one more axis, known with fixed_length."""
    dims, item = inputs[0]._dims, np.dtype(attrs["out_type"])
    last = None if attrs["fixed_length"] is None else attrs["fixed_length"] // item.itemsize
    return [(item, None if dims is None else dims + (last,))]


def _same_strings(inputs, attrs):
    return [(np.dtype(object), inputs[0]._dims)]


DecodeRaw.shape_fn = _raw_specs
for _op in (EncodeBase64, DecodeBase64, DecodeCompressed):
    _op.shape_fn = _same_strings
DecodeCSV = define_op("DecodeCSV", _decode_csv, num_outputs=None)
for _op in ("EncodeBase64", "DecodeBase64", "DecodeRaw", "DecodeCompressed", "DecodeCSV"):
    no_gradient(_op)


# -- public functions ------------------------------------------------------------------------
@add_dispatch_support(elementwise=1)
def encode_base64(input, pad=False, name=None) -> Tensor:  # noqa: A002  (TF's name)
    """Each string in web-safe base64 ('-' and '_' for '+' and '/'), without '=' padding
    unless `pad` (op `EncodeBase64`).

    Example:
        >>> import tapeflow as tf
        >>> tf.io.encode_base64(["ab", "abc"]).numpy()
        array([b'YWI', b'YWJj'], dtype=object)
    """
    x = string_input("EncodeBase64", input)
    return execute(EncodeBase64, (x,), {"pad": bool(pad)})


@add_dispatch_support(elementwise=1)
def decode_base64(input, name=None) -> Tensor:  # noqa: A002
    """Each web-safe base64 string decoded, with or without '=' padding (op `DecodeBase64`).

    Raises:
        InvalidArgumentError: a character outside web-safe base64 (also '+', '/' and
            whitespace), or a length of 1 modulo 4.

    Example:
        >>> import tapeflow as tf
        >>> tf.io.decode_base64(["YWI", "YQ=="]).numpy()
        array([b'ab', b'a'], dtype=object)
    """
    return execute(DecodeBase64, (string_input("DecodeBase64", input),), NO_ATTRS)


_RAW_TYPES = ("float16", "float32", "float64", "int32", "uint16", "uint8", "int16", "int8",
              "int64", "complex64", "complex128", "bool", "bfloat16")


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None) -> Tensor:
    """Each string's bytes as numbers of `out_type` (op `DecodeRaw`): a new last axis of
    length bytes / item size; with `fixed_length`, each string is cut or zero-padded to that
    many bytes first.

    Raises:
        InvalidArgumentError: strings of different sizes, a size that is not a multiple of
            the item size, or an out_type that is not numeric.

    Example:
        >>> import tapeflow as tf
        >>> tf.io.decode_raw([b"\\x01\\x00\\x02\\x00"], tf.int16).numpy()
        array([[1, 2]], dtype=int16)
    """
    x = string_input("DecodeRaw", input_bytes)
    out = dtypes.as_dtype(out_type)
    if out.name not in _RAW_TYPES:
        raise errors.InvalidArgumentError(
            None, "DecodeRaw", f"DecodeRaw: Value for attr 'out_type' of {out.name} is not in "
            f"the list of allowed values: {', '.join(_RAW_TYPES)}")
    return execute(DecodeRaw, (x,), {"out_type": out._np, "little_endian": bool(little_endian),
                                     "fixed_length": None if fixed_length is None
                                     else int(fixed_length)})


_COMPRESSIONS = {"": "", "NONE": "", "ZLIB": "ZLIB", "GZIP": "GZIP"}


def decode_compressed(bytes, compression_type="", name=None) -> Tensor:  # noqa: A002
    """Each string decompressed: "ZLIB", "GZIP", or "" (as it is) (op `DecodeCompressed`).

    Raises:
        DataLossError: corrupted data.
        InvalidArgumentError: another compression type (ZSTD needs Python's zstd, not
            available here).

    Example:
        >>> import tapeflow as tf, zlib
        >>> tf.io.decode_compressed([zlib.compress(b"hi")], "ZLIB").numpy()
        array([b'hi'], dtype=object)
    """
    x = string_input("DecodeCompressed", bytes)
    if compression_type not in _COMPRESSIONS:
        raise errors.InvalidArgumentError(
            None, "DecodeCompressed", f"DecodeCompressed: Only ZLIB, GZIP or NONE are supported "
            f"compressions, got {compression_type!r}")
    return execute(DecodeCompressed, (x,),
                   {"compression_type": _COMPRESSIONS[compression_type]})


_CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, na_value="",
               select_cols=None, name=None) -> list:
    """Parses CSV records into one tensor per column (op `DecodeCSV`): the type and default
    of each column come from `record_defaults` (an empty default makes the column
    required); quoted fields may hold the delimiter, and "" stands for a quote inside them.

    Args:
        records: a string tensor of records.
        record_defaults: per column a one-element tensor (its dtype and default: float32,
            float64, int32, int64 or string) or an empty tensor of that dtype.
        field_delim: the one-character delimiter.
        use_quote_delim: whether double quotes delimit fields.
        na_value: a field equal to it is missing.
        select_cols: the sorted columns to keep (record_defaults has one per column kept).

    Returns:
        A list of tensors of `records`' shape.

    Raises:
        InvalidArgumentError: a record with another number of fields, a required field
            missing, a field that does not parse, or a bad quote.

    Example:
        >>> import tapeflow as tf
        >>> [t.numpy() for t in tf.io.decode_csv(["1,a", "2,"], [[0], ["z"]])]
        [array([1, 2], dtype=int32), array([b'a', b'z'], dtype=object)]
    """
    x = string_input("DecodeCSV", records)
    defaults = []
    for default in record_defaults:
        t = as_input(default)
        if t.dtype not in _CSV_TYPES:
            raise errors.InvalidArgumentError(
                None, "DecodeCSV", f"DecodeCSV: Value for attr 'OUT_TYPE' of {t.dtype.name} is "
                "not in the list of allowed values: float, double, int32, int64, string")
        defaults.append(t)
    if select_cols is not None:
        select_cols = tuple(int(c) for c in select_cols)
        if list(select_cols) != sorted(set(select_cols)) or select_cols[0] < 0:
            raise errors.InvalidArgumentError(
                None, "DecodeCSV", "DecodeCSV: select_cols must be increasing and >= 0")
        if len(select_cols) != len(defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    if len(field_delim) != 1:
        raise errors.InvalidArgumentError(
            None, "DecodeCSV", "DecodeCSV: field_delim should be only 1 char")
    outs = execute(DecodeCSV, (x, *defaults), {
        "field_delim": field_delim.encode(), "use_quote_delim": bool(use_quote_delim),
        "na_value": na_value.encode() if isinstance(na_value, str) else na_value,
        "select_cols": select_cols})
    return list(outs) if isinstance(outs, tuple) else [outs]
