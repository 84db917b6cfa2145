"""DynamicRaggedShape: the shape of a RaggedTensor (`tf.shape(rt)`), its row partitions and
the shape of its flat values, with the lengths of every dimension."""
from __future__ import annotations

from ...framework import dtypes
from ...framework.tensor import convert_to_tensor
from .. import array_ops, math_ops
from .ragged_tensor import RaggedTensor, _eager_value

__all__ = ["DynamicRaggedShape"]


class DynamicRaggedShape:
    """The shape of a (ragged) tensor: the row splits of each ragged dimension and the
    shape of the flat values (`inner_shape`, whose first dimension counts them).

    Args:
        row_partitions: the row splits of each ragged dimension, outermost first.
        inner_shape: the shape of the flat values.
        dtype: int32 or int64, the dtype of the lengths.

    Example:
        >>> import tapeflow as tf
        >>> tf.shape(tf.ragged.constant([[1, 2], [], [3, 4, 5]]))
        <DynamicRaggedShape lengths=[3, (2, 0, 3)] num_row_partitions=1>
    """

    __slots__ = ("_splits", "_inner_shape", "_dtype")

    def __init__(self, row_partitions, inner_shape, dtype=None) -> None:
        self._dtype = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
        self._splits = tuple(math_ops.cast(s, self._dtype) for s in row_partitions)
        self._inner_shape = math_ops.cast(convert_to_tensor(inner_shape), self._dtype)

    @classmethod
    def from_tensor(cls, t, dtype=None) -> "DynamicRaggedShape":
        """The shape of tensor or RaggedTensor `t`."""
        if isinstance(t, RaggedTensor):
            return cls(t.nested_row_splits, array_ops.shape(t.flat_values, out_type=dtypes.int64),
                       dtype)
        return cls((), array_ops.shape(convert_to_tensor(t), out_type=dtypes.int64), dtype)

    @property
    def dtype(self):
        return self._dtype

    @property
    def num_row_partitions(self) -> int:
        return len(self._splits)

    @property
    def rank(self) -> int:
        return self.num_row_partitions + int(self._inner_shape.shape[0])

    @property
    def inner_shape(self):
        """The shape of the flat values."""
        return self._inner_shape

    def is_uniform(self, axis: int) -> bool:
        """Whether dimension `axis` has one length (it is not a ragged one)."""
        return not 0 < axis <= self.num_row_partitions

    def __getitem__(self, index):
        """The length of uniform dimension `index` (ValueError for a ragged one)."""
        if index < 0:
            index += self.rank
        if not self.is_uniform(index):
            raise ValueError(f"Index {index} is not uniform")
        if index == 0 and self._splits:
            return array_ops.shape(self._splits[0], out_type=self._dtype)[0] - 1
        return self._inner_shape[index - self.num_row_partitions]

    def static_lengths(self) -> list:
        """The lengths: an int per uniform dimension, a tuple of row lengths per ragged one
        (eager only)."""
        lengths = []
        if self._splits:
            lengths.append(len(_eager_value(self._splits[0])) - 1)
        for splits in self._splits:
            s = _eager_value(splits)
            lengths.append(tuple(int(b - a) for a, b in zip(s[:-1], s[1:])))
        inner = _eager_value(self._inner_shape).tolist()
        return lengths + inner[1:] if self._splits else inner

    def __repr__(self) -> str:
        if _eager_value(self._inner_shape) is None:
            return f"<DynamicRaggedShape num_row_partitions={self.num_row_partitions}>"
        lengths = ", ".join(str(x) for x in self.static_lengths())
        return (f"<DynamicRaggedShape lengths=[{lengths}] "
                f"num_row_partitions={self.num_row_partitions}>")
