"""TF's `tensor_bundle.proto` (BundleHeaderProto, BundleEntryProto) and the TensorSliceProto
its entries refer to: the messages of a checkpoint's `.index` table.

Example:
    >>> from tapeflow.protos import tensor_bundle
    >>> header = tensor_bundle.messages()["BundleHeaderProto"](num_shards=1)
    >>> header.SerializeToString()
    b'\\x08\\x01'
"""
from __future__ import annotations

from . import build_schema

_SCHEMA = {
    "TensorSliceProto": {
        "fields": [("extent", 1, "message", "repeated", "tapeflow.TensorSliceProto.Extent")]},
    "TensorSliceProto.Extent": {
        "fields": [("start", 1, "int64", "optional", None),
                   ("length", 2, "int64", "optional", None)],
        "oneofs": {"has_length": ["length"]}},
    "BundleHeaderProto": {
        "enums": {"Endianness": [("LITTLE", 0), ("BIG", 1)]},
        "fields": [("num_shards", 1, "int32", "optional", None),
                   ("endianness", 2, "enum", "optional",
                    "tapeflow.BundleHeaderProto.Endianness"),
                   ("version", 3, "message", "optional", "tensorboard.VersionDef")]},
    "BundleEntryProto": {
        "fields": [("dtype", 1, "enum", "optional", "tensorboard.DataType"),
                   ("shape", 2, "message", "optional", "tensorboard.TensorShapeProto"),
                   ("shard_id", 3, "int32", "optional", None),
                   ("offset", 4, "int64", "optional", None),
                   ("size", 5, "int64", "optional", None),
                   ("crc32c", 6, "fixed32", "optional", None),
                   ("slices", 7, "message", "repeated", "tapeflow.TensorSliceProto")]},
}

_MESSAGES = None


def messages() -> dict:
    """The schema's message classes by name (protobuf imported on first use).

    Raises:
        ImportError: protobuf or tensorboard is not installed.
    """
    global _MESSAGES
    if _MESSAGES is None:
        _MESSAGES = build_schema("tapeflow/protos/tensor_bundle.proto", _SCHEMA,
                                 ("types_pb2", "tensor_shape_pb2", "versions_pb2"))
    return _MESSAGES
