"""Dataset elements: nested structures (tuples, namedtuples, dicts) of Tensors, and the
structures of TensorSpecs that describe them (`Dataset.element_spec`).

As in TF, a tuple or dict is a structure while a list given as data is one tensor
(`from_tensor_slices([[1, 2], [3, 4]])` has elements of shape [2]); a list returned by a
`map` function is a structure, as a tuple.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors, nest
from ..framework.composite_tensor import CompositeTensor, is_composite_spec
from ..framework.sparse_tensor import SparseTensor, SparseTensorSpec
from ..framework.string_values import string_array
from ..ops.extension_type import BatchableExtensionType, BatchableExtensionTypeSpec
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec

__all__ = ["to_element", "spec_of", "flatten", "pack", "map_structure", "same_structure",
           "most_specific_common_spec", "element_from_generator", "leaf_array", "codec",
           "leaf_spec", "leaf_rows", "leaf_row", "batch_column", "placeholder_of"]

flatten = nest.flatten
pack = nest.pack_sequence_as
map_structure = nest.map_structure


def _is_leaf(x) -> bool:
    return not isinstance(x, (list, tuple, dict))


def codec(like) -> tuple:
    """(flatten, pack) for elements structured like `like`: the general nest functions, or
    quicker equivalents for the common single-tensor and flat-tuple elements (a pipeline
    flattens and packs each element)."""
    if _is_leaf(like):
        return (lambda element: [element]), (lambda flat: flat[0])
    if type(like) is tuple and all(_is_leaf(x) for x in like):
        return list, tuple
    return flatten, (lambda flat: pack(like, flat))


def _rebuild(structure, items: list):
    if hasattr(structure, "_fields"):
        return type(structure)(*items)
    return tuple(items)


def to_element(value, lists_are_structures: bool = False):
    """`value` as a structure of Tensors: tuples, namedtuples and dicts stay structures,
    every other leaf becomes a Tensor (lists too, unless `lists_are_structures`)."""
    if isinstance(value, dict):
        return type(value)((key, to_element(item, lists_are_structures))
                           for key, item in value.items())
    if isinstance(value, tuple) or (lists_are_structures and isinstance(value, list)):
        return _rebuild(value, [to_element(item, lists_are_structures) for item in value])
    if isinstance(value, CompositeTensor):  # a SparseTensor or RaggedTensor stays one leaf
        return value
    return convert_to_tensor(value)


def leaf_spec(leaf):
    """The spec of one element component: a composite's TypeSpec, else a TensorSpec."""
    if isinstance(leaf, CompositeTensor):
        return leaf._type_spec
    return TensorSpec(leaf.shape, leaf.dtype)


def spec_of(element):
    """The structure of specs (TensorSpecs, composites' TypeSpecs) describing `element`."""
    return map_structure(leaf_spec, element)


def placeholder_of(spec, placeholder):
    """A graph value standing for a component of spec `spec` while a function is traced:
    a placeholder, or a composite rebuilt from placeholders of its components."""
    if is_composite_spec(spec):
        return spec._from_components([placeholder(c.dtype, c.shape)
                                      for c in spec._component_specs])
    return placeholder(spec.dtype, spec.shape)


def leaf_rows(leaf) -> int:
    """The length of a component's first dimension (a composite's rows)."""
    if isinstance(leaf, BatchableExtensionType):
        return leaf._type_spec._rows(leaf, leaf_rows)
    if isinstance(leaf, CompositeTensor):
        return int(leaf.shape[0]) if leaf.shape[0] is not None else \
            int(np.asarray(leaf.bounding_shape())[0])
    return len(leaf_array(leaf))


def leaf_row(leaf, i: int):
    """Row `i` of a component: a SparseTensor's row is a SparseTensor of one rank less, a
    RaggedTensor's a Tensor (ragged rank 1) or a RaggedTensor, a batchable extension
    type's row i of each field."""
    if isinstance(leaf, BatchableExtensionType):
        return leaf._type_spec._row(leaf, i, leaf_row)
    if isinstance(leaf, SparseTensor):
        indices, values = np.asarray(leaf.indices), np.asarray(leaf.values)
        keep = indices[:, 0] == i
        return SparseTensor(indices[keep][:, 1:], values[keep], np.asarray(leaf.dense_shape)[1:])
    return leaf[i]


def batch_column(column: list, spec):
    """The components `column` of consecutive elements (of spec `spec`) as one batch
    component: SparseTensors stacked by their coordinates, ragged components stacked into
    a RaggedTensor whatever their lengths, batchable extension types field by field."""
    if isinstance(spec, BatchableExtensionTypeSpec):
        return spec._stack(column, _stack_leaf)
    if isinstance(spec, SparseTensorSpec):
        indices = [np.asarray(st.indices) for st in column]
        shapes = np.array([np.asarray(st.dense_shape) for st in column])
        batch_indices = np.concatenate(
            [np.concatenate([np.full((len(ix), 1), b, np.int64), ix], 1)
             for b, ix in enumerate(indices)]) if indices else np.zeros((0, 1), np.int64)
        values = np.concatenate([np.asarray(st.values) for st in column])
        return SparseTensor(batch_indices, values,
                            np.concatenate([[len(column)], shapes.max(axis=0)]))
    from ..ops.ragged import ragged_ops
    return ragged_ops.stack(column)


