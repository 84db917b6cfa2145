"""TF's `saved_model.proto`: the SavedModel message (a schema version and its
MetaGraphDefs, TensorBoard's `meta_graph_pb2.MetaGraphDef`), field for field.

Example:
    >>> from tapeflow.protos import saved_model
    >>> model = saved_model.messages()["SavedModel"](saved_model_schema_version=1)
    >>> model.SerializeToString()
    b'\\x08\\x01'
"""
from __future__ import annotations

from . import build_schema

_SCHEMA = {
    "SavedModel": {
        "fields": [("saved_model_schema_version", 1, "int64", "optional", None),
                   ("meta_graphs", 2, "message", "repeated", "tensorboard.MetaGraphDef")]},
}

_MESSAGES = None


def messages() -> dict:
    """The schema's message classes by name (protobuf imported on first use).

    Raises:
        ImportError: protobuf or tensorboard is not installed.
    """
    global _MESSAGES
    if _MESSAGES is None:
        _MESSAGES = build_schema("tapeflow/protos/saved_model.proto", _SCHEMA,
                                 dependencies=("meta_graph_pb2",))
    return _MESSAGES
