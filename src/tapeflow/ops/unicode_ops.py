"""tf.strings' unicode ops: decoding strings to code points (with byte offsets), splitting
them into characters, encoding code points, transcoding, and each code point's script.

Encodings are Python's codecs under TF's (ICU's) names ("UTF-8", "UTF-16-BE", "ISO-8859-1",
...). Bad input follows `errors`: 'replace' puts `replacement_char` for each invalid
sequence (as ICU, the longest invalid prefix counts once), 'ignore' drops it, 'strict' is an
InvalidArgumentError. Code points of many strings come from one UTF-32 encoding of them
all; none of these ops has a gradient.
"""
from __future__ import annotations

import codecs
import threading

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.string_values import as_value
from ..framework.tensor import Tensor
from .dispatch import add_dispatch_support
from .op_util import as_input
from .string_util import ragged_result, string_input

__all__ = ["unicode_decode", "unicode_decode_with_offsets", "unicode_split",
           "unicode_split_with_offsets", "unicode_encode", "unicode_transcode",
           "unicode_script"]

_ERRORS = ("strict", "replace", "ignore")
_OUTPUT_ENCODINGS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}

# The replacement of the decode running on this thread, read by the codec error handler.
_REPLACING = threading.local()


def _replace(error: UnicodeDecodeError):
    _REPLACING.spans.append((error.start, error.end))
    return _REPLACING.text, error.end


codecs.register_error("tapeflow-unicode-replace", _replace)


def _codec(op_name: str, encoding: str) -> str:
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: Could not create converter for input encoding: "
            f"{encoding}") from None


def _decoder(op_name: str, encoding: str, errors_mode: str, replacement_char: int,
             control: bool):
    """`decode(bytes) -> (str, invalid spans)` under TF's error handling."""
    codec = _codec(op_name, encoding)
    text = "" if errors_mode == "ignore" else chr(replacement_char)

    def decode(data: bytes):
        _REPLACING.text, _REPLACING.spans = text, []
        try:
            out = data.decode(codec, "strict" if errors_mode == "strict"
                              else "tapeflow-unicode-replace")
        except UnicodeDecodeError:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: Invalid formatting on input string {data!r}") \
                from None
        if control:
            out = out.translate(controls)
        return out, _REPLACING.spans
    controls = {c: text for c in range(32)}
    return decode


def _code_points(texts: list) -> tuple:
    """(code points int32, row splits int64) of a list of str, from one UTF-32 encoding."""
    counts = np.fromiter(map(len, texts), np.int64, len(texts))
    splits = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    values = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"),
                           "<u4").astype(np.int32)
    return values, splits


def _offsets(data: bytes, codec: str) -> list:
    """The byte offset in `data` where each decoded character starts (feeding the decoder
    one byte at a time; the replacement state is the current decode's)."""
    decoder = codecs.getincrementaldecoder(codec)("tapeflow-unicode-replace")
    starts, begin = [], 0
    for i in range(len(data)):
        chunk = decoder.decode(data[i:i + 1])
        if chunk:
            starts.extend([begin] * len(chunk))
        if chunk or _REPLACING.spans:
            begin, _REPLACING.spans = i + 1, []
    starts.extend([begin] * len(decoder.decode(b"", final=True)))
    return starts


def _unicode_decode(x, encoding, errors_mode, replacement_char, control, with_offsets):
    decode = _decoder("UnicodeDecode", encoding, errors_mode, replacement_char, control)
    flat = x.reshape(-1).tolist()
    texts = [decode(s)[0] for s in flat]
    values, splits = _code_points(texts)
    if not with_offsets:
        return splits, values
    codec = _codec("UnicodeDecodeWithOffsets", encoding)
    _REPLACING.text = "" if errors_mode == "ignore" else chr(replacement_char)
    _REPLACING.spans = []
    offsets = np.array([o for s in flat for o in _offsets(s, codec)], np.int64)
    return splits, values, offsets


def _valid(code_points: np.ndarray) -> np.ndarray:
    return (code_points >= 0) & (code_points <= 0x10FFFF) & \
        ((code_points < 0xD800) | (code_points > 0xDFFF))


def _unicode_encode(values, splits, encoding, errors_mode, replacement_char):
    valid = _valid(values)
    if not valid.all():
        if errors_mode == "strict":
            raise errors.InvalidArgumentError(
                None, "UnicodeEncode", "UnicodeEncode: Code point is out of range for Unicode, "
                f"or is a surrogate: {int(values[~valid][0])}")
        if errors_mode == "ignore":
            keep = np.concatenate([[0], np.cumsum(valid)])
            values, splits = values[valid], keep[splits]
        else:
            values = np.where(valid, values, replacement_char)
    text = values.astype("<u4").tobytes().decode("utf-32-le")
    codec = _OUTPUT_ENCODINGS[encoding]
    out = np.empty(len(splits) - 1, object)
    out[:] = [text[a:b].encode(codec) for a, b in zip(splits[:-1].tolist(), splits[1:].tolist())]
    return out


