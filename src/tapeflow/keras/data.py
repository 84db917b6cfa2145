"""Batching of in-memory data for fit / evaluate / predict, and the compiled loss and metrics."""
from __future__ import annotations

import math

import numpy as np

from ..framework import nest
from ..framework.tensor import convert_to_tensor
from . import losses as losses_module
from . import metrics as metrics_module

__all__ = ["ArrayBatches", "CompiledLoss", "CompiledMetrics", "unpack"]


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


class CompiledLoss:
    """The loss given to `compile`, and a Mean of its values weighted by batch size."""

    def __init__(self, loss) -> None:
        loss = losses_module.get(loss)
        if not isinstance(loss, losses_module.Loss):
            loss = losses_module.LossFunctionWrapper(loss)
        self.loss = loss
        self.tracker = metrics_module.Mean(name="loss")

    def __call__(self, y_true, y_pred, sample_weight=None):
        if y_true is None:
            raise ValueError("Target data is missing. Your model was compiled with a loss, "
                             "and therefore expects target data to be passed in `fit()`.")
        value = self.loss(y_true, y_pred, sample_weight=sample_weight)
        self.tracker.update_state(value, sample_weight=y_pred.shape.as_list()[0])
        return value


class CompiledMetrics:
    """The metrics given to `compile`; 'accuracy' picks binary, categorical or sparse
    categorical accuracy from the shapes of the first batch, as Keras does."""

    def __init__(self, metrics, loss) -> None:
        self._specs = list(metrics or [])
        self._loss = loss
        self.metrics: list | None = None

    def _resolve(self, spec, y_true, y_pred):
        if spec not in ("accuracy", "acc"):
            return metrics_module.get(spec)
        fn = getattr(self._loss, "fn", self._loss)
        if fn is losses_module.binary_crossentropy or y_pred.shape.as_list()[-1] == 1:
            cls = metrics_module.BinaryAccuracy
        elif fn is losses_module.sparse_categorical_crossentropy \
                or y_true.ndim < y_pred.ndim or y_true.shape.as_list()[-1] == 1:
            cls = metrics_module.SparseCategoricalAccuracy
        else:
            cls = metrics_module.CategoricalAccuracy
        return cls(name=spec)

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        if self.metrics is None:
            self.metrics = [self._resolve(spec, y_true, y_pred) for spec in self._specs]
        for metric in self.metrics:
            metric.update_state(y_true, y_pred, sample_weight=sample_weight)
