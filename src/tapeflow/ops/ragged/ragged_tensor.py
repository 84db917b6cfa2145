"""RaggedTensor: a tensor whose rows have different lengths, stored as its flat values plus
one row-splits vector per ragged dimension (`values[row_splits[i]:row_splits[i+1]]` is row i).

Its parts are ordinary tensors, so a tape watching the flat values (or the Variables they
were read from) differentiates through every ragged op, and tf.function passes one as its
components, keyed by its RaggedTensorSpec (the row lengths are not part of the key).
"""
from __future__ import annotations

import numpy as np

from ...framework import dtypes, errors
from ...framework.composite_tensor import CompositeTensor
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .. import (array_ops, comparison_ops, creation_ops, gather_ops, math_ops,
                reduction_ops)

__all__ = ["RaggedTensor", "is_ragged", "splits_to_rowids"]

_SPLITS_DTYPES = (dtypes.int32, dtypes.int64)


def is_ragged(x) -> bool:
    """Whether `x` is a RaggedTensor."""
    return isinstance(x, RaggedTensor)


def _eager_value(t):
    """The NumPy value of an eager tensor, or None for a symbolic one."""
    try:
        return t.numpy()
    except (errors.SymbolicValueError, AttributeError):  # a graph tensor, while it is built
        return None


def _partition(x, name: str, dtype=None) -> Tensor:
    """A row-partition tensor (splits, lengths, ids) as an int64 or int32 tensor."""
    if isinstance(x, Tensor) or hasattr(x, "_as_tensor"):
        t = convert_to_tensor(x)
        if t.dtype not in _SPLITS_DTYPES:
            raise ValueError(f"{name} must have dtype int32 or int64, got {t.dtype.name}")
        return t if dtype is None or t.dtype is dtype else math_ops.cast(t, dtype)
    array = np.asarray(x)
    if array.size and array.dtype.kind not in "iu":
        raise TypeError(f"{name}: cannot convert {x!r} to a tensor of dtype int64")
    return convert_to_tensor(array.astype(np.int64) if array.size else
                             np.zeros(array.shape, np.int64), dtype or dtypes.int64)


def _invalid(op: str, what: str):
    return errors.InvalidArgumentError(
        None, op, f"Arguments to {op} do not form a valid RaggedTensor: {what}")


def _check_splits(op: str, splits: Tensor, nvals) -> None:
    """InvalidArgumentError unless eager `splits` start at 0, never decrease and end at
    `nvals` (the number of values); symbolic ones are checked when they run."""
    if splits.shape.rank is not None and splits.shape.rank != 1:
        raise ValueError(f"{op}: row_splits must have rank 1, got shape {splits.shape}")
    s = _eager_value(splits)
    if s is None:
        return
    if s.size == 0:
        raise ValueError(f"{op}: row_splits may not be empty (one more than the rows)")
    if s[0] != 0:
        raise _invalid(op, f"zero: row_splits[0] is {s[0]}, not 0")
    if np.any(np.diff(s) < 0):
        raise _invalid(op, f"monotonic: row_splits {s.tolist()} decrease")
    if nvals is not None and s[-1] != nvals:
        raise _invalid(op, f"row_splits[-1] is {s[-1]} but there are {nvals} values")


def _nvals(values):
    """The number of rows of `values` (a tensor or RaggedTensor), if known statically."""
    if isinstance(values, RaggedTensor):
        return values.nrows_static
    return values.shape.as_list()[0] if values.shape.rank else None


def _values_input(values):
    if isinstance(values, RaggedTensor):
        return values
    values = convert_to_tensor(values)
    if values.shape.rank == 0:
        raise ValueError(f"RaggedTensor values must have rank >= 1, got shape {values.shape}")
    return values


