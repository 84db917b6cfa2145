"""Batching of in-memory data for fit / evaluate / predict."""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..data.dataset_ops import Dataset
from ..framework import nest
from ..framework.tensor import convert_to_tensor

__all__ = ["ArrayBatches", "DatasetBatches", "EpochBatches", "batches", "class_weights",
           "unpack", "weighted_by_class"]


def _as_array(x):
    array = x.numpy() if hasattr(x, "numpy") else np.asarray(x)
    if array.dtype.kind not in "biufc":
        raise ValueError(f"Failed to convert a NumPy array of dtype {array.dtype} (shape "
                         f"{list(array.shape)}) to a Tensor: the model takes numbers. Encode "
                         "strings (such as class names) as integer ids first.")
    return array


class ArrayBatches:
    """(x, y, sample_weight) arrays cut into batches, shuffled per epoch when asked.

    Each of x, y, sample_weight may be an array, a Tensor, or a list/tuple/dict of them;
    y and sample_weight may be None.

    Raises:
        ValueError: arrays with different numbers of examples, or no examples; arrays of
            strings or objects.
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

    def weighted_by_class(self, class_weight: dict) -> "ArrayBatches":
        """The same batches with each example's sample weight multiplied by the weight
        of its class (`class_weights`).

        Raises:
            ValueError: no targets, or several outputs' targets.
        """
        x, y, sample_weight = self.data
        return ArrayBatches(x, y, weighted_by_class(y, sample_weight, class_weight),
                            self.batch_size)

    def __call__(self, shuffle_with: np.random.Generator | None = None):
        """Yields (x, y, sample_weight) batches as Tensors (None parts stay None)."""
        order = shuffle_with.permutation(self.size) if shuffle_with is not None else None
        for start in range(0, self.size, self.batch_size):
            rows = slice(start, start + self.batch_size) if order is None \
                else order[start:start + self.batch_size]
            yield tuple(None if part is None
                        else nest.map_structure(lambda a: convert_to_tensor(a[rows]), part)
                        for part in self.data)


def weighted_by_class(y, sample_weight, class_weight: dict) -> np.ndarray:
    """Sample weights (one per example) times the `class_weights` of the labels `y`.

    Raises:
        ValueError: no targets, or several outputs' targets.
    """
    targets = nest.flatten(y) if y is not None else []
    if len(targets) != 1:
        raise ValueError("`class_weight` is only supported for Models with a single "
                         f"output (got {len(targets)} target arrays).")
    weights = class_weights(_as_array(targets[0]), class_weight)
    if sample_weight is not None:
        weights = weights * np.asarray(_as_array(nest.flatten(sample_weight)[0]),
                                       weights.dtype).reshape(len(weights))
    return weights


class DatasetBatches:
    """The batches of a `tf.data.Dataset` whose elements are `x`, `(x,)`, `(x, y)` or
    `(x, y, sample_weight)`, as (x, y, sample_weight) with None parts; a new pass over the
    dataset on each call (its own `shuffle` reshuffles).

    Raises:
        ValueError: `y` or `sample_weight` given beside the dataset.
    """

    def __init__(self, dataset, y=None, sample_weight=None, class_weight=None) -> None:
        for name, value in (("y", y), ("sample_weights", sample_weight)):
            if value is not None:
                raise ValueError(f"When providing `x` as a tf.data.Dataset, `{name}` should not "
                                 "be passed. Instead, it should be included as part of the "
                                 "tf.data.Dataset.")
        self.dataset = dataset
        self.class_weight = class_weight
        self.batch_size = None              # the dataset makes its own batches
        count = int(dataset.cardinality())
        self.steps = count if count >= 0 else None
        self.infinite = count == -1

    def weighted_by_class(self, class_weight: dict) -> "DatasetBatches":
        """The same batches with each example's sample weight multiplied by the weight of
        its class (`class_weights`)."""
        return DatasetBatches(self.dataset, class_weight=class_weight)

    def __call__(self, shuffle_with=None):
        for batch in self.dataset:
            x, y, sample_weight = unpack(batch)
            if self.class_weight is not None:
                sample_weight = convert_to_tensor(
                    weighted_by_class(y, sample_weight, self.class_weight))
            yield x, y, sample_weight


def batches(x, y=None, sample_weight=None, batch_size=None, steps=None, what: str = "x"):
    """ArrayBatches for in-memory data, DatasetBatches for a tf.data.Dataset.

    Raises:
        ValueError: `y` or `sample_weight` beside a dataset, or an infinite dataset without
            `steps` (the loop would never end).
    """
    if not isinstance(x, Dataset):
        return ArrayBatches(x, y, sample_weight, batch_size)
    data = DatasetBatches(x, y, sample_weight)
    if data.infinite and steps is None:
        raise ValueError(f"The dataset passed as `{what}` is infinite (it repeats forever): "
                         "pass the number of batches to use (`steps_per_epoch`, "
                         "`validation_steps` or `steps`).")
    return data


def unpack(data) -> tuple:
    """(x, y, sample_weight) from a batch given as x, (x,), (x, y) or (x, y, sample_weight)."""
    if isinstance(data, tuple) and 1 <= len(data) <= 3:
        return tuple(data) + (None,) * (3 - len(data))
    return data, None, None


def class_weights(y: np.ndarray, class_weight: dict) -> np.ndarray:
    """One weight per example: `class_weight[label]`, 1.0 for classes the dict leaves out.

    Labels are integer class ids ([n] or [n, 1]), 0/1 floats, or one-hot rows (their
    argmax), as Keras reads them.

    Raises:
        ValueError: a class_weight that is not a dict of numbers.

    Example:
        >>> import numpy as np
        >>> class_weights(np.array([0, 2, 1]), {0: 1.0, 2: 3.0}).tolist()
        [1.0, 3.0, 1.0]
    """
    if not isinstance(class_weight, dict):
        raise ValueError("`class_weight` must be a dict mapping class indices to weights, "
                         f"got {type(class_weight).__name__}.")
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] > 1:
        labels = np.argmax(y, axis=1)
    else:
        labels = np.rint(y.reshape(len(y), -1)[:, 0]).astype(np.int64)
    table = {int(k): float(v) for k, v in class_weight.items()}
    return np.array([table.get(int(label), 1.0) for label in labels], dtype=np.float32)


class EpochBatches:
    """The batches of each epoch of `fit` (or each validation): a whole pass over the data,
    or with `steps`, that many batches continuing where the previous epoch stopped. A pass that runs out
    ends its epoch early (with a warning) and the next epoch starts a new pass, as Keras
    does with `steps_per_epoch` on arrays.

    Raises:
        ValueError: `steps` is not positive.
    """

    def __init__(self, data: ArrayBatches, steps: int | None, shuffler) -> None:
        if steps is not None and int(steps) <= 0:
            raise ValueError("The number of steps (steps_per_epoch, validation_steps or steps) "
                             f"must be a positive integer, got {steps}.")
        self.data = data
        self.steps = None if steps is None else int(steps)
        self.shuffler = shuffler            # () -> a Generator for a new pass, or None
        self._pass = None
        self._warned = False

    def __iter__(self):
        if self.steps is None:
            yield from self.data(self.shuffler())
            return
        for _ in range(self.steps):
            if self._pass is None:
                self._pass = self.data(self.shuffler())
            batch = next(self._pass, None)
            if batch is None:
                self._pass = None
                if not self._warned:
                    self._warned = True
                    per_pass = f" (the data make {self.data.steps} per pass)" \
                        if self.data.steps is not None else ""
                    warnings.warn("Your input ran out of data: this epoch ends before "
                                  f"{self.steps} batches{per_pass}; the next epoch starts a "
                                  "new pass. A dataset can repeat: `dataset.repeat()`.",
                                  stacklevel=3)
                return
            yield batch
