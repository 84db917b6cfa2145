"""Datasets that produce elements: tensor slices, one tensor structure, a Python generator,
a range of numbers."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.composite_tensor import CompositeTensor, is_composite_spec
from ..ops.extension_type import BatchableExtensionType
from ..framework.string_values import as_value
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from . import structure
from .dataset_ops import UNKNOWN_CARDINALITY, Dataset

__all__ = ["TensorSliceDataset", "TensorDataset", "ListDataset", "GeneratorDataset",
           "RangeDataset"]


class TensorSliceDataset(Dataset):
    """The rows of a structure of tensors (see `Dataset.from_tensor_slices`)."""

    def __init__(self, tensors) -> None:
        element = structure.to_element(tensors)
        leaves = structure.flatten(element)
        if not leaves:
            raise ValueError("Invalid `element`. `element` should not be empty.")
        for leaf in leaves:
            if not isinstance(leaf, BatchableExtensionType) and leaf.shape.rank == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1, got a "
                                 f"scalar of dtype {leaf.dtype.name} in from_tensor_slices.")
        sizes = [structure.leaf_rows(leaf) for leaf in leaves]
        for size in sizes[1:]:
            if size != sizes[0]:
                raise ValueError(f"Dimensions {sizes[0]} and {size} are not compatible: "
                                 "from_tensor_slices needs the same first dimension in every "
                                 f"component (got {sizes}).")
        self._structure = element
        # Tensors are sliced as arrays; composites (SparseTensor, RaggedTensor) by their rows
        self._arrays = [leaf if isinstance(leaf, CompositeTensor) else structure.leaf_array(leaf)
                        for leaf in leaves]
        self._count = sizes[0]

    def _compute_spec(self):
        return structure.map_structure(lambda t: structure.leaf_spec(t)._unbatch(),
                                       self._structure)

    def _cardinality(self) -> int:
        return self._count

    def _elements(self):
        _, pack = structure.codec(self._structure)
        arrays = self._arrays
        if any(isinstance(a, CompositeTensor) for a in arrays):
            for i in range(self._count):
                yield pack([structure.leaf_row(a, i) if isinstance(a, CompositeTensor) else
                            Tensor(as_value(a[i])) for a in arrays])
            return
        for i in range(self._count):
            yield pack([Tensor(as_value(a[i])) for a in arrays])


class TensorDataset(Dataset):
    """One element (see `Dataset.from_tensors`)."""

    def __init__(self, tensors) -> None:
        self._element = structure.to_element(tensors)

    def _compute_spec(self):
        return structure.spec_of(self._element)

    def _cardinality(self) -> int:
        return 1

    def _elements(self):
        yield self._element


class ListDataset(Dataset):
    """Elements already made, described by `spec` (a window's component datasets)."""

    def __init__(self, elements: list, spec) -> None:
        self._list = elements
        self._spec_cache = spec

    def _cardinality(self) -> int:
        return len(self._list)

    def _elements(self):
        return iter(self._list)


def _signature(output_types, output_shapes, output_signature):
    if output_signature is not None:
        if output_types is not None:
            raise TypeError("The `output_types` argument can not be used together with the "
                            "`output_signature` argument.")
        if output_shapes is not None:
            raise TypeError("The `output_shapes` argument can not be used together with the "
                            "`output_signature` argument.")
        for spec in structure.flatten(output_signature):
            if not isinstance(spec, TensorSpec) and not is_composite_spec(spec):
                raise TypeError("from_generator: `output_signature` must contain objects that "
                                f"are subclass of `tf.TypeSpec` but found {type(spec)}.")
        return output_signature
    if output_types is None:
        raise TypeError("To specify the output signature you need to provide either the "
                        "`output_signature` argument or the `output_types` argument.")
    types = structure.flatten(output_types)
    shapes = [None] * len(types) if output_shapes is None else \
        structure.flatten(_shapes_as_leaves(output_shapes))
    if len(shapes) != len(types):
        raise ValueError(f"from_generator: output_shapes {output_shapes} do not match the "
                         f"structure of output_types {output_types}.")
    return structure.pack(output_types, [TensorSpec(TensorShape(shape), dtypes.as_dtype(t))
                                         for t, shape in zip(types, shapes)])


def _shapes_as_leaves(shapes):
    """Shapes in a structure, each shape (a list of dimensions) made one leaf."""
    if isinstance(shapes, dict):
        return type(shapes)((k, _shapes_as_leaves(v)) for k, v in shapes.items())
    if isinstance(shapes, tuple) and any(isinstance(s, (list, tuple, TensorShape))
                                         or s is None for s in shapes):
        return tuple(_shapes_as_leaves(s) for s in shapes)
    return TensorShape(shapes)


class GeneratorDataset(Dataset):
    """What a Python generator yields (see `Dataset.from_generator`)."""

    def __init__(self, generator, output_types, output_shapes, args, output_signature) -> None:
        if not callable(generator):
            raise TypeError("from_generator: `generator` must be a Python callable, got "
                            f"{type(generator).__name__}.")
        self._generator = generator
        self._args = tuple(args or ())
        self._signature = _signature(output_types, output_shapes, output_signature)

    def _compute_spec(self):
        return self._signature

    def _elements(self):
        signature = self._signature
        args = [a.numpy() if hasattr(a, "numpy") else a for a in self._args]
        for value in self._generator(*args):
            yield structure.element_from_generator(value, signature)

    def _cardinality(self) -> int:
        return UNKNOWN_CARDINALITY


class RangeDataset(Dataset):
    """Numbers from start to stop by step (see `Dataset.range`)."""

    def __init__(self, args: tuple, output_type) -> None:
        if not 1 <= len(args) <= 3:
            raise ValueError(f"Dataset.range takes 1 to 3 arguments (start, stop, step), got "
                             f"{len(args)}.")
        bounds = [int(a) for a in args]
        if len(bounds) == 1:
            bounds = [0, bounds[0]]
        if len(bounds) == 3 and bounds[2] == 0:
            raise errors.InvalidArgumentError(None, "RangeDataset", "step size cannot be 0.")
        self._range = range(*bounds)
        self._dtype = dtypes.as_dtype(output_type or dtypes.int64)

    def _compute_spec(self):
        return TensorSpec([], self._dtype)

    def _cardinality(self) -> int:
        return len(self._range)

    def _elements(self):
        np_dtype = self._dtype.as_numpy_dtype
        for value in self._range:
            yield Tensor(np.array(value, dtype=np_dtype))
