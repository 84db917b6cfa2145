"""Lookup tables (`tf.lookup`): hash tables from keys to values.

A table's contents live in a `TableState` outside the program (a Python dict from key to
value row). The table ops (`LookupTableFindV2`, `LookupTableInsertV2`, ...) take it as an
attribute and are stateful, as the iterator ops are: a `tf.function` that uses a table
captures the state object itself, so each call reads and writes the table's current
contents, and a graph runs an insert even when nothing reads its result.

Tables are trackables: a mutable table saves one attribute, `table`, as two tensors
(checkpoint keys `<path>/.ATTRIBUTES/table-keys` and `table-values`, as TF writes them); a
static one saves nothing.
"""
from __future__ import annotations

import os

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import OUTPUT, define_op, no_gradient
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, convert_to_tensor
from ..trackable.base import Trackable
from . import comparison_ops, indexing_ops, math_ops
from .op_util import value_of
from .string_convert_ops import as_string, to_hash_bucket_fast

__all__ = ["TableState", "KeyValueTensorInitializer", "TextFileIndex", "TextFileInitializer",
           "StaticHashTable", "StaticVocabularyTable", "MutableHashTable", "DenseHashTable"]


class TableState:
    """The contents of one table: key dtype, value dtype and value shape, and the entries
    (a dict from a key's Python value to its value row)."""

    __slots__ = ("key_dtype", "value_dtype", "value_shape", "entries", "empty_key",
                 "deleted_key", "buckets", "__weakref__")

    def __init__(self, key_dtype, value_dtype, value_shape=(), empty_key=None,
                 deleted_key=None, buckets=None) -> None:
        self.key_dtype = key_dtype
        self.value_dtype = value_dtype
        self.value_shape = tuple(value_shape)
        self.entries: dict = {}
        self.empty_key = empty_key
        self.deleted_key = deleted_key
        self.buckets = buckets  # a dense table's bucket count (grows as TF's does)


def _key_list(keys: np.ndarray) -> list:
    return keys.reshape(-1).tolist()


def _check_values(op_name: str, state: TableState, keys: np.ndarray, values: np.ndarray):
    expected = tuple(keys.shape) + state.value_shape
    if tuple(values.shape) != expected:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: expected shape {list(expected)} for value, got "
            f"{list(values.shape)}")


def _check_dense_keys(op_name: str, state: TableState, keys: list) -> None:
    if state.empty_key is None:
        return
    for key in keys:
        if key == state.empty_key:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: using the empty_key as a table key is not allowed")
        if key == state.deleted_key:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: using the deleted_key as a table key is not "
                "allowed")


def _find(keys, default, *, table):
    flat = _key_list(keys)
    out = np.empty((len(flat),) + table.value_shape, dtype=table.value_dtype.as_numpy_dtype)
    default = np.broadcast_to(default, table.value_shape)
    entries = table.entries
    for i, key in enumerate(flat):
        out[i] = entries.get(key, default)
    return out.reshape(tuple(keys.shape) + table.value_shape)


def _insert(keys, values, *, table, op_name="LookupTableInsertV2", clear=False):
    _check_values(op_name, table, keys, values)
    flat = _key_list(keys)
    _check_dense_keys(op_name, table, flat)
    rows = values.reshape((len(flat),) + table.value_shape)
    if clear:
        table.entries.clear()
    for key, row in zip(flat, rows):
        table.entries[key] = row.copy()
    if table.buckets is not None:  # a dense table doubles its buckets above 80% load
        while len(table.entries) > 0.8 * table.buckets:
            table.buckets *= 2
    return ()


def _import(keys, values, *, table):
    return _insert(keys, values, table=table, op_name="LookupTableImportV2", clear=True)


def _initialize(keys, values, *, table):
    if keys.shape[:1] != values.shape[:1] or keys.ndim != 1:
        raise errors.InvalidArgumentError(
            None, "InitializeTableV2", f"InitializeTableV2: keys and values must be vectors "
            f"of one length, got shapes {list(keys.shape)} and {list(values.shape)}")
    return _insert(keys, values, table=table, op_name="InitializeTableV2")


def _remove(keys, *, table):
    flat = _key_list(keys)
    _check_dense_keys("LookupTableRemoveV2", table, flat)
    for key in flat:
        table.entries.pop(key, None)
    return ()


def _size(*, table):
    return np.array(len(table.entries), dtype=np.int64)


