"""Datasets that transform other datasets: map, filter, shuffle, repeat, take, skip, cache,
prefetch, zip, concatenate, flat_map. Each pulls from its inputs one element at a time."""
from __future__ import annotations

import os

import numpy as np

from ..framework import errors
from ..framework.graph import Graph
from ..framework.string_values import from_storable, to_storable
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..ops.random_ops import get_seed
from . import structure
from .dataset_ops import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset

__all__ = ["UnaryDataset", "MapDataset", "FilterDataset", "ShuffleDataset", "RepeatDataset", "TakeDataset",
           "SkipDataset", "CacheDataset", "PrefetchDataset", "ZipDataset",
           "ConcatenateDataset", "FlatMapDataset", "InterleaveDataset", "count_argument"]


def count_argument(value, what: str) -> int:
    """An element count given as a Python or NumPy integer or an integer Tensor.

    Raises:
        TypeError: a value that is not a whole number.
    """
    array = np.asarray(value)
    if array.ndim or array.dtype.kind not in "iu":
        raise TypeError(f"{what}: cannot convert {value!r} to an int64 element count.")
    return int(array)


def _apply(fn, element):
    """`fn` on an element, a tuple unpacked into its arguments (as TF does)."""
    return fn(*element) if type(element) is tuple else fn(element)


def _output_spec(fn, dataset: Dataset):
    """The spec of `fn`'s results, from one trace of `fn` on placeholders of the input's
    spec, as TF's graph trace finds it. A function that needs values while it is traced
    (dynamic shapes, Python branches on tensors) is run on the first element instead, and
    its dimensions are reported unknown."""
    from ..compat.v1 import placeholder
    input_spec = dataset.element_spec
    try:
        with Graph().as_default():
            inputs = structure.map_structure(lambda s: placeholder(s.dtype, s.shape),
                                             input_spec)
            return structure.spec_of(structure.to_element(_apply(fn, inputs), True))
    except (errors.SymbolicValueError, errors.OperatorNotAllowedInGraphError):
        first = next(dataset._elements(), None)
        if first is None:
            raise
        output = structure.to_element(_apply(fn, first), True)
        return structure.map_structure(
            lambda t: TensorSpec(TensorShape([None] * t.ndim), t.dtype), output)


class UnaryDataset(Dataset):
    """A dataset made from one input dataset: by default with its element spec and
    cardinality."""

    def __init__(self, input_dataset: Dataset) -> None:
        self._input = input_dataset

    def _compute_spec(self):
        return self._input.element_spec

    def _cardinality(self) -> int:
        return self._input._cardinality()


class MapDataset(UnaryDataset):
    """`map_func` of each element (see `Dataset.map`)."""

    def __init__(self, input_dataset: Dataset, map_func) -> None:
        super().__init__(input_dataset)
        self._fn = map_func

    def _compute_spec(self):
        return _output_spec(self._fn, self._input)

    def _elements(self):
        fn = self._fn
        for element in self._input._elements():
            yield structure.to_element(_apply(fn, element), lists_are_structures=True)


