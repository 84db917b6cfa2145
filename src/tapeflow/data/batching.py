"""Datasets that group elements into batches or windows, or split batches: batch,
padded_batch, unbatch, window."""
from __future__ import annotations

import math

import numpy as np

from ..framework import dtypes, errors
from ..framework.composite_tensor import CompositeTensor, is_composite_spec
from ..ops.extension_type import BatchableExtensionTypeSpec
from ..framework.string_values import as_value
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..ops.iterator_ops import ElementError
from . import structure
from .dataset_ops import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset
from .sources import ListDataset
from .transformations import UnaryDataset, count_argument

__all__ = ["BatchDataset", "PaddedBatchDataset", "RaggedBatchDataset", "UnbatchDataset",
           "WindowDataset", "DatasetSpec"]


def _batch_size(value) -> int:
    size = count_argument(value, "batch_size")
    if size < 1:
        raise errors.InvalidArgumentError(None, "BatchDataset",
                                          f"Batch size must be greater than zero, got {size}.")
    return size


def _batched_spec(spec, batch: int | None, shape_of=lambda s, i: s.shape):
    """The spec of batches of elements described by `spec` (`shape_of(spec, i)` gives the
    shape of component i in a batch, before the batch dimension)."""
    flat = structure.flatten(spec)
    return structure.pack(spec, [s._batch(batch) if is_composite_spec(s) else
                                 TensorSpec(TensorShape([batch]).concatenate(shape_of(s, i)),
                                            s.dtype) for i, s in enumerate(flat)])


def _cardinality(count: int, batch: int, drop_remainder: bool) -> int:
    if count < 0:
        return count
    return count // batch if drop_remainder else math.ceil(count / batch)


class _Batching(UnaryDataset):
    """Groups of `batch_size` consecutive elements made into one by `_combine`."""

    def __init__(self, input_dataset: Dataset, batch_size, drop_remainder: bool) -> None:
        super().__init__(input_dataset)
        self._batch_size = _batch_size(batch_size)
        self._drop_remainder = bool(drop_remainder)

    def _cardinality(self) -> int:
        return _cardinality(self._input._cardinality(), self._batch_size, self._drop_remainder)

    def _combine(self, elements: list):
        raise NotImplementedError

    def _elements(self):
        group = []
        for element in self._input._elements():
            if type(element) is ElementError:  # the batch fails; its elements are lost
                group = []
                yield element
                continue
            group.append(element)
            if len(group) == self._batch_size:
                yield self._combine(group)
                group = []
        if group and not self._drop_remainder:
            yield self._combine(group)

    def _batch_dimension(self) -> int | None:
        return self._batch_size if self._drop_remainder else None

    def _component_specs(self) -> list:
        specs = getattr(self, "_specs", None)
        if specs is None:
            specs = self._specs = structure.flatten(self._input.element_spec)
        return specs


class RaggedBatchDataset(_Batching):
    """Consecutive elements batched, components of varying shape into RaggedTensors (see
    `Dataset.ragged_batch`)."""

    def __init__(self, input_dataset: Dataset, batch_size, drop_remainder: bool,
                 row_splits_dtype) -> None:
        super().__init__(input_dataset, batch_size, drop_remainder)
        from ..ops.ragged.ragged_tensor_spec import RaggedTensorSpec
        self._specs = [s if is_composite_spec(s) or s.shape.is_fully_defined() else
                       RaggedTensorSpec(s.shape, s.dtype, 0, row_splits_dtype)
                       for s in structure.flatten(input_dataset.element_spec)]

    def _compute_spec(self):
        return structure.pack(self._input.element_spec,
                              [s._batch(self._batch_dimension()) for s in self._specs])

    def _combine(self, elements: list):
        return BatchDataset._combine(self, elements)


class BatchDataset(_Batching):
    """Consecutive elements stacked (see `Dataset.batch`)."""

    def _compute_spec(self):
        return _batched_spec(self._input.element_spec, self._batch_dimension())

    def _combine(self, elements: list):
        flatten, pack = structure.codec(elements[0])
        columns = zip(*[flatten(e) for e in elements])
        specs = self._component_specs()
        stacked = []
        for component, column in enumerate(columns):
            if is_composite_spec(specs[component]):
                stacked.append(structure.batch_column(list(column), specs[component]))
                continue
            arrays = [structure.leaf_array(t) for t in column]
            for i, array in enumerate(arrays[1:], 1):
                if array.shape != arrays[0].shape:
                    raise errors.InvalidArgumentError(
                        None, "BatchDataset",
                        f"Cannot batch tensors with different shapes in component "
                        f"{component}. First element had shape {list(arrays[0].shape)} and "
                        f"element {i} had shape {list(array.shape)}. Use padded_batch for "
                        "elements of different shapes.")
            stacked.append(Tensor(np.stack(arrays)))
        return pack(stacked)


