"""TF's TensorBundle, the files of a checkpoint: `<prefix>.index`, a table (see
`tapeflow.io.table`) mapping each tensor's key to a BundleEntryProto (dtype, shape, shard,
offset, size, masked CRC32C), the empty key to a BundleHeaderProto; and the data shards
`<prefix>.data-NNNNN-of-NNNNN` holding the tensors' bytes back to back, little-endian. A
string tensor is stored as the varint lengths of its elements, the masked CRC32C of those
lengths (as 4-byte integers), then the elements' bytes; its entry's checksum covers the
lengths as 4-byte integers, that checksum and the bytes.

Example:
    >>> import os, tempfile
    >>> import numpy as np
    >>> from tapeflow.train import tensor_bundle
    >>> prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
    >>> tensor_bundle.write_bundle(prefix, {"w": np.ones([2], np.float32), "name": b"mlp"})
    >>> reader = tensor_bundle.BundleReader(prefix)
    >>> reader.keys(), reader.shape("w"), reader.read("name")
    (['name', 'w'], [2], array(b'mlp', dtype=object))
"""
from __future__ import annotations

import os
import struct
import tempfile

import numpy as np

from ..framework import dtypes, errors
from ..io.checksum import mask, masked_crc32c, crc32c
from ..io.table import build_table, decode_varint, encode_varint, read_table

_HEADER_KEY = b""
_BUNDLE_VERSION = 1  # TF's kTensorBundleVersion, the producer version its readers accept


def data_filename(prefix: str, shard: int, num_shards: int) -> str:
    """The name of a bundle's data shard, `<prefix>.data-00000-of-00001`."""
    return f"{prefix}.data-{shard:05d}-of-{num_shards:05d}"


def _messages():
    from ..protos import tensor_bundle
    return tensor_bundle.messages()


def _as_array(key: str, value) -> np.ndarray:
    """`value` as a NumPy array of a type a bundle holds (strings as an object array)."""
    if isinstance(value, (bytes, str)):
        value = np.array(value.encode() if isinstance(value, str) else value, dtype=object)
    elif not isinstance(value, np.ndarray):
        value = np.asarray(getattr(value, "numpy", lambda: value)())
    if value.dtype.kind in "OSU":
        return value.astype(object)
    try:
        dtypes.from_numpy(value.dtype)
    except TypeError:
        raise TypeError(f"write_bundle: tensor {key!r} has NumPy dtype {value.dtype}, which "
                        "a checkpoint does not hold") from None
    return value


def _string_payload(array: np.ndarray) -> tuple:
    """(the bytes a string tensor is stored as, their masked checksum)."""
    elements = [element.encode() if isinstance(element, str) else bytes(element)
                for element in array.reshape(-1)]
    lengths = [len(element) for element in elements]
    if any(length >= 2 ** 32 for length in lengths):
        raise ValueError("write_bundle: string elements of 4 GiB or more are not supported")
    widths = struct.pack(f"<{len(lengths)}I", *lengths)
    lengths_crc = struct.pack("<I", masked_crc32c(widths))
    body = b"".join(elements)
    payload = b"".join(encode_varint(length) for length in lengths) + lengths_crc + body
    entry_crc = crc32c(body, crc32c(lengths_crc, crc32c(widths)))
    return payload, mask(entry_crc)


def write_bundle(prefix: str, tensors: dict) -> None:
    """Writes `tensors` as a TensorBundle at `prefix`, the files TF's checkpoint writer makes.

    The data go to temporary files that are renamed once complete (the data shard, then the
    index), so a save that fails leaves an earlier bundle at `prefix` as it was.

    Args:
        prefix: the path prefix; writes `prefix.index` and `prefix.data-00000-of-00001`.
        tensors: key -> value: a NumPy array (any dtype TF has, bfloat16 and float16 too),
            bytes or str (a scalar string), an object array of bytes (a string tensor), or a
            tensor. The data are written in this order, the index in TF's bytewise key order.

    Raises:
        TypeError: a value's dtype has no TF dtype.
        ValueError: a key is not a string, or two keys are equal.
        ImportError: protobuf, tensorboard or crc32c is missing.
    """
    messages = _messages()
    header = messages["BundleHeaderProto"](num_shards=1)
    header.version.producer = _BUNDLE_VERSION
    entries = {_HEADER_KEY: header.SerializeToString()}
    directory = os.path.dirname(os.path.abspath(prefix))
    os.makedirs(directory, exist_ok=True)
    data_path = data_filename(prefix, 0, 1)
    temporaries = []
    try:
        handle, data_temp = tempfile.mkstemp(prefix=os.path.basename(data_path) + ".tempstate",
                                             dir=directory)
        temporaries.append(data_temp)
        offset = 0
        with os.fdopen(handle, "wb") as data_file:
            for key, value in tensors.items():
                if not isinstance(key, str):
                    raise ValueError(f"write_bundle: keys are strings, got {key!r}")
                encoded = key.encode()
                if encoded in entries:
                    raise ValueError(f"write_bundle: duplicate key {key!r}")
                array = _as_array(key, value)
                entry = messages["BundleEntryProto"]()
                entry.shape.SetInParent()
                for size in array.shape:
                    entry.shape.dim.add(size=size)
                if array.dtype == object:
                    entry.dtype = dtypes.string.as_datatype_enum
                    payload, entry.crc32c = _string_payload(array)
                    data_file.write(payload)
                    size = len(payload)
                else:
                    entry.dtype = dtypes.from_numpy(array.dtype).as_datatype_enum
                    if array.dtype.byteorder == ">":
                        array = array.astype(array.dtype.newbyteorder("<"))
                    array = np.ascontiguousarray(array)
                    raw = array.reshape(-1).view(np.uint8)
                    entry.crc32c = masked_crc32c(raw)
                    data_file.write(raw.data)
                    size = raw.size
                entry.offset = offset
                entry.size = size
                offset += size
                entries[encoded] = entry.SerializeToString()
        handle, index_temp = tempfile.mkstemp(prefix=os.path.basename(prefix) +
                                              ".index.tempstate", dir=directory)
        temporaries.append(index_temp)
        with os.fdopen(handle, "wb") as index_file:
            index_file.write(build_table(sorted(entries.items())))
        os.replace(data_temp, data_path)
        os.replace(index_temp, f"{prefix}.index")
        temporaries.clear()
    finally:
        for temporary in temporaries:
            if os.path.exists(temporary):
                os.remove(temporary)


