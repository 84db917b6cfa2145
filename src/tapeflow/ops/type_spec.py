"""TypeSpec and the specs of tapeflow's composite values, and `type_spec_from_value`.

A spec describes a value without holding it: what tf.function signatures and tf.data
element specs are made of. TensorSpec is in `tensor_spec.py`.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, nest
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import constant, is_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec, TypeSpec

__all__ = ["TypeSpec", "TensorArraySpec", "IndexedSlicesSpec", "NoneTensorSpec",
           "OptionalSpec", "type_spec_from_value"]


class TensorArraySpec(TypeSpec):
    """Describes a TensorArray: its elements' shape and dtype, whether it grows, and whether
    it infers the element shape from the first write.

    Example:
        >>> import tapeflow as tf
        >>> tf.TensorArraySpec([2], tf.float32)
        TensorArraySpec(TensorShape([2]), tf.float32, False, True)
    """

    __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False,
                 infer_shape=True) -> None:
        self._element_shape = TensorShape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    @property
    def value_type(self) -> type:
        from .tensor_array_ops import TensorArray  # which imports this module
        return TensorArray

    def _serialize(self) -> tuple:
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

    def is_compatible_with(self, spec_or_value) -> bool:
        """Same dtype and flags, compatible element shapes (a TensorArray is made a spec)."""
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) \
            else type_spec_from_value(spec_or_value)
        return (type(other) is TensorArraySpec and other._dtype == self._dtype
                and other._dynamic_size == self._dynamic_size
                and self._element_shape.is_compatible_with(other._element_shape))


class IndexedSlicesSpec(TypeSpec):
    """Describes an IndexedSlices: the dense shape, the dtypes of its values, indices and
    dense shape, and the indices' shape.

    Example:
        >>> import tapeflow as tf
        >>> tf.IndexedSlicesSpec([4, 3])
        IndexedSlicesSpec(TensorShape([4, 3]), tf.float32, tf.int64, None, TensorShape([None]))
    """

    __slots__ = ("_shape", "_values_dtype", "_indices_dtype", "_dense_shape_dtype",
                 "_indices_shape")

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64,
                 dense_shape_dtype=None, indices_shape=None) -> None:
        self._shape = TensorShape(shape)
        self._values_dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None \
            else dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = TensorShape([None] if indices_shape is None else indices_shape)

    @property
    def value_type(self) -> type:
        return IndexedSlices

    def _serialize(self) -> tuple:
        return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype,
                self._indices_shape)


class NoneTensorSpec(TypeSpec):
    """Describes None where a structure of values holds it (an optional tensor left out).

    Example:
        >>> import tapeflow as tf
        >>> tf.type_spec_from_value(None)
        NoneTensorSpec()
    """

    __slots__ = ()

    @property
    def value_type(self) -> type:
        return type(None)

    def _serialize(self) -> tuple:
        return ()


class OptionalSpec(TypeSpec):
    """Describes an optional value (a tf.experimental.Optional): the spec of the element
    it may hold. Its components are a boolean scalar (whether the value is present) and
    the element's components.

    Example:
        >>> import tapeflow as tf
        >>> tf.OptionalSpec(tf.TensorSpec([2]))
        OptionalSpec(TensorSpec(shape=(2,), dtype=tf.float32, name=None),)
    """

    __slots__ = ("_element_spec",)

    def __init__(self, element_spec) -> None:
        self._element_spec = element_spec

    @property
    def value_type(self) -> type:
        from .optional_ops import Optional
        return Optional

    def _serialize(self) -> tuple:
        return (self._element_spec,)

    @property
    def _component_specs(self) -> list:
        return [TensorSpec([], dtypes.bool)] + component_specs(self._element_spec)

    def _to_components(self, value) -> list:
        return [value._has_value] + value._values

    def _from_components(self, components: list):
        from .optional_ops import Optional
        return Optional(components[0], components[1:], self._element_spec)

    def __repr__(self) -> str:
        return f"OptionalSpec({self._element_spec!r},)"


def component_specs(element_spec) -> list:
    """The specs of the component tensors of an element of `element_spec` (a structure of
    TypeSpecs): composites stand for their components, and None parts have none.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.ops.type_spec import component_specs
        >>> [s.dtype.name for s in component_specs(
        ...     (tf.RaggedTensorSpec([None, None], tf.int32), None))]
        ['int32', 'int64']
    """
    return [s for s in nest.flatten(element_spec, expand_composites=True)
            if s is not None and not isinstance(s, NoneTensorSpec)]


def element_components(value) -> list:
    """The component tensors of an element (a structure of tensors, composites and None),
    in the order of `component_specs` of its spec."""
    return [v for v in nest.flatten(value, expand_composites=True) if v is not None]


def element_from_components(element_spec, components: list):
    """The element of `element_spec` made of `components` (as `element_components` gives
    them; None where the spec says None)."""
    parts = iter(components)
    leaves = [None if s is None or isinstance(s, NoneTensorSpec) else next(parts)
              for s in nest.flatten(element_spec, expand_composites=True)]
    return nest.pack_sequence_as(element_spec, leaves, expand_composites=True)


def type_spec_from_value(value) -> TypeSpec:
    """The spec of a tensor, Variable, IndexedSlices, TensorArray, NumPy array, Python
    number or None.

    Args:
        value: the value to describe.

    Returns:
        A TypeSpec: TensorSpec for tensors, variables and anything `tf.constant` takes.

    Raises:
        TypeError: a value no spec describes.

    Example:
        >>> import tapeflow as tf
        >>> tf.type_spec_from_value(tf.constant([1.0, 2.0]))
        TensorSpec(shape=(2,), dtype=tf.float32, name=None)
    """
    if value is None:
        return NoneTensorSpec()
    if isinstance(value, IndexedSlices):
        dense_shape = value.dense_shape
        return IndexedSlicesSpec(
            None if dense_shape is None else np.asarray(dense_shape).tolist(), value.dtype,
            value.indices.dtype, None if dense_shape is None else dense_shape.dtype,
            value.indices.shape)
    if is_tensor(value):
        return TensorSpec(value.shape, value.dtype)
    spec = getattr(value, "_type_spec", None)
    if spec is not None:
        return spec
    if isinstance(value, (str, bytes)):
        return TensorSpec([], dtypes.string)
    try:
        return TensorSpec.from_tensor(constant(value))
    except (TypeError, ValueError):
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type "
                        f"{type(value)}.") from None
