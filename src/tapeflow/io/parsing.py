"""`tf.io.parse_example`, `parse_single_example`, `parse_sequence_example` and
`parse_single_sequence_example`: serialized `tf.train.Example`s and `SequenceExample`s
parsed into tensors as the feature configurations say (dense tensors, SparseTensors,
RaggedTensors), by two ops that run inside tf.function and Dataset.map too.

Example:
    >>> import tapeflow as tf
    >>> example = tf.train.Example(features=tf.train.Features(feature={
    ...     "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0]))}))
    >>> parsed = tf.io.parse_single_example(example.SerializeToString(),
    ...                                     {"x": tf.io.FixedLenFeature([2], tf.float32)})
    >>> parsed["x"].numpy()
    array([1., 2.], dtype=float32)
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from .parsing_config import (FixedLenFeature, FixedLenSequenceFeature, RaggedFeature,
                             SparseFeature, VarLenFeature)

__all__ = ["parse_example", "parse_sequence_example", "parse_single_example",
           "parse_single_sequence_example"]

_LISTS = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}
_WORDS = {"float32": "float", "int64": "int64", "string": "string", "float_list": "float",
          "int64_list": "int64", "bytes_list": "string"}
_PARTITIONS = {RaggedFeature.RowSplits: "row_splits", RaggedFeature.RowLengths: "row_lengths",
               RaggedFeature.RowStarts: "row_starts", RaggedFeature.RowLimits: "row_limits",
               RaggedFeature.ValueRowIds: "value_rowids",
               RaggedFeature.UniformRowLength: "uniform_row_length"}


def _error(op: str, message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, op, message)


def _np_dtype(dtype: str):
    return object if dtype == "string" else np.dtype(dtype)


def _array(values, dtype: str) -> np.ndarray:
    if dtype == "string":
        out = np.empty(len(values), dtype=object)
        out[:] = list(values)
        return out
    return np.array(values, dtype=dtype)


def _empty(shape, dtype: str) -> np.ndarray:
    return np.empty(shape, dtype=_np_dtype(dtype))


# -- the configurations as hashable op attributes ------------------------------------------
def _dtype_name(dtype, key) -> str:
    name = dtypes.as_dtype(dtype).name
    if name not in _LISTS:
        raise errors.InvalidArgumentError(
            None, "ParseExampleV2", f"Unsupported dtype {name} for feature {key!r}: a feature "
                                    "is float32, int64 or string")
    return name


def _default(value, dtype: str, shape, key):
    if value is None:
        return None
    array = np.asarray(value.numpy() if hasattr(value, "numpy") else value,
                       dtype=_np_dtype(dtype))
    if dtype == "string":
        array = np.vectorize(lambda v: v.encode() if isinstance(v, str) else v,
                             otypes=[object])(array) if array.size else array
    if shape is not None:
        if array.size != int(np.prod(shape)):
            raise errors.InvalidArgumentError(
                None, "ParseExampleV2", f"Feature {key!r}: default_value has {array.size} "
                                        f"values, its shape {list(shape)} needs "
                                        f"{int(np.prod(shape))}")
        array = array.reshape(shape)
    return tuple(array.reshape(-1).tolist()), array.shape


def _spec(key: str, feature, sequence: bool):
    """One feature configuration as a tuple of plain values (an op attribute)."""
    if isinstance(feature, VarLenFeature):
        return ("varlen", key, _dtype_name(feature.dtype, key))
    if isinstance(feature, FixedLenSequenceFeature):
        if not sequence and not feature.allow_missing:
            raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to "
                             "be True.")
        dtype = _dtype_name(feature.dtype, key)
        return ("rows", key, dtype, tuple(int(d) for d in feature.shape),
                _default(feature.default_value, dtype, None, key), feature.allow_missing)
    if isinstance(feature, FixedLenFeature):
        if sequence:
            raise ValueError(f"Feature {key!r}: sequence features are FixedLenSequenceFeature, "
                             "VarLenFeature or RaggedFeature, not FixedLenFeature")
        dtype = _dtype_name(feature.dtype, key)
        shape = tuple(int(d) for d in feature.shape)
        return ("dense", key, dtype, shape, _default(feature.default_value, dtype, shape, key))
    if isinstance(feature, SparseFeature):
        if sequence:
            raise ValueError(f"Feature {key!r}: SparseFeature is not a sequence feature")
        index_keys = tuple([feature.index_key] if isinstance(feature.index_key, str)
                           else feature.index_key)
        size = tuple([feature.size] if isinstance(feature.size, int) else feature.size)
        if len(size) != len(index_keys):
            raise ValueError(f"SparseFeature {key!r}: {len(index_keys)} index keys but a "
                             f"size of {len(size)} dimensions")
        return ("sparse", key, index_keys, feature.value_key,
                _dtype_name(feature.dtype, key), tuple(int(s) for s in size),
                bool(feature.already_sorted))
    if isinstance(feature, RaggedFeature):
        partitions = tuple((_PARTITIONS[type(p)], p[0]) for p in feature.partitions)
        if sequence and partitions:
            raise ValueError(f"RaggedFeature {key!r}: partitions of sequence features are not "
                             "supported")
        splits = dtypes.as_dtype(feature.row_splits_dtype).name
        if splits not in ("int32", "int64"):
            raise ValueError(f"RaggedFeature {key!r}: row_splits_dtype is int32 or int64")
        return ("ragged", key, feature.value_key or key, _dtype_name(feature.dtype, key),
                partitions, splits)
    raise ValueError(f"Invalid feature {key}:{feature!r}: a FixedLenFeature, "
                     "FixedLenSequenceFeature, VarLenFeature, SparseFeature or RaggedFeature")


def _specs(features, sequence: bool) -> tuple:
    specs = tuple(_spec(key, features[key], sequence) for key in sorted(features or {}))
    sparse = {s[1] for s in specs if s[0] in ("varlen", "sparse")}
    ragged = {s[2] for s in specs if s[0] == "ragged"}  # the features the values come from
    if sparse & ragged:
        raise ValueError(f"Ragged and sparse keys must not intersect; ragged_keys: "
                         f"{sorted(ragged)}, sparse_keys: {sorted(sparse)}, intersection: "
                         f"{sparse & ragged}")
    return specs


def _output_count(spec, batched: bool, sequence: bool) -> int:
    if spec[0] in ("dense", "rows"):
        return 1
    if spec[0] in ("varlen", "sparse"):
        return 3
    return 1 + int(batched) + int(sequence) + len(spec[4])


# -- reading one feature's values ----------------------------------------------------------
def _values(feature, dtype: str, key: str, op: str) -> np.ndarray:
    kind = feature.WhichOneof("kind")
    if kind is None:
        return _empty(0, dtype)
    if kind != _LISTS[dtype]:
        raise _error(op, f"Key: {key}.  Data types don't match. Data type: {_WORDS[kind]} but "
                         f"expected type: {_WORDS[dtype]}")
    return _array(getattr(feature, kind).value, dtype)


def _present(fmap, key: str):
    """The feature `key` of a feature map, or None (a feature without a list is missing)."""
    if key in fmap:
        feature = fmap[key]
        if feature.WhichOneof("kind") is not None:
            return feature
    return None


# -- features of examples ------------------------------------------------------------------
def _dense(maps, spec, batched, op):
    _, key, dtype, shape, default = spec
    size = int(np.prod(shape))
    rows = []
    for index, fmap in enumerate(maps):
        feature = _present(fmap, key)
        if feature is None:
            if default is None:
                raise _error(op, f"Name: <unknown>, Feature: {key} (data type: "
                                 f"{_WORDS[dtype]}) is required but could not be found.")
            rows.append(np.array(default[0], dtype=_np_dtype(dtype)).reshape(shape))
            continue
        values = _values(feature, dtype, key, op)
        if values.size != size:
            raise _error(op, f"Name: <unknown>, Key: {key}, Index: {index}.  Number of "
                             f"{_WORDS[dtype]} values != expected.  Values size: "
                             f"{values.size} but output shape: {list(shape)}")
        rows.append(values.reshape(shape))
    out = np.stack(rows) if rows else _empty((0,) + shape, dtype)
    return [out if batched else out[0]]


def _padded(rows: list, row_shape: tuple, dtype: str, default) -> np.ndarray:
    """Row blocks of different lengths stacked, padded to the longest."""
    longest = max((len(r) for r in rows), default=0)
    fill = default[0][0] if default is not None else (b"" if dtype == "string" else 0)
    out = np.full((len(rows), longest) + row_shape, fill, dtype=_np_dtype(dtype))
    for index, block in enumerate(rows):
        out[index, :len(block)] = block
    return out


def _rows(maps, spec, batched, op):
    _, key, dtype, shape, default, _ = spec
    size = int(np.prod(shape))
    rows = []
    for index, fmap in enumerate(maps):
        feature = _present(fmap, key)
        values = _empty(0, dtype) if feature is None else _values(feature, dtype, key, op)
        if size == 0 or values.size % size:
            if values.size or size == 0:
                raise _error(op, f"Name: <unknown>, Key: {key}, Index: {index}.  Number of "
                                 f"{_WORDS[dtype]} values is not a multiple of stride "
                                 f"length. Saw {values.size} values but output shape is: "
                                 f"{list(shape)}")
        rows.append(values.reshape((-1,) + shape))
    out = _padded(rows, shape, dtype, default)
    return [out if batched else out[0]]


def _sparse_parts(per_example_values, dtype, batched, extra_index=None, size=None):
    """indices, values and dense_shape of a SparseTensor whose row b holds the values
    per_example_values[b] (at positions 0.., or at `extra_index[b]`)."""
    counts = [len(v) for v in per_example_values]
    values = np.concatenate(per_example_values) if counts else _empty(0, dtype)
    if dtype == "string" and values.dtype != object:
        values = values.astype(object)
    rows = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    if extra_index is None:
        columns = np.concatenate([np.arange(c, dtype=np.int64) for c in counts]) if counts \
            else np.empty(0, np.int64)
        positions = columns[:, None]
        dense = [max(counts, default=0)]
    else:
        width = len(size)
        positions = np.concatenate([p.reshape(-1, width) for p in extra_index]) if counts \
            else np.empty((0, width), np.int64)
        dense = list(size)
    if batched:
        indices = np.concatenate([rows[:, None], positions], axis=1)
        shape = [len(counts)] + dense
    else:
        indices, shape = positions, dense
    return [indices.astype(np.int64), values, np.array(shape, np.int64)]


def _varlen(maps, spec, batched, op):
    _, key, dtype = spec
    per_example = []
    for fmap in maps:
        feature = _present(fmap, key)
        per_example.append(_empty(0, dtype) if feature is None
                           else _values(feature, dtype, key, op))
    return _sparse_parts(per_example, dtype, batched)


def _sparse(maps, spec, batched, op):
    _, key, index_keys, value_key, dtype, size, already_sorted = spec
    per_values, per_indices = [], []
    for index, fmap in enumerate(maps):
        feature = _present(fmap, value_key)
        values = _empty(0, dtype) if feature is None else _values(feature, dtype, value_key, op)
        columns = []
        for index_key in index_keys:
            found = _present(fmap, index_key)
            column = _empty(0, "int64") if found is None else _values(found, "int64",
                                                                       index_key, op)
            if column.size != values.size:
                raise _error(op, f"Name: <unknown>, Key: {key}, Index: {index}.  Number of "
                                 f"indices ({column.size}) of {index_key} != number of values "
                                 f"({values.size}) of {value_key}")
            columns.append(column)
        positions = np.stack(columns, axis=1) if columns else np.empty((0, 0), np.int64)
        if not already_sorted and len(positions):
            order = np.lexsort(positions.T[::-1])
            positions, values = positions[order], values[order]
        per_values.append(values)
        per_indices.append(positions)
    return _sparse_parts(per_values, dtype, batched, per_indices, size)


def _partition_splits(kind: str, given, count: int, key, op) -> np.ndarray:
    """The row splits of `count` values that a partition feature's values `given` say."""
    if kind == "uniform_row_length":
        if given <= 0 or count % given:
            raise _error(op, f"RaggedFeature: uniform row length {given} does not divide "
                             f"{count} values")
        return np.arange(0, count + 1, given, dtype=np.int64)
    if kind == "row_splits":
        splits = given
    elif kind == "row_lengths":
        splits = np.concatenate([[0], np.cumsum(given)])
    elif kind == "row_starts":
        splits = np.concatenate([given, [count]])
    elif kind == "row_limits":
        splits = np.concatenate([[0], given])
    else:  # value_rowids
        rows = int(given.max()) + 1 if given.size else 0
        splits = np.concatenate([[0], np.cumsum(np.bincount(given, minlength=rows))])
    splits = np.asarray(splits, np.int64)
    if splits.size == 0 or splits[0] != 0 or splits[-1] != count or np.any(np.diff(splits) < 0):
        raise _error(op, f"RaggedFeature: the partition {kind} {key!r} does not partition "
                         f"{count} values")
    return splits