def _decode_slice_key(raw: bytes, path: str) -> tuple:
    """(tensor name, ((start, length), ...)) of the key of a stored slice: order-preserving
    codes of 0, the name (zero bytes escaped, ended by 00 01), the rank, then each
    dimension's start and length (-1: the whole dimension) as signed numbers."""
    try:
        position = 1
        name = bytearray()
        while raw[position:position + 2] != b"\0\1":
            if raw[position] in (0, 0xFF):  # escaped 00 ff / ff 00
                position += 1
            name.append(raw[position])
            position += 1
        position += 2
        length = raw[position]
        rank = int.from_bytes(raw[position + 1:position + 1 + length], "big")
        position += 1 + length
        numbers = []
        for _ in range(2 * rank):
            number, position = _decode_signed(raw, position)
            numbers.append(number)
    except (IndexError, ValueError):
        raise errors.DataLossError(None, None, f"{path}: bad slice key {raw!r}") from None
    return name.decode(), tuple(zip(numbers[::2], numbers[1::2]))


def _decode_signed(raw: bytes, position: int) -> tuple:
    """(value, next position) of an order-preserving signed number of up to 7 bytes: n
    leading header bits equal to the sign's opposite, then a separating bit, then the value."""
    first = raw[position]
    negative = not first & 0x80
    flip = 0xFF if negative else 0
    header = first ^ flip
    size = 0
    while size < 8 and header & (0x80 >> size):
        size += 1
    if size == 0 or size > 7:
        raise ValueError("signed number too long")
    body = bytes(byte ^ flip for byte in raw[position:position + size])
    value = int.from_bytes(body, "big") & ((1 << (8 * size - size - 1)) - 1)
    return (~value if negative else value), position + size


