"""TF's sorted string table (the LevelDB table format), the `.index` file of a checkpoint.

A table is data blocks of sorted key/value entries (keys prefix-compressed against the
previous key, a restart point every 16 entries), each block followed by a trailer (a
compression byte, 0 for none, and the masked CRC32C of the block and that byte); then an
empty metaindex block, an index block (one entry per data block: a key between that block's
last key and the next block's first, and the block's varint offset and size), and a 48-byte
footer (the two blocks' handles, zero padding, TF's table magic). Written as TF's writer does
(256 KiB blocks), so the bytes are TF's.

Example:
    >>> from tapeflow.io import table
    >>> data = table.build_table([(b"a", b"1"), (b"b", b"2")])
    >>> table.read_table(data, "t.index")
    {b'a': b'1', b'b': b'2'}
"""
from __future__ import annotations

import struct

from ..framework import errors
from .checksum import masked_crc32c

_BLOCK_SIZE = 262144
_RESTART_INTERVAL = 16
_TABLE_MAGIC = 0xDB4775248B80FB57
_FOOTER_SIZE = 48
_TRAILER_SIZE = 5
_NO_COMPRESSION = 0
_SNAPPY_COMPRESSION = 1


def encode_varint(value: int) -> bytes:
    """The base-128 varint of the non-negative `value`, as protobuf and the table write it."""
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def decode_varint(data, position: int) -> tuple:
    """(value, next position) of the varint at `position` of `data`; IndexError past the end."""
    result = shift = 0
    while True:
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, position
        shift += 7
        if shift > 63:
            raise ValueError("varint longer than 10 bytes")


class _BlockBuilder:
    """The entries of one block, prefix-compressed, with their restart points."""

    def __init__(self, restart_interval: int) -> None:
        self.restart_interval = restart_interval
        self.buffer = bytearray()
        self.restarts = [0]
        self.counter = 0
        self.last_key = b""

    def add(self, key: bytes, value: bytes) -> None:
        shared = 0
        if self.counter < self.restart_interval:
            limit = min(len(key), len(self.last_key))
            while shared < limit and key[shared] == self.last_key[shared]:
                shared += 1
        else:
            self.restarts.append(len(self.buffer))
            self.counter = 0
        self.buffer += encode_varint(shared) + encode_varint(len(key) - shared) \
            + encode_varint(len(value)) + key[shared:] + value
        self.last_key = key
        self.counter += 1

    def size_estimate(self) -> int:
        return len(self.buffer) + 4 * len(self.restarts) + 4

    def finish(self) -> bytes:
        return bytes(self.buffer) + struct.pack(f"<{len(self.restarts) + 1}I", *self.restarts,
                                                len(self.restarts))


def _shortest_separator(start: bytes, limit: bytes) -> bytes:
    """A short key >= start and < limit (the index key after a full block)."""
    common = 0
    while common < min(len(start), len(limit)) and start[common] == limit[common]:
        common += 1
    if common < min(len(start), len(limit)):
        byte = start[common]
        if byte < 0xFF and byte + 1 < limit[common]:
            return start[:common] + bytes([byte + 1])
    return start


def _short_successor(key: bytes) -> bytes:
    """A short key >= key (the index key after the last block)."""
    for position, byte in enumerate(key):
        if byte != 0xFF:
            return key[:position] + bytes([byte + 1])
    return key


