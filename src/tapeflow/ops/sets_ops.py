"""Set operations over the last dimension (`tf.sets`): each set is the values of one row
(`[..., :]` of a dense tensor, or a SparseTensor's values sharing all but the last index),
and the result is a SparseTensor of each row's set, sorted.

Ops (TF's names): SetSize, DenseToDenseSetOperation, DenseToSparseSetOperation and
SparseToSparseSetOperation; none is differentiable (their values are integers or strings).
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.shape_inference import unless_known
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor

__all__ = ["set_size", "set_intersection", "set_union", "set_difference"]

_SET_DTYPES = frozenset([dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8,
                         dtypes.uint16, dtypes.string])


def _check_rank(op: str, shape) -> None:
    if len(shape) < 2:
        raise errors.InvalidArgumentError(
            None, op, f"{op}: Shape [{','.join(map(str, shape))}] has rank {len(shape)} < 2")


def _dense_sets(op: str, dense: np.ndarray) -> tuple:
    """(the sets' leading shape, {row index: set}) of a dense tensor's rows."""
    _check_rank(op, dense.shape)
    lead = dense.shape[:-1]
    rows = dense.reshape(-1, dense.shape[-1]) if dense.size else \
        np.empty((int(np.prod(lead)), 0), dense.dtype)
    return lead, {i: set(row.tolist()) for i, row in enumerate(rows) if len(row)}


def _sparse_sets(op: str, indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> tuple:
    """(the sets' leading shape, {row index: set}) of a SparseTensor in row-major order."""
    shape = tuple(int(d) for d in shape)
    _check_rank(op, shape)
    lead = shape[:-1]
    if len(indices) > 1:
        flat = np.ravel_multi_index(indices.T, shape) if all(shape) else np.zeros(len(indices))
        bad = np.nonzero(np.diff(flat) <= 0)[0]
        if bad.size:
            i = int(bad[0]) + 1
            raise errors.InvalidArgumentError(
                None, op, f"{op}: indices[{i}] = [{','.join(map(str, indices[i]))}] is out of "
                "order. Many sparse ops require sorted indices. Use `tf.sparse.reorder` to "
                "create a correctly ordered copy.")
    sets: dict = {}
    rows = np.ravel_multi_index(indices[:, :-1].T, lead) if len(lead) and len(indices) else \
        np.zeros(len(indices), np.int64)
    for row, v in zip(rows.tolist(), values.tolist()):
        sets.setdefault(row, set()).add(v)
    return lead, sets


def _combine(op: str, a: tuple, b: tuple, set_operation: str, dtype) -> tuple:
    (lead_a, sets_a), (lead_b, sets_b) = a, b
    if tuple(lead_a) != tuple(lead_b):
        raise errors.InvalidArgumentError(
            None, op, f"{op}: Mismatched shapes [{','.join(map(str, lead_a))}] vs "
            f"[{','.join(map(str, lead_b))}]")
    combine = {"a-b": lambda x, y: x - y, "b-a": lambda x, y: y - x,
               "intersection": lambda x, y: x & y, "union": lambda x, y: x | y}[set_operation]
    empty: set = set()
    out_indices, out_values, width = [], [], 0
    for row in sorted(set(sets_a) | set(sets_b)):
        result = sorted(combine(sets_a.get(row, empty), sets_b.get(row, empty)))
        if not result:
            continue
        prefix = list(np.unravel_index(row, lead_a)) if len(lead_a) else []
        out_indices.extend(prefix + [j] for j in range(len(result)))
        out_values.extend(result)
        width = max(width, len(result))
    indices = np.array(out_indices, np.int64).reshape(-1, len(lead_a) + 1)
    values = np.array(out_values, dtype) if out_values else np.zeros(0, dtype)
    if dtype == object:
        values = np.array(out_values + [b""], dtype=object)[:-1]
    return indices, values, np.array(list(lead_a) + [width], np.int64)


def _set_size(indices, values, shape, validate_indices=True):
    lead, sets = _sparse_sets("SetSize", indices, values, shape)
    sizes = np.zeros(int(np.prod(lead)), np.int32)
    for row, s in sets.items():
        sizes[row] = len(s)
    return sizes.reshape(lead)


def _dense_dense(a, b, set_operation, validate_indices=True):
    op = "DenseToDenseSetOperation"
    return _combine(op, _dense_sets(op, a), _dense_sets(op, b), set_operation, a.dtype)


def _dense_sparse(a, b_indices, b_values, b_shape, set_operation, validate_indices=True):
    op = "DenseToSparseSetOperation"
    return _combine(op, _dense_sets(op, a), _sparse_sets(op, b_indices, b_values, b_shape),
                    set_operation, a.dtype)


def _sparse_sparse(a_indices, a_values, a_shape, b_indices, b_values, b_shape, set_operation,
                   validate_indices=True):
    op = "SparseToSparseSetOperation"
    return _combine(op, _sparse_sets(op, a_indices, a_values, a_shape),
                    _sparse_sets(op, b_indices, b_values, b_shape), set_operation,
                    a_values.dtype)


SetSize = define_op("SetSize", _set_size)
DenseToDenseSetOperation = define_op("DenseToDenseSetOperation", _dense_dense, num_outputs=3)
DenseToSparseSetOperation = define_op("DenseToSparseSetOperation", _dense_sparse, num_outputs=3)
SparseToSparseSetOperation = define_op("SparseToSparseSetOperation", _sparse_sparse,
                                       num_outputs=3)
for _op in ("SetSize", "DenseToDenseSetOperation", "DenseToSparseSetOperation",
            "SparseToSparseSetOperation"):
    no_gradient(_op)


def _result_specs(rank_of, dtype_of):
    return unless_known(lambda inputs, attrs: [
        (np.dtype(np.int64), (None, rank_of(inputs))), (dtype_of(inputs), (None,)),
        (np.dtype(np.int64), (rank_of(inputs),))])


def _rank(x):
    dims = getattr(x, "_dims", None)
    return None if dims is None else len(dims)


DenseToDenseSetOperation.shape_fn = _result_specs(lambda i: _rank(i[0]),
                                                  lambda i: i[0]._value.dtype)
DenseToSparseSetOperation.shape_fn = _result_specs(lambda i: _rank(i[0]),
                                                   lambda i: i[0]._value.dtype)
SparseToSparseSetOperation.shape_fn = _result_specs(
    lambda i: (getattr(i[2], "_dims", None) or (None,))[0], lambda i: i[1]._value.dtype)


def _set_input(x, which: str):
    if isinstance(x, SparseTensor):
        dtype = x.dtype
    else:
        x = convert_to_tensor(x)
        dtype = x.dtype
    if dtype not in _SET_DTYPES:
        raise TypeError(f"{which!r} has invalid dtype `{dtype!r}` not in supported dtypes: "
                        f"int8, int16, int32, int64, uint8, uint16, string.")
    return x


def _set_operation(a, b, set_operation: str, validate_indices: bool) -> SparseTensor:
    a, b = _set_input(a, "a"), _set_input(b, "b")
    if a.dtype != b.dtype:
        raise TypeError(f"Types don't match, {a.dtype!r} vs {b.dtype!r}.")
    attrs = {"set_operation": set_operation, "validate_indices": bool(validate_indices)}
    sparse_a, sparse_b = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    if sparse_a and not sparse_b:  # the dense operand goes first
        a, b = b, a
        attrs["set_operation"] = {"a-b": "b-a", "b-a": "a-b"}.get(set_operation, set_operation)
        sparse_a, sparse_b = False, True
    if sparse_a:
        parts = (a.indices, a.values, a.dense_shape, b.indices, b.values, b.dense_shape)
        return SparseTensor(*execute(SparseToSparseSetOperation, parts, attrs))
    if sparse_b:
        parts = (a, b.indices, b.values, b.dense_shape)
        return SparseTensor(*execute(DenseToSparseSetOperation, parts, attrs))
    return SparseTensor(*execute(DenseToDenseSetOperation, (a, b), attrs))


def set_size(a, validate_indices=True) -> "Tensor":  # noqa: F821
    """The number of distinct values in each set (row) of SparseTensor `a`.

    Args:
        a: a SparseTensor of rank >= 2 (int8/16/32/64, uint8/16 or string), indices in
            row-major order; its last dimension holds the sets.
        validate_indices: check the indices' order.

    Returns:
        An int32 tensor of shape `a.shape[:-1]`.

    Raises:
        TypeError: `a` is not a SparseTensor, or of another dtype.
        InvalidArgumentError: rank < 2, or indices out of order.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 3]], [5, 1, 3, 3], [3, 4])
        >>> tf.sets.size(st).numpy()
        array([2, 1, 1], dtype=int32)
    """
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    _set_input(a, "a")
    return execute(SetSize, (a.indices, a.values, a.dense_shape),
                   {"validate_indices": bool(validate_indices)})


def _set_doc(what: str, example: str, result: str):
    return f"""{what} of the sets in the last dimension of `a` and `b`, row by row.

    Args:
        a: a dense tensor or SparseTensor of rank >= 2 (int8/16/32/64, uint8/16 or string).
        b: the same kind of value, of `a`'s dtype and leading shape.
        validate_indices: check that SparseTensor indices are in row-major order.

    Returns:
        A SparseTensor of `a`'s leading shape plus one dimension: each row's result set,
        sorted.

    Raises:
        TypeError: an unsupported dtype, or two different ones.
        InvalidArgumentError: rank < 2, mismatched leading shapes, or unsorted indices.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.constant([[1, 2, 2, 3], [4, 5, 6, 6]])
        >>> b = tf.constant([[2, 3, 7, 7], [6, 8, 9, 9]])
        >>> tf.sets.{example}.values.numpy()
        {result}
    """


def set_intersection(a, b, validate_indices=True) -> SparseTensor:
    return _set_operation(a, b, "intersection", validate_indices)


def set_union(a, b, validate_indices=True) -> SparseTensor:
    return _set_operation(a, b, "union", validate_indices)


def set_difference(a, b, aminusb=True, validate_indices=True) -> SparseTensor:
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


set_intersection.__doc__ = _set_doc("The intersection", "intersection(a, b)",
                                    "array([2, 3, 6], dtype=int32)")
set_union.__doc__ = _set_doc("The union", "union(a, b)",
                             "array([1, 2, 3, 7, 4, 5, 6, 8, 9], dtype=int32)")
set_difference.__doc__ = _set_doc(
    "The difference (a - b, or b - a when `aminusb` is False)", "difference(a, b)",
    "array([1, 4, 5], dtype=int32)").replace(
    "        validate_indices:", "        aminusb: a - b (True) or b - a.\n        validate_indices:")
