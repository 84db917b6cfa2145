"""`Dataset.save` and `Dataset.load` in TF's format: a directory holding `dataset_spec.pb`
(the element spec as TF's StructuredValue), `snapshot.metadata` (a SnapshotMetadataRecord:
run id, dtypes, element count, finalized) and `<run id>/<shard, 8 digits>.shard/
00000000.snapshot`, TFRecord files (optionally GZIP/ZLIB) with one TensorProto record per
component of each element. TF reads what tapeflow saves and the reverse.

Example:
    >>> import os, tempfile
    >>> import tapeflow as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "saved")
    >>> tf.data.Dataset.range(3).save(path)
    >>> [int(x) for x in tf.data.Dataset.load(path)]
    [0, 1, 2]
"""
from __future__ import annotations

import collections
import os
import random
import time

from ..framework import dtypes, errors
from ..framework.graph_def import shape_proto
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..framework.string_values import as_value
from ..io import tf_record
from ..io.serialization import array_from_proto, tensor_proto_bytes
from ..protos import tensorboard_proto
from . import structure
from .dataset_ops import Dataset

__all__ = ["save", "load"]

_SPEC_FILE = "dataset_spec.pb"
_METADATA_FILE = "snapshot.metadata"
_VERSION = 2


def _encode_spec(spec, value) -> None:
    """Fills the StructuredValue `value` with the element spec `spec`."""
    if isinstance(spec, TensorSpec):
        value.tensor_spec_value.SetInParent()
        if spec.name:
            value.tensor_spec_value.name = spec.name
        value.tensor_spec_value.shape.SetInParent()
        shape_proto(spec.shape, value.tensor_spec_value.shape)
        value.tensor_spec_value.dtype = spec.dtype.as_datatype_enum
    elif isinstance(spec, tuple) and hasattr(spec, "_fields"):
        value.named_tuple_value.name = type(spec).__name__
        for key, item in zip(spec._fields, spec):
            pair = value.named_tuple_value.values.add(key=key)
            _encode_spec(item, pair.value)
    elif isinstance(spec, tuple):
        value.tuple_value.SetInParent()
        for item in spec:
            _encode_spec(item, value.tuple_value.values.add())
    elif isinstance(spec, dict):
        value.dict_value.SetInParent()
        for key in sorted(spec):
            _encode_spec(spec[key], value.dict_value.fields[key])
    else:
        raise TypeError(f"Dataset.save: elements with a {type(spec).__name__} component are "
                        "not supported (tensors in tuples, dicts and namedtuples are)")


def _decode_spec(value, path: str):
    kind = value.WhichOneof("kind")
    if kind == "tensor_spec_value":
        proto = value.tensor_spec_value
        shape = TensorShape(None) if proto.shape.unknown_rank else TensorShape(
            [None if d.size < 0 else d.size for d in proto.shape.dim])
        return TensorSpec(shape, dtypes.as_dtype(proto.dtype), proto.name or None)
    if kind in ("tuple_value", "list_value"):
        items = tuple(_decode_spec(v, path) for v in getattr(value, kind).values)
        return items if kind == "tuple_value" else list(items)
    if kind == "dict_value":
        return {key: _decode_spec(value.dict_value.fields[key], path)
                for key in sorted(value.dict_value.fields)}
    if kind == "named_tuple_value":
        pairs = value.named_tuple_value.values
        kind_type = collections.namedtuple(value.named_tuple_value.name, [p.key for p in pairs])
        return kind_type(*[_decode_spec(p.value, path) for p in pairs])
    raise errors.UnimplementedError(None, None, f"{path}: an element spec of kind {kind}, "
                                                "which tapeflow does not read")


def save(dataset: Dataset, path, compression=None, shard_func=None,
         checkpoint_args=None) -> None:
    """Writes every element of `dataset` under the directory `path` (see the module).

    Args:
        dataset: the dataset.
        path: the directory (made if missing).
        compression: None, "GZIP" or "ZLIB".
        shard_func: element -> int64 shard index (default: one shard).
        checkpoint_args: not supported (None).

    Raises:
        TypeError: an element component is not a plain tensor.
        ValueError: a bad compression or `checkpoint_args`.
    """
    if checkpoint_args is not None:
        raise ValueError("Dataset.save: checkpoint_args (resumable saving) is not supported")
    path = os.fspath(path)
    spec = dataset.element_spec
    spec_value = tensorboard_proto("struct_pb2").StructuredValue()
    _encode_spec(spec, spec_value)
    leaves = structure.flatten(spec)
    options = tf_record.TFRecordOptions(compression or "")
    run_id = str(random.getrandbits(63))
    run_directory = os.path.join(path, run_id)
    writers, count = {}, 0
    try:
        for element in dataset._elements():
            shard = 0
            if shard_func is not None:
                chosen = shard_func(*element) if type(element) is tuple else \
                    shard_func(element)
                shard = int(chosen.numpy() if hasattr(chosen, "numpy") else chosen)
            writer = writers.get(shard)
            if writer is None:
                shard_directory = os.path.join(run_directory, f"{shard:08d}.shard")
                os.makedirs(shard_directory, exist_ok=True)
                writer = writers[shard] = tf_record.TFRecordWriter(
                    os.path.join(shard_directory, "00000000.snapshot"), options)
            for leaf in structure.flatten(element):
                writer.write(tensor_proto_bytes(structure.leaf_array(leaf),
                                                strings_as_content=True))
            count += 1
    finally:
        for writer in writers.values():
            writer.close()
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, _SPEC_FILE), "wb") as file:
        file.write(spec_value.SerializeToString())
    from ..protos import snapshot
    metadata = snapshot.messages()["SnapshotMetadataRecord"](
        run_id=run_id, creation_timestamp=int(time.time() * 1e6), version=_VERSION,
        num_elements=count, finalized=True)
    metadata.dtype.extend(leaf.dtype.as_datatype_enum for leaf in leaves)
    with open(os.path.join(path, _METADATA_FILE), "wb") as file:
        file.write(metadata.SerializeToString())


