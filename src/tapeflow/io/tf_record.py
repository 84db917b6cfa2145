"""TFRecord files: records framed as TF frames them (the record's length as a little-endian
uint64, the masked CRC32C of those 8 bytes, the record, the masked CRC32C of the record),
the whole stream optionally GZIP- or ZLIB-compressed; `TFRecordWriter`, `TFRecordOptions`
and the reader under `tf.data.TFRecordDataset` and `tf_record_iterator`.

A truncated or corrupted file raises DataLossError naming the file and the record's offset.

Example:
    >>> import os, tempfile
    >>> import tapeflow as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "data.tfrecord")
    >>> with tf.io.TFRecordWriter(path, "GZIP") as writer:
    ...     writer.write(b"first")
    ...     writer.write(b"second")
    >>> list(tf.compat.v1.io.tf_record_iterator(path, "GZIP"))
    [b'first', b'second']
"""
from __future__ import annotations

import struct
import zlib

from ..framework import errors
from .checksum import masked_crc32c
from .gfile import local_path, os_errors

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter",
           "tf_record_iterator", "read_records"]

_HEADER = struct.Struct("<QI")
_CRC = struct.Struct("<I")
_LENGTH = struct.Struct("<Q")
_CHUNK = 1 << 20


class TFRecordCompressionType:
    """The compression of a TFRecord file: NONE, ZLIB or GZIP."""

    NONE = 0
    ZLIB = 1
    GZIP = 2


class TFRecordOptions:
    """How a TFRecord file is compressed.

    Args:
        compression_type: "GZIP", "ZLIB", "" / None (none), or a TFRecordCompressionType.
        flush_mode, input_buffer_size, output_buffer_size: accepted (tapeflow's buffering
            applies).
        window_bits, compression_level, compression_method, mem_level, compression_strategy:
            zlib's settings (None: zlib's defaults).

    Raises:
        ValueError: another compression type.

    Example:
        >>> import tapeflow as tf
        >>> tf.io.TFRecordOptions.get_compression_type_string(tf.io.TFRecordOptions("GZIP"))
        'GZIP'
    """

    compression_type_map = {TFRecordCompressionType.ZLIB: "ZLIB",
                            TFRecordCompressionType.GZIP: "GZIP",
                            TFRecordCompressionType.NONE: ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None) -> None:
        if compression_type not in (None, "", "ZLIB", "GZIP") and \
                compression_type not in self.compression_type_map:
            raise ValueError(f'Not a valid compression_type: "{compression_type}"')
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options) -> str:
        """"GZIP", "ZLIB" or "" for options, a compression type or None.

        Raises:
            ValueError: not a compression type.
        """
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return cls.get_compression_type_string(options.compression_type)
        if options in ("ZLIB", "GZIP"):
            return options
        if options in cls.compression_type_map:
            return cls.compression_type_map[options]
        raise ValueError(f'Not a valid compression_type: "{options}"')


def _options(options) -> TFRecordOptions:
    return options if isinstance(options, TFRecordOptions) else TFRecordOptions(options)


def _compressor(options: TFRecordOptions):
    kind = TFRecordOptions.get_compression_type_string(options)
    if not kind:
        return None
    bits = options.window_bits or zlib.MAX_WBITS
    return zlib.compressobj(
        zlib.Z_DEFAULT_COMPRESSION if options.compression_level is None
        else options.compression_level,
        zlib.DEFLATED if options.compression_method is None else options.compression_method,
        bits + 16 if kind == "GZIP" else bits,
        zlib.DEF_MEM_LEVEL if options.mem_level is None else options.mem_level,
        zlib.Z_DEFAULT_STRATEGY if options.compression_strategy is None
        else options.compression_strategy)


def frame(record: bytes) -> bytes:
    """The bytes one record takes in a TFRecord file."""
    length = _LENGTH.pack(len(record))
    return b"".join((length, _CRC.pack(masked_crc32c(length)), record,
                     _CRC.pack(masked_crc32c(record))))


