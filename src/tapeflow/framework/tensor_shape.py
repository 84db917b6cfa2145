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

    def with_rank(self, rank: int) -> "TensorShape":
        """This shape merged with an unknown shape of rank `rank`.

        Raises:
            ValueError: the shape's rank is known and is not `rank`.

        Example:
            >>> import tapeflow as tf
            >>> tf.TensorShape(None).with_rank(2)
            TensorShape([None, None])
        """
        try:
            return self.merge_with(TensorShape([None] * rank))
        except ValueError:
            raise ValueError(f"Shape {self} must have rank {rank}") from None

    def with_rank_at_least(self, rank: int) -> "TensorShape":
        """This shape, checked to have at least `rank` dimensions (an unknown rank passes).

        Raises:
            ValueError: the shape's rank is known and less than `rank`.

        Example:
            >>> import tapeflow as tf
            >>> tf.TensorShape([1, None]).with_rank_at_least(1)
            TensorShape([1, None])
        """
        if self.rank is not None and self.rank < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank: int) -> "TensorShape":
        """This shape, checked to have at most `rank` dimensions (an unknown rank passes).

        Raises:
            ValueError: the shape's rank is known and greater than `rank`.

        Example:
            >>> import tapeflow as tf
            >>> tf.TensorShape([1, None]).with_rank_at_most(2)
            TensorShape([1, None])
        """
        if self.rank is not None and self.rank > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_has_rank(self, rank: int) -> None:
        """Raises ValueError unless the rank is unknown or `rank`."""
        if self.rank not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_same_rank(self, other) -> None:
        """Raises ValueError when both ranks are known and differ."""
        other = as_shape(other)
        if self.rank is not None and other.rank is not None and self.rank != other.rank:
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_is_fully_defined(self) -> None:
        """Raises ValueError unless every dimension is known."""
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def most_specific_compatible_shape(self, other) -> "TensorShape":
        """The most specific shape both this shape and `other` are compatible with: the
        dimensions they agree on, None elsewhere; an unknown rank when the ranks differ.

        Example:
            >>> import tapeflow as tf
            >>> tf.TensorShape([1, 3]).most_specific_compatible_shape([1, 2])
            TensorShape([1, None])
        """
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape(a if a == b else None for a, b in zip(self._dims, other._dims))

    def most_specific_common_supertype(self, others) -> "TensorShape":
        """The most specific shape every shape of `others` and this one are subtypes of."""
        out = self
        for other in others:
            out = out.most_specific_compatible_shape(other)
        return out

    def is_subtype_of(self, other) -> bool:
        """Whether every shape this one describes is also described by `other` (None
        dimensions, or an unknown rank, of `other` take any size).

        Example:
            >>> import tapeflow as tf
            >>> tf.TensorShape([1, 2]).is_subtype_of(tf.TensorShape([1, None]))
            True
        """
        other = as_shape(other)
        if other._dims is None:
            return True
        if self._dims is None or len(self._dims) != len(other._dims):
            return False
        return all(b is None or a == b for a, b in zip(self._dims, other._dims))

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
