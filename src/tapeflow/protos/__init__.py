"""TF's protocol-buffer schemas that the `tensorboard` package does not ship, written here
field for field (TF's field numbers) and built with `protobuf` on first use: one module per
schema (`tensor_bundle`, `example`, `snapshot`). The messages are registered in protobuf's
default pool beside TensorBoard's copies of TF's protos, so a field of TensorBoard's
`TensorShapeProto` type takes TensorBoard's messages. Like TensorBoard's copies they live in
a package of their own (`tapeflow`: `tapeflow.Example`), so TF's protos (package
`tensorflow`) can be loaded in the same process, before or after them; the bytes on the wire
are the same.

A schema is a dict of messages: name -> list of fields `(name, number, type, label,
type_name)`, `type` a protobuf type name ("int64", "message", "enum", ...), `label`
"optional" or "repeated", `type_name` the full name of a message or enum field's type
("tapeflow.Feature", "tensorboard.DataType").
Extra per-message entries: `"enums": {name: [(value_name, number), ...]}`, `"maps": {field:
(number, key_type, value_type, value_type_name)}`, `"oneofs": {oneof: [field names]}`,
(repeated numbers are packed, proto3's default, as TF's are).
"""
from __future__ import annotations

PACKAGE = "tapeflow"

_IMPORT_MESSAGE = ("TF's file formats (checkpoints, TFRecord, tf.train.Example) are read "
                   "and written with the `protobuf` and `tensorboard` packages: pip install "
                   "'tapeflow[tf-files]'")


def protobuf_modules():
    """(descriptor_pb2, descriptor_pool, message_factory), imported on first use.

    Raises:
        ImportError: protobuf is not installed (the message names the extra).
    """
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError as error:
        raise ImportError(_IMPORT_MESSAGE) from error
    return descriptor_pb2, descriptor_pool, message_factory


def tensorboard_proto(name: str):
    """TensorBoard's copy of one of TF's proto modules, `tensorboard.compat.proto.<name>`.

    Raises:
        ImportError: tensorboard is not installed (the message names the extra).
    """
    import importlib
    try:
        return importlib.import_module(f"tensorboard.compat.proto.{name}")
    except ImportError as error:
        raise ImportError(_IMPORT_MESSAGE) from error


def build_schema(file_name: str, schema: dict, dependencies=()) -> dict:
    """Registers `schema` (package `tapeflow`) in protobuf's default pool and returns its
    message classes by name (nested ones as "Outer.Inner").

    Args:
        file_name: the name the file takes in the pool.
        schema: the messages, as the module docstring describes.
        dependencies: TensorBoard proto module names (e.g. "tensor_shape_pb2") whose types
            fields refer to.

    Returns:
        A dict of message classes.
    """
    descriptor_pb2, descriptor_pool, message_factory = protobuf_modules()
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(file_name)
    except KeyError:
        field = descriptor_pb2.FieldDescriptorProto
        file = descriptor_pb2.FileDescriptorProto(name=file_name, package=PACKAGE,
                                                  syntax="proto3")
        for module in dependencies:
            file.dependency.append(tensorboard_proto(module).DESCRIPTOR.name)
        added_messages = {}
        for name, spec in schema.items():
            outer, _, inner = name.rpartition(".")
            container = added_messages[outer].nested_type if outer else file.message_type
            added_messages[name] = _add_message(container.add(name=inner), spec, name, field)
        pool.Add(file)
    classes = {}
    for name in schema:
        descriptor = pool.FindMessageTypeByName(f"{PACKAGE}.{name}")
        classes[name] = message_factory.GetMessageClass(descriptor)
    return classes


def _add_message(message, spec: dict, full_name: str, field):
    """Fills the DescriptorProto `message` from its schema entry."""
    oneofs = spec.get("oneofs", {})
    for oneof in oneofs:
        message.oneof_decl.add(name=oneof)
    for enum_name, values in spec.get("enums", {}).items():
        enum = message.enum_type.add(name=enum_name)
        for value_name, number in values:
            enum.value.add(name=value_name, number=number)
    for field_name, number, kind, label, type_name in spec["fields"]:
        added = message.field.add(
            name=field_name, number=number, type=getattr(field, f"TYPE_{kind.upper()}"),
            label=getattr(field, f"LABEL_{label.upper()}"),
            type_name=None if type_name is None else f".{type_name}")
        for index, members in enumerate(oneofs.values()):
            if field_name in members:
                added.oneof_index = index
    for field_name, (number, key, value, value_type) in spec.get("maps", {}).items():
        entry_name = "".join(part.title() for part in field_name.split("_")) + "Entry"
        entry = message.nested_type.add(name=entry_name)
        entry.options.map_entry = True
        entry.field.add(name="key", number=1, type=getattr(field, f"TYPE_{key.upper()}"),
                        label=field.LABEL_OPTIONAL)
        entry.field.add(name="value", number=2, type=getattr(field, f"TYPE_{value.upper()}"),
                        label=field.LABEL_OPTIONAL,
                        type_name=None if value_type is None else f".{value_type}")
        message.field.add(name=field_name, number=number, type=field.TYPE_MESSAGE,
                          label=field.LABEL_REPEATED,
                          type_name=f".{PACKAGE}.{full_name}.{entry_name}")
    return message
