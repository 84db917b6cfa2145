"""Composite tensors: values made of several tensors (SparseTensor, RaggedTensor).

A composite's TypeSpec (the one TypeSpec of `tensor_spec.py`) says which tensors make it
(`_component_specs`, `_to_components`) and rebuilds it from them (`_from_components`).
tf.function passes a composite through a trace as its component tensors, keyed by its spec;
nest flattens it into them with `expand_composites=True`; tf.data batches its spec with
`_batch` and `_unbatch`.
"""
from __future__ import annotations

from .tensor_spec import TypeSpec

__all__ = ["CompositeTensor", "TypeSpec", "is_composite_spec"]


class CompositeTensor:
    """A value made of tensors; `_type_spec` describes it."""

    __slots__ = ()

    @property
    def _type_spec(self) -> TypeSpec:
        raise NotImplementedError


def is_composite_spec(x) -> bool:
    """Whether `x` is the TypeSpec of a composite (one made of component tensors)."""
    return isinstance(x, TypeSpec) and x._is_composite()
