"""Batching of in-memory data for fit / evaluate / predict."""
from __future__ import annotations

import math

import numpy as np

from ..framework import nest
from ..framework.tensor import convert_to_tensor

__all__ = ["ArrayBatches", "unpack"]


def _as_array(x):
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


class ArrayBatches:
    """(x, y, sample_weight) arrays cut into batches, shuffled per epoch when asked.

    Each of x, y, sample_weight may be an array, a Tensor, or a list/tuple/dict of them;
    y and sample_weight may be None.

    Raises:
        ValueError: arrays with different numbers of examples, or no examples.
    """

    def __init__(self, x, y=None, sample_weight=None, batch_size: int | None = None) -> None:
        self.data = tuple(None if part is None else nest.map_structure(_as_array, part)
                          for part in (x, y, sample_weight))
        sizes = {name: [len(leaf) for leaf in nest.flatten(part)]
                 for name, part in zip(("x", "y", "sample_weight"), self.data) if part is not None}
        counts = {n for found in sizes.values() for n in found}
        if len(counts) != 1:
            detail = "\n".join(f"  {name} sizes: {', '.join(map(str, found))}"
                               for name, found in sizes.items())
            raise ValueError(f"Data cardinality is ambiguous:\n{detail}\nMake sure all arrays "
                             "contain the same number of samples.")
        self.size = counts.pop()
        if self.size == 0:
            raise ValueError("Expected input data to be non-empty.")
        self.batch_size = int(batch_size or 32)
        self.steps = math.ceil(self.size / self.batch_size)

    def split(self, fraction: float) -> tuple:
        """(the first 1 - fraction of the examples, the last fraction), as Keras's
        validation_split cuts them (before any shuffling)."""
        cut = int(math.floor(self.size * (1.0 - fraction)))
        if cut == 0 or cut == self.size:
            raise ValueError(f"validation_split={fraction} leaves no examples for training or "
                             f"validation out of {self.size}.")
        head, tail = (tuple(None if p is None else nest.map_structure(lambda a: a[s], p)
                            for p in self.data) for s in (slice(None, cut), slice(cut, None)))
        return (ArrayBatches(*head, batch_size=self.batch_size),
                ArrayBatches(*tail, batch_size=self.batch_size))

    def __call__(self, shuffle_with: np.random.Generator | None = None):
        """Yields (x, y, sample_weight) batches as Tensors (None parts stay None)."""
        order = shuffle_with.permutation(self.size) if shuffle_with is not None else None
        for start in range(0, self.size, self.batch_size):
            rows = slice(start, start + self.batch_size) if order is None \
                else order[start:start + self.batch_size]
            yield tuple(None if part is None
                        else nest.map_structure(lambda a: convert_to_tensor(a[rows]), part)
                        for part in self.data)


def unpack(data) -> tuple:
    """(x, y, sample_weight) from a batch given as x, (x,), (x, y) or (x, y, sample_weight)."""
    if isinstance(data, tuple) and 1 <= len(data) <= 3:
        return tuple(data) + (None,) * (3 - len(data))
    return data, None, None