def splits_to_rowids(splits: Tensor) -> Tensor:
    """The row of each value of the partition `splits`: eagerly each row's index repeated
    by its length (integers: nothing to differentiate); in a graph, where the lengths are
    known only when it runs, the number of row limits at or before each value's position
    (one vectorized search)."""
    s = _eager_value(splits)
    if s is not None:
        return convert_to_tensor(np.repeat(np.arange(len(s) - 1, dtype=s.dtype), np.diff(s)))
    from ..counting_ops import searchsorted
    positions = creation_ops.range(0, splits[-1], dtype=splits.dtype)
    return searchsorted(splits[1:], positions, side="right", out_type=splits.dtype)


def _prepend_zero(x: Tensor) -> Tensor:
    return array_ops.concat([creation_ops.zeros([1], x.dtype), x], 0)


class RaggedTensor(CompositeTensor):
    """A tensor with one or more ragged dimensions (rows of different lengths).

    Built with `tf.ragged.constant` or a factory classmethod (`from_row_splits`,
    `from_row_lengths`, `from_value_rowids`, `from_tensor`, ...), never directly.

    Example:
        >>> import tapeflow as tf
        >>> rt = tf.RaggedTensor.from_row_splits([1, 2, 3, 4, 5], [0, 2, 2, 5])
        >>> rt
        <tf.RaggedTensor [[1, 2], [], [3, 4, 5]]>
        >>> rt.shape
        TensorShape([3, None])
    """

    __slots__ = ("_values", "_row_splits")

    def __init__(self, values, row_splits, internal=False) -> None:
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the "
                             "factory methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits

    # -- factories ----------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True) -> "RaggedTensor":
        """A RaggedTensor whose row i is `values[row_splits[i]:row_splits[i + 1]]`.

        Args:
            values: a tensor of rank >= 1 (or a RaggedTensor) holding the rows' values.
            row_splits: int64 or int32, shape `[nrows + 1]`, starting at 0, never
                decreasing, ending at `len(values)`.
            name: unused (TF's graph name).
            validate: check `row_splits` (when eager).

        Returns:
            A RaggedTensor with `nrows` rows.

        Raises:
            InvalidArgumentError: `validate` and `row_splits` do not partition `values`.
            ValueError: `row_splits` has another rank than 1, or `values` rank 0.

        Example:
            >>> import tapeflow as tf
            >>> tf.RaggedTensor.from_row_splits([3, 1, 4, 1, 5], [0, 4, 4, 5]).to_list()
            [[3, 1, 4, 1], [], [5]]
        """
        values = _values_input(values)
        splits = _partition(row_splits, "row_splits",
                            values.row_splits.dtype if isinstance(values, RaggedTensor) else None)
        if validate:
            _check_splits("from_row_splits", splits, _nvals(values))
        return cls(values, splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """A RaggedTensor whose row i holds the next `row_lengths[i]` values.

        Example:
            >>> import tapeflow as tf
            >>> tf.RaggedTensor.from_row_lengths([3, 1, 4, 1, 5], [4, 0, 1]).to_list()
            [[3, 1, 4, 1], [], [5]]
        """
        lengths = _partition(row_lengths, "row_lengths")
        lv = _eager_value(lengths) if validate else None
        if lv is not None and np.any(lv < 0):
            raise _invalid("from_row_lengths", f"row_lengths {lv.tolist()} are negative")
        splits = _prepend_zero(reduction_ops.cumsum(lengths))
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        """A RaggedTensor whose row i starts at `values[row_starts[i]]` (row_starts[0] is 0).

        Example:
            >>> import tapeflow as tf
            >>> tf.RaggedTensor.from_row_starts([3, 1, 4, 1, 5], [0, 4, 4]).to_list()
            [[3, 1, 4, 1], [], [5]]
        """
        values = _values_input(values)
        starts = _partition(row_starts, "row_starts")
        total = _rows_of(values, starts.dtype)
        return cls.from_row_splits(values, array_ops.concat([starts, total[None]], 0),
                                   validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        """A RaggedTensor whose row i ends before `values[row_limits[i]]`.

        Example:
            >>> import tapeflow as tf
            >>> tf.RaggedTensor.from_row_limits([3, 1, 4, 1, 5], [4, 4, 5]).to_list()
            [[3, 1, 4, 1], [], [5]]
        """
        return cls.from_row_splits(values, _prepend_zero(_partition(row_limits, "row_limits")),
                                   validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """A RaggedTensor where `values[i]` is in row `value_rowids[i]` (sorted ids).

        Args:
            values: the values, in row order.
            value_rowids: int64 or int32, one row id per value, never decreasing.
            nrows: the number of rows (default: the last id + 1); trailing rows are empty.

        Example:
            >>> import tapeflow as tf
            >>> tf.RaggedTensor.from_value_rowids([3, 1, 4, 1, 5], [0, 0, 0, 0, 2],
            ...                                   nrows=4).to_list()
            [[3, 1, 4, 1], [], [5], []]
        """
        values = _values_input(values)
        rowids = _partition(value_rowids, "value_rowids")
        ids = _eager_value(rowids) if validate else None
        if ids is not None and ids.size and (np.any(np.diff(ids) < 0) or ids[0] < 0):
            raise _invalid("from_value_rowids", f"value_rowids {ids.tolist()} are not sorted "
                           "non-negative row ids")
        if nrows is None:
            nrows = creation_ops.zeros([], rowids.dtype) if rowids.shape.as_list() == [0] \
                else array_ops.reshape(rowids[-1:] + 1, [])
        nrows = _partition(nrows, "nrows", rowids.dtype)
        lengths = gather_ops.unsorted_segment_sum(creation_ops.ones_like(rowids), rowids, nrows)
        return cls.from_row_splits(values, _prepend_zero(reduction_ops.cumsum(lengths)),
                                   validate=validate)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        """A RaggedTensor with one ragged dimension per splits vector (outermost first).

        Example:
            >>> import tapeflow as tf
            >>> tf.RaggedTensor.from_nested_row_splits([1, 2, 3, 4],
            ...                                        [[0, 2, 3], [0, 1, 3, 4]]).to_list()
            [[[1], [2, 3]], [[4]]]
        """
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None,
                                validate=True):
        """A RaggedTensor with one ragged dimension per lengths vector (outermost first).

        Example:
            >>> import tapeflow as tf
            >>> tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4],
            ...                                         [[2, 1], [1, 2, 1]]).to_list()
            [[[1], [2, 3]], [[4]]]
        """
        result = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                                 name=None, validate=True):
        """A RaggedTensor with one ragged dimension per row-ids vector (outermost first).

        Example:
            >>> import tapeflow as tf
            >>> tf.RaggedTensor.from_nested_value_rowids([1, 2, 3], [[0, 0], [0, 1, 1]],
            ...                                          nested_nrows=[2, 2]).to_list()
            [[[1], [2, 3]], []]
        """
        ids = list(nested_value_rowids)
        nrows = [None] * len(ids) if nested_nrows is None else list(nested_nrows)
        if len(nrows) != len(ids):
            raise ValueError("nested_nrows must have one entry per nested_value_rowids")
        result = flat_values
        for rowids, n in reversed(list(zip(ids, nrows))):
            result = cls.from_value_rowids(result, rowids, n, validate=validate)
        return result

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        """A RaggedTensor whose rows all hold `uniform_row_length` values.

        Example:
            >>> import tapeflow as tf
            >>> tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4], 2).to_list()
            [[1, 2], [3, 4]]
        """
        values = _values_input(values)
        length = _partition(uniform_row_length, "uniform_row_length")
        total = _rows_of(values, length.dtype)
        if nrows is None:  # (rows of length 0 need their count given)
            nrows = total // math_ops.maximum(length, 1)
        nrows = _partition(nrows, "nrows", length.dtype)
        splits = creation_ops.range(0, nrows + 1, dtype=length.dtype) * length
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=dtypes.int64) -> "RaggedTensor":
        """The rows of dense `tensor`, cut at `lengths` or before trailing `padding`.

        Args:
            tensor: a tensor of rank > ragged_rank.
            lengths: the length of each row (at most the tensor's second dimension).
            padding: the value (or inner slice) whose trailing runs are cut off each row.
            ragged_rank: how many leading dimensions after the first become ragged.
            row_splits_dtype: int64 or int32.

        Raises:
            ValueError: both `lengths` and `padding`, or a rank too small.

        Example:
            >>> import tapeflow as tf
            >>> tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], padding=0).to_list()
            [[1, 2], [3]]
        """
        tensor = convert_to_tensor(tensor)
        splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if lengths is not None and padding is not None:
            raise ValueError("Specify at most one of lengths and padding")
        rank = tensor.shape.rank
        if rank is not None and rank <= ragged_rank:
            raise ValueError(f"from_tensor: tensor of shape {tensor.shape} must have rank "
                             f"> ragged_rank={ragged_rank}")
        if ragged_rank > 1:
            if lengths is not None or padding is not None:
                raise ValueError("from_tensor: lengths and padding take ragged_rank=1")
            dims = array_ops.shape(tensor, out_type=splits_dtype)
            inner = cls.from_tensor(array_ops.reshape(
                tensor, array_ops.concat([[-1], dims[2:]], 0)), ragged_rank=ragged_rank - 1,
                row_splits_dtype=splits_dtype)
            return cls.from_uniform_row_length(inner, dims[1], nrows=dims[0])
        dims = array_ops.shape(tensor, out_type=splits_dtype)
        nrows, ncols = dims[0], dims[1]
        if padding is not None:
            padding = convert_to_tensor(padding, tensor.dtype)
            differs = comparison_ops.not_equal(tensor, padding)
            if tensor.shape.rank > 2:
                differs = reduction_ops.reduce_any(differs, axis=list(range(2, rank)))
            positions = creation_ops.range(1, ncols + 1, dtype=splits_dtype)
            lengths = reduction_ops.reduce_max(
                math_ops.cast(differs, splits_dtype) * positions[None, :], axis=1)
        if lengths is None:
            return cls.from_uniform_row_length(
                array_ops.reshape(tensor, array_ops.concat([[-1], dims[2:]], 0)), ncols,
                nrows=nrows)
        lengths = _partition(lengths, "lengths", splits_dtype)
        lengths = math_ops.minimum(lengths, ncols)
        from ..counting_ops import sequence_mask
        from ..indexing_ops import boolean_mask
        values = boolean_mask(tensor, sequence_mask(lengths, ncols))
        return cls.from_row_lengths(values, lengths, validate=False)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """The rows of a rank-2 SparseTensor whose indices are in row-major order, each
        holding its values (the gaps between them closed).

        Raises:
            ValueError: the SparseTensor has another rank than 2.

        Example:
            >>> import tapeflow as tf
            >>> st = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 4])
            >>> tf.RaggedTensor.from_sparse(st).to_list()
            [[1, 2], [], [3]]
        """
        rank = st_input.shape.rank
        if rank is not None and rank != 2:
            raise ValueError(f"rank(st_input) must be 2, got shape {st_input.shape}")
        splits_dtype = dtypes.as_dtype(row_splits_dtype)
        rowids = math_ops.cast(st_input.indices[:, 0], splits_dtype)
        nrows = math_ops.cast(st_input.dense_shape[0], splits_dtype)
        return cls.from_value_rowids(st_input.values, rowids, nrows, validate=False)

    # -- parts --------------------------------------------------------------------------
    @property
    def values(self):
        """The concatenated rows (a tensor, or a RaggedTensor with one ragged dim fewer)."""
        return self._values

    @property
    def row_splits(self) -> Tensor:
        """`[nrows + 1]`: row i is `values[row_splits[i]:row_splits[i + 1]]`."""
        return self._row_splits

    @property
    def flat_values(self) -> Tensor:
        """The innermost values: a tensor holding every element."""
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values._values
        return values

    @property
    def nested_row_splits(self) -> tuple:
        """The row splits of each ragged dimension, outermost first."""
        splits, rt = [], self
        while isinstance(rt, RaggedTensor):
            splits.append(rt._row_splits)
            rt = rt._values
        return tuple(splits)

    @property
    def ragged_rank(self) -> int:
        """The number of ragged dimensions."""
        values = self._values
        return values.ragged_rank + 1 if isinstance(values, RaggedTensor) else 1

    @property
    def dtype(self) -> dtypes.DType:
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self) -> dtypes.DType:
        return self._row_splits.dtype

    @property
    def uniform_row_length(self):
        """None: the rows' lengths are not declared equal."""
        return None

    @property
    def nrows_static(self):
        dims = self._row_splits.shape.as_list()
        return None if dims[0] is None else dims[0] - 1

    @property
    def shape(self) -> TensorShape:
        """The static shape: `[nrows, None (each ragged dim), inner dims...]`."""
        inner = self._values.shape
        return TensorShape([self.nrows_static]).concatenate(
            TensorShape([None]).concatenate(inner[1:]) if inner.rank is not None else
            TensorShape(None))

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def _type_spec(self):
        from .ragged_tensor_spec import RaggedTensorSpec
        return RaggedTensorSpec(self.shape, self.dtype, self.ragged_rank, self.row_splits_dtype)

    def consumers(self) -> list:
        return []

    # -- row partition ------------------------------------------------------------------
    def nrows(self, out_type=None, name=None) -> Tensor:
        """The number of rows (a scalar of the splits' dtype, or `out_type`)."""
        n = array_ops.shape(self._row_splits, out_type=self._row_splits.dtype)[0] - 1
        return n if out_type is None else math_ops.cast(n, out_type)

    def row_starts(self, name=None) -> Tensor:
        """Where each row starts in `values`."""
        return self._row_splits[:-1]

    def row_limits(self, name=None) -> Tensor:
        """Where each row ends in `values` (exclusive)."""
        return self._row_splits[1:]

    def row_lengths(self, axis=1, name=None):
        """The length of each row of dimension `axis` (a RaggedTensor for axis > 1).

        Example:
            >>> import tapeflow as tf
            >>> tf.ragged.constant([[1, 2], [], [3]]).row_lengths().numpy()
            array([2, 0, 1])
        """
        if axis == 0:
            return self.nrows()
        if axis == 1:
            return self._row_splits[1:] - self._row_splits[:-1]
        if axis < 0 or not isinstance(self._values, RaggedTensor):
            raise ValueError(f"row_lengths: axis={axis} is not a ragged dimension of a "
                             f"RaggedTensor of shape {self.shape}")
        return self.with_values(self._values.row_lengths(axis - 1))

    def nested_row_lengths(self, name=None) -> tuple:
        """The row lengths of each ragged dimension, outermost first."""
        return tuple(s[1:] - s[:-1] for s in self.nested_row_splits)

    def value_rowids(self, name=None) -> Tensor:
        """The row of each value: `[0, 0, 2, 2, 2]` for rows of lengths 2, 0, 3."""
        return splits_to_rowids(self._row_splits)

    def nested_value_rowids(self, name=None) -> tuple:
        ids, rt = [], self
        while isinstance(rt, RaggedTensor):
            ids.append(rt.value_rowids())
            rt = rt._values
        return tuple(ids)

    def _positions_in_rows(self) -> Tensor:
        """The column of each value within its row."""
        rowids = self.value_rowids()
        return creation_ops.range(0, array_ops.shape(rowids, out_type=rowids.dtype)[0],
                                  dtype=rowids.dtype) - gather_ops.gather(self._row_splits,
                                                                          rowids)

    def bounding_shape(self, axis=None, name=None, out_type=None) -> Tensor:
        """The shape of the smallest dense tensor that holds this one.

        Example:
            >>> import tapeflow as tf
            >>> tf.ragged.constant([[1, 2], [], [3, 4, 5]]).bounding_shape().numpy()
            array([3, 3])
        """
        out_type = self._row_splits.dtype if out_type is None else dtypes.as_dtype(out_type)
        dims = [self.nrows(out_type)]
        rt = self
        while isinstance(rt, RaggedTensor):
            lengths = rt.row_lengths()
            dims.append(math_ops.cast(reduction_ops.reduce_max(array_ops.concat(
                [creation_ops.zeros([1], lengths.dtype), lengths], 0)), out_type))
            rt = rt._values
        inner = array_ops.shape(rt, out_type=out_type)[1:]
        shape = array_ops.concat([array_ops.stack(dims), inner], 0)
        return shape if axis is None else gather_ops.gather(shape, axis)

    # -- conversions --------------------------------------------------------------------
    def to_tensor(self, default_value=None, name=None, shape=None) -> Tensor:
        """A dense tensor: each row padded with `default_value` (zeros by default) to the
        bounding shape, or cut or padded to `shape`.

        Example:
            >>> import tapeflow as tf
            >>> tf.ragged.constant([[1, 2], [], [3]]).to_tensor(-1).numpy()
            array([[ 1,  2],
                   [-1, -1],
                   [ 3, -1]], dtype=int32)
        """
        from ..indexing_ops import boolean_mask, tensor_scatter_nd_update
        target = None if shape is None else TensorShape(shape)
        values = self._values
        inner_shape = None if target is None or target.rank is None else target[1:]
        if isinstance(values, RaggedTensor):
            values = values.to_tensor(default_value, shape=None if inner_shape is None else
                                      TensorShape([None]).concatenate(inner_shape[1:]))
        bound = array_ops.shape(values, out_type=dtypes.int64)
        lengths = math_ops.cast(self.row_lengths(), dtypes.int64)
        nrows = math_ops.cast(self.nrows(), dtypes.int64)
        ncols = reduction_ops.reduce_max(array_ops.concat(
            [creation_ops.zeros([1], dtypes.int64), lengths], 0))
        dims = [nrows, ncols]
        rowids = math_ops.cast(self.value_rowids(), dtypes.int64)
        cols = math_ops.cast(self._positions_in_rows(), dtypes.int64)
        if target is not None and target.rank is not None:
            wanted = target.as_list()
            if wanted[0] is not None:
                dims[0] = convert_to_tensor(wanted[0], dtypes.int64)
            if wanted[1] is not None:
                dims[1] = convert_to_tensor(wanted[1], dtypes.int64)
            keep = comparison_ops.logical_and(comparison_ops.less(rowids, dims[0]),
                                        comparison_ops.less(cols, dims[1]))
            values, rowids, cols = (boolean_mask(values, keep), boolean_mask(rowids, keep),
                                    boolean_mask(cols, keep))
        full_shape = array_ops.concat([array_ops.stack(dims), bound[1:]], 0)
        default = creation_ops.zeros([], self.dtype) if default_value is None else \
            convert_to_tensor(default_value, self.dtype)
        base = creation_ops.fill(full_shape, default) if default.shape.rank == 0 else \
            array_ops.broadcast_to(default, full_shape)
        indices = array_ops.stack([rowids, cols], axis=1)
        return tensor_scatter_nd_update(base, indices, values)

    def to_sparse(self, name=None):
        """A SparseTensor holding these values at their (row, column, ...) coordinates.

        Example:
            >>> import tapeflow as tf
            >>> tf.ragged.constant([[1, 2], [3]]).to_sparse().indices.numpy().tolist()
            [[0, 0], [0, 1], [1, 0]]
        """
        from ...framework.sparse_tensor import SparseTensor
        from ..indexing_ops import where
        rowids = math_ops.cast(self.value_rowids(), dtypes.int64)
        cols = math_ops.cast(self._positions_in_rows(), dtypes.int64)
        values = self._values
        if isinstance(values, RaggedTensor):
            inner = values.to_sparse()
            first = inner.indices[:, 0]
            indices = array_ops.concat([gather_ops.gather(rowids, first)[:, None],
                                        gather_ops.gather(cols, first)[:, None],
                                        inner.indices[:, 1:]], 1)
            return SparseTensor(indices, inner.values, math_ops.cast(self.bounding_shape(),
                                                                     dtypes.int64))
        prefix = array_ops.stack([rowids, cols], axis=1)
        if values.shape.rank > 1:
            inner = where(creation_ops.ones_like(values, dtype=dtypes.bool))
            prefix = array_ops.concat([gather_ops.gather(prefix, inner[:, 0]), inner[:, 1:]], 1)
            values = array_ops.reshape(values, [-1])
        return SparseTensor(prefix, values, math_ops.cast(self.bounding_shape(), dtypes.int64))

    def to_list(self) -> list:
        """The rows as nested Python lists (eager only).

        Example:
            >>> import tapeflow as tf
            >>> tf.ragged.constant([[1, 2], [3]]).to_list()
            [[1, 2], [3]]
        """
        values = self._values.to_list() if isinstance(self._values, RaggedTensor) else \
            self._values.numpy().tolist()
        splits = self._row_splits.numpy().tolist()
        return [values[a:b] for a, b in zip(splits[:-1], splits[1:])]

    def numpy(self) -> np.ndarray:
        """The rows as NumPy arrays (eager only): rows of different lengths in an object
        array, rows of one length stacked into one array.

        Example:
            >>> import tapeflow as tf
            >>> tf.ragged.constant([[1, 2], [3, 4]]).numpy()
            array([[1, 2],
                   [3, 4]], dtype=int32)
        """
        values = self._values.numpy()
        splits = self._row_splits.numpy()
        rows = [values[a:b] for a, b in zip(splits[:-1], splits[1:])]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], values.dtype)
        if any(len(row) != len(rows[0]) for row in rows):
            out = np.empty(len(rows), dtype=object)
            out[:] = rows
            return out
        return np.array(rows)

    def with_values(self, new_values) -> "RaggedTensor":
        """This partition with `new_values` (as many rows as `values`)."""
        return RaggedTensor(_values_input(new_values), self._row_splits, internal=True)

    def with_flat_values(self, new_values) -> "RaggedTensor":
        """This (nested) partition with `new_values` as its flat values."""
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype) -> "RaggedTensor":
        """This tensor with its row partitions cast to `dtype` (int32 or int64)."""
        dtype = dtypes.as_dtype(dtype)
        values = self._values.with_row_splits_dtype(dtype) \
            if isinstance(self._values, RaggedTensor) else self._values
        return RaggedTensor(values, math_ops.cast(self._row_splits, dtype), internal=True)

    def merge_dims(self, outer_axis, inner_axis) -> "RaggedTensor":
        """Dimensions `outer_axis`..`inner_axis` merged into one.

        Example:
            >>> import tapeflow as tf
            >>> tf.ragged.constant([[[1, 2], [3]], [[4]]]).merge_dims(0, 1).to_list()
            [[1, 2], [3], [4]]
        """
        rank = self.shape.rank
        if outer_axis < 0:
            outer_axis += rank
        if inner_axis < 0:
            inner_axis += rank
        if not 0 <= outer_axis <= inner_axis < rank:
            raise ValueError(f"merge_dims: expected 0 <= outer_axis ({outer_axis}) <= "
                             f"inner_axis ({inner_axis}) < rank ({rank})")
        if outer_axis == inner_axis:
            return self
        if outer_axis > 1:
            return self.with_values(self._values.merge_dims(outer_axis - 1, inner_axis - 1)
                                    if isinstance(self._values, RaggedTensor) else
                                    _merge_dense(self._values, outer_axis - 1, inner_axis - 1))
        if outer_axis == 1:  # each row keeps its elements down to dimension inner_axis
            splits, values = self._row_splits, self._values
            for level in range(inner_axis - 1):
                if not isinstance(values, RaggedTensor):
                    size = array_ops.shape(values, out_type=splits.dtype)[1:inner_axis - level]
                    splits = splits * reduction_ops.reduce_prod(size)
                    values = _merge_dense(values, 0, inner_axis - 1 - level)
                    break
                splits = gather_ops.gather(values.row_splits, splits)
                values = values.values
            return RaggedTensor.from_row_splits(values, splits, validate=False)
        return _merge(self, inner_axis)

    # -- indexing -----------------------------------------------------------------------
    def __getitem__(self, key):
        from .ragged_getitem import ragged_getitem
        return ragged_getitem(self, key)

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def __hash__(self):
        raise TypeError("RaggedTensor is unhashable.")

    def __repr__(self) -> str:
        if _eager_value(self._row_splits) is None:
            return f"tf.RaggedTensor(values={self._values!r}, row_splits={self._row_splits!r})"
        with np.printoptions(formatter={"all": _element_text}):
            return f"<tf.RaggedTensor {_element_text(self.numpy())}>"

    __str__ = __repr__


