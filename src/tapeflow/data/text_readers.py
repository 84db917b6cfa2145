"""Datasets of CSV records (`experimental.CsvDataset`, `experimental.make_csv_dataset`);
the lines of text files are `readers.TextLineDataset`.

Files are read when iterated, whole (decompressed first for "GZIP" and "ZLIB"); a file that
cannot be read, and a CSV record that does not parse, is an error for that element only
(the iterator raises it and goes on, as TF's do; `ignore_errors` drops them). Records are
parsed in blocks by the `DecodeCSV` kernel, by record only to find the one that fails.
"""
from __future__ import annotations

import collections
import glob
import gzip
import os
import zlib

import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_spec import TensorSpec
from ..ops.iterator_ops import ElementError
from ..ops.string_codec_ops import DecodeCSV
from ..ops.string_convert_ops import parse_numbers
from .dataset_ops import UNKNOWN_CARDINALITY, Dataset

__all__ = ["CsvDataset", "make_csv_dataset"]

_BLOCK = 1024  # records parsed by one kernel call


def _filenames(filenames) -> list:
    value = getattr(filenames, "_value", filenames)
    if isinstance(value, np.ndarray):
        value = value.reshape(-1).tolist()
    if isinstance(value, (str, bytes, os.PathLike)):
        value = [value]
    names = [os.fsdecode(v) if isinstance(v, (bytes, os.PathLike)) else v for v in value]
    if not all(isinstance(n, str) for n in names):
        raise TypeError(f"`filenames` must be a string or a list of strings, got {filenames!r}")
    return names


def _compression(compression_type) -> str:
    kind = "" if compression_type is None else str(compression_type).upper()
    if kind not in ("", "GZIP", "ZLIB"):
        raise errors.InvalidArgumentError(
            None, "CsvDataset", f"Unsupported compression_type: {compression_type!r} "
            "(\"\", \"GZIP\" or \"ZLIB\")")
    return kind


def _read(path: str, compression: str) -> bytes:
    """The bytes of file `path`, decompressed.

    Raises:
        NotFoundError: no such file.
        DataLossError: the compressed data is corrupted.
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    except OSError as e:
        raise errors.PermissionDeniedError(None, None, f"{path}: {e}") from None
    try:
        if compression == "GZIP":
            return gzip.decompress(data)
        if compression == "ZLIB":
            return zlib.decompress(data)
    except (OSError, zlib.error, EOFError) as e:
        raise errors.DataLossError(None, None, f"{path}: corrupted {compression} data: {e}") \
            from None
    return data


def _lines(data: bytes) -> list:
    """The lines of `data`, without their '\\n' or '\\r\\n'."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def _file_lines(paths: list, compression: str, skip: int):
    """Per file, its lines after the first `skip`, or an ElementError for the file."""
    for path in paths:
        try:
            yield _lines(_read(path, compression))[skip:]
        except errors.OpError as e:
            yield ElementError(e)


_CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)


def _csv_default(value) -> Tensor:
    """A record default: a dtype (the column is required) or a value of one element."""
    if isinstance(value, dtypes.DType) or isinstance(value, type):
        dtype = dtypes.as_dtype(value)
        t = Tensor(np.zeros(0, dtype.as_numpy_dtype))
    else:
        t = convert_to_tensor(value)
        t = Tensor(np.reshape(np.asarray(t), -1))
    if t.dtype not in _CSV_TYPES:
        raise TypeError(f"CsvDataset: a record default must be float32, float64, int32, int64 "
                        f"or string, got {t.dtype.name}")
    if t.shape.num_elements() > 1:
        raise ValueError(f"CsvDataset: a record default has at most one element, got "
                         f"{t.shape.num_elements()}")
    return t


class CsvDataset(Dataset):
    """The records of CSV files, each a tuple of scalars, one per column (per selected
    column), typed and defaulted by `record_defaults` as `tf.io.decode_csv` does.

    Args:
        filenames: a file name or a list of them.
        record_defaults: per column a dtype (the field is required) or a default value.
        compression_type: None, "", "GZIP" or "ZLIB".
        header: skip each file's first line.
        field_delim, use_quote_delim, na_value: as `tf.io.decode_csv`'s.
        select_cols / exclude_cols: the (sorted) columns to keep, or to leave out.

    Raises:
        InvalidArgumentError: select_cols not matching record_defaults, or both given.
        (When iterated, for that record only:) InvalidArgumentError for a record that does
        not parse, NotFoundError for a missing file.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "a.csv")
        >>> _ = open(path, "w").write("x,y\\n1,a\\n2,b\\n")
        >>> [(int(x), y.numpy()) for x, y in
        ...  tf.data.experimental.CsvDataset(path, [tf.int32, tf.string], header=True)]
        [(1, b'a'), (2, b'b')]
    """

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=",", use_quote_delim=True, na_value="",
                 select_cols=None, exclude_cols=None) -> None:
        self._paths = _filenames(filenames)
        self._compression = _compression(compression_type)
        self._defaults = [_csv_default(d) for d in record_defaults]
        if select_cols is not None and exclude_cols is not None:
            raise errors.InvalidArgumentError(
                None, "CSVDatasetV2", "Either select_cols or exclude_cols should be empty")
        if select_cols is not None and len(select_cols) != len(self._defaults):
            raise errors.InvalidArgumentError(
                None, "CSVDatasetV2", f"select_cols should match output size: "
                f"{len(select_cols)} columns selected, {len(self._defaults)} record defaults")
        self._select = None if select_cols is None else tuple(int(c) for c in select_cols)
        self._exclude = None if exclude_cols is None else frozenset(int(c) for c in exclude_cols)
        self._header = bool(header)
        self._attrs = {"field_delim": field_delim.encode(), "use_quote_delim": bool(use_quote_delim),
                       "na_value": na_value.encode() if isinstance(na_value, str) else na_value}

    def _compute_spec(self):
        return tuple(TensorSpec([], d.dtype) for d in self._defaults)

    def _cardinality(self) -> int:
        return UNKNOWN_CARDINALITY

    def _columns(self, width: int):
        if self._exclude is None:
            return self._select
        return tuple(c for c in range(width) if c not in self._exclude)

    def _parse(self, lines: list, select_cols) -> list:
        records = np.empty(len(lines), object)
        records[:] = lines
        return DecodeCSV.kernel(records, *[d.numpy() for d in self._defaults],
                                select_cols=select_cols, **self._attrs)

    def _elements(self):
        for lines in _file_lines(self._paths, self._compression, int(self._header)):
            if type(lines) is ElementError:
                yield lines
                continue
            select = self._columns(len(lines[0].split(self._attrs["field_delim"]))) \
                if lines and self._exclude is not None else self._select
            for start in range(0, len(lines), _BLOCK):
                block = lines[start:start + _BLOCK]
                try:
                    columns = self._parse(block, select)
                except errors.OpError:
                    yield from self._one_by_one(block, select)
                    continue
                for row in zip(*[c.tolist() if c.dtype.kind != "O" else c for c in columns]):
                    yield tuple(Tensor(np.array(v, c.dtype)) for v, c in zip(row, columns))

    def _one_by_one(self, lines: list, select):
        for line in lines:
            try:
                columns = self._parse([line], select)
            except errors.OpError as e:
                yield ElementError(e)
                continue
            yield tuple(Tensor(c.reshape(())) for c in columns)