def _export(*, table):
    key_np = table.key_dtype.as_numpy_dtype
    value_np = table.value_dtype.as_numpy_dtype
    keys = list(table.entries)
    key_array = np.array(keys, dtype=key_np) if keys else np.zeros([0], key_np)
    values = np.array(list(table.entries.values()), dtype=value_np).reshape(
        (len(keys),) + table.value_shape)
    if table.buckets is None:
        return key_array, values
    # a dense table exports every bucket ([buckets, 1] for scalar keys): the entries, then
    # empty buckets holding the empty key
    n = table.buckets
    dense_keys = np.full([n, 1], table.empty_key, dtype=key_np)
    dense_keys[:len(keys), 0] = key_array
    dense_values = np.zeros((n,) + (table.value_shape or (1,)), dtype=value_np)
    dense_values[:len(keys)] = values.reshape((len(keys),) + (table.value_shape or (1,)))
    return dense_keys, dense_values


def _no_outputs(inputs, attrs):
    return []


def _value_spec(inputs, attrs):
    keys = inputs[0]
    table = attrs["table"]
    dims = None if keys._dims is None else tuple(keys._dims) + table.value_shape
    return [(np.dtype(table.value_dtype.as_numpy_dtype), dims)]


def _export_spec(inputs, attrs):
    table = attrs["table"]
    key_dims = (None,) if table.buckets is None else (None, 1)
    value_dims = (None,) + table.value_shape if table.buckets is None else \
        (None,) + (table.value_shape or (1,))
    return [(np.dtype(table.key_dtype.as_numpy_dtype), key_dims),
            (np.dtype(table.value_dtype.as_numpy_dtype), value_dims)]


LookupTableFindV2 = define_op("LookupTableFindV2", _find, family=OUTPUT)
LookupTableFindV2.shape_fn = _value_spec
LookupTableInsertV2 = define_op("LookupTableInsertV2", _insert, num_outputs=0, family=OUTPUT)
LookupTableInsertV2.shape_fn = _no_outputs
LookupTableImportV2 = define_op("LookupTableImportV2", _import, num_outputs=0, family=OUTPUT)
LookupTableImportV2.shape_fn = _no_outputs
InitializeTableV2 = define_op("InitializeTableV2", _initialize, num_outputs=0, family=OUTPUT)
InitializeTableV2.shape_fn = _no_outputs
LookupTableRemoveV2 = define_op("LookupTableRemoveV2", _remove, num_outputs=0, family=OUTPUT)
LookupTableRemoveV2.shape_fn = _no_outputs
LookupTableSizeV2 = define_op("LookupTableSizeV2", _size, family=OUTPUT)
LookupTableSizeV2.shape_fn = lambda inputs, attrs: [(np.dtype(np.int64), ())]
LookupTableExportV2 = define_op("LookupTableExportV2", _export, num_outputs=2, family=OUTPUT)
LookupTableExportV2.shape_fn = _export_spec
for _name in ("LookupTableFindV2", "LookupTableInsertV2", "LookupTableImportV2",
              "InitializeTableV2", "LookupTableRemoveV2", "LookupTableSizeV2",
              "LookupTableExportV2"):
    no_gradient(_name)


# -- initializers -------------------------------------------------------------------------
class TableInitializerBase(Trackable):
    """What fills a static table once: its key and value dtypes and `initialize(table)`."""

    def __init__(self, key_dtype, value_dtype) -> None:
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)

    @property
    def key_dtype(self):
        """The dtype of the keys."""
        return self._key_dtype

    @property
    def value_dtype(self):
        """The dtype of the values."""
        return self._value_dtype

    def initialize(self, table):
        """Fills `table` (a StaticHashTable)."""
        raise NotImplementedError


class KeyValueTensorInitializer(TableInitializerBase):
    """A table's contents from a vector of keys and a vector of values.

    Args:
        keys: the keys, a vector (converted with `key_dtype`).
        values: the values, a vector of the same length (converted with `value_dtype`).
        key_dtype: the keys' dtype; None infers it.
        value_dtype: the values' dtype; None infers it.
        name: unused (TF's name scope).

    Example:
        >>> import tapeflow as tf
        >>> init = tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2])
        >>> init.key_dtype, init.value_dtype
        (tf.string, tf.int32)
    """

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None) -> None:
        self._keys = convert_to_tensor(keys, dtype=key_dtype)
        self._values = convert_to_tensor(values, dtype=value_dtype)
        self._name = name
        super().__init__(self._keys.dtype, self._values.dtype)

    def initialize(self, table):
        """Fills `table` with the keys and values."""
        _check_dtypes(table, self.key_dtype, self.value_dtype)
        execute(InitializeTableV2, (self._keys, self._values), {"table": table._state})


