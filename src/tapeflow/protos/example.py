"""TF's `feature.proto` and `example.proto`: the `tf.train.Example` family of messages
(BytesList, FloatList, Int64List, Feature, Features, FeatureList, FeatureLists, Example,
SequenceExample), field for field, so their bytes are TF's.

Example:
    >>> from tapeflow.protos import example
    >>> classes = example.messages()
    >>> feature = classes["Feature"](int64_list=classes["Int64List"](value=[1, 2]))
    >>> feature.SerializeToString()
    b'\\x1a\\x04\\n\\x02\\x01\\x02'
"""
from __future__ import annotations

from . import build_schema

_SCHEMA = {
    "BytesList": {"fields": [("value", 1, "bytes", "repeated", None)]},
    "FloatList": {"fields": [("value", 1, "float", "repeated", None)]},
    "Int64List": {"fields": [("value", 1, "int64", "repeated", None)]},
    "Feature": {
        "fields": [("bytes_list", 1, "message", "optional", "tapeflow.BytesList"),
                   ("float_list", 2, "message", "optional", "tapeflow.FloatList"),
                   ("int64_list", 3, "message", "optional", "tapeflow.Int64List")],
        "oneofs": {"kind": ["bytes_list", "float_list", "int64_list"]}},
    "Features": {"fields": [],
                 "maps": {"feature": (1, "string", "message", "tapeflow.Feature")}},
    "FeatureList": {"fields": [("feature", 1, "message", "repeated", "tapeflow.Feature")]},
    "FeatureLists": {"fields": [],
                     "maps": {"feature_list": (1, "string", "message",
                                               "tapeflow.FeatureList")}},
    "Example": {"fields": [("features", 1, "message", "optional", "tapeflow.Features")]},
    "SequenceExample": {
        "fields": [("context", 1, "message", "optional", "tapeflow.Features"),
                   ("feature_lists", 2, "message", "optional", "tapeflow.FeatureLists")]},
}

_MESSAGES = None


def messages() -> dict:
    """The schema's message classes by name (protobuf imported on first use).

    Raises:
        ImportError: protobuf is not installed.
    """
    global _MESSAGES
    if _MESSAGES is None:
        _MESSAGES = build_schema("tapeflow/protos/example.proto", _SCHEMA)
    return _MESSAGES
