"""tf.compat's conversions between text and bytes, and the Python types TF counts as each.

Example:
    >>> import tapeflow as tf
    >>> tf.compat.as_text(b"caf\\xc3\\xa9"), tf.compat.as_bytes("café")
    ('café', b'caf\\xc3\\xa9')
"""
from __future__ import annotations

import numbers
import os

import numpy as np

__all__ = ["as_bytes", "as_text", "as_str", "as_str_any", "path_to_str",
           "bytes_or_text_types", "integral_types", "real_types", "complex_types"]

bytes_or_text_types = (bytes, str)
integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)


def as_bytes(bytes_or_text, encoding: str = "utf-8") -> bytes:
    """`bytes_or_text` as bytes: text encoded with `encoding`, bytes (or a bytearray) as
    they are.

    Raises:
        TypeError: anything else.
    """
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding: str = "utf-8") -> str:
    """`bytes_or_text` as str: bytes decoded with `encoding`, text as it is.

    Raises:
        TypeError: anything else.
    """
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value, encoding: str = "utf-8") -> str:
    """`value` as str: bytes decoded, anything else by `str()`."""
    return as_str(value, encoding) if isinstance(value, bytes) else str(value)


def path_to_str(path):
    """A path-like object's path as str; anything else as it is."""
    return os.fspath(path) if isinstance(path, os.PathLike) else path