class TextFileIndex:
    """Which part of a line of a vocabulary file is a key or a value: `WHOLE_LINE` (-2),
    `LINE_NUMBER` (-1), or a column number (>= 0) of the line split at the delimiter."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


class TextFileInitializer(TableInitializerBase):
    """A table's contents from a text file, one entry a line.

    Args:
        filename: the file's path.
        key_dtype: the keys' dtype (string or integer; LINE_NUMBER needs int64).
        key_index: the keys' TextFileIndex or column number.
        value_dtype: the values' dtype.
        value_index: the values' TextFileIndex or column number.
        vocab_size: read only the first `vocab_size` lines; None reads all.
        delimiter: what separates the columns (a tab).
        name: unused (TF's name scope).
        value_index_offset: added to the line numbers that are values.

    Raises:
        ValueError: an index below -2, or a LINE_NUMBER key or value of a dtype other
            than int64, or a WHOLE_LINE one other than string or integer.
        NotFoundError: (when a table is filled) the file does not exist.

    Example:
        >>> import tapeflow as tf, tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
        >>> _ = open(path, "w").write("apple\\nbanana\\n")
        >>> init = tf.lookup.TextFileInitializer(path, tf.string,
        ...     tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER)
        >>> tf.lookup.StaticHashTable(init, -1).lookup(tf.constant(["banana"])).numpy()
        array([1])
    """

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index,
                 vocab_size=None, delimiter="\t", name=None, value_index_offset=0) -> None:
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        for what, index, dtype in (("key", key_index, key_dtype),
                                   ("value", value_index, value_dtype)):
            if index < -2:
                raise ValueError(f"TextFileInitializer: invalid {what}_index {index}")
            if index == TextFileIndex.LINE_NUMBER and dtype is not dtypes.int64:
                raise ValueError(f"TextFileInitializer: {what}_dtype must be int64 for "
                                 f"LINE_NUMBER, got {dtype}")
            if index == TextFileIndex.WHOLE_LINE and not (dtype is dtypes.string
                                                          or dtype.is_integer):
                raise ValueError(f"TextFileInitializer: {what}_dtype must be string or "
                                 f"integer for WHOLE_LINE, got {dtype}")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"TextFileInitializer: invalid vocab_size {vocab_size}")
        self._filename = filename
        self._key_index, self._value_index = key_index, value_index
        self._vocab_size = vocab_size
        self._delimiter = delimiter
        self._offset = value_index_offset
        self._name = name
        super().__init__(key_dtype, value_dtype)

    def _column(self, lines: list, index: int, dtype, offset: int) -> np.ndarray:
        if index == TextFileIndex.LINE_NUMBER:
            return np.arange(offset, offset + len(lines), dtype=np.int64)
        if index == TextFileIndex.WHOLE_LINE:
            texts = lines
        else:
            sep = self._delimiter.encode() if isinstance(self._delimiter, str) else \
                self._delimiter
            texts = []
            for number, line in enumerate(lines):
                cols = line.split(sep)
                if index >= len(cols):
                    raise errors.InvalidArgumentError(
                        None, "InitializeTableFromTextFileV2", f"invalid number of columns "
                        f"in {self._filename} line {number} ({line!r}): expected more than "
                        f"{index}, got {len(cols)}")
                texts.append(cols[index])
        if dtype is dtypes.string:
            return np.array(texts + [b""], dtype=object)[:-1]
        try:
            return np.array([int(t) if dtype.is_integer else float(t) for t in texts],
                            dtype=dtype.as_numpy_dtype)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, "InitializeTableFromTextFileV2", f"field in {self._filename} is not "
                f"a valid {dtype.name}") from None

    def initialize(self, table):
        """Fills `table` from the file."""
        _check_dtypes(table, self.key_dtype, self.value_dtype)
        try:
            with open(os.fspath(self._filename), "rb") as f:
                lines = f.read().split(b"\n")
        except FileNotFoundError:
            raise errors.NotFoundError(None, "InitializeTableFromTextFileV2",
                                       f"{self._filename}; No such file or directory") from None
        if lines and lines[-1] == b"":
            lines.pop()
        lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
        if self._vocab_size is not None:
            if len(lines) < self._vocab_size:
                raise errors.InvalidArgumentError(
                    None, "InitializeTableFromTextFileV2", f"invalid vocab_size in "
                    f"{self._filename}: expected {self._vocab_size} lines, got {len(lines)}")
            lines = lines[:self._vocab_size]
        keys = self._column(lines, self._key_index, self.key_dtype, 0)
        values = self._column(lines, self._value_index, self.value_dtype, self._offset)
        execute(InitializeTableV2, (convert_to_tensor(keys, self.key_dtype),
                                    convert_to_tensor(values, self.value_dtype)),
                {"table": table._state})


def _check_dtypes(table, key_dtype, value_dtype) -> None:
    if key_dtype != table.key_dtype:
        raise TypeError(f"Invalid `key_dtype`, expected {table.key_dtype} but got {key_dtype}.")
    if value_dtype != table.value_dtype:
        raise TypeError(f"Invalid `value_dtype`, expected {table.value_dtype} but got "
                        f"{value_dtype}.")


# -- tables -------------------------------------------------------------------------------
class LookupInterface(Trackable):
    """What every table has: key and value dtypes, `lookup`, `size`; its contents in a
    TableState the table ops capture."""

    def __init__(self, key_dtype, value_dtype, value_shape=(), **state) -> None:
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)
        self._state = TableState(self._key_dtype, self._value_dtype, value_shape, **state)

    @property
    def key_dtype(self):
        """The dtype of the keys."""
        return self._key_dtype

    @property
    def value_dtype(self):
        """The dtype of the values."""
        return self._value_dtype

    @property
    def name(self):
        """The table's name (None, as TF 2's tables)."""
        return None

    def _keys(self, keys):
        if isinstance(keys, (Tensor,)) or hasattr(keys, "_id"):
            if keys.dtype != self._key_dtype:
                raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, "
                                f"received: {keys.dtype}")
            return keys
        return convert_to_tensor(keys, dtype=self._key_dtype)

    def size(self, name=None):
        """The number of entries, an int64 scalar."""
        return execute(LookupTableSizeV2, (), {"table": self._state})

    def _find(self, keys, default):
        """`keys` (a Tensor, RaggedTensor or SparseTensor) looked up with `default`."""
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, self._find(keys.values, default),
                                keys.dense_shape)
        if hasattr(keys, "flat_values") and hasattr(keys, "with_flat_values"):
            return keys.with_flat_values(self._find(keys.flat_values, default))
        keys = self._keys(keys)
        return execute(LookupTableFindV2, (keys, default), {"table": self._state})

    def __getitem__(self, keys):
        """`lookup(keys)`."""
        return self.lookup(keys)


class StaticHashTable(LookupInterface):
    """A table filled once by an initializer, then only read.

    Args:
        initializer: a KeyValueTensorInitializer or TextFileInitializer.
        default_value: what a missing key gives (a scalar of the value dtype).
        name: unused (TF's name scope).
        experimental_is_anonymous: unused.

    Raises:
        TypeError: `default_value` does not convert to the value dtype; the initializer's
            dtypes differ from the table's.

    Example:
        >>> import tapeflow as tf
        >>> table = tf.lookup.StaticHashTable(
        ...     tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [1, 2, 3]), -1)
        >>> table.lookup(tf.constant(["a", "z", "c"])).numpy()
        array([ 1, -1,  3], dtype=int32)
    """

    def __init__(self, initializer, default_value, name=None,
                 experimental_is_anonymous=False) -> None:
        super().__init__(initializer.key_dtype, initializer.value_dtype)
        self._initializer = initializer
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        self._name = name
        initializer.initialize(self)

    @property
    def default_value(self):
        """What a missing key gives."""
        return self._default_value

    def lookup(self, keys, name=None):
        """The values of `keys` (a Tensor, RaggedTensor or SparseTensor of the key dtype):
        the default value for missing keys.

        Raises:
            TypeError: `keys` has another dtype.
        """
        return self._find(keys, self._default_value)

    def export(self, name=None):
        """(keys, values): the table's entries, in no particular order."""
        return execute(LookupTableExportV2, (), {"table": self._state})