def _infer_type(texts: list) -> dtypes.DType:
    """TF's inference of a CSV column's type: the first of int32, int64, float32, float64
    that parses every (non-missing) field, else string."""
    for dtype in (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64):
        try:
            parse_numbers(texts, dtype.as_numpy_dtype)
            return dtype
        except ValueError:
            continue
    return dtypes.string


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=",",
                     use_quote_delim=True, na_value="", header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False,
                     encoding="utf-8") -> Dataset:
    """Batches of CSV records as (OrderedDict of column name: batch, label batch), or just
    the dict without `label_name`: the files matching `file_pattern`, column names from
    the header (or `column_names`), column types inferred from the first
    `num_rows_for_inference` rows (int32, int64, float32, float64, else string; missing
    fields default to zero or "") unless `column_defaults` gives them.

    Args:
        file_pattern: a glob pattern or a list of them.
        batch_size: records per batch (the last one may be smaller).
        num_epochs: passes over the data (None: forever).
        shuffle, shuffle_buffer_size, shuffle_seed: shuffle the records.
        select_columns: the names (or indices) of the columns to keep.
        ignore_errors: drop records that do not parse.
        (the others as `CsvDataset`'s; the parallelism arguments are accepted)

    Raises:
        ValueError: no file matches, a label or selected column is not a column, or no
            column names.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "a.csv")
        >>> _ = open(path, "w").write("x,y\\n1,a\\n2,b\\n")
        >>> ds = tf.data.experimental.make_csv_dataset(path, 2, label_name="y", num_epochs=1,
        ...                                            shuffle=False)
        >>> features, labels = next(iter(ds))
        >>> features["x"].numpy(), labels.numpy()
        (array([1, 2], dtype=int32), array([b'a', b'b'], dtype=object))
    """
    patterns = [file_pattern] if isinstance(file_pattern, (str, bytes, os.PathLike)) \
        else list(file_pattern)
    paths = [p for pattern in patterns for p in sorted(glob.glob(os.fsdecode(pattern)))]
    if not paths:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    compression = _compression(compression_type)
    first = _lines(_read(paths[0], compression))
    delim = field_delim.encode()
    if column_names is None:
        if not header or not first:
            raise ValueError("Expected `column_names` or `header=True` to infer column names.")
        column_names = [f.decode(encoding) for f in first[0].split(delim)]
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        raise ValueError("Either `column_names` or the header has duplicate names.")
    selected = list(range(len(column_names)))
    if select_columns is not None:
        selected = sorted(column_names.index(c) if isinstance(c, str) else int(c)
                          for c in select_columns if not isinstance(c, str) or
                          c in column_names or _missing_column(c))
    names = [column_names[i] for i in selected]
    if label_name is not None and label_name not in names:
        raise ValueError(f"`label_name` {label_name!r} is not among the columns {names}.")
    if column_defaults is None:
        rows = [r.split(delim) for r in first[int(header):int(header) + num_rows_for_inference]]
        na = na_value.encode()
        defaults = []
        for i in selected:
            texts = [r[i] for r in rows if len(r) > i and r[i] not in (b"", na)]
            dtype = _infer_type(texts)
            defaults.append(Tensor(np.array([b""], object)) if dtype is dtypes.string
                            else Tensor(np.zeros(1, dtype.as_numpy_dtype)))
    else:
        defaults = list(column_defaults)
        if select_columns is not None and len(defaults) == len(column_names):
            defaults = [defaults[i] for i in selected]
    records = CsvDataset(paths, defaults, compression_type=compression_type, header=header,
                         field_delim=field_delim, use_quote_delim=use_quote_delim,
                         na_value=na_value, select_cols=selected)
    if ignore_errors:
        records = records.ignore_errors()
    if num_epochs != 1:
        records = records.repeat(num_epochs)
    if shuffle:
        records = records.shuffle(shuffle_buffer_size, seed=shuffle_seed)

    def as_features(*columns):
        features = collections.OrderedDict(zip(names, columns))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label
    return records.batch(batch_size).map(as_features)


def _missing_column(name) -> bool:
    raise ValueError(f"`select_columns` names {name!r}, which is not a column.")
