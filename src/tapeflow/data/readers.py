"""Datasets that read files: `TFRecordDataset` (the records of TFRecord files),
`TextLineDataset` (the lines of text files) and `FixedLengthRecordDataset` (records of a
fixed size between a header and a footer), each optionally GZIP/ZLIB-compressed, reading
several files one after another or, with `num_parallel_reads`, interleaved a record at a
time as TF's deterministic interleave does.

Example:
    >>> import os, tempfile
    >>> import tapeflow as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "r.tfrecord")
    >>> with tf.io.TFRecordWriter(path) as writer:
    ...     writer.write(b"a")
    ...     writer.write(b"b")
    >>> [r.numpy() for r in tf.data.TFRecordDataset(path)]
    [b'a', b'b']
"""
from __future__ import annotations

import os

import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import Tensor, is_tensor
from ..framework.tensor_spec import TensorSpec
from ..io import tf_record
from ..io.gfile import local_path, os_errors
from .dataset_ops import AUTOTUNE, Dataset

__all__ = ["FixedLengthRecordDataset", "TFRecordDataset", "TextLineDataset"]


def _file_names(filenames) -> list:
    """The file names `filenames` gives: a string, a list of them, a string tensor, or a
    dataset of string scalars (iterated when the files are read)."""
    if isinstance(filenames, Dataset):
        spec = filenames.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype != dtypes.string or spec.shape.rank:
            raise TypeError("`filenames` must be a `tf.data.Dataset` of scalar `tf.string` "
                            f"elements, got {spec}")
        return filenames
    if is_tensor(filenames):
        if filenames.dtype != dtypes.string:
            raise TypeError(f"`filenames` must be a `tf.Tensor` of dtype `tf.string` dtype. "
                            f"Got {filenames.dtype}")
        filenames = filenames.numpy().reshape(-1).tolist()
    elif isinstance(filenames, (str, bytes, os.PathLike)):
        filenames = [filenames]
    names = [os.fsdecode(os.fspath(name)) for name in filenames]
    if not names:
        raise ValueError("`filenames` must be a 1-D string tensor, got an empty list")
    return names


def _interleaved(names, read, cycle_length: int):
    """The records of each file in `names` (`read(name)` iterates one file's), `cycle_length`
    files at a time, one record from each in turn; a finished file's place goes to the next
    file when the cycle comes back to it."""
    names = iter(names)
    slots = [None] * cycle_length
    position, more_files, open_count = 0, True, 0
    while more_files or open_count:
        if slots[position] is not None:
            try:
                record = next(slots[position])
            except StopIteration:
                slots[position] = None
                open_count -= 1
            else:
                yield record
        elif more_files:
            name = next(names, None)
            if name is None:
                more_files = False
            else:
                slots[position] = iter(read(name))
                open_count += 1
                continue
        position = (position + 1) % cycle_length


class _FileDataset(Dataset):
    """The elements read from each of several files (see the subclasses)."""

    def __init__(self, filenames, compression_type, buffer_size, num_parallel_reads) -> None:
        self._names = _file_names(filenames)
        self._compression = tf_record.TFRecordOptions.get_compression_type_string(
            compression_type.numpy().item().decode() if is_tensor(compression_type)
            else compression_type)
        self._buffer_size = None if buffer_size is None else int(buffer_size)
        if num_parallel_reads is not None:
            num_parallel_reads = int(num_parallel_reads)
            if num_parallel_reads == AUTOTUNE:
                num_parallel_reads = os.cpu_count() or 1
            elif num_parallel_reads < 1:
                raise ValueError("`num_parallel_reads` must be positive or tf.data.AUTOTUNE, "
                                 f"got {num_parallel_reads}")
        self._cycle_length = num_parallel_reads or 1

    def _compute_spec(self):
        return TensorSpec([], dtypes.string)

    def _names_now(self):
        if isinstance(self._names, Dataset):
            return (element.numpy().decode() for element in self._names)
        return self._names

    def _elements(self):
        for record in _interleaved(self._names_now(), self._read, self._cycle_length):
            yield Tensor(np.array(record, dtype=object))