class StaticVocabularyTable(LookupInterface):
    """Ids of a vocabulary (an initializer with int64 values), and for keys outside it one
    of `num_oov_buckets` ids after the vocabulary's: `size + Fingerprint64(key) %
    num_oov_buckets` (`tf.strings.to_hash_bucket_fast`; integer keys hashed as their
    decimal text), as TF does.

    Args:
        initializer: the vocabulary (int64 values).
        num_oov_buckets: the number of ids for keys outside the vocabulary (> 0).
        lookup_key_dtype: the dtype `lookup` takes (the initializer's key dtype).
        name: unused (TF's name scope).
        experimental_is_anonymous: unused.

    Raises:
        ValueError: `num_oov_buckets` <= 0.
        TypeError: values other than int64, or keys other than string and integers.

    Example:
        >>> import tapeflow as tf
        >>> init = tf.lookup.KeyValueTensorInitializer(
        ...     ["a", "b"], tf.constant([0, 1], tf.int64))
        >>> table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=5)
        >>> table.lookup(tf.constant(["a", "emerson", "lake"])).numpy()
        array([0, 5, 3])
    """

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False) -> None:
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer is not None and initializer.value_dtype != dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got "
                            f"{initializer.value_dtype}.")
        key_dtype = initializer.key_dtype if initializer is not None else dtypes.string
        if not (key_dtype is dtypes.string or key_dtype.is_integer):
            raise TypeError(f"Invalid `key_dtype`, expected string or integer, got {key_dtype}.")
        self._num_oov_buckets = int(num_oov_buckets)
        self._table = None
        if initializer is not None:
            self._table = StaticHashTable(initializer, -1)
        super().__init__(lookup_key_dtype or key_dtype, dtypes.int64)
        if self._table is not None:
            self._state = self._table._state

    def size(self, name=None):
        """The vocabulary's size plus the number of OOV buckets."""
        if self._table is None:
            return convert_to_tensor(self._num_oov_buckets, dtypes.int64)
        return self._table.size() + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """The ids of `keys` (a Tensor, RaggedTensor or SparseTensor).

        Raises:
            TypeError: `keys` has another dtype.
        """
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, self.lookup(keys.values), keys.dense_shape)
        if hasattr(keys, "flat_values") and hasattr(keys, "with_flat_values"):
            return keys.with_flat_values(self.lookup(keys.flat_values))
        keys = self._keys(keys)
        if keys.dtype.is_integer and keys.dtype != dtypes.int64:
            keys = math_ops.cast(keys, dtypes.int64)
        text = keys if keys.dtype is dtypes.string else as_string(keys)
        buckets = to_hash_bucket_fast(text, self._num_oov_buckets)
        if self._table is None:
            return buckets
        ids = self._table._find(keys, convert_to_tensor(-1, dtypes.int64))
        return indexing_ops.where(comparison_ops.equal(ids, -1),
                                  buckets + self._table.size(), ids)


