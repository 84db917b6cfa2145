"""`tf.experimental.Optional`: a value that may be absent, as a composite tensor.

An Optional is a boolean `has_value` tensor and the component tensors of its element, so it
passes through tf.function arguments and results like any composite, and a graph can
decide at run time whether it holds a value (an iterator's `get_next_as_optional()` at the
end of a dataset gives an empty one). Its spec is `tf.OptionalSpec(element_spec)`.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors, nest
from ..framework.composite_tensor import CompositeTensor
from ..framework.context import executing_eagerly
from ..framework.tensor import Tensor, constant, convert_to_tensor
from .type_spec import (OptionalSpec, component_specs, element_components,
                        element_from_components, type_spec_from_value)

__all__ = ["Optional"]

_NO_VALUE = "The given optional does not have a value."


class Optional(CompositeTensor):
    """A value that may be absent: made by `Optional.from_value(value)`,
    `Optional.empty(element_spec)` or an iterator's `get_next_as_optional()`.

    Example:
        >>> import tapeflow as tf
        >>> present = tf.experimental.Optional.from_value({"a": tf.constant([1.0, 2.0])})
        >>> bool(present.has_value()), present.get_value()["a"].numpy().tolist()
        (True, [1.0, 2.0])
        >>> absent = tf.experimental.Optional.empty(tf.TensorSpec([None], tf.float32))
        >>> bool(absent.has_value())
        False
        >>> it = iter(tf.data.Dataset.range(1))
        >>> int(it.get_next_as_optional().get_value()), bool(it.get_next_as_optional().has_value())
        (0, False)
    """

    __slots__ = ("_has_value", "_values", "_element_spec")

    def __init__(self, has_value, values: list, element_spec) -> None:
        self._has_value = has_value
        self._values = list(values)
        self._element_spec = element_spec

    @staticmethod
    def from_value(value) -> "Optional":
        """An Optional holding `value` (a nested structure of tensors, composites or
        values `tf.constant` takes).

        Raises:
            TypeError: a leaf that cannot be made a tensor.
        """
        value = nest.map_structure(
            lambda v: v if v is None or isinstance(v, CompositeTensor) else convert_to_tensor(v),
            value)
        spec = nest.map_structure(type_spec_from_value, value)
        return Optional(constant(True), element_components(value), spec)

    @staticmethod
    def empty(element_spec) -> "Optional":
        """An Optional with no value, whose value would be of `element_spec`."""
        values = [constant(np.zeros([d or 0 for d in s.shape.as_list()] if s.shape.rank
                                    is not None else [], s.dtype.as_numpy_dtype))
                  for s in component_specs(element_spec)]  # (placeholders of the spec)
        return Optional(constant(False), values, element_spec)

    @property
    def element_spec(self):
        """The spec of the value it holds (or would)."""
        return self._element_spec

    @property
    def _type_spec(self) -> OptionalSpec:
        return OptionalSpec(self._element_spec)

    def has_value(self, name=None) -> Tensor:
        """A boolean scalar tensor: whether a value is present."""
        return self._has_value

    def get_value(self, name=None):
        """The value.

        Raises:
            InvalidArgumentError: there is none (in a graph: when it runs).
        """
        if executing_eagerly():
            if not bool(self._has_value):
                raise errors.InvalidArgumentError(None, "OptionalGetValue", _NO_VALUE)
            return element_from_components(self._element_spec, self._values)
        from .array_ops import identity
        from .check_ops import Assert
        from .control_flow_ops import control_dependencies
        with control_dependencies([Assert(self._has_value, [_NO_VALUE])]):
            values = [identity(v) if isinstance(v, Tensor) else v for v in self._values]
        return element_from_components(self._element_spec, values)

    def __repr__(self) -> str:
        return f"<Optional element_spec={self._element_spec!r}>"

