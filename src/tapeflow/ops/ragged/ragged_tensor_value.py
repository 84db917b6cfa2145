"""RaggedTensorValue: a ragged value held as NumPy arrays (`tf.compat.v1` sessions)."""
from __future__ import annotations

import numpy as np

__all__ = ["RaggedTensorValue"]


class RaggedTensorValue:
    """A ragged value of NumPy parts: `values` (an array or RaggedTensorValue) and
    `row_splits`.

    Example:
        >>> import tapeflow as tf
        >>> v = tf.compat.v1.ragged.RaggedTensorValue(np.array([1, 2, 3]), np.array([0, 2, 3]))
        >>> v.to_list()
        [[1, 2], [3]]
    """

    def __init__(self, values, row_splits) -> None:
        self._values = values
        self._row_splits = np.asarray(row_splits)

    @property
    def values(self):
        return self._values

    @property
    def row_splits(self) -> np.ndarray:
        return self._row_splits

    @property
    def flat_values(self) -> np.ndarray:
        values = self._values
        while isinstance(values, RaggedTensorValue):
            values = values._values
        return values

    @property
    def nested_row_splits(self) -> tuple:
        out, rt = [], self
        while isinstance(rt, RaggedTensorValue):
            out.append(rt._row_splits)
            rt = rt._values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        return len(self.nested_row_splits)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def shape(self) -> tuple:
        return (len(self._row_splits) - 1, None) + tuple(np.shape(self.flat_values)[1:])

    def to_list(self) -> list:
        values = self._values.to_list() if isinstance(self._values, RaggedTensorValue) \
            else np.asarray(self._values).tolist()
        s = self._row_splits.tolist()
        return [values[a:b] for a, b in zip(s[:-1], s[1:])]

    def __repr__(self) -> str:
        return f"tf.RaggedTensorValue(values={self._values!r}, row_splits={self._row_splits!r})"