class _MutableTable(LookupInterface):
    """insert/remove/export and checkpointing, shared by the mutable tables."""

    def insert(self, keys, values, name=None):
        """Sets the values of `keys` (their shape plus the value shape).

        Raises:
            TypeError: keys or values of other dtypes.
            InvalidArgumentError: values of the wrong shape.
        """
        keys = self._keys(keys)
        values = self._values(values)
        execute(LookupTableInsertV2, (keys, values), {"table": self._state})

    def remove(self, keys, name=None):
        """Removes `keys` (missing keys are ignored).

        Raises:
            TypeError: keys of another dtype.
        """
        execute(LookupTableRemoveV2, (self._keys(keys),), {"table": self._state})

    def export(self, name=None):
        """(keys, values): the table's entries."""
        return execute(LookupTableExportV2, (), {"table": self._state})

    def _values(self, values):
        if hasattr(values, "_id"):
            if values.dtype != self._value_dtype:
                raise TypeError(f"Dtype of argument `values` must be {self._value_dtype}, "
                                f"received: {values.dtype}")
            return values
        return convert_to_tensor(values, dtype=self._value_dtype)

    @property
    def default_value(self):
        """What a missing key gives."""
        return self._default_value

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """The values of `keys`; missing keys give the default value (or, where given,
        the matching entries of `dynamic_default_values`).

        Raises:
            TypeError: keys of another dtype.
        """
        if dynamic_default_values is not None:
            found = self._find(keys, self._default_value)
            keys_t = self._keys(keys)
            known = execute(LookupTableFindV2, (keys_t, convert_to_tensor(False)), {
                "table": _presence(self._state)})
            while known.shape.rank is not None and known.shape.rank < found.shape.rank:
                known = known[..., None]
            return indexing_ops.where(known, found, dynamic_default_values)
        return self._find(keys, self._default_value)

    def _serialize_to_tensors(self) -> dict:
        if not self._checkpoint:
            return {}
        keys, values = self.export()
        return {"table": {"-keys": keys, "-values": values}}

    def _restore_from_tensors(self, restored_tensors: dict):
        parts = restored_tensors["table"]
        keys = np.asarray(value_of(convert_to_tensor(parts["-keys"])))
        values = np.asarray(value_of(convert_to_tensor(parts["-values"])))
        if self._state.buckets is not None:  # a dense table's buckets: keep the used ones
            keys = keys.reshape(len(keys), -1)[:, 0]
            values = values.reshape((len(keys),) + (self._state.value_shape or ()))
            used = [k != self._state.empty_key and k != self._state.deleted_key
                    for k in keys.tolist()]
            keys, values = keys[used], values[used]
            self._state.buckets = max(self._state.buckets, len(np.asarray(used)))
        execute(LookupTableImportV2, (convert_to_tensor(keys, self._key_dtype),
                                      convert_to_tensor(values, self._value_dtype)),
                {"table": self._state})