class BundleReader:
    """Reads a TensorBundle (a checkpoint's `.index` and data shards), TF's or tapeflow's.

    Args:
        prefix: the bundle's path prefix (`<prefix>.index` is read at once).

    Raises:
        NotFoundError: `<prefix>.index` does not exist (naming the prefix).
        DataLossError: the index is truncated or corrupted (naming the file).
        UnimplementedError: a big-endian bundle.

    Example:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from tapeflow.train.tensor_bundle import BundleReader, write_bundle
        >>> prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
        >>> write_bundle(prefix, {"step": np.int64(3)})
        >>> reader = BundleReader(prefix)
        >>> reader.has("step"), reader.dtype("step"), reader.read("step")
        (True, tf.int64, array(3))
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        index_path = f"{prefix}.index"
        try:
            with open(index_path, "rb") as index_file:
                data = index_file.read()
        except FileNotFoundError:
            raise errors.NotFoundError(
                None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                            f"matching files for {prefix}") from None
        except IsADirectoryError:
            raise errors.NotFoundError(None, None, f"{index_path} is a directory, not a "
                                                   "checkpoint index") from None
        entries = read_table(data, index_path)
        messages = _messages()
        header = messages["BundleHeaderProto"]()
        try:
            header.ParseFromString(entries.pop(_HEADER_KEY))
        except KeyError:
            raise errors.DataLossError(None, None, f"Unable to read table file {index_path}: "
                                                   "it has no bundle header entry") from None
        except Exception as error:  # protobuf's DecodeError
            raise errors.DataLossError(None, None, f"Unable to read table file {index_path}: "
                                                   f"bad bundle header ({error})") from None
        if header.endianness != 0:
            raise errors.UnimplementedError(
                None, None, f"{index_path} is a big-endian bundle, which tapeflow does not "
                            "read")
        self.num_shards = header.num_shards
        self._index_path = index_path
        self._entry_class = messages["BundleEntryProto"]
        # keys starting with a zero byte hold the slices of a partitioned tensor (TF lists
        # only the whole tensor's key)
        self._slices = {key: value for key, value in entries.items() if key[:1] == b"\0"}
        self._entries = {key.decode(): value for key, value in entries.items()
                         if key[:1] != b"\0"}
        self._parsed = {}

    def keys(self) -> list:
        """The keys of the tensors, in TF's (bytewise) order."""
        return list(self._entries)

    def has(self, key: str) -> bool:
        """Whether the bundle holds a tensor named `key`."""
        return key in self._entries

    def _entry(self, key: str):
        entry = self._parsed.get(key)
        if entry is None:
            try:
                value = self._entries[key]
            except KeyError:
                raise errors.NotFoundError(None, None,
                                           f"Key {key} not found in checkpoint") from None
            entry = self._entry_class()
            try:
                entry.ParseFromString(value)
            except Exception as error:  # protobuf's DecodeError
                raise errors.DataLossError(
                    None, None, f"Unable to read table file {self._index_path}: bad entry "
                                f"for key {key} ({error})") from None
            self._parsed[key] = entry
        return entry

    def dtype(self, key: str) -> dtypes.DType:
        """The dtype of the tensor `key`.

        Raises:
            NotFoundError: no such key.
        """
        return dtypes.as_dtype(self._entry(key).dtype)

    def shape(self, key: str) -> list:
        """The shape of the tensor `key`, a list of ints.

        Raises:
            NotFoundError: no such key.
        """
        return [dim.size for dim in self._entry(key).shape.dim]

    def read(self, key: str) -> np.ndarray:
        """The value of the tensor `key`, checked against its stored checksum.

        Returns:
            A NumPy array (an object array of bytes for a string tensor, 0-d for a scalar).

        Raises:
            NotFoundError: no such key.
            DataLossError: the data shard is missing, truncated or corrupted (naming it).
        """
        entry = self._entry(key)
        dtype, shape = self.dtype(key), self.shape(key)
        if entry.slices:
            return self._read_slices(key, entry, dtype, shape)
        return self._read_entry(key, entry, dtype, shape)

    def _read_entry(self, key, entry, dtype, shape) -> np.ndarray:
        path = data_filename(self.prefix, entry.shard_id, self.num_shards)
        buffer = np.empty(entry.size, np.uint8)
        try:
            with open(path, "rb") as data_file:
                data_file.seek(entry.offset)
                got = data_file.readinto(buffer)
        except FileNotFoundError:
            raise errors.DataLossError(None, None, f"{path}: the data file of {self.prefix} "
                                                   "is missing") from None
        if got != entry.size:
            raise errors.DataLossError(
                None, None, f"{path}: truncated: key {key} needs bytes {entry.offset}.."
                            f"{entry.offset + entry.size}, the file ends after "
                            f"{entry.offset + got}")
        if dtype == dtypes.string:
            return self._strings(key, path, buffer, shape, entry.crc32c)
        self._check(key, path, masked_crc32c(buffer), entry.crc32c)
        return buffer.view(dtype.as_numpy_dtype).reshape(shape)

    def _read_slices(self, key, entry, dtype, shape) -> np.ndarray:
        """A partitioned tensor, assembled from the slices its entry lists."""
        pieces = {}
        for raw in self._slices:
            name, extents = _decode_slice_key(raw, self._index_path)
            if name == key:
                pieces[extents] = raw
        value = np.empty(shape, object if dtype == dtypes.string else dtype.as_numpy_dtype)
        for piece in entry.slices:
            extents = tuple((extent.start, extent.length if extent.HasField("length") else -1)
                            for extent in piece.extent)
            raw = pieces.get(extents)
            if raw is None:
                raise errors.DataLossError(None, None, f"{self._index_path}: the slice "
                                                       f"{extents} of key {key} is missing")
            piece_entry = self._entry_class()
            piece_entry.ParseFromString(self._slices[raw])
            region = tuple(slice(start, None if length < 0 else start + length)
                           for start, length in extents)
            value[region] = self._read_entry(key, piece_entry, dtype,
                                             [dim.size for dim in piece_entry.shape.dim])
        return value

    def _check(self, key: str, path: str, computed: int, stored: int) -> None:
        if computed != stored:
            raise errors.DataLossError(
                None, None, f"{path}: checksum does not match for key {key} of "
                            f"{self.prefix}: stored {stored} vs. computed {computed}")

    def _strings(self, key, path, buffer, shape, stored):
        count = int(np.prod(shape, dtype=np.int64))
        data = buffer.tobytes()
        lengths = []
        position = 0
        try:
            for _ in range(count):
                length, position = decode_varint(data, position)
                lengths.append(length)
        except (IndexError, ValueError):
            raise errors.DataLossError(None, None, f"{path}: bad string lengths for key "
                                                   f"{key}") from None
        widths = struct.pack(f"<{count}I", *lengths)
        lengths_crc = data[position:position + 4]
        position += 4
        body = data[position:]
        computed = mask(crc32c(body, crc32c(lengths_crc, crc32c(widths))))
        self._check(key, path, computed, stored)
        elements = np.empty(count, dtype=object)
        for index, length in enumerate(lengths):
            elements[index] = body[:length]
            body = body[length:]
        return elements.reshape(shape)