def _unicode_transcode(x, input_encoding, output_encoding, errors_mode, replacement_char,
                       control):
    decode = _decoder("UnicodeTranscode", input_encoding, errors_mode, replacement_char,
                      control)
    codec = _OUTPUT_ENCODINGS[output_encoding]
    out = np.frompyfunc(lambda s: decode(s)[0].encode(codec, "surrogatepass"), 1, 1)(x)
    return as_value(out) if x.size else x.copy()


_SCRIPTS: list = []


def _unicode_script(x):
    if not _SCRIPTS:
        from .unicode_script_data import CODES, STARTS
        _SCRIPTS.extend([np.array(STARTS, np.int64), np.array(CODES, np.int32)])
    starts, codes = _SCRIPTS
    out = codes[np.searchsorted(starts, x, side="right") - 1]
    return np.where((x < 0) | (x > 0x10FFFF), np.int32(-1), out).astype(np.int32)


UnicodeDecode = define_op("UnicodeDecode", lambda x, **attrs: _unicode_decode(
    x, with_offsets=False, **attrs), num_outputs=2)
UnicodeDecodeWithOffsets = define_op("UnicodeDecodeWithOffsets", lambda x, **attrs:
                                     _unicode_decode(x, with_offsets=True, **attrs),
                                     num_outputs=3)
UnicodeEncode = define_op("UnicodeEncode", _unicode_encode)
UnicodeTranscode = define_op("UnicodeTranscode", _unicode_transcode)
UnicodeScript = define_op("UnicodeScript", _unicode_script)
for _op in ("UnicodeDecode", "UnicodeDecodeWithOffsets", "UnicodeEncode", "UnicodeTranscode",
            "UnicodeScript"):
    no_gradient(_op)


# -- public functions ------------------------------------------------------------------------
def _errors(op_name: str, errors_mode: str) -> str:
    if errors_mode not in _ERRORS:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: errors must be one of 'strict', 'replace', 'ignore', "
            f"got {errors_mode!r}")
    return errors_mode


def _output_encoding(op_name: str, encoding: str) -> str:
    if encoding not in _OUTPUT_ENCODINGS:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: Value for attr 'output_encoding' of {encoding!r} is not "
            "in the list of allowed values: \"UTF-8\", \"UTF-16-BE\", \"UTF-32-BE\"")
    return encoding


def _decode(input, input_encoding, errors, replacement_char, replace_control_characters,  # noqa: A002
            with_offsets):
    op = UnicodeDecodeWithOffsets if with_offsets else UnicodeDecode
    x = string_input(op.name, input)
    outs = execute(op, (x,), {
        "encoding": input_encoding, "errors_mode": _errors(op.name, errors),
        "replacement_char": int(replacement_char),
        "control": bool(replace_control_characters)})
    splits, values = outs[0], outs[1]
    decoded = ragged_result(values, splits, x)
    if not with_offsets:
        return decoded
    return decoded, ragged_result(outs[2], splits, x)


@add_dispatch_support
def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """The Unicode code points of each string, decoded from `input_encoding`.

    Args:
        input: a string tensor.
        input_encoding: the strings' encoding ("UTF-8", "UTF-16-BE", "ISO-8859-1", ...).
        errors: 'replace' (default), 'ignore' or 'strict', for invalid input.
        replacement_char: the code point put for invalid input with 'replace'.
        replace_control_characters: replace C0 control characters (U+0000-U+001F) too.

    Returns:
        int32 code points: 1-D for a scalar, a RaggedTensor otherwise.

    Raises:
        InvalidArgumentError: invalid input with 'strict', or an unknown encoding.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.unicode_decode("ÀÉ", "UTF-8").numpy()
        array([192, 201], dtype=int32)
    """
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters,
                   False)


@add_dispatch_support
def unicode_decode_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """`unicode_decode`, and the byte offset where each character starts in its string.

    Returns:
        (code points, offsets): int32 and int64, 1-D for a scalar, RaggedTensors otherwise.

    Example:
        >>> import tapeflow as tf
        >>> [t.numpy().tolist() for t in tf.strings.unicode_decode_with_offsets("aÀb", "UTF-8")]
        [[97, 192, 98], [0, 1, 3]]
    """
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters,
                   True)