def _ragged(maps, spec, batched, op):
    _, key, value_key, dtype, partitions, splits_dtype = spec
    values_list, levels = [], [[] for _ in partitions]
    for fmap in maps:
        feature = _present(fmap, value_key)
        values = _empty(0, dtype) if feature is None else _values(feature, dtype, value_key, op)
        count = len(values)
        example_levels = []
        for kind, partition_key in reversed(partitions):
            if kind == "uniform_row_length":
                given = partition_key
            else:
                found = _present(fmap, partition_key)
                given = _empty(0, "int64") if found is None else _values(found, "int64",
                                                                         partition_key, op)
            splits = _partition_splits(kind, given, count, partition_key, op)
            example_levels.insert(0, splits)
            count = len(splits) - 1
        values_list.append((values, count))
        for level, splits in zip(levels, example_levels):
            level.append(splits)
    flat = [v for v, _ in values_list]
    values = np.concatenate(flat) if flat else _empty(0, dtype)
    if dtype == "string" and values.dtype != object:
        values = values.astype(object)
    outputs = [values]
    if batched:
        outputs.append(np.concatenate([[0], np.cumsum([c for _, c in values_list])]))
    for level in levels:
        merged, offset = [np.zeros(1, np.int64)], 0
        for splits in level:
            merged.append(splits[1:] + offset)
            offset += splits[-1]
        outputs.append(np.concatenate(merged))
    return [outputs[0]] + [np.asarray(s, dtype=splits_dtype) for s in outputs[1:]]


