"""TF's masked CRC32C, the checksum of checkpoint tables, bundles and TFRecords, computed by
the `crc32c` package (imported on first use).

A masked checksum is the CRC32C rotated right by 15 bits plus 0xa282ead8 (mod 2**32), so
that a checksum of data holding checksums is not itself trivially related to them.

Example:
    >>> from tapeflow.io import checksum
    >>> hex(checksum.masked_crc32c(b"hello"))
    '0x191c1fbb'
"""
from __future__ import annotations

_MASK_DELTA = 0xA282EAD8
_CRC32C = None


def crc32c(data, value: int = 0) -> int:
    """The CRC32C of the bytes-like `data`, extending the checksum `value`.

    Raises:
        ImportError: the `crc32c` package is not installed (the message names the extra).
    """
    global _CRC32C
    if _CRC32C is None:
        try:
            import crc32c as module
        except ImportError as error:
            raise ImportError("TF's checksums (checkpoints, TFRecord) are computed with the "
                              "`crc32c` package: pip install 'tapeflow[tf-files]'") from error
        _CRC32C = module.crc32c
    return _CRC32C(data, value)


def mask(crc: int) -> int:
    """TF's masked form of the CRC32C `crc`."""
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def masked_crc32c(data) -> int:
    """The masked CRC32C of the bytes-like `data`.

    Args:
        data: bytes, bytearray, memoryview or a contiguous NumPy array.

    Returns:
        The masked checksum, an int below 2**32.
    """
    return mask(crc32c(data))
