"""The values of string tensors: NumPy object arrays of Python `bytes`.

Not NumPy's fixed-width 'S' arrays: those pad every element to the longest one and strip
trailing NUL bytes (`np.array([b"a\\0"])[0] == b"a"`), while a TF string is any bytes of any
length. Conversion encodes Python `str` as UTF-8 and takes NumPy's 'U' and 'S' arrays (as
TF, an 'S' array's trailing NULs are already gone); storage in files that are never
unpickled (checkpoints, dataset caches) goes through `to_storable`/`from_storable`.
"""
from __future__ import annotations

import numpy as np

__all__ = ["as_bytes", "as_value", "holds_text", "string_array", "to_storable",
           "from_storable", "STORED_MARK"]


def as_value(element):
    """A kernel's result as a tensor's value: NumPy's indexing and ufuncs give a 0-d object
    array's element itself (a string's `bytes`), which becomes a 0-d array again."""
    return np.array(element, dtype=object) if type(element) is bytes else element


def holds_text(value) -> bool:
    """Whether `value` is text (str, bytes, NumPy text or object arrays, or a sequence
    starting with text), so that it converts to a string tensor."""
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    if isinstance(value, (str, bytes)):
        return True
    return isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "USO"


def as_bytes(x) -> bytes:
    """One element: bytes as they are, str encoded as UTF-8; TypeError naming the type of
    anything else."""
    if type(x) is bytes:
        return x
    if isinstance(x, str):
        return x.encode("utf-8")
    if isinstance(x, bytes):
        return bytes(x)
    raise TypeError(type(x).__name__)


def _not_string(value) -> TypeError:
    return TypeError(f"Cannot convert {value!r} to EagerTensor of dtype string")


def string_array(value, numbers_fail: bool = False) -> np.ndarray:
    """`value` (text: str, bytes, NumPy 'U'/'S'/object arrays, rectangular sequences of
    them) as a string tensor's array: an object array of `bytes`.

    Args:
        value: the data.
        numbers_fail: the string dtype was asked for, so that other data is a TypeError
            (else a mix of text and other values is TF's ValueError).

    Raises:
        TypeError: with `numbers_fail`, `value` holds something else (a number).
        ValueError: a ragged sequence, a sequence mixing text with other values, an object
            array holding something else.
    """
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "US":
        if value.dtype.kind == "U":
            value = np.char.encode(value, "utf-8")
        return np.array(value, dtype=object)
    if isinstance(value, (str, bytes)):
        return np.array(as_bytes(value), dtype=object)
    numpy_objects = isinstance(value, np.ndarray)
    if not (numpy_objects or isinstance(value, (list, tuple))):
        if numbers_fail:
            raise _not_string(value)
        raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                         f"({type(value)}) to a Tensor.")
    try:
        shape = np.shape(value) if numpy_objects else np.array(value).shape
    except ValueError:
        if numbers_fail:
            raise _not_string(value) from None
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    objects = np.array(value, dtype=object)
    if objects.shape != shape:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    out = np.empty(objects.size, dtype=object)
    try:
        out[:] = [as_bytes(x) for x in objects.reshape(-1)]
    except TypeError as e:
        if numpy_objects:
            raise ValueError(f"Failed to convert a NumPy array to a Tensor (Unsupported "
                             f"object type {e}).") from None
        if numbers_fail:
            raise _not_string(value) from None
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.") from None
    return out.reshape(shape)


# A stored string array is NumPy's fixed-width 'S' type with one byte appended to every
# element, so trailing NULs survive NumPy's stripping; loading removes it.
STORED_MARK = b"."


def to_storable(array: np.ndarray) -> np.ndarray:
    """A string array in a form `np.save` writes without pickling (see `from_storable`);
    other arrays as they are."""
    if array.dtype.kind != "O":
        return array
    return np.array([x + STORED_MARK for x in array.reshape(-1)], dtype=bytes).reshape(
        array.shape) if array.size else np.zeros(array.shape, "S1")


def from_storable(array: np.ndarray) -> np.ndarray:
    """The string array `to_storable` made (an 'S' array); other arrays as they are."""
    if array.dtype.kind != "S":
        return array
    out = np.empty(array.size, dtype=object)
    out[:] = [x[:-1] for x in array.reshape(-1).tolist()]
    return out.reshape(array.shape)