_ASSEMBLERS = {"dense": _dense, "rows": _rows, "varlen": _varlen, "sparse": _sparse,
               "ragged": _ragged}


# -- features of sequence examples ---------------------------------------------------------
def _sequence(lists, spec, batched, op):
    kind, key = spec[0], spec[1]
    dtype = spec[2] if kind != "ragged" else spec[3]
    per_example = []
    for index, flists in enumerate(lists):
        if key not in flists and kind != "ragged":
            if kind == "rows" and not spec[5]:
                raise _error(op, f"Name: <unknown>, Feature list '{key}' is required but "
                                 "could not be found.  Did you mean to include it in "
                                 "feature_list_dense_missing_assumed_empty or "
                                 "feature_list_dense_defaults?")
            per_example.append([])
            continue
        source = spec[2] if kind == "ragged" else key
        steps = flists[source].feature if source in flists else []
        per_example.append([_values(step, dtype, source, op) for step in steps])
    if kind == "rows":
        shape, default = spec[3], spec[4]
        size = int(np.prod(shape))
        blocks = []
        for index, steps in enumerate(per_example):
            for values in steps:
                if values.size != size:
                    raise _error(op, f"Name: <unknown>, Key: {key}, Index: {index}.  Number "
                                     f"of {_WORDS[dtype]} values != expected.  values size: "
                                     f"{values.size} but output shape: {list(shape)}")
            blocks.append(np.stack([v.reshape(shape) for v in steps]) if steps
                          else _empty((0,) + shape, dtype))
        out = _padded(blocks, shape, dtype, default)
        return [out if batched else out[0]], np.array([len(b) for b in blocks], np.int64)
    if kind == "varlen":
        flat, positions = [], []
        for steps in per_example:
            flat.append(np.concatenate(steps) if steps else _empty(0, dtype))
            positions.append(np.array([[t, i] for t, v in enumerate(steps)
                                       for i in range(len(v))], np.int64).reshape(-1, 2))
        longest_steps = max((len(s) for s in per_example), default=0)
        longest_values = max((len(v) for s in per_example for v in s), default=0)
        parts = _sparse_parts(flat, dtype, batched, positions, (longest_steps, longest_values))
        return parts, None
    splits_dtype = spec[5]
    flat = [v for steps in per_example for v in steps]
    values = np.concatenate(flat) if flat else _empty(0, dtype)
    if dtype == "string" and values.dtype != object:
        values = values.astype(object)
    step_splits = np.concatenate([[0], np.cumsum([len(v) for v in flat])])
    outputs = [values]
    if batched:
        outputs.append(np.concatenate([[0], np.cumsum([len(s) for s in per_example])]))
    outputs.append(step_splits)
    return [outputs[0]] + [np.asarray(s, dtype=splits_dtype) for s in outputs[1:]], None


