"""Composite tensors: values made of several tensors (SparseTensor), and their type specs.

tf.function passes a composite through a trace as its component tensors: the signature
holds the composite's TypeSpec (its dtype and static shape) and each component's spec,
and the trace rebuilds the composite from placeholders with `TypeSpec._from_components`.
"""
from __future__ import annotations

__all__ = ["CompositeTensor", "TypeSpec"]


class TypeSpec:
    """The type of a composite tensor. Subclasses are built as `cls(shape, dtype)` and say
    which tensors make a value (`_component_specs`, `_to_components`) and how to rebuild
    one from them (`_from_components`)."""

    __slots__ = ()

    @property
    def _component_specs(self) -> list:
        raise NotImplementedError

    def _to_components(self, value) -> list:
        raise NotImplementedError

    def _from_components(self, components: list):
        raise NotImplementedError


class CompositeTensor:
    """A value made of tensors; `_type_spec` describes it."""

    __slots__ = ()

    @property
    def _type_spec(self) -> TypeSpec:
        raise NotImplementedError