class SnapshotDataset(Dataset):
    """The elements `Dataset.save` wrote under a directory (see `Dataset.load`)."""

    def __init__(self, path, element_spec, compression) -> None:
        self._path = os.fspath(path)
        self._compression = tf_record.TFRecordOptions.get_compression_type_string(
            compression or "")
        self._metadata = self._read_metadata()
        self._spec = element_spec if element_spec is not None else self._read_spec()

    def _read_spec(self):
        spec_path = os.path.join(self._path, _SPEC_FILE)
        if not os.path.exists(spec_path):
            raise errors.NotFoundError(None, None, "tf.data snapshot element_spec file not "
                                                   f"found: {spec_path}.")
        value = tensorboard_proto("struct_pb2").StructuredValue()
        with open(spec_path, "rb") as file:
            try:
                value.ParseFromString(file.read())
            except Exception:  # protobuf's DecodeError
                raise errors.DataLossError(None, None, f"{spec_path}: not an element spec "
                                                       "(StructuredValue)") from None
        return _decode_spec(value, spec_path)

    def _read_metadata(self):
        from ..protos import snapshot
        metadata_path = os.path.join(self._path, _METADATA_FILE)
        if not os.path.exists(metadata_path):
            raise errors.NotFoundError(None, None, "tf.data snapshot metadata file not found: "
                                                   f"{metadata_path}.")
        record = snapshot.messages()["SnapshotMetadataRecord"]()
        with open(metadata_path, "rb") as file:
            try:
                record.ParseFromString(file.read())
            except Exception:  # protobuf's DecodeError
                raise errors.DataLossError(None, None, f"{metadata_path}: not a "
                                                       "SnapshotMetadataRecord") from None
        if not record.finalized:
            raise errors.FailedPreconditionError(None, None, f"The dataset saved at "
                                                             f"{self._path} is not finished")
        return record

    def _compute_spec(self):
        return self._spec

    def _cardinality(self) -> int:
        return self._metadata.num_elements

    def _elements(self):
        run_directory = os.path.join(self._path, self._metadata.run_id)
        count = len(structure.flatten(self._spec))
        shards = sorted(name for name in os.listdir(run_directory) if name.endswith(".shard")) \
            if os.path.isdir(run_directory) else []
        tensor_proto = tensorboard_proto("tensor_pb2").TensorProto
        for shard in shards:
            directory = os.path.join(run_directory, shard)
            for name in sorted(os.listdir(directory)):
                path = os.path.join(directory, name)
                pending = []
                for record in tf_record.read_records(path, self._compression):
                    proto = tensor_proto()
                    try:
                        proto.ParseFromString(record)
                    except Exception:  # protobuf's DecodeError
                        raise errors.DataLossError(None, None, f"{path}: a record is not a "
                                                               "TensorProto") from None
                    pending.append(Tensor(as_value(array_from_proto(proto, "Dataset.load"))))
                    if len(pending) == count:
                        yield structure.pack(self._spec, pending)
                        pending = []
                if pending:
                    raise errors.DataLossError(None, None, f"{path}: ends inside an element")


def load(path, element_spec=None, compression=None, reader_func=None, wait=False) -> Dataset:
    """The dataset `Dataset.save` wrote under `path`, TF's or tapeflow's.

    Args:
        path: the directory.
        element_spec: the element spec (default: the one saved).
        compression: the compression it was saved with (None, "GZIP", "ZLIB").
        reader_func: not supported (None: the shards in order).
        wait: unused (the save must be finished).

    Raises:
        NotFoundError: no saved dataset at `path`.
        DataLossError: (while iterating) damaged files, naming them.
    """
    if reader_func is not None:
        raise ValueError("Dataset.load: reader_func is not supported; the shards are read "
                         "in order")
    return SnapshotDataset(path, element_spec, compression)