# -- the ops -------------------------------------------------------------------------------
def _messages():
    from ..protos import example
    return example.messages()


def _decoded(serialized, message_class, op: str) -> list:
    records = serialized.reshape(-1)
    out = []
    for record in records:
        try:
            out.append(message_class.FromString(record))
        except Exception:  # protobuf's DecodeError
            raise _error(op, f"Could not parse example input, value: {record[:64]!r}") from None
    return out


def _parse_example_kernel(serialized, *, specs, batched):
    op = "ParseExampleV2"
    maps = [m.features.feature for m in _decoded(serialized, _messages()["Example"], op)]
    outputs = []
    for spec in specs:
        outputs.extend(_ASSEMBLERS[spec[0]](maps, spec, batched, op))
    return tuple(outputs)


def _parse_sequence_kernel(serialized, *, context, sequence, batched):
    op = "ParseSequenceExampleV2"
    messages = _decoded(serialized, _messages()["SequenceExample"], op)
    maps = [m.context.feature for m in messages]
    lists = [m.feature_lists.feature_list for m in messages]
    outputs, lengths = [], []
    for spec in context:
        outputs.extend(_ASSEMBLERS[spec[0]](maps, spec, batched, op))
    for spec in sequence:
        parts, length = _sequence(lists, spec, batched, op)
        outputs.extend(parts)
        if length is not None:
            lengths.append(length)
    return tuple(outputs + lengths)


