"""`tf.io.serialize_tensor` and `parse_tensor`: a tensor as the bytes of TF's TensorProto
(TensorBoard's copy of the message): its dtype, its shape and its elements' bytes
(`tensor_content`, little-endian), or for strings one `string_val` per element, which are
the bytes TF writes.

Example:
    >>> import tapeflow as tf
    >>> data = tf.io.serialize_tensor(tf.constant([1, 2]))
    >>> data.numpy().hex()
    '080312041202080222080100000002000000'
    >>> tf.io.parse_tensor(data, tf.int32)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
"""
from __future__ import annotations

import base64

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.tensor import convert_to_tensor
from ..protos import tensorboard_proto
from .table import decode_varint, encode_varint

__all__ = ["parse_tensor", "serialize_tensor", "tensor_proto_bytes", "array_from_proto"]


def _dtype_of(array: np.ndarray) -> dtypes.DType:
    return dtypes.string if array.dtype == object else dtypes.from_numpy(array.dtype)


def tensor_proto_bytes(array: np.ndarray, strings_as_content: bool = False) -> bytes:
    """The serialized TensorProto of `array` (an object array for strings), as TF's:
    strings one `string_val` each (serialize_tensor), or with `strings_as_content` as the
    varint lengths then the bytes in `tensor_content` (the form of saved datasets)."""
    proto = tensorboard_proto("tensor_pb2").TensorProto()
    dtype = _dtype_of(array)
    proto.dtype = dtype.as_datatype_enum
    proto.tensor_shape.SetInParent()
    for size in array.shape:
        proto.tensor_shape.dim.add(size=size)
    if dtype == dtypes.string and strings_as_content:
        elements = array.reshape(-1).tolist()
        proto.tensor_content = b"".join([encode_varint(len(e)) for e in elements] + elements)
    elif dtype == dtypes.string:
        proto.string_val.extend(array.reshape(-1).tolist())
    else:
        if array.dtype.byteorder == ">":
            array = array.astype(array.dtype.newbyteorder("<"))
        proto.tensor_content = np.ascontiguousarray(array).tobytes()
    return proto.SerializeToString()


def array_from_proto(proto, op: str = "ParseTensor") -> np.ndarray:
    """The array a TensorProto message holds (its `tensor_content`, or its typed values)."""
    dtype = dtypes.as_dtype(proto.dtype)
    shape = [dim.size for dim in proto.tensor_shape.dim]
    if dtype == dtypes.string and proto.tensor_content:
        return _content_strings(proto.tensor_content, shape, op)
    if dtype == dtypes.string:
        values = np.empty(len(proto.string_val), dtype=object)
        values[:] = list(proto.string_val)
        count = int(np.prod(shape, dtype=np.int64))
        if len(values) != count:
            values = np.resize(values, count) if len(values) else np.full(count, b"", object)
        return values.reshape(shape)
    if proto.tensor_content or not shape or 0 not in shape and not _typed_values(proto):
        content = np.frombuffer(proto.tensor_content, dtype=dtype.as_numpy_dtype)
        count = int(np.prod(shape, dtype=np.int64))
        if content.size != count:
            raise errors.InvalidArgumentError(
                None, op, f"{op}: the TensorProto's {content.size} elements do not fill its "
                          f"shape {shape}")
        return content.reshape(shape).copy()
    from ..tensor_util import make_ndarray  # the typed-value forms other writers use
    return make_ndarray(proto)


def _content_strings(content: bytes, shape, op: str) -> np.ndarray:
    count = int(np.prod(shape, dtype=np.int64))
    lengths, position = [], 0
    try:
        for _ in range(count):
            length, position = decode_varint(content, position)
            lengths.append(length)
    except (IndexError, ValueError):
        raise errors.InvalidArgumentError(None, op, f"{op}: bad string tensor content") from None
    values = np.empty(count, dtype=object)
    for index, length in enumerate(lengths):
        values[index] = content[position:position + length]
        position += length
    if position != len(content):
        raise errors.InvalidArgumentError(None, op, f"{op}: bad string tensor content")
    return values.reshape(shape)


def _typed_values(proto) -> bool:
    return any(len(getattr(proto, field)) for field in (
        "half_val", "float_val", "double_val", "int_val", "int64_val", "bool_val",
        "scomplex_val", "dcomplex_val", "uint32_val", "uint64_val"))


def _serialize(tensor):
    return np.array(tensor_proto_bytes(tensor), dtype=object)


def _parse(serialized, out_type):
    if serialized.shape != ():
        raise errors.InvalidArgumentError(
            None, "ParseTensor", "Expected `serialized` to be a scalar, got shape: "
                                 f"{list(serialized.shape)}")
    data = serialized.item()
    proto = tensorboard_proto("tensor_pb2").TensorProto()
    try:
        proto.ParseFromString(data)
    except Exception:  # protobuf's DecodeError
        raise errors.InvalidArgumentError(
            None, "ParseTensor", "Could not parse `serialized` as TensorProto, base64: "
                                 f"{base64.b64encode(data).decode()}") from None
    parsed = dtypes.as_dtype(proto.dtype) if proto.dtype else None
    if parsed != dtypes.as_dtype(out_type):
        raise errors.InvalidArgumentError(
            None, "ParseTensor", "Type mismatch between parsed tensor "
                                 f"({_type_word(parsed)}) and dtype "
                                 f"({dtypes.as_dtype(out_type).name})")
    return array_from_proto(proto)


def _type_word(dtype) -> str:
    # TF's message names a parsed type by its C++ name (float, double, ...)
    return {"float32": "float", "float64": "double", "string": "tstring"}.get(
        dtype.name, dtype.name) if dtype is not None else "invalid"


SerializeTensor = define_op("SerializeTensor", _serialize)
SerializeTensor.shape_fn = lambda inputs, attrs: [(np.dtype(object), ())]
ParseTensor = define_op("ParseTensor", _parse)
ParseTensor.shape_fn = lambda inputs, attrs: [
    (np.dtype(dtypes.as_dtype(attrs["out_type"]).as_numpy_dtype), None)]
no_gradient("SerializeTensor")
no_gradient("ParseTensor")


def serialize_tensor(tensor, name=None):
    """`tensor` as the bytes of TF's TensorProto, a string scalar.

    Args:
        tensor: a tensor (or a value converting to one).
        name: unused.

    Returns:
        A string scalar tensor.
    """
    return execute(SerializeTensor, (convert_to_tensor(tensor),), {})


def parse_tensor(serialized, out_type, name=None):
    """The tensor in the serialized TensorProto `serialized`.

    Args:
        serialized: a string scalar.
        out_type: the dtype it holds.
        name: unused.

    Returns:
        A tensor of `out_type`.

    Raises:
        InvalidArgumentError: `serialized` is not a scalar, not a TensorProto, or holds
            another dtype.
    """
    out_type = dtypes.as_dtype(out_type)
    return execute(ParseTensor, (convert_to_tensor(serialized, dtypes.string),),
                   {"out_type": out_type.name})
