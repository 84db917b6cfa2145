"""Python structures as TF's StructuredValue protos (a SavedModel's function signatures)
and back: None, bools, numbers, strings, tuples, lists, dicts, named tuples, TensorSpecs."""
from __future__ import annotations

import collections

from ..framework.graph_def import dtype_enum, dtype_of_enum, proto_module, shape_proto
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec

__all__ = ["encode", "decode"]


def encode(value, proto=None):
    """`value` as a StructuredValue (written into `proto` when given).

    Raises:
        ValueError: a value of a type a SavedModel's signature cannot hold.
    """
    proto = proto_module("struct").StructuredValue() if proto is None else proto
    if value is None:
        proto.none_value.SetInParent()
    elif isinstance(value, bool):
        proto.bool_value = value
    elif isinstance(value, int):
        proto.int64_value = value
    elif isinstance(value, float):
        proto.float64_value = value
    elif isinstance(value, str):
        proto.string_value = value
    elif isinstance(value, TensorSpec):
        spec = proto.tensor_spec_value
        if value.name:
            spec.name = value.name
        shape_proto(TensorShape(value.shape), spec.shape)
        spec.dtype = dtype_enum(value.dtype)
    elif isinstance(value, tuple) and hasattr(value, "_fields"):
        named = proto.named_tuple_value
        named.name = type(value).__name__
        for key, item in zip(value._fields, value):
            encode(item, named.values.add(key=key).value)
    elif isinstance(value, tuple):
        proto.tuple_value.SetInParent()
        for item in value:
            encode(item, proto.tuple_value.values.add())
    elif isinstance(value, list):
        proto.list_value.SetInParent()
        for item in value:
            encode(item, proto.list_value.values.add())
    elif isinstance(value, dict):
        proto.dict_value.SetInParent()
        for key in sorted(value):
            encode(value[key], proto.dict_value.fields[key])
    else:
        raise ValueError(f"a SavedModel's function signature cannot hold {value!r} "
                         f"({type(value).__name__})")
    return proto


def decode(proto):
    """The Python value of a StructuredValue (TensorSpecs for tensor specs; a named tuple
    becomes a `collections.namedtuple` of its name)."""
    kind = proto.WhichOneof("kind")
    if kind in (None, "none_value"):
        return None
    if kind == "tensor_spec_value":
        spec = proto.tensor_spec_value
        shape = TensorShape(None) if spec.shape.unknown_rank else TensorShape(
            [None if d.size < 0 else d.size for d in spec.shape.dim])
        return TensorSpec(shape, dtype_of_enum(spec.dtype), spec.name or None)
    if kind == "tuple_value":
        return tuple(decode(v) for v in proto.tuple_value.values)
    if kind == "list_value":
        return [decode(v) for v in proto.list_value.values]
    if kind == "dict_value":
        return {k: decode(v) for k, v in sorted(proto.dict_value.fields.items())}
    if kind == "named_tuple_value":
        named = proto.named_tuple_value
        keys = [p.key for p in named.values]
        return collections.namedtuple(named.name, keys)(*[decode(p.value)
                                                         for p in named.values])
    return getattr(proto, kind)
