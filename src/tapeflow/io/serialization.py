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

__all__ = ["deserialize_many_sparse", "parse_tensor", "serialize_many_sparse",
           "serialize_sparse", "serialize_tensor", "tensor_proto_bytes", "array_from_proto"]


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


# -- SparseTensors as three serialized TensorProtos ---------------------------------------
def _proto_strings(arrays) -> np.ndarray:
    out = np.empty(len(arrays), dtype=object)
    out[:] = [tensor_proto_bytes(np.asarray(a) if a.dtype != object else a,
                                 strings_as_content=True) for a in arrays]
    return out


def _serialize_sparse(indices, values, dense_shape):
    return _proto_strings([indices, values, dense_shape])


def _serialize_many_sparse(indices, values, dense_shape):
    if len(dense_shape) < 2:
        raise errors.InvalidArgumentError(None, "SerializeManySparse", "SerializeManySparse: "
                                          "the SparseTensor must have rank 2 or more, got "
                                          f"dense_shape {dense_shape.tolist()}")
    rows = np.empty((int(dense_shape[0]), 3), dtype=object)
    for row in range(rows.shape[0]):
        keep = indices[:, 0] == row
        rows[row] = _proto_strings([np.ascontiguousarray(indices[keep][:, 1:]), values[keep],
                                    dense_shape[1:]])
    return rows


def _deserialize_many_sparse(serialized, *, dtype, rank):
    op = "DeserializeManySparse"
    if serialized.ndim != 2 or serialized.shape[1] != 3:
        raise errors.InvalidArgumentError(None, op, "Serialized sparse should be a matrix with "
                                          f"3 columns, got shape {list(serialized.shape)}")
    proto = tensorboard_proto("tensor_pb2").TensorProto
    indices, values, shapes = [], [], []
    for row, (index_data, value_data, shape_data) in enumerate(serialized.tolist()):
        parts = []
        for data in (index_data, value_data, shape_data):
            message = proto()
            try:
                message.ParseFromString(data)
            except Exception:  # protobuf's DecodeError
                raise errors.InvalidArgumentError(None, op, "Could not parse serialized sparse "
                                                            f"row {row}") from None
            parts.append(array_from_proto(message, op))
        if parts[1].dtype != np.dtype(dtypes.as_dtype(dtype).as_numpy_dtype):
            raise errors.InvalidArgumentError(
                None, op, f"Requested SparseTensor of type {dtypes.as_dtype(dtype).name} but "
                          f"SparseTensor[{row}].values.dtype() == {_dtype_of(parts[1]).name}")
        index = parts[0].reshape(-1, len(parts[2]))
        indices.append(np.concatenate([np.full((len(index), 1), row, np.int64), index], 1))
        values.append(parts[1])
        shapes.append(parts[2])
    if not shapes:
        width = (rank or 1)
        return (np.empty((0, width), np.int64), np.empty(0, dtypes.as_dtype(dtype).as_numpy_dtype),
                np.zeros(width, np.int64))
    dense = np.concatenate([[len(shapes)], np.max(shapes, axis=0)]).astype(np.int64)
    return np.concatenate(indices), np.concatenate(values), dense


SerializeSparse = define_op("SerializeSparse", _serialize_sparse)
SerializeSparse.shape_fn = lambda inputs, attrs: [(np.dtype(object), (3,))]
SerializeManySparse = define_op("SerializeManySparse", _serialize_many_sparse)
SerializeManySparse.shape_fn = lambda inputs, attrs: [(np.dtype(object), (None, 3))]
DeserializeManySparse = define_op("DeserializeManySparse", _deserialize_many_sparse,
                                  num_outputs=3)
DeserializeManySparse.shape_fn = lambda inputs, attrs: [
    (np.dtype(np.int64), (None, attrs["rank"])),
    (np.dtype(dtypes.as_dtype(attrs["dtype"]).as_numpy_dtype), (None,)),
    (np.dtype(np.int64), (attrs["rank"],))]
for _op in ("SerializeSparse", "SerializeManySparse", "DeserializeManySparse"):
    no_gradient(_op)


def _sparse_parts(sp_input, what: str):
    if not hasattr(sp_input, "dense_shape"):
        raise TypeError(f"{what}: expected a SparseTensor, got {type(sp_input).__name__}")
    return (sp_input.indices, sp_input.values, sp_input.dense_shape)


def _string_out(out_type, what: str) -> None:
    if dtypes.as_dtype(out_type) != dtypes.string:
        raise TypeError(f"{what}: only out_type=tf.string is supported, got "
                        f"{dtypes.as_dtype(out_type).name}")


def serialize_sparse(sp_input, out_type=dtypes.string, name=None):
    """A SparseTensor as three serialized TensorProtos (indices, values, dense_shape), a
    [3] string tensor (TF's bytes).

    Example:
        >>> import tapeflow as tf
        >>> sp = tf.SparseTensor([[0, 1]], [1.5], [2, 2])
        >>> tf.io.serialize_sparse(sp).shape
        TensorShape([3])
    """
    _string_out(out_type, "serialize_sparse")
    return execute(SerializeSparse, _sparse_parts(sp_input, "serialize_sparse"), {})


def serialize_many_sparse(sp_input, out_type=dtypes.string, name=None):
    """Each row of a SparseTensor of rank >= 2 serialized as `serialize_sparse` does: an
    [N, 3] string tensor."""
    _string_out(out_type, "serialize_many_sparse")
    return execute(SerializeManySparse, _sparse_parts(sp_input, "serialize_many_sparse"), {})


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """The SparseTensor whose rows are the [N, 3] serialized SparseTensors, stacked with each
    dimension the largest row's.

    Raises:
        InvalidArgumentError: not an [N, 3] string tensor of them, or another dtype.

    Example:
        >>> import tapeflow as tf
        >>> sp = tf.SparseTensor([[0, 1], [2, 0]], [1.5, 2.0], [3, 2])
        >>> back = tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(sp), tf.float32)
        >>> back.indices.numpy().tolist(), back.dense_shape.numpy().tolist()
        ([[0, 1], [2, 0]], [3, 2])
    """
    from ..framework.sparse_tensor import SparseTensor
    parts = execute(DeserializeManySparse,
                    (convert_to_tensor(serialized_sparse, dtypes.string),),
                    {"dtype": dtypes.as_dtype(dtype).name,
                     "rank": None if rank is None else int(rank)})
    return SparseTensor(*parts)