def _stack_leaf(column: list, spec):
    """One tensor or composite field of consecutive extension-type elements, batched."""
    if is_composite_spec(spec):
        return batch_column(column, spec)
    arrays = [leaf_array(t) for t in column]
    for i, array in enumerate(arrays[1:], 1):
        if array.shape != arrays[0].shape:
            raise errors.InvalidArgumentError(
                None, "BatchDataset",
                f"Cannot batch tensors with different shapes in a field of {spec}. First "
                f"element had shape {list(arrays[0].shape)} and element {i} had shape "
                f"{list(array.shape)}.")
    return Tensor(np.stack(arrays))


def leaf_array(tensor) -> np.ndarray:
    """A Tensor's value as a NumPy array, without a copy."""
    return np.asarray(tensor)


def same_structure(a, b) -> bool:
    """Whether `a` and `b` nest the same way (same kinds, lengths and dict keys)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and all(
            same_structure(a[k], b[k]) for k in a)
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(
            same_structure(x, y) for x, y in zip(a, b))
    return True


def _common_shape(a: TensorShape, b: TensorShape) -> TensorShape:
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


def most_specific_common_spec(a, b, what: str):
    """The spec structure describing elements of both `a` and `b` (a dimension where they
    differ becomes None, different ranks an unknown shape).

    Raises:
        TypeError: different structures or dtypes.
    """
    if not same_structure(a, b) or any(
            x.dtype != y.dtype or type(x) is not type(y) for x, y in zip(flatten(a), flatten(b))):
        raise TypeError(f"Incompatible dataset elements in {what}:\n  {a} vs.\n  {b}")
    common = []
    for x, y in zip(flatten(a), flatten(b)):
        if is_composite_spec(x):
            merged = x.most_specific_common_supertype([y])
            if merged is None:
                raise TypeError(f"Incompatible dataset elements in {what}:\n  {a} vs.\n  {b}")
            common.append(merged)
        else:
            common.append(TensorSpec(_common_shape(x.shape, y.shape), x.dtype))
    return pack(a, common)


def _mismatch(value, signature, detail: str = "") -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(
        None, "from_generator",
        "TypeError: `generator` yielded an element that did not match the expected structure. "
        f"The expected structure was {signature}, but the yielded element was {value!r}"
        f"{detail}.")


def _yielded_composite(value, spec):
    """A yielded SparseTensor or RaggedTensor, checked against its composite `spec`."""
    if not isinstance(value, spec.value_type):
        raise _mismatch(value, spec)
    if not spec.is_compatible_with(value):
        raise errors.InvalidArgumentError(
            None, "from_generator",
            f"TypeError: `generator` yielded an element of {value._type_spec} where an "
            f"element of {spec} was expected.")
    return value


def _yielded_leaf(value, spec: TensorSpec) -> Tensor:
    if is_composite_spec(spec):
        return _yielded_composite(value, spec)
    try:
        value = value.numpy() if hasattr(value, "numpy") else value
        if spec.dtype is dtypes.string:
            tensor = Tensor(string_array(value, numbers_fail=True))
        else:
            array = np.asarray(value)
            if array.dtype.kind in "OUS" or (array.dtype.kind == "c"
                                             and not spec.dtype.is_complex):
                raise TypeError(f"cannot convert a {array.dtype} value")
            tensor = Tensor(array.astype(spec.dtype.as_numpy_dtype, copy=False))
    except (TypeError, ValueError) as e:
        raise _mismatch(value, spec, f" ({e})") from None
    if not spec.shape.is_compatible_with(tensor.shape):
        raise errors.InvalidArgumentError(
            None, "from_generator",
            f"TypeError: `generator` yielded an element of shape {tensor.shape} where an "
            f"element of shape {spec.shape} was expected.")
    return tensor


def element_from_generator(value, signature):
    """A generator's yielded `value` as an element described by the spec structure
    `signature` (a list may stand for a tuple; values are converted to the specs' dtypes).

    Raises:
        InvalidArgumentError: the structure, a dtype or a shape does not match.
    """
    if isinstance(signature, dict):
        if not isinstance(value, dict) or value.keys() != signature.keys():
            raise _mismatch(value, signature)
        return type(signature)((k, element_from_generator(value[k], s))
                               for k, s in signature.items())
    if isinstance(signature, tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(signature):
            raise _mismatch(value, signature)
        return _rebuild(signature, [element_from_generator(v, s)
                                    for v, s in zip(value, signature)])
    return _yielded_leaf(value, signature)