def build_table(items) -> bytes:
    """The bytes of a table holding `items`, (key, value) pairs of bytes in sorted key order.

    Args:
        items: an iterable of (bytes, bytes), keys strictly increasing bytewise.

    Returns:
        The table file's bytes.

    Raises:
        ValueError: the keys are not strictly increasing.
    """
    out = bytearray()

    def write_block(block: _BlockBuilder) -> bytes:
        contents = block.finish() + bytes([_NO_COMPRESSION])
        handle = encode_varint(len(out)) + encode_varint(len(contents) - 1)
        out.extend(contents)
        out.extend(struct.pack("<I", masked_crc32c(contents)))
        return handle

    data = _BlockBuilder(_RESTART_INTERVAL)
    index = _BlockBuilder(1)
    pending = None
    last_key = None
    for key, value in items:
        if last_key is not None and key <= last_key:
            raise ValueError(f"table keys must be strictly increasing: {key!r} after "
                             f"{last_key!r}")
        if pending is not None:
            index.add(_shortest_separator(last_key, key), pending)
            pending = None
        data.add(key, value)
        last_key = key
        if data.size_estimate() >= _BLOCK_SIZE:
            pending = write_block(data)
            data = _BlockBuilder(_RESTART_INTERVAL)
    if data.buffer:
        pending = write_block(data)
    metaindex = write_block(_BlockBuilder(_RESTART_INTERVAL))
    if pending is not None:
        index.add(_short_successor(last_key), pending)
    index_handle = write_block(index)
    handles = metaindex + index_handle
    out.extend(handles + bytes(_FOOTER_SIZE - 8 - len(handles)))
    out.extend(struct.pack("<Q", _TABLE_MAGIC))
    return bytes(out)


def _data_loss(path: str, why: str) -> errors.DataLossError:
    return errors.DataLossError(None, None, f"Unable to read table file {path}: {why}")


def _block(data, handle_data, position: int, path: str) -> tuple:
    """The contents of the block whose handle is at `position` of `handle_data`, checked,
    and the position after the handle."""
    offset, position = decode_varint(handle_data, position)
    size, position = decode_varint(handle_data, position)
    end = offset + size + _TRAILER_SIZE
    if end > len(data) - _FOOTER_SIZE:
        raise _data_loss(path, f"block at offset {offset} of {size} bytes runs past the end "
                               f"of the file ({len(data)} bytes): truncated")
    contents = data[offset:offset + size + 1]
    (stored,) = struct.unpack_from("<I", data, offset + size + 1)
    if masked_crc32c(contents) != stored:
        raise _data_loss(path, f"block checksum mismatch in the block at offset {offset}")
    if contents[-1] == _SNAPPY_COMPRESSION:
        raise errors.UnimplementedError(
            None, None, f"table file {path} holds a Snappy-compressed block, which tapeflow "
                        "does not read (checkpoints are written uncompressed)")
    if contents[-1] != _NO_COMPRESSION:
        raise _data_loss(path, f"bad block compression type {contents[-1]}")
    return contents[:-1], position


def _block_entries(contents, path: str):
    """The (key, value) pairs of a block's contents."""
    (restarts,) = struct.unpack_from("<I", contents, len(contents) - 4)
    end = len(contents) - 4 * (restarts + 1)
    if end < 0:
        raise _data_loss(path, "bad block contents")
    position = 0
    key = b""
    while position < end:
        shared, position = decode_varint(contents, position)
        unshared, position = decode_varint(contents, position)
        size, position = decode_varint(contents, position)
        key = key[:shared] + bytes(contents[position:position + unshared])
        position += unshared
        yield key, bytes(contents[position:position + size])
        position += size
    if position != end:
        raise _data_loss(path, "bad entry in block")


def read_table(data, path: str) -> dict:
    """The entries of the table file `path` whose bytes are `data`, key -> value.

    Args:
        data: the file's bytes.
        path: the file's name, for error messages.

    Returns:
        A dict of bytes -> bytes in key order.

    Raises:
        DataLossError: the file is truncated, corrupted or not a table (naming `path`).
    """
    if len(data) < _FOOTER_SIZE:
        raise _data_loss(path, f"file is too short ({len(data)} bytes) to be a table")
    (magic,) = struct.unpack_from("<Q", data, len(data) - 8)
    if magic != _TABLE_MAGIC:
        raise _data_loss(path, "not a table (bad magic number)")
    footer = memoryview(data)[len(data) - _FOOTER_SIZE:]
    entries = {}
    try:
        _, position = decode_varint(footer, decode_varint(footer, 0)[1])  # metaindex
        index, _ = _block(data, footer, position, path)
        for _, handle in _block_entries(index, path):
            block, _ = _block(data, handle, 0, path)
            entries.update(_block_entries(block, path))
    except (IndexError, ValueError, struct.error) as error:
        raise _data_loss(path, f"bad table structure ({error})") from None
    return entries