class TFRecordWriter:
    """Writes records to a TFRecord file (created or truncated), as TF writes them.

    Args:
        path: the file's path.
        options: a TFRecordOptions or a compression type string ("GZIP", "ZLIB", "").

    Raises:
        ValueError: a bad compression type.
        NotFoundError: the file's directory does not exist.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "r.tfrecord")
        >>> with tf.io.TFRecordWriter(path) as writer:
        ...     writer.write(b"abc")
        >>> open(path, "rb").read().hex()
        '0300000000000000b099490e6162636e57f121'
    """

    def __init__(self, path, options=None) -> None:
        self._path = local_path(path)
        self._compressor = _compressor(_options(options))
        with os_errors(self._path):
            self._file = open(self._path, "wb")

    def write(self, record) -> None:
        """Appends one record (bytes, or str as UTF-8, or a scalar string tensor)."""
        if hasattr(record, "numpy"):
            record = record.numpy()
        data = frame(record.encode("utf-8") if isinstance(record, str) else bytes(record))
        if self._compressor is not None:
            data = self._compressor.compress(data)
        self._file.write(data)

    def flush(self) -> None:
        """Writes what is buffered to the file (a compressed stream stays readable)."""
        if self._compressor is not None:
            self._file.write(self._compressor.flush(zlib.Z_FULL_FLUSH))
        self._file.flush()

    def close(self) -> None:
        """Finishes the file (the compressed stream's end) and closes it."""
        if self._file is not None:
            if self._compressor is not None:
                self._file.write(self._compressor.flush())
            self._file.close()
            self._file = None

    def __enter__(self) -> "TFRecordWriter":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def decompressed(file, compression_type: str, path: str, buffer_size=None) -> "_Stream":
    """The bytes of the open binary `file` (named `path` in errors), decompressed as
    `compression_type` ("", "ZLIB", "GZIP") says: `read(n)` gives up to n bytes."""
    return _Stream(file, compression_type, path, buffer_size or _CHUNK)


class _Stream:
    """The bytes of a file, decompressed: `read(n)` gives up to n bytes."""

    def __init__(self, file, kind: str, path: str, buffer_size: int) -> None:
        self._file, self._path, self._buffer_size = file, path, buffer_size
        self._inflate = None if not kind else zlib.decompressobj(
            zlib.MAX_WBITS + 16 if kind == "GZIP" else zlib.MAX_WBITS)
        self._pending = b""

    def read(self, n: int) -> bytes:
        if self._inflate is None:
            return self._file.read(n)
        while len(self._pending) < n:
            if self._inflate.eof:
                # a gzip file may hold several members, one after another
                rest = self._inflate.unused_data
                if not rest:
                    break
                self._inflate = zlib.decompressobj(zlib.MAX_WBITS + 16)
                more = self._expand(rest)
            else:
                chunk = self._file.read(self._buffer_size)
                if not chunk:
                    break
                more = self._expand(chunk)
            self._pending += more
        data, self._pending = self._pending[:n], self._pending[n:]
        return data

    def read_all(self) -> bytes:
        """The rest of the bytes."""
        if self._inflate is None:
            return self._file.read()
        parts = []
        while True:
            part = self.read(_CHUNK)
            if not part:
                return b"".join(parts)
            parts.append(part)

    def _expand(self, data: bytes) -> bytes:
        try:
            return self._inflate.decompress(data)
        except zlib.error as error:
            raise errors.DataLossError(None, None, f"{self._path}: {error}") from None


def read_records(path, compression_type="", buffer_size=None):
    """Yields the records of the TFRecord file `path`, each checked against its checksums.

    Args:
        path: the file's path.
        compression_type: "", "ZLIB" or "GZIP" (or TFRecordOptions).
        buffer_size: bytes read at a time (None: 1 MiB).

    Raises:
        NotFoundError: the file does not exist.
        DataLossError: the file is truncated or a record corrupted (naming the file).
    """
    local = local_path(path)
    kind = TFRecordOptions.get_compression_type_string(compression_type)
    with os_errors(local):
        file = open(local, "rb")
    with file:
        stream = decompressed(file, kind, local, buffer_size)
        offset = 0
        while True:
            header = stream.read(12)
            if not header:
                return
            if len(header) < 12:
                raise errors.DataLossError(None, None, f"truncated record at {offset} in file "
                                                       f"{local} (a partial header)")
            length, length_crc = _HEADER.unpack(header)
            if masked_crc32c(header[:8]) != length_crc:
                hint = " (Is this even a TFRecord file?)" if offset == 0 else ""
                raise errors.DataLossError(None, None, f"corrupted record at {offset} in file "
                                                       f"{local}{hint}")
            body = stream.read(length + 4)
            if len(body) < length + 4:
                raise errors.DataLossError(None, None, f"truncated record at {offset} in file "
                                                       f"{local}")
            record = body[:length]
            if masked_crc32c(record) != _CRC.unpack_from(body, length)[0]:
                raise errors.DataLossError(None, None, f"corrupted record at {offset + 12} in "
                                                       f"file {local}")
            yield record
            offset += length + 16


def tf_record_iterator(path, options=None):
    """The records of a TFRecord file, as bytes (TF 1's reader; tf.data.TFRecordDataset is
    TF 2's).

    Args:
        path: the file's path.
        options: a TFRecordOptions or a compression type string.

    Raises:
        NotFoundError, DataLossError: as `read_records` (when iterated).

    Example:
        >>> import tapeflow as tf
        >>> it = tf.compat.v1.io.tf_record_iterator("/nonexistent.tfrecord")
        >>> next(it)
        Traceback (most recent call last):
        ...
        tapeflow.framework.errors.NotFoundError: /nonexistent.tfrecord; No such file or directory
    """
    return read_records(path, _options(options))