def _install_operators() -> None:
    """Python operators of RaggedTensor: the public ops, which dispatch to their ragged
    versions (`x == y` is elementwise, as for tensors)."""
    binary = {"add": math_ops.add, "sub": math_ops.subtract, "mul": math_ops.multiply,
              "truediv": math_ops.divide, "floordiv": math_ops.floordiv,
              "mod": math_ops.floormod, "pow": math_ops.pow,
              "and": comparison_ops.logical_and, "or": comparison_ops.logical_or,
              "xor": comparison_ops.logical_xor}
    for name, fn in binary.items():
        setattr(RaggedTensor, f"__{name}__", lambda x, y, fn=fn: fn(x, y))
        setattr(RaggedTensor, f"__r{name}__", lambda x, y, fn=fn: fn(y, x))
    for name, fn in {"lt": comparison_ops.less, "le": comparison_ops.less_equal,
                     "gt": comparison_ops.greater, "ge": comparison_ops.greater_equal,
                     "eq": comparison_ops.equal, "ne": comparison_ops.not_equal}.items():
        setattr(RaggedTensor, f"__{name}__", lambda x, y, fn=fn: fn(x, y))
    RaggedTensor.__neg__ = lambda x: math_ops.negative(x)
    RaggedTensor.__abs__ = lambda x: math_ops.abs(x)
    RaggedTensor.__invert__ = lambda x: comparison_ops.logical_not(x)


def _element_text(x) -> str:
    """An array printed with commas between elements, as TF prints ragged values (an empty
    one as its nested list, so shape [0, 3] reads `[[], [], []]`)."""
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


def _rows_of(values, dtype) -> Tensor:
    if isinstance(values, RaggedTensor):
        return math_ops.cast(values.nrows(), dtype)
    return array_ops.shape(values, out_type=dtype)[0]


def _merge(rt, inner: int):
    """`rt` with its dimensions 0..inner merged: merging dims 0 and 1 of a RaggedTensor
    leaves its values, whose rows are in order."""
    if inner == 0:
        return rt
    if isinstance(rt, RaggedTensor):
        return _merge(rt.values, inner - 1)
    return _merge_dense(rt, 0, inner)


def _merge_dense(t, outer: int, inner: int):
    dims = array_ops.shape(t)
    return array_ops.reshape(t, array_ops.concat([dims[:outer], [-1], dims[inner + 1:]], 0))


_install_operators()