def _output_specs(spec, batch, batched: bool, sequence: bool) -> list:
    """(numpy dtype, dims) of one feature's outputs in a graph."""
    kind = spec[0]
    lead = (batch,) if batched else ()
    if kind == "dense":
        return [(np.dtype(_np_dtype(spec[2])), lead + spec[3])]
    if kind == "rows":
        return [(np.dtype(_np_dtype(spec[2])), lead + (None,) + spec[3])]
    if kind in ("varlen", "sparse"):
        dtype = spec[2] if kind == "varlen" else spec[4]
        rank = int(batched) + (2 if sequence else 1 if kind == "varlen" else len(spec[5]))
        return [(np.dtype(np.int64), (None, rank)), (np.dtype(_np_dtype(dtype)), (None,)),
                (np.dtype(np.int64), (rank,))]
    splits = np.dtype(spec[5])
    return [(np.dtype(_np_dtype(spec[3])), (None,))] + [
        (splits, (None,))] * (_output_count(spec, batched, sequence) - 1)


def _batch(inputs, batched):
    dims = inputs[0]._dims
    return None if not batched or dims is None or not dims else dims[0]


ParseExampleV2 = define_op("ParseExampleV2", _parse_example_kernel, num_outputs=None)
ParseExampleV2.shape_fn = lambda inputs, attrs: [
    out for spec in attrs["specs"]
    for out in _output_specs(spec, _batch(inputs, attrs["batched"]), attrs["batched"], False)]
ParseSequenceExampleV2 = define_op("ParseSequenceExampleV2", _parse_sequence_kernel,
                                   num_outputs=None)


def _sequence_output_specs(inputs, attrs):
    batched = attrs["batched"]
    batch = _batch(inputs, batched)
    out = [o for spec in attrs["context"] for o in _output_specs(spec, batch, batched, False)]
    out += [o for spec in attrs["sequence"] for o in _output_specs(spec, batch, batched, True)]
    out += [(np.dtype(np.int64), (batch,) if batched else ()) for spec in attrs["sequence"]
            if spec[0] == "rows"]
    return out


ParseSequenceExampleV2.shape_fn = _sequence_output_specs
no_gradient("ParseExampleV2")
no_gradient("ParseSequenceExampleV2")


# -- the public functions ------------------------------------------------------------------
def _composite(spec, parts: list, batched: bool, sequence: bool):
    if spec[0] in ("dense", "rows"):
        return parts[0]
    if spec[0] in ("varlen", "sparse"):
        return SparseTensor(*parts)
    if len(parts) == 1:
        return parts[0]
    from ..ops.ragged.ragged_tensor import RaggedTensor
    return RaggedTensor.from_nested_row_splits(parts[0], parts[1:], validate=False)


def _assemble(specs, outputs, batched: bool, sequence: bool, start: int = 0):
    result, position = {}, start
    for spec in specs:
        count = _output_count(spec, batched, sequence)
        result[spec[1]] = _composite(spec, list(outputs[position:position + count]), batched,
                                     sequence)
        position += count
    return result, position


def _serialized(serialized, batched: bool, op: str):
    tensor = convert_to_tensor(serialized, dtypes.string)
    rank = tensor.shape.rank
    if rank is not None and rank != int(batched):
        raise ValueError(f"{op}: `serialized` must be a {'vector' if batched else 'scalar'}, "
                         f"got shape {tensor.shape}")
    return tensor


