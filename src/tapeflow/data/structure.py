"""Dataset elements: nested structures (tuples, namedtuples, dicts) of Tensors, and the
structures of TensorSpecs that describe them (`Dataset.element_spec`).

As in TF, a tuple or dict is a structure while a list given as data is one tensor
(`from_tensor_slices([[1, 2], [3, 4]])` has elements of shape [2]); a list returned by a
`map` function is a structure, as a tuple.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors, nest
from ..framework.string_values import string_array
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec

__all__ = ["to_element", "spec_of", "flatten", "pack", "map_structure", "same_structure",
           "most_specific_common_spec", "element_from_generator", "leaf_array", "codec"]

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
    return convert_to_tensor(value)


def spec_of(element):
    """The structure of TensorSpecs (shape, dtype) describing `element`."""
    return map_structure(lambda t: TensorSpec(t.shape, t.dtype), element)


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
            x.dtype != y.dtype for x, y in zip(flatten(a), flatten(b))):
        raise TypeError(f"Incompatible dataset elements in {what}:\n  {a} vs.\n  {b}")
    return pack(a, [TensorSpec(_common_shape(x.shape, y.shape), x.dtype)
                    for x, y in zip(flatten(a), flatten(b))])


def _mismatch(value, signature, detail: str = "") -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(
        None, "from_generator",
        "TypeError: `generator` yielded an element that did not match the expected structure. "
        f"The expected structure was {signature}, but the yielded element was {value!r}"
        f"{detail}.")


def _yielded_leaf(value, spec: TensorSpec) -> Tensor:
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