class FilterDataset(UnaryDataset):
    """The elements a predicate accepts (see `Dataset.filter`)."""

    def __init__(self, input_dataset: Dataset, predicate) -> None:
        super().__init__(input_dataset)
        self._predicate = predicate

    def _cardinality(self) -> int:
        return UNKNOWN_CARDINALITY

    def _elements(self):
        predicate = self._predicate
        for element in self._input._elements():
            keep = convert_to_tensor(_apply(predicate, element))
            if keep.dtype.name != "bool" or keep.ndim:
                raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` "
                                 "scalar tensor, but its return type is "
                                 f"{TensorSpec(keep.shape, keep.dtype)}.")
            if keep.numpy():
                yield element


class ShuffleDataset(UnaryDataset):
    """The elements drawn at random from a refilled buffer (see `Dataset.shuffle`)."""

    def __init__(self, input_dataset: Dataset, buffer_size, seed, reshuffle: bool) -> None:
        super().__init__(input_dataset)
        self._buffer_size = count_argument(buffer_size, "shuffle buffer_size")
        if self._buffer_size < 1:
            raise errors.InvalidArgumentError(
                None, "ShuffleDataset",
                f"buffer_size must be greater than zero, got {self._buffer_size}.")
        self._seeds = get_seed(None if seed is None else count_argument(seed, "shuffle seed"))
        self._reshuffle = bool(reshuffle)
        self._iterations = 0

    def _rng(self) -> np.random.Generator:
        if self._seeds[0] is None:
            return np.random.default_rng()
        iteration = self._iterations
        if self._reshuffle:
            self._iterations += 1
        return np.random.default_rng([*self._seeds, iteration])

    def _elements(self):
        rng = self._rng()
        source = self._input._elements()
        buffer = []
        for element in source:
            buffer.append(element)
            if len(buffer) == self._buffer_size:
                break
        draws, used = rng.random(1024), 0
        while buffer:
            if used == len(draws):          # uniform draws in blocks: one NumPy call each
                draws, used = rng.random(1024), 0
            index = int(draws[used] * len(buffer))
            used += 1
            chosen = buffer[index]
            refill = next(source, None)
            if refill is None:
                buffer[index] = buffer[-1]
                buffer.pop()
            else:
                buffer[index] = refill
            yield chosen


class RepeatDataset(UnaryDataset):
    """The elements `count` times over, forever for -1 (see `Dataset.repeat`)."""

    def __init__(self, input_dataset: Dataset, count) -> None:
        super().__init__(input_dataset)
        self._count = -1 if count is None else count_argument(count, "repeat count")

    def _cardinality(self) -> int:
        n = self._input._cardinality()
        if self._count == 0 or n == 0:
            return 0
        if self._count < 0:
            return INFINITE_CARDINALITY
        return n if n < 0 else n * self._count

    def _elements(self):
        done = 0
        while self._count < 0 or done < self._count:
            empty = True
            for element in self._input._elements():
                empty = False
                yield element
            if empty:
                return
            done += 1


class TakeDataset(UnaryDataset):
    """The first `count` elements, all for a negative count (see `Dataset.take`)."""

    def __init__(self, input_dataset: Dataset, count) -> None:
        super().__init__(input_dataset)
        self._count = count_argument(count, "take count")

    def _cardinality(self) -> int:
        n = self._input._cardinality()
        if self._count < 0:
            return n
        if n == INFINITE_CARDINALITY:
            return self._count
        return n if n == UNKNOWN_CARDINALITY else min(n, self._count)

    def _elements(self):
        if self._count == 0:
            return
        for i, element in enumerate(self._input._elements(), 1):
            yield element
            if i == self._count:
                return


class SkipDataset(UnaryDataset):
    """The elements after the first `count`, none for a negative count (see
    `Dataset.skip`)."""

    def __init__(self, input_dataset: Dataset, count) -> None:
        super().__init__(input_dataset)
        self._count = count_argument(count, "skip count")

    def _cardinality(self) -> int:
        n = self._input._cardinality()
        if n < 0:
            return n
        return 0 if self._count < 0 else max(0, n - self._count)

    def _elements(self):
        skipped = 0
        for element in self._input._elements():
            if self._count < 0 or skipped < self._count:
                skipped += 1
                continue
            yield element


class CacheDataset(UnaryDataset):
    """The elements, recorded during the first complete iteration and replayed after it:
    in memory, or in the file `filename` (see `Dataset.cache`)."""

    def __init__(self, input_dataset: Dataset, filename) -> None:
        super().__init__(input_dataset)
        self._filename = os.fspath(filename) if filename else ""
        self._memory = None

    def _elements(self):
        if self._filename:
            yield from self._through_file()
            return
        if self._memory is not None:
            yield from self._memory
            return
        recorded = []
        for element in self._input._elements():
            recorded.append(element)
            yield element
        self._memory = recorded

    def _through_file(self):
        path = self._filename
        if os.path.exists(path):
            spec = self.element_spec
            count = len(structure.flatten(spec))
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                while f.tell() < size:
                    leaves = [Tensor(from_storable(np.load(f, allow_pickle=False)))
                              for _ in range(count)]
                    yield structure.pack(spec, leaves)
            return
        partial = f"{path}.tmp-{os.getpid()}"
        try:
            with open(partial, "wb") as f:
                for element in self._input._elements():
                    for leaf in structure.flatten(element):
                        np.save(f, to_storable(structure.leaf_array(leaf)),
                                allow_pickle=False)
                    yield element
            os.replace(partial, path)
        finally:
            if os.path.exists(partial):
                os.remove(partial)


class PrefetchDataset(UnaryDataset):
    """The same elements (see `Dataset.prefetch`)."""

    def _elements(self):
        return self._input._elements()


def _as_dataset_structure(datasets):
    if isinstance(datasets, dict):
        return type(datasets)((k, _as_dataset_structure(v)) for k, v in datasets.items())
    if isinstance(datasets, (list, tuple)):
        items = [_as_dataset_structure(d) for d in datasets]
        return type(datasets)(*items) if hasattr(datasets, "_fields") else tuple(items)
    if not isinstance(datasets, Dataset):
        raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures "
                        "of `tf.data.Dataset` objects but encountered object of type "
                        f"{type(datasets)}.")
    return datasets


class ZipDataset(Dataset):
    """Elements of several datasets side by side (see `Dataset.zip`)."""

    def __init__(self, datasets) -> None:
        self._structure = _as_dataset_structure(datasets)
        self._datasets = structure.flatten(self._structure)

    def _compute_spec(self):
        return structure.pack(self._structure, [d.element_spec for d in self._datasets])

    def _cardinality(self) -> int:
        counts = [d._cardinality() for d in self._datasets]
        if UNKNOWN_CARDINALITY in counts:
            return UNKNOWN_CARDINALITY
        finite = [n for n in counts if n >= 0]
        return min(finite) if finite else INFINITE_CARDINALITY

    def _elements(self):
        for parts in zip(*[d._elements() for d in self._datasets]):
            yield structure.pack(self._structure, list(parts))


class ConcatenateDataset(Dataset):
    """One dataset's elements, then another's (see `Dataset.concatenate`)."""

    def __init__(self, first: Dataset, second: Dataset) -> None:
        if not isinstance(second, Dataset):
            raise TypeError(f"concatenate: expected a tf.data.Dataset, got "
                            f"{type(second).__name__}.")
        self._first, self._second = first, second
        self._spec = structure.most_specific_common_spec(first.element_spec,
                                                         second.element_spec, "concatenate")

    def _compute_spec(self):
        return self._spec

    def _cardinality(self) -> int:
        a, b = self._first._cardinality(), self._second._cardinality()
        if INFINITE_CARDINALITY in (a, b):
            return INFINITE_CARDINALITY
        return UNKNOWN_CARDINALITY if UNKNOWN_CARDINALITY in (a, b) else a + b

    def _elements(self):
        yield from self._first._elements()
        yield from self._second._elements()


class FlatMapDataset(UnaryDataset):
    """The elements of the dataset `map_func` makes of each element (see
    `Dataset.flat_map`); the element spec is that of the first one made."""

    def __init__(self, input_dataset: Dataset, map_func) -> None:
        super().__init__(input_dataset)
        self._fn = map_func

    def _cardinality(self) -> int:
        return UNKNOWN_CARDINALITY

    def _datasets(self):
        for element in self._input._elements():
            dataset = _apply(self._fn, element)
            if not isinstance(dataset, Dataset):
                raise TypeError("flat_map: `map_func` must return a `tf.data.Dataset`, got "
                                f"{type(dataset).__name__}.")
            yield dataset

    def _compute_spec(self):
        first = next(self._datasets(), None)
        if first is None:
            raise ValueError("flat_map: the input dataset is empty, so the element spec of "
                             "the datasets `map_func` makes is unknown.")
        return first.element_spec

    def _elements(self):
        for dataset in self._datasets():
            yield from dataset._elements()


class InterleaveDataset(FlatMapDataset):
    """The elements of up to `cycle_length` of the datasets `map_func` makes, taken in turn,
    `block_length` at a time (see `Dataset.interleave`)."""

    def __init__(self, input_dataset: Dataset, map_func, cycle_length, block_length) -> None:
        super().__init__(input_dataset, map_func)
        self._cycle_length = os.cpu_count() or 1 if cycle_length in (None, -1) else \
            count_argument(cycle_length, "interleave cycle_length")
        self._block_length = 1 if block_length in (None, -1) else \
            count_argument(block_length, "interleave block_length")
        if self._cycle_length < 1 or self._block_length < 1:
            raise errors.InvalidArgumentError(
                None, "InterleaveDataset", "interleave: cycle_length and block_length must be "
                f"positive, got {self._cycle_length} and {self._block_length}.")

    def _elements(self):
        datasets = self._datasets()
        slots: list = [None] * self._cycle_length
        index = taken = opened = 0
        more_input = True
        while more_input or opened:
            if slots[index] is not None:
                element = next(slots[index], None)
                if element is not None:
                    yield element
                    taken += 1
                    if taken < self._block_length:
                        continue
                else:
                    slots[index] = None
                    opened -= 1
            elif more_input:
                dataset = next(datasets, None)
                more_input = dataset is not None
                if more_input:
                    slots[index] = dataset._elements()
                    opened += 1
                continue
            index, taken = (index + 1) % self._cycle_length, 0