def _per_component(like, value, what: str, leaf):
    """`value` given per component of the structure `like` (a single leaf is used for every
    component), each made a leaf by `leaf`."""
    if isinstance(like, dict):
        if isinstance(value, dict):
            if value.keys() != like.keys():
                raise ValueError(f"padded_batch: {what} has keys {sorted(value)}, the elements "
                                 f"{sorted(like)}.")
            return [x for k in like for x in _per_component(like[k], value[k], what, leaf)]
        return [x for k in like for x in _per_component(like[k], value, what, leaf)]
    if isinstance(like, tuple):
        if isinstance(value, tuple):
            if len(value) != len(like):
                raise ValueError(f"padded_batch: {what} has {len(value)} components, the "
                                 f"elements {len(like)}.")
            return [x for a, b in zip(like, value) for x in _per_component(a, b, what, leaf)]
        return [x for a in like for x in _per_component(a, value, what, leaf)]
    return [leaf(value, like)]


def _padded_shape(value, spec) -> TensorShape:
    if value is None:
        return TensorShape(None) if spec.shape.rank is None else spec.shape
    if isinstance(value, TensorShape):
        return value
    dims = value.numpy().tolist() if hasattr(value, "numpy") else list(value)
    return TensorShape([None if d is None or d == -1 else int(d) for d in dims])


def _padding_value(value, spec):
    if value is None:  # zeros; a string's zero is b""
        return np.array(b"", object) if spec.dtype is dtypes.string else \
            np.zeros((), spec.dtype.as_numpy_dtype)
    tensor = convert_to_tensor(value)
    if tensor.dtype != spec.dtype or tensor.ndim:
        raise TypeError("Invalid `padding_values`. `padding_values` values type "
                        f"{tensor.dtype!r} (shape {tensor.shape}) does not match type "
                        f"{spec.dtype!r} of the corresponding input component; it must be a "
                        "scalar of that dtype.")
    return structure.leaf_array(tensor)


class PaddedBatchDataset(_Batching):
    """Consecutive elements padded to a common shape and stacked (see
    `Dataset.padded_batch`)."""

    def __init__(self, input_dataset: Dataset, batch_size, padded_shapes, padding_values,
                 drop_remainder: bool) -> None:
        super().__init__(input_dataset, batch_size, drop_remainder)
        spec = input_dataset.element_spec
        flat = structure.flatten(spec)
        for s in flat:
            if not isinstance(s, TensorSpec):
                raise TypeError("`padded_batch` is only supported for datasets that produce "
                                "tensor elements but type spec of elements in the input "
                                f"dataset is not a subclass of TensorSpec: `{s}`.")
        self._shapes = _per_component(spec, padded_shapes, "padded_shapes", _padded_shape) \
            if padded_shapes is not None else [_padded_shape(None, s) for s in flat]
        self._values = _per_component(spec, padding_values, "padding_values", _padding_value) \
            if padding_values is not None else [_padding_value(None, s) for s in flat]

    def _compute_spec(self):
        return _batched_spec(self._input.element_spec, self._batch_dimension(),
                             lambda s, i: self._shapes[i])

    def _combine(self, elements: list):
        flatten, pack = structure.codec(elements[0])
        columns = zip(*[flatten(e) for e in elements])
        padded = []
        for shape, value, column in zip(self._shapes, self._values, columns):
            arrays = [structure.leaf_array(t) for t in column]
            if len({a.ndim for a in arrays}) != 1:
                raise errors.InvalidArgumentError(
                    None, "PaddedBatchDataset", "padded_batch: elements of different ranks "
                    f"{[a.ndim for a in arrays]} in one batch.")
            longest = np.max([a.shape for a in arrays], axis=0) if arrays[0].ndim else ()
            target = [int(n) if d is None else d for d, n in
                      zip(shape.as_list() if shape.rank is not None else [None] * len(longest),
                          longest)]
            if any(n > d for n, d in zip(longest, target)):
                raise errors.DataLossError(
                    None, "PaddedBatchDataset",
                    "Attempted to pad to a smaller size than the input element: padded shape "
                    f"{target}, element shape {list(longest)}.")
            out = np.full([len(arrays), *target], value[()], dtype=arrays[0].dtype)
            for row, array in enumerate(arrays):
                # (a 0-d object array assigned to an element would be stored as the array)
                out[(row, *[slice(0, n) for n in array.shape])] = array if array.ndim \
                    else array[()]
            padded.append(Tensor(out))
        return pack(padded)


def _shape(spec) -> TensorShape:
    """A component spec's shape; a batchable extension type's is its first tensor field's
    (its fields share the batch dimension)."""
    if isinstance(spec, BatchableExtensionTypeSpec):
        return spec._leading_shape()
    return spec.shape


