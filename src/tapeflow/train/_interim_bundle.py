"""Stand-in for `tensor_bundle` until TF's TensorBundle writer lands: the same two calls
over one .npz file at `prefix.index` (removed when `tensor_bundle` arrives)."""
from __future__ import annotations

import os

import numpy as np

from ..framework import dtypes, errors

__all__ = ["write_bundle", "BundleReader"]


def write_bundle(prefix: str, tensors: dict) -> None:
    from .checkpoint import atomic_write
    arrays = {}
    for key, value in tensors.items():
        if isinstance(value, bytes):
            arrays["b:" + key] = np.frombuffer(value, np.uint8)
        else:
            arrays["a:" + key] = np.asarray(value)
    atomic_write(os.fspath(prefix) + ".data-00000-of-00001", lambda f: f.write(b""))
    atomic_write(os.fspath(prefix) + ".index", lambda f: np.savez(f, **arrays))


class BundleReader:
    def __init__(self, prefix: str) -> None:
        path = os.fspath(prefix) + ".index"
        if not os.path.exists(path):
            raise errors.NotFoundError(None, None, f"Failed to find any matching files for "
                                                   f"{prefix}")
        try:
            with np.load(path, allow_pickle=False) as data:
                self._data = {k[2:]: (k[0], data[k]) for k in data.files}
        except Exception as e:  # noqa: BLE001
            raise errors.DataLossError(None, None, f"Unable to read {path}: {e}") from None

    def keys(self) -> list:
        return sorted(self._data)

    def has(self, key: str) -> bool:
        return key in self._data

    def _get(self, key):
        if key not in self._data:
            raise errors.NotFoundError(None, None, f"Key {key} not found in checkpoint")
        return self._data[key]

    def dtype(self, key: str):
        kind, value = self._get(key)
        return dtypes.string if kind == "b" else dtypes.as_dtype(value.dtype)

    def shape(self, key: str) -> list:
        kind, value = self._get(key)
        return [] if kind == "b" else list(value.shape)

    def read(self, key: str):
        kind, value = self._get(key)
        return np.array(value.tobytes(), dtype=object) if kind == "b" else value