class TFRecordDataset(_FileDataset):
    """The records of one or more TFRecord files, as string scalars.

    Args:
        filenames: a file name, a list or 1-D string tensor of them, or a dataset of them.
        compression_type: "" (none), "ZLIB" or "GZIP".
        buffer_size: bytes read at a time (None: 1 MiB).
        num_parallel_reads: read this many files at once, a record from each in turn (None:
            one file after another; tf.data.AUTOTUNE: one per CPU).
        name: unused.

    Raises:
        TypeError: `filenames` holds no strings.
        ValueError: a bad compression type.
        NotFoundError, DataLossError: (while iterating) a missing, truncated or corrupted
            file, naming it.
    """

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None) -> None:
        super().__init__(filenames, compression_type, buffer_size, num_parallel_reads)

    def _read(self, name):
        return tf_record.read_records(name, self._compression, self._buffer_size)


class TextLineDataset(_FileDataset):
    """The lines of one or more text files (without their line endings), as string scalars.

    Args:
        filenames: a file name, a list or 1-D string tensor of them, or a dataset of them.
        compression_type: "" (none), "ZLIB" or "GZIP".
        buffer_size: bytes read at a time.
        num_parallel_reads: as TFRecordDataset's.
        name: unused.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "t.txt")
        >>> tf.io.write_file(path, "one\\r\\ntwo\\nthree")
        >>> [line.numpy() for line in tf.data.TextLineDataset(path)]
        [b'one', b'two', b'three']
    """

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None) -> None:
        super().__init__(filenames, compression_type, buffer_size, num_parallel_reads)

    def _read(self, name):
        path = local_path(name)
        with os_errors(path):
            file = open(path, "rb")
        with file:
            stream = tf_record.decompressed(file, self._compression, path, self._buffer_size)
            pending = b""
            while True:
                chunk = stream.read(1 << 16)
                if not chunk:
                    break
                lines = (pending + chunk).split(b"\n")
                pending = lines.pop()
                for line in lines:
                    yield line[:-1] if line.endswith(b"\r") else line
            if pending:
                yield pending[:-1] if pending.endswith(b"\r") else pending


class FixedLengthRecordDataset(_FileDataset):
    """The records of `record_bytes` bytes each in one or more files, after `header_bytes`
    and before `footer_bytes`, as string scalars.

    Args:
        filenames: a file name, a list or 1-D string tensor of them, or a dataset of them.
        record_bytes: the size of a record.
        header_bytes, footer_bytes: the bytes to skip at the start and the end of each file.
        buffer_size: bytes read at a time.
        compression_type: "" (none), "ZLIB" or "GZIP".
        num_parallel_reads: as TFRecordDataset's.
        name: unused.

    Raises:
        InvalidArgumentError: (while iterating) a file's body is not a whole number of
            records, naming the file.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "f.bin")
        >>> tf.io.write_file(path, "HHabcdFF")
        >>> [r.numpy() for r in tf.data.FixedLengthRecordDataset(path, 2, 2, 2)]
        [b'ab', b'cd']
    """

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None,
                 buffer_size=None, compression_type=None, num_parallel_reads=None,
                 name=None) -> None:
        super().__init__(filenames, compression_type, buffer_size, num_parallel_reads)
        self._record_bytes = int(record_bytes)
        if self._record_bytes <= 0:
            raise ValueError(f"record_bytes must be positive, got {record_bytes}")
        self._header_bytes = int(header_bytes or 0)
        self._footer_bytes = int(footer_bytes or 0)

    def _read(self, name):
        path = local_path(name)
        with os_errors(path):
            file = open(path, "rb")
        with file:
            data = tf_record.decompressed(file, self._compression, path,
                                          self._buffer_size).read_all()
        body = len(data) - self._header_bytes - self._footer_bytes
        if body < 0 or body % self._record_bytes:
            raise errors.InvalidArgumentError(
                None, "FixedLengthRecordDataset",
                f"Excluding the header ({self._header_bytes} bytes) and footer "
                f"({self._footer_bytes} bytes), input file \"{name}\" has body length "
                f"{body} bytes, which is not an exact multiple of the record length "
                f"({self._record_bytes} bytes).")
        for start in range(self._header_bytes, self._header_bytes + body, self._record_bytes):
            yield data[start:start + self._record_bytes]