class UnbatchDataset(UnaryDataset):
    """The rows of each element (see `Dataset.unbatch`)."""

    def __init__(self, input_dataset: Dataset) -> None:
        super().__init__(input_dataset)
        if any(_shape(s).rank == 0 for s in structure.flatten(input_dataset.element_spec)):
            raise ValueError("Cannot unbatch an input with scalar components.")

    def _compute_spec(self):
        return structure.map_structure(
            lambda s: s._unbatch() if is_composite_spec(s) else
            TensorSpec(s.shape[1:] if s.shape.rank is not None else s.shape, s.dtype),
            self._input.element_spec)

    def _cardinality(self) -> int:
        count = self._input._cardinality()
        leading = {_shape(s)[0] if _shape(s).rank else None
                   for s in structure.flatten(self._input.element_spec)}
        if count < 0 or None in leading or len(leading) != 1:
            return count if count == INFINITE_CARDINALITY else UNKNOWN_CARDINALITY
        return count * leading.pop()

    def _elements(self):
        for element in self._input._elements():
            flatten, pack = structure.codec(element)
            leaves = flatten(element)
            if any(isinstance(t, CompositeTensor) for t in leaves):
                sizes = {structure.leaf_rows(t) for t in leaves}
                if len(sizes) != 1:
                    raise errors.InvalidArgumentError(
                        None, "UnbatchDataset", "unbatch: the components' first dimensions "
                        f"differ ({sorted(sizes)}).")
                for i in range(sizes.pop()):
                    yield pack([structure.leaf_row(t, i) if isinstance(t, CompositeTensor)
                                else t[i] for t in leaves])
                continue
            arrays = [structure.leaf_array(t) for t in leaves]
            sizes = {len(a) for a in arrays}
            if len(sizes) != 1:
                raise errors.InvalidArgumentError(
                    None, "UnbatchDataset", "unbatch: the components' first dimensions differ "
                    f"({sorted(sizes)}).")
            for i in range(sizes.pop()):
                yield pack([Tensor(as_value(a[i])) for a in arrays])


class DatasetSpec:
    """Describes a dataset nested in an element (a window): its element spec and shape.

    Example:
        >>> import tapeflow as tf
        >>> tf.data.Dataset.range(5).window(2).element_spec
        DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))
    """

    __slots__ = ("element_spec", "dataset_shape")

    def __init__(self, element_spec, dataset_shape=()) -> None:
        self.element_spec = element_spec
        self.dataset_shape = TensorShape(dataset_shape)

    def __eq__(self, other) -> bool:
        return isinstance(other, DatasetSpec) and self.element_spec == other.element_spec \
            and self.dataset_shape == other.dataset_shape

    def __hash__(self) -> int:
        return hash((repr(self.element_spec), self.dataset_shape))

    def __repr__(self) -> str:
        return f"DatasetSpec({self.element_spec}, {self.dataset_shape!r})"


class WindowDataset(UnaryDataset):
    """Windows of elements, each a structure of datasets (see `Dataset.window`)."""

    def __init__(self, input_dataset: Dataset, size, shift, stride, drop_remainder) -> None:
        super().__init__(input_dataset)
        self._size = count_argument(size, "window size")
        self._shift = self._size if shift is None else count_argument(shift, "window shift")
        self._stride = count_argument(stride, "window stride")
        if min(self._size, self._shift, self._stride) < 1:
            raise errors.InvalidArgumentError(
                None, "WindowDataset", "window: size, shift and stride must be positive, got "
                f"{self._size}, {self._shift}, {self._stride}.")
        self._drop_remainder = bool(drop_remainder)

    def _compute_spec(self):
        return structure.map_structure(DatasetSpec, self._input.element_spec)

    def _cardinality(self) -> int:
        count = self._input._cardinality()
        if count < 0:
            return count
        if not self._drop_remainder:
            return math.ceil(count / self._shift)
        span = (self._size - 1) * self._stride + 1
        return 0 if count < span else (count - span) // self._shift + 1

    def _window(self, elements: list):
        specs = structure.flatten(self._input.element_spec)
        columns = zip(*[structure.flatten(e) for e in elements])
        return structure.pack(self._input.element_spec,
                              [ListDataset(list(c), s) for c, s in zip(columns, specs)])

    def _elements(self):
        span = (self._size - 1) * self._stride + 1
        source = self._input._elements()
        buffer: list = []
        exhausted = False
        while True:
            while not exhausted and len(buffer) < span:
                element = next(source, None)
                exhausted = element is None
                if not exhausted:
                    buffer.append(element)
            window = buffer[:span:self._stride]
            if not window or (self._drop_remainder and len(window) < self._size):
                return
            yield self._window(window)
            skip = self._shift - len(buffer)
            buffer = buffer[self._shift:]
            for _ in range(max(0, skip)):
                exhausted = exhausted or next(source, None) is None