def _presence(state: TableState) -> TableState:
    """A view of `state` whose lookups give True for its keys."""
    view = TableState(state.key_dtype, dtypes.bool)
    view.entries = _TrueFor(state.entries)
    return view


class _TrueFor:
    """A dict view answering `get(key, default)` with True for the keys of `entries`."""

    __slots__ = ("entries",)

    def __init__(self, entries: dict) -> None:
        self.entries = entries

    def get(self, key, default):
        return True if key in self.entries else default


class MutableHashTable(_MutableTable):
    """A table that `insert` and `remove` change; saved in checkpoints.

    Args:
        key_dtype: the keys' dtype.
        value_dtype: the values' dtype.
        default_value: what a missing key gives; its shape is the value shape.
        name: unused (TF's name scope).
        checkpoint: whether checkpoints save the table.
        experimental_is_anonymous: unused.

    Example:
        >>> import tapeflow as tf
        >>> table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
        >>> table.insert(tf.constant(["x", "y"]), tf.constant([5, 6], tf.int64))
        >>> table.lookup(tf.constant(["x", "q"])).numpy()
        array([ 5, -1])
    """

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
                 checkpoint=True, experimental_is_anonymous=False) -> None:
        default = convert_to_tensor(default_value, dtype=value_dtype)
        super().__init__(key_dtype, value_dtype, tuple(default.shape.as_list()))
        self._default_value = default
        self._checkpoint = checkpoint
        self._name = name



class DenseHashTable(_MutableTable):
    """A mutable table with an `empty_key` and a `deleted_key` that are never keys (TF's
    open-addressing table); `export` gives every bucket ([buckets, 1] keys, unused ones
    holding the empty key).

    Args:
        key_dtype: the keys' dtype.
        value_dtype: the values' dtype.
        default_value: what a missing key gives; its shape is the value shape.
        empty_key: a key value marking empty buckets.
        deleted_key: a key value marking removed entries (different from `empty_key`).
        initial_num_buckets: the initial bucket count (a power of 2; 131072).
        name: unused (TF's name scope).
        checkpoint: whether checkpoints save the table.
        experimental_is_anonymous: unused.

    Raises:
        InvalidArgumentError: (insert, remove) the empty or deleted key used as a key.

    Example:
        >>> import tapeflow as tf
        >>> table = tf.lookup.experimental.DenseHashTable(
        ...     tf.int64, tf.int64, default_value=-1, empty_key=0, deleted_key=-1)
        >>> table.insert(tf.constant([3, 4], tf.int64), tf.constant([30, 40], tf.int64))
        >>> table.lookup(tf.constant([3, 5], tf.int64)).numpy()
        array([30, -1])
    """

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 initial_num_buckets=None, name="MutableDenseHashTable", checkpoint=True,
                 experimental_is_anonymous=False) -> None:
        default = convert_to_tensor(default_value, dtype=value_dtype)
        empty = np.asarray(value_of(convert_to_tensor(empty_key, dtype=key_dtype))).item()
        deleted = np.asarray(value_of(convert_to_tensor(deleted_key, dtype=key_dtype))).item()
        if empty == deleted:
            raise errors.InvalidArgumentError(
                None, "MutableDenseHashTableV2", "MutableDenseHashTableV2: empty_key and "
                "deleted_key cannot be equal")
        super().__init__(key_dtype, value_dtype, tuple(default.shape.as_list()),
                         empty_key=empty, deleted_key=deleted,
                         buckets=int(initial_num_buckets or 131072))
        self._default_value = default
        self._checkpoint = checkpoint
        self._name = name