def _split_chars(input, input_encoding, errors, replacement_char, with_offsets):  # noqa: A002
    x = string_input("UnicodeDecode", input)
    codec = _OUTPUT_ENCODINGS.get(input_encoding, input_encoding)
    decoded = _decode(x, input_encoding, errors, replacement_char, False, with_offsets)
    code_points = decoded[0] if with_offsets else decoded
    flat = getattr(code_points, "flat_values", code_points)
    values = flat.numpy()
    text = values.astype("<u4").tobytes().decode("utf-32-le")
    chars = np.empty(len(text), object)
    chars[:] = [c.encode(codec, "surrogatepass") for c in text]
    chars = Tensor(chars)
    split = code_points.with_flat_values(chars) if hasattr(code_points, "with_flat_values") \
        else chars
    return (split, decoded[1]) if with_offsets else split


@add_dispatch_support
def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Each string split into its characters, each encoded in `input_encoding`.

    Returns:
        A string tensor: 1-D for a scalar, a RaggedTensor otherwise.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.unicode_split("aÀ", "UTF-8").numpy()
        array([b'a', b'\\xc3\\x80'], dtype=object)
    """
    return _split_chars(input, input_encoding, errors, replacement_char, False)


@add_dispatch_support
def unicode_split_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                               replacement_char=65533, name=None):
    """`unicode_split`, and the byte offset where each character starts in its string.

    Example:
        >>> import tapeflow as tf
        >>> chars, offsets = tf.strings.unicode_split_with_offsets("aÀ", "UTF-8")
        >>> offsets.numpy()
        array([0, 1])
    """
    return _split_chars(input, input_encoding, errors, replacement_char, True)


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   name=None) -> Tensor:
    """The strings encoding each row (the last axis) of code points in `output_encoding`
    ("UTF-8", "UTF-16-BE" or "UTF-32-BE").

    Args:
        input: int32 code points: a tensor of rank >= 1 or a RaggedTensor.
        output_encoding: the encoding of the results.
        errors: for code points outside Unicode or surrogates: 'replace' (default) puts
            `replacement_char`, 'ignore' drops them, 'strict' raises.

    Returns:
        A string tensor of the input's shape without its last axis.

    Raises:
        InvalidArgumentError: a bad code point with 'strict', or another encoding.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.unicode_encode([[65, 192], [66, 67]], "UTF-8").numpy()
        array([b'A\\xc3\\x80', b'BC'], dtype=object)
    """
    encoding = _output_encoding("UnicodeEncode", output_encoding)
    attrs = {"encoding": encoding, "errors_mode": _errors("UnicodeEncode", errors),
             "replacement_char": int(replacement_char)}
    if hasattr(input, "row_splits") and hasattr(input, "flat_values"):  # a RaggedTensor
        values = as_input(input.values)
        return execute(UnicodeEncode, (values, as_input(input.row_splits)), attrs)
    x = as_input(input)
    if x.ndim == 0:
        raise errors.InvalidArgumentError(
            None, "UnicodeEncode", "UnicodeEncode: input must have rank >= 1, got a scalar")
    n = x.shape[-1]
    rows = int(np.prod(x.shape[:-1]))
    values = Tensor(np.asarray(x._value, np.int32).reshape(-1))
    splits = Tensor(np.arange(rows + 1, dtype=np.int64) * n)
    out = execute(UnicodeEncode, (values, splits), attrs)
    return Tensor(out._value.reshape(x.shape[:-1]))


@add_dispatch_support(elementwise=1)
def unicode_transcode(input, input_encoding, output_encoding, errors="replace",  # noqa: A002
                      replacement_char=65533, replace_control_characters=False,
                      name=None) -> Tensor:
    """Each string decoded from `input_encoding` and encoded in `output_encoding`, bad input
    handled as `errors` says (see `unicode_decode`).

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.unicode_transcode(["é"], "UTF-8", "UTF-16-BE").numpy()
        array([b'\\x00\\xe9'], dtype=object)
    """
    x = string_input("UnicodeTranscode", input)
    return execute(UnicodeTranscode, (x,), {
        "input_encoding": input_encoding,
        "output_encoding": _output_encoding("UnicodeTranscode", output_encoding),
        "errors_mode": _errors("UnicodeTranscode", errors),
        "replacement_char": int(replacement_char),
        "control": bool(replace_control_characters)})


@add_dispatch_support(elementwise=1)
def unicode_script(input, name=None) -> Tensor:  # noqa: A002
    """The script of each code point, as ICU's script codes (0 Common, 1 Inherited, 8
    Cyrillic, 17 Han, 25 Latin, 103 Unknown, ...); -1 for a value outside Unicode.

    Args:
        input: an int32 tensor of code points.

    Example:
        >>> import tapeflow as tf
        >>> tf.strings.unicode_script([65, 0x0410, 0x4E00]).numpy()
        array([25,  8, 17], dtype=int32)
    """
    x = as_input(input)
    if x.dtype is not dtypes.int32:
        raise errors.InvalidArgumentError(
            None, "UnicodeScript", f"cannot compute UnicodeScript as input #0(zero-based) was "
            f"expected to be a int32 tensor but is a {x.dtype.name} tensor")
    return execute(UnicodeScript, (x,), {})
