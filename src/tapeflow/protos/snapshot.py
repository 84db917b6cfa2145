"""TF's `snapshot.proto` message SnapshotMetadataRecord: the `snapshot.metadata` file of a
dataset saved with `Dataset.save`.

Example:
    >>> from tapeflow.protos import snapshot
    >>> record = snapshot.messages()["SnapshotMetadataRecord"](version=2, num_elements=3)
    >>> record.SerializeToString()
    b' \\x020\\x03'
"""
from __future__ import annotations

from . import build_schema

_SCHEMA = {
    "SnapshotMetadataRecord": {
        "fields": [("graph_hash", 1, "string", "optional", None),
                   ("run_id", 2, "string", "optional", None),
                   ("creation_timestamp", 3, "int64", "optional", None),
                   ("version", 4, "int64", "optional", None),
                   ("dtype", 5, "enum", "repeated", "tensorboard.DataType"),
                   ("num_elements", 6, "int64", "optional", None),
                   ("finalized", 1000, "bool", "optional", None)]},
}

_MESSAGES = None


def messages() -> dict:
    """The schema's message classes by name (protobuf imported on first use).

    Raises:
        ImportError: protobuf or tensorboard is not installed.
    """
    global _MESSAGES
    if _MESSAGES is None:
        _MESSAGES = build_schema("tapeflow/protos/snapshot.proto", _SCHEMA, ("types_pb2",))
    return _MESSAGES
