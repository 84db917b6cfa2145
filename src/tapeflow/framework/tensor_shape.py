"""TensorShape: a possibly partially known shape (unknown dimensions are None)."""
from __future__ import annotations

from typing import Iterable, Optional

__all__ = ["TensorShape", "Dimension"]


class TensorShape:
    """The shape of a tensor; `dims` is None when even the rank is unknown.

    Compares equal to lists and tuples of the same dimensions.

    Example:
        >>> import tapeflow as tf
        >>> s = tf.TensorShape([2, None])
        >>> s.rank, s.as_list(), s.is_fully_defined()
        (2, [2, None], False)
    """

    __slots__ = ("_dims",)

    def __init__(self, dims: Optional[Iterable] = None) -> None:
        if dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif isinstance(dims, int):
            self._dims = (dims,)
        else:
            self._dims = tuple(None if d is None else int(d) for d in dims)

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    @property
    def rank(self) -> Optional[int]:
        return None if self._dims is None else len(self._dims)

    ndims = rank

    def as_list(self) -> list:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self) -> bool:
        return self._dims is not None and None not in self._dims

    def num_elements(self) -> Optional[int]:
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other) -> bool:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        return len(self._dims) == len(other._dims) and all(
            a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def merge_with(self, other) -> "TensorShape":
        other = as_shape(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        return TensorShape(a if a is not None else b for a, b in zip(self._dims, other._dims))

    def concatenate(self, other) -> "TensorShape":
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def assert_is_compatible_with(self, other) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of a shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return TensorShape(None) if isinstance(key, slice) else None
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other) -> bool:
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self._dims)

    def __bool__(self) -> bool:
        return self._dims is not None

    def __add__(self, other) -> "TensorShape":
        return self.concatenate(other)

    def __radd__(self, other) -> "TensorShape":
        return as_shape(other).concatenate(self)

    def __repr__(self) -> str:
        return f"TensorShape({self.dims})"

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"

    def __reduce__(self):
        return TensorShape, (self.dims,)


Dimension = int


def as_shape(shape) -> TensorShape:
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)
