"""tf.sparse functions that convert SparseTensors or rearrange their entries.

Coordinates come from the integer ops of `ops/sparse_ops.py`; values move through
`SparseValuesGather`, so a gradient reaching the result's values reaches the input's
values, dense, as TF's SparseReorder, SparseSlice and SparseFillEmptyRows give it.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.indexed_slices import IndexedSlices
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops.array_ops import concat as _concat_dense, get_static_value, reshape as _reshape_dense, \
    shape as _shape
from ..ops.comparison_ops import greater_equal
from ..ops.creation_ops import ones_like, zeros_like
from ..ops.gather_ops import gather
from ..ops.indexing_ops import Where, gather_nd, where
from ..ops.math_ops import cast
from ..ops.op_util import int_value
from ..ops.reduction_ops import reduce_max
from ..ops.sparse_ops import (ListDiff, SparseCanonicalOrder, SparseConcat,
                              SparseFillEmptyRowsPositions, SparseReshape, SparseSlicePositions,
                              SparseSplit, SparseToDense, SparseValuesGather)

__all__ = ["from_dense", "to_dense", "reorder", "reshape", "transpose", "slice", "concat",
           "split", "expand_dims", "retain", "reset_shape", "fill_empty_rows", "eye",
           "to_indicator", "mask", "checked"]


def checked(fn_name: str, sp_input) -> SparseTensor:
    """`sp_input` if it is a SparseTensor, else a TypeError naming `fn_name`."""
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"{fn_name}: expected a SparseTensor, got {type(sp_input).__name__}: "
                        f"{sp_input!r}")
    return sp_input


def _int64(x) -> Tensor:
    return x if isinstance(x, Tensor) and x.dtype == dtypes.int64 else \
        cast(convert_to_tensor(x), dtypes.int64)


def _with_static_shape(result: SparseTensor, shape) -> SparseTensor:
    if shape.rank is not None:
        result.set_shape(shape)
    return result


def from_dense(tensor, name=None) -> SparseTensor:
    """The non-zero elements of a dense tensor as a SparseTensor (in row-major order).

    Args:
        tensor: a dense tensor of any dtype.

    Returns:
        A SparseTensor of `tensor`'s shape and dtype.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.sparse.from_dense([[0.0, 2.0], [3.0, 0.0]])
        >>> st.indices.numpy().tolist(), st.values.numpy().tolist()
        ([[0, 1], [1, 0]], [2.0, 3.0])
    """
    tensor = convert_to_tensor(tensor)
    indices = Where(tensor)
    return SparseTensor(indices, gather_nd(tensor, indices), _shape(tensor, out_type=dtypes.int64))


def to_dense(sp_input, default_value=None, validate_indices=True, name=None) -> Tensor:
    """The dense tensor a SparseTensor stands for: its values at its indices, `default_value`
    elsewhere.

    The gradient reaches the values (the dense gradient at their indices) and the default
    value (the sum of the dense gradient elsewhere).

    Args:
        sp_input: a SparseTensor.
        default_value: the value of the elements not given (default 0 of its dtype).
        validate_indices: check that the indices are sorted in row-major order without
            repeats.

    Returns:
        A tensor of shape `sp_input.dense_shape` and dtype `sp_input.dtype`.

    Raises:
        TypeError: `sp_input` is not a SparseTensor.
        InvalidArgumentError: an index is out of bounds, or (with `validate_indices`) out of
            order or repeated.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[0, 0], [1, 2]], [1, 2], [2, 3])
        >>> tf.sparse.to_dense(st, default_value=-1).numpy()
        array([[ 1, -1, -1],
               [-1, -1,  2]], dtype=int32)
    """
    sp = checked("tf.sparse.to_dense", sp_input)
    default = convert_to_tensor(np.zeros((), sp.dtype.as_numpy_dtype) if default_value is None
                                else default_value, dtype=sp.dtype)
    return SparseToDense(sp.indices, sp.dense_shape, sp.values, default,
                         validate_indices=bool(validate_indices))


def reorder(sp_input, name=None) -> SparseTensor:
    """The same SparseTensor with its entries in row-major (canonical) order.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.sparse.reorder(tf.SparseTensor([[1, 0], [0, 1]], [1.0, 2.0], [2, 2]))
        >>> st.indices.numpy().tolist(), st.values.numpy().tolist()
        ([[0, 1], [1, 0]], [2.0, 1.0])
    """
    sp = checked("tf.sparse.reorder", sp_input)
    order = SparseCanonicalOrder(sp.indices)
    return _with_static_shape(SparseTensor(gather(sp.indices, order),
                                           SparseValuesGather(sp.values, order), sp.dense_shape),
                              sp.shape)


def reshape(sp_input, shape, name=None) -> SparseTensor:
    """The SparseTensor with a new dense shape (one entry may be -1), its entries in the
    same row-major positions.

    Raises:
        InvalidArgumentError: the new shape holds another number of elements.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.sparse.reshape(tf.SparseTensor([[1, 1]], [5.0], [2, 2]), [-1])
        >>> st.indices.numpy().tolist(), st.dense_shape.numpy().tolist()
        ([[3]], [4])
    """
    sp = checked("tf.sparse.reshape", sp_input)
    indices, dense_shape = SparseReshape(sp.indices, sp.dense_shape, _int64(shape))
    return SparseTensor(indices, sp.values, dense_shape)


def transpose(sp_input, perm=None, name=None) -> SparseTensor:
    """The SparseTensor with its dimensions permuted (reversed by default), reordered.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.sparse.transpose(tf.SparseTensor([[0, 2]], [1.0], [2, 3]))
        >>> st.indices.numpy().tolist(), st.dense_shape.numpy().tolist()
        ([[2, 0]], [3, 2])
    """
    sp = checked("tf.sparse.transpose", sp_input)
    rank = sp.shape.rank
    if perm is None:
        if rank is None:
            raise ValueError("tf.sparse.transpose: the rank must be known to reverse the "
                             "dimensions; pass perm")
        perm = list(range(rank))[::-1]
    perm = _int64(perm)
    return reorder(SparseTensor(gather(sp.indices, perm, axis=1), sp.values,
                                gather(sp.dense_shape, perm)))


def slice(sp_input, start, size, name=None) -> SparseTensor:  # noqa: A001  (TF's name)
    """The entries inside the box `[start, start + size)`, moved to start at 0; the result's
    shape is the box clipped to the input's shape.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[0, 0], [1, 2], [2, 1]], [1.0, 2.0, 3.0], [3, 3])
        >>> part = tf.sparse.slice(st, [1, 1], [5, 5])
        >>> part.indices.numpy().tolist(), part.dense_shape.numpy().tolist()
        ([[0, 1], [1, 0]], [2, 2])
    """
    sp = checked("tf.sparse.slice", sp_input)
    indices, kept, dense_shape = SparseSlicePositions(sp.indices, sp.dense_shape, _int64(start),
                                                      _int64(size))
    return SparseTensor(indices, SparseValuesGather(sp.values, kept), dense_shape)


def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None) -> SparseTensor:
    """SparseTensors joined along `axis`, in row-major order. Not differentiable, as TF.

    Args:
        axis: the dimension to join along.
        sp_inputs: a list of SparseTensors of one rank and dtype.
        expand_nonconcat_dims: let the other dimensions differ, each taking its largest
            size; otherwise they must be equal.

    Raises:
        InvalidArgumentError: ranks differ, or other dimensions differ without
            `expand_nonconcat_dims`.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.SparseTensor([[0, 0]], [1.0], [1, 2])
        >>> b = tf.SparseTensor([[0, 1]], [2.0], [1, 3])
        >>> tf.sparse.to_dense(tf.sparse.concat(1, [a, b])).numpy()
        array([[1., 0., 0., 2., 0.]], dtype=float32)
    """
    inputs = [checked("tf.sparse.concat", sp) for sp in sp_inputs]
    if not inputs:
        raise ValueError("tf.sparse.concat: sp_inputs is empty")
    axis = int_value("tf.sparse.concat", axis, "axis")
    shapes = [sp.dense_shape for sp in inputs]
    if expand_nonconcat_dims:
        rank = int(shapes[0].shape[0])
        largest = reduce_max(_concat_dense([_reshape_dense(s, [1, -1]) for s in shapes], 0), 0)
        on_axis = np.arange(rank) == axis % rank
        shapes = [where(on_axis, s, largest) for s in shapes]
    indices, values, dense_shape = SparseConcat(
        *[sp.indices for sp in inputs], *[sp.values for sp in inputs], *shapes,
        concat_dim=axis, n=len(inputs))
    return SparseTensor(indices, values, dense_shape)


def split(sp_input=None, num_split=None, axis=None, name=None) -> list:
    """`num_split` SparseTensors cut along `axis`; the first `size % num_split` parts are one
    longer. As TF's SparseSplit, it has no gradient (LookupError).

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[0, 0], [0, 3]], [1.0, 2.0], [1, 4])
        >>> [p.dense_shape.numpy().tolist() for p in tf.sparse.split(st, 2, axis=1)]
        [[1, 2], [1, 2]]
    """
    sp = checked("tf.sparse.split", sp_input)
    if num_split is None or axis is None:
        raise ValueError("tf.sparse.split: num_split and axis are required")
    num = int_value("tf.sparse.split", num_split, "num_split")
    parts = SparseSplit(sp.indices, sp.values, sp.dense_shape,
                        split_dim=int_value("tf.sparse.split", axis, "axis"), num_split=num)
    return [SparseTensor(*parts[3 * i:3 * i + 3]) for i in range(num)]


def expand_dims(sp_input, axis=None, name=None) -> SparseTensor:
    """The SparseTensor with a dimension of size 1 inserted at `axis` (default -1: last).

    Example:
        >>> import tapeflow as tf
        >>> st = tf.sparse.expand_dims(tf.SparseTensor([[1]], [1.0], [3]), 0)
        >>> st.indices.numpy().tolist(), st.dense_shape.numpy().tolist()
        ([[0, 1]], [1, 3])
    """
    sp = checked("tf.sparse.expand_dims", sp_input)
    rank = sp.shape.rank
    if rank is None:
        raise ValueError("tf.sparse.expand_dims: the SparseTensor's rank must be known")
    a = int_value("tf.sparse.expand_dims", -1 if axis is None else axis, "axis")
    if not -rank - 1 <= a <= rank:
        raise errors.InvalidArgumentError(
            None, "ExpandDims", f"tf.sparse.expand_dims: axis {a} is outside [{-rank - 1}, "
            f"{rank}] for a SparseTensor of rank {rank}")
    a = a % (rank + 1)
    columns = np.array(list(range(a)) + [rank] + list(range(a, rank)), np.int64)
    zeros = zeros_like(gather(sp.indices, np.array([0], np.int64), axis=1)) if rank else \
        _reshape_dense(cast(zeros_like(sp.values), dtypes.int64), [-1, 1])
    indices = gather(_concat_dense([sp.indices, zeros], 1), columns, axis=1)
    dense_shape = gather(_concat_dense([sp.dense_shape, np.ones(1, np.int64)], 0), columns)
    return SparseTensor(indices, sp.values, dense_shape)


def retain(sp_input, to_retain) -> SparseTensor:
    """The entries where the boolean vector `to_retain` is true (a gather, as in TF: the
    values' gradient is an IndexedSlices).

    Raises:
        ValueError: `to_retain` is not a vector of the SparseTensor's length.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[0], [2]], [1.0, 2.0], [3])
        >>> tf.sparse.retain(st, [False, True]).values.numpy()
        array([2.], dtype=float32)
    """
    sp = checked("tf.sparse.retain", sp_input)
    keep = convert_to_tensor(to_retain, dtype=dtypes.bool)
    n = sp.values.shape.as_list()[0] if sp.values.shape.rank else None
    if keep.shape.rank != 1 or n is not None and keep.shape[0] not in (None, n):
        raise ValueError(f"tf.sparse.retain: to_retain must be a vector of length {n}, got "
                         f"shape {keep.shape}")
    picked = _reshape_dense(Where(keep), [-1])
    return _with_static_shape(SparseTensor(gather(sp.indices, picked), gather(sp.values, picked),
                                           sp.dense_shape), sp.shape)


def reset_shape(sp_input, new_shape=None) -> SparseTensor:
    """The SparseTensor with another dense shape: `new_shape`, or the tightest shape that
    holds its indices (`max(indices) + 1` per dimension).

    Raises:
        ValueError: `new_shape` has another rank, or is smaller than the dense shape
            somewhere.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[1, 0]], [1.0], [4, 4])
        >>> tf.sparse.reset_shape(st).dense_shape.numpy()
        array([2, 1])
    """
    sp = checked("tf.sparse.reset_shape", sp_input)
    if new_shape is None:
        dense_shape = reduce_max(sp.indices, axis=0) + 1
    else:
        dense_shape = _int64(new_shape)
        rank = sp.shape.rank
        if dense_shape.shape.rank != 1 or rank is not None and \
                dense_shape.shape[0] not in (None, rank):
            raise ValueError(f"tf.sparse.reset_shape: new_shape {dense_shape.shape} must be a "
                             f"vector of rank {rank}")
        new, old = get_static_value(dense_shape), get_static_value(sp.dense_shape)
        if new is not None and old is not None and np.any(new < old):
            raise ValueError(f"tf.sparse.reset_shape: new_shape {new.tolist()} must be at "
                             f"least the dense shape {old.tolist()} in every dimension")
    return SparseTensor(sp.indices, sp.values, dense_shape)


def fill_empty_rows(sp_input, default_value, name=None) -> tuple:
    """Adds an entry `default_value` at `[row, 0, ...]` to every row without entries.

    The gradient reaches the values and `default_value` (the sum over the added entries).

    Returns:
        `(filled SparseTensor, empty_row_indicator)`: a bool vector, true for the rows
        that were empty.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[1, 0]], [5.0], [3, 2])
        >>> filled, empty = tf.sparse.fill_empty_rows(st, -1.0)
        >>> filled.values.numpy(), empty.numpy()
        (array([-1.,  5., -1.], dtype=float32), array([ True, False,  True]))
    """
    sp = checked("tf.sparse.fill_empty_rows", sp_input)
    default = convert_to_tensor(default_value, dtype=sp.dtype)
    indices, picked, empty = SparseFillEmptyRowsPositions(sp.indices, sp.dense_shape)
    values = where(greater_equal(picked, np.int64(0)), SparseValuesGather(sp.values, picked),
                   default)
    return _with_static_shape(SparseTensor(indices, values, sp.dense_shape), sp.shape), empty


def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None) -> SparseTensor:
    """A sparse identity matrix of shape `[num_rows, num_columns]` (square by default).

    Example:
        >>> import tapeflow as tf
        >>> tf.sparse.to_dense(tf.sparse.eye(2, 3)).numpy()
        array([[1., 0., 0.],
               [0., 1., 0.]], dtype=float32)
    """
    rows = int_value("tf.sparse.eye", num_rows, "num_rows")
    cols = rows if num_columns is None else int_value("tf.sparse.eye", num_columns, "num_columns")
    n = min(rows, cols)
    diagonal = np.repeat(np.arange(n, dtype=np.int64)[:, None], 2, axis=1)
    return SparseTensor(diagonal, np.ones(n, dtypes.as_dtype(dtype).as_numpy_dtype),
                        np.array([rows, cols], np.int64))


def to_indicator(sp_input, vocab_size, name=None) -> Tensor:
    """A dense bool tensor marking, for each position of all but the last dimension, the
    ids that sit there: `out[..., id] = True` for each entry `id` of that row.

    Args:
        sp_input: a SparseTensor of int32 or int64 ids.
        vocab_size: the size of the last dimension of the result.

    Raises:
        TypeError: the ids are not integers.
        InvalidArgumentError: an id is outside [0, vocab_size).

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [2, 0, 1], [2, 2])
        >>> tf.sparse.to_indicator(st, 3).numpy()
        array([[ True, False,  True],
               [False,  True, False]])
    """
    sp = checked("tf.sparse.to_indicator", sp_input)
    if sp.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"tf.sparse.to_indicator: the ids must be int32 or int64, got "
                        f"{sp.dtype.name}")
    rank = sp.shape.rank
    outer = gather(sp.indices, np.arange(rank - 1, dtype=np.int64), axis=1)
    ids = _reshape_dense(cast(sp.values, dtypes.int64), [-1, 1])
    dense_shape = _concat_dense([gather(sp.dense_shape, np.arange(rank - 1, dtype=np.int64)),
                                 _int64([int_value("tf.sparse.to_indicator", vocab_size,
                                                   "vocab_size")])], 0)
    return SparseToDense(_concat_dense([outer, ids], 1), dense_shape,
                         ones_like(sp.values, dtype=dtypes.bool), np.array(False),
                         validate_indices=False)


def mask(a, mask_indices, name=None) -> IndexedSlices:
    """The IndexedSlices `a` without the slices whose index is in `mask_indices`.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.IndexedSlices(tf.constant([[1.0], [2.0]]), tf.constant([4, 1]))
        >>> tf.sparse.mask(a, [1]).indices.numpy()
        array([4], dtype=int32)
    """
    if not isinstance(a, IndexedSlices):
        raise TypeError(f"tf.sparse.mask: expected an IndexedSlices, got {type(a).__name__}")
    indices = convert_to_tensor(a.indices)
    kept, positions = ListDiff(indices, convert_to_tensor(mask_indices, dtype=indices.dtype),
                               out_idx=np.int32)
    return IndexedSlices(gather(a.values, positions), kept, a.dense_shape)