def _parse(serialized, features, batched: bool):
    if not features:
        raise ValueError("Missing: features was {}.")
    specs = _specs(features, sequence=False)
    outputs = execute(ParseExampleV2, (_serialized(serialized, batched, "parse_example"),),
                      {"specs": specs, "batched": batched})
    return _assemble(specs, outputs, batched, False)[0]


def parse_example(serialized, features, example_names=None, name=None) -> dict:
    """Parses a batch of serialized `tf.train.Example`s.

    Args:
        serialized: a 1-D string tensor of serialized Examples.
        features: a dict of key -> FixedLenFeature, FixedLenSequenceFeature (with
            allow_missing), VarLenFeature, SparseFeature or RaggedFeature.
        example_names: unused.
        name: unused.

    Returns:
        A dict of key -> a dense tensor [batch, ...] (FixedLen), a SparseTensor (VarLen,
        Sparse) or a RaggedTensor (Ragged).

    Raises:
        ValueError: a bad configuration.
        InvalidArgumentError: (when it runs) a required feature is missing, a feature has
            the wrong number of values or dtype, or a record is not an Example.

    Example:
        >>> import tapeflow as tf
        >>> make = lambda v: tf.train.Example(features=tf.train.Features(feature={
        ...     "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=v))}))
        >>> records = [make([1, 2]).SerializeToString(), make([3]).SerializeToString()]
        >>> ids = tf.io.parse_example(records, {"ids": tf.io.VarLenFeature(tf.int64)})["ids"]
        >>> tf.sparse.to_dense(ids).numpy().tolist()
        [[1, 2], [3, 0]]
    """
    return _parse(serialized, features, batched=True)


def parse_single_example(serialized, features, example_names=None, name=None) -> dict:
    """Parses one serialized `tf.train.Example` (see `parse_example`; no batch dimension:
    a RaggedFeature without partitions gives a 1-D tensor)."""
    return _parse(serialized, features, batched=False)


def _parse_sequence(serialized, context_features, sequence_features, batched: bool):
    if not context_features and not sequence_features:
        raise ValueError("Missing features.")
    context = _specs(context_features, sequence=False)
    sequence = _specs(sequence_features, sequence=True)
    outputs = execute(ParseSequenceExampleV2,
                      (_serialized(serialized, batched, "parse_sequence_example"),),
                      {"context": context, "sequence": sequence, "batched": batched})
    context_out, position = _assemble(context, outputs, batched, False)
    sequence_out, position = _assemble(sequence, outputs, batched, True, position)
    lengths = {spec[1]: outputs[position + i]
               for i, spec in enumerate(s for s in sequence if s[0] == "rows")}
    return context_out, sequence_out, lengths


def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None) -> tuple:
    """Parses a batch of serialized `tf.train.SequenceExample`s.

    Args:
        serialized: a 1-D string tensor.
        context_features: a dict of configurations of the context features (as
            `parse_example`'s).
        sequence_features: a dict of FixedLenSequenceFeature, VarLenFeature or RaggedFeature
            for the feature lists.
        example_names, name: unused.

    Returns:
        (context dict, feature-list dict, lengths dict): feature lists as [batch, steps, ...]
        tensors padded to the longest, SparseTensors or RaggedTensors; the lengths (steps per
        example) of the FixedLenSequenceFeature lists.

    Raises:
        ValueError: a bad configuration.
        InvalidArgumentError: (when it runs) missing, mistyped or miscounted features.
    """
    return _parse_sequence(serialized, context_features, sequence_features, batched=True)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None) -> tuple:
    """Parses one serialized `tf.train.SequenceExample`: (context dict, feature-list dict),
    the lists as [steps, ...] tensors (see `parse_sequence_example`).

    Example:
        >>> import tapeflow as tf
        >>> steps = [tf.train.Feature(float_list=tf.train.FloatList(value=[v])) for v in (1, 2)]
        >>> record = tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(
        ...     feature_list={"x": tf.train.FeatureList(feature=steps)})).SerializeToString()
        >>> _, lists = tf.io.parse_single_sequence_example(
        ...     record, sequence_features={"x": tf.io.FixedLenSequenceFeature([], tf.float32)})
        >>> lists["x"].numpy()
        array([1., 2.], dtype=float32)
    """
    context, sequence, _ = _parse_sequence(serialized, context_features, sequence_features,
                                           batched=False)
    return context, sequence
