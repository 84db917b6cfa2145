"""`tf.io.decode_raw` (the bytes of strings as numbers) and `tf.io.decode_compressed` (ZLIB
or GZIP streams inflated), ops on string tensors.

Example:
    >>> import tapeflow as tf
    >>> tf.io.decode_raw(tf.constant([b"\\x01\\x00\\x02\\x00"]), tf.int16)
    <tf.Tensor: shape=(1, 2), dtype=int16, numpy=array([[1, 2]], dtype=int16)>
"""
from __future__ import annotations

import zlib

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.tensor import convert_to_tensor

__all__ = ["decode_compressed", "decode_raw"]

# TF's names for the element types in its messages
_WORDS = {"float32": "float", "float64": "double"}


def _decode_raw(data, *, out_type, little_endian, fixed_length):
    dtype = np.dtype(dtypes.as_dtype(out_type).as_numpy_dtype)
    elements = data.reshape(-1).tolist()
    if fixed_length is not None:
        elements = [e[:fixed_length].ljust(fixed_length, b"\0") for e in elements]
    size = len(elements[0]) if elements else 0
    for index, element in enumerate(elements):
        if len(element) != size:
            raise errors.InvalidArgumentError(
                None, "DecodeRaw", "DecodeRaw requires input strings to all be the same size, "
                                   f"but element {index} has size {len(element)} != {size}")
    if size % dtype.itemsize:
        raise errors.InvalidArgumentError(
            None, "DecodeRaw", f"Input to DecodeRaw has length {size} that is not a multiple "
                               f"of {dtype.itemsize}, the size of "
                               f"{_WORDS.get(dtype.name, dtype.name)}")
    order = dtype.newbyteorder("<" if little_endian else ">")
    values = np.frombuffer(b"".join(elements), dtype=order).astype(dtype)
    return values.reshape(data.shape + (size // dtype.itemsize,))


def _decode_compressed(data, *, compression_type):
    if compression_type not in ("", "ZLIB", "GZIP"):
        raise errors.InvalidArgumentError(None, "DecodeCompressed", "Only ZLIB, GZIP or NONE "
                                                                    "are supported compressions")
    out = np.empty(data.shape, dtype=object)
    bits = zlib.MAX_WBITS + 16 if compression_type == "GZIP" else zlib.MAX_WBITS
    for index, element in np.ndenumerate(data):
        if not compression_type:
            out[index] = element
            continue
        try:
            out[index] = zlib.decompress(element, bits)
        except zlib.error as error:
            raise errors.DataLossError(None, "DecodeCompressed",
                                       f"inflate() failed: {error}") from None
    return out


def _raw_specs(inputs, attrs):
    dims = inputs[0]._dims
    dtype = np.dtype(dtypes.as_dtype(attrs["out_type"]).as_numpy_dtype)
    last = None if attrs["fixed_length"] is None else attrs["fixed_length"] // dtype.itemsize
    return [(dtype, None if dims is None else dims + (last,))]


DecodeRaw = define_op("DecodeRaw", _decode_raw)
DecodeRaw.shape_fn = _raw_specs
DecodeCompressed = define_op("DecodeCompressed", _decode_compressed)
DecodeCompressed.shape_fn = lambda inputs, attrs: [(np.dtype(object), inputs[0]._dims)]
no_gradient("DecodeRaw")
no_gradient("DecodeCompressed")


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """The bytes of each string as numbers of `out_type`: shape `input.shape + [n]`.

    Args:
        input_bytes: a string tensor whose elements all have the same length (or use
            `fixed_length`).
        out_type: the numbers' dtype.
        little_endian: the byte order.
        fixed_length: cut or zero-pad each element to this many bytes.
        name: unused.

    Raises:
        InvalidArgumentError: lengths differ, or are not a multiple of the type's size.
    """
    return execute(DecodeRaw, (convert_to_tensor(input_bytes, dtypes.string),),
                   {"out_type": dtypes.as_dtype(out_type).name,
                    "little_endian": bool(little_endian),
                    "fixed_length": None if fixed_length is None else int(fixed_length)})


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002  (TF's name)
    """Each string inflated: `compression_type` "ZLIB", "GZIP" or "" (as it is).

    Raises:
        DataLossError: an element is not such a stream.
        InvalidArgumentError: another compression type.

    Example:
        >>> import zlib
        >>> import tapeflow as tf
        >>> tf.io.decode_compressed(zlib.compress(b"hi"), "ZLIB").numpy()
        b'hi'
    """
    return execute(DecodeCompressed, (convert_to_tensor(bytes, dtypes.string),),
                   {"compression_type": compression_type or ""})
