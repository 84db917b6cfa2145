"""tf.sparse arithmetic: sums, extremes, softmax, reductions, products and counts."""
from __future__ import annotations

import numpy as np

from ..custom_gradient import stop_gradient
from ..framework import dtypes, errors, nest
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops.array_ops import reshape as _reshape_dense, transpose as _transpose_dense
from ..ops.comparison_ops import equal, greater_equal, less, logical_or
from ..ops.creation_ops import ones_like
from ..ops.gather_ops import gather
from ..ops.indexing_ops import Where, gather_nd, tensor_scatter_nd_add
from ..ops.math_ops import abs as _abs, cast, exp, matmul, maximum as _maximum, \
    minimum as _minimum
from ..ops.op_util import int_value, normalize_axes
from ..ops.reduction_ops import reduce_all
from ..ops.sparse_ops import (SparseCountSparseOutput, SparseCrossHashed, SparseReduceGroups,
                              SparseReduceMaxSparse, SparseTensorDenseMatMul, SparseUnion,
                              SparseValuesGather, SparseValuesScatter)
from .structure import checked, to_dense

__all__ = ["add", "maximum", "minimum", "softmax", "reduce_sum", "reduce_max",
           "sparse_dense_matmul", "map_values", "bincount", "sampled_addmm", "cross_hashed"]

# TF's default key for hashed feature crosses.
_DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _dense_operand(x, sp: SparseTensor) -> Tensor:
    """A dense operand as a tensor: Python and NumPy data take the SparseTensor's dtype; a
    tensor of another dtype is left for the op to reject (InvalidArgumentError)."""
    return x if isinstance(x, Tensor) else convert_to_tensor(x, dtype=sp.dtype)


def _union(fn_name: str, a: SparseTensor, b: SparseTensor) -> tuple:
    """The row-major union of two SparseTensors' indices, and each one's values there (0
    where it has no entry)."""
    if a.dtype != b.dtype:
        raise TypeError(f"{fn_name}: the SparseTensors' dtypes differ: {a.dtype.name} and "
                        f"{b.dtype.name}")
    indices, from_a, from_b = SparseUnion(a.indices, a.dense_shape, b.indices, b.dense_shape)
    return indices, from_a, from_b, SparseValuesGather(a.values, from_a), \
        SparseValuesGather(b.values, from_b)


def add(a, b, threshold=0) -> SparseTensor | Tensor:
    """The sum of two tensors, at least one a SparseTensor.

    Two SparseTensors give a SparseTensor over the union of their indices; where both have
    an entry, a sum smaller in magnitude than `threshold` is dropped. A SparseTensor and a
    dense tensor (of the same shape) give a dense tensor.

    Args:
        a, b: SparseTensors or dense tensors, at least one sparse, of one dtype.
        threshold: the smallest magnitude kept for a sum of two entries.

    Returns:
        A SparseTensor, or a dense tensor when one operand is dense.

    Raises:
        TypeError: neither operand is sparse, or their dtypes differ.
        InvalidArgumentError: the dense shapes differ.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
        >>> b = tf.SparseTensor([[0, 0]], [-0.9], [2, 2])
        >>> tf.sparse.add(a, b, threshold=0.5).values.numpy()
        array([2.], dtype=float32)
    """
    a_sparse, b_sparse = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    if not (a_sparse or b_sparse):
        raise TypeError("tf.sparse.add: at least one operand must be a SparseTensor")
    if a_sparse != b_sparse:
        sp, dense = (a, b) if a_sparse else (b, a)
        dense = _dense_operand(dense, sp)
        return tensor_scatter_nd_add(dense, sp.indices, sp.values)
    indices, from_a, from_b, va, vb = _union("tf.sparse.add", a, b)
    total = va + vb
    if isinstance(threshold, (int, float)) and threshold == 0:
        return SparseTensor(indices, total, a.dense_shape)
    limit = convert_to_tensor(threshold, dtype=dtypes.as_dtype(np.abs(
        np.zeros((), a.dtype.as_numpy_dtype)).dtype))
    zero = np.int64(0)
    keep = logical_or(logical_or(less(from_a, zero), less(from_b, zero)),
                      greater_equal(_abs(total), limit))
    picked = _reshape_dense(Where(keep), [-1])
    return SparseTensor(gather(indices, picked), SparseValuesGather(total, picked),
                        a.dense_shape)


def _extreme(fn_name: str, combine, sp_a, sp_b) -> SparseTensor:
    a, b = checked(fn_name, sp_a), checked(fn_name, sp_b)
    indices, _, _, va, vb = _union(fn_name, a, b)
    return SparseTensor(indices, combine(va, vb), a.dense_shape)


def maximum(sp_a, sp_b, name=None) -> SparseTensor:
    """The elementwise maximum of two SparseTensors of one shape, over the union of their
    indices (a missing entry counts as 0); at ties the gradient goes to `sp_a` (TF 2.21's
    gradient for this op fails with a TypeError).

    Example:
        >>> import tapeflow as tf
        >>> a = tf.SparseTensor([[0], [1]], [-1.0, 3.0], [3])
        >>> b = tf.SparseTensor([[1], [2]], [2.0, 4.0], [3])
        >>> tf.sparse.maximum(a, b).values.numpy()
        array([0., 3., 4.], dtype=float32)
    """
    return _extreme("tf.sparse.maximum", _maximum, sp_a, sp_b)


def minimum(sp_a, sp_b, name=None) -> SparseTensor:
    """The elementwise minimum of two SparseTensors of one shape, over the union of their
    indices (a missing entry counts as 0); at ties the gradient goes to `sp_a`.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.SparseTensor([[0], [1]], [-1.0, 3.0], [3])
        >>> b = tf.SparseTensor([[1], [2]], [2.0, 4.0], [3])
        >>> tf.sparse.minimum(a, b).values.numpy()
        array([-1.,  2.,  0.], dtype=float32)
    """
    return _extreme("tf.sparse.minimum", _minimum, sp_a, sp_b)


def softmax(sp_input, name=None) -> SparseTensor:
    """Softmax over the entries of each innermost row (the implicit zeros take no part).
    Entries need not be in row-major order (TF's need to be).

    Args:
        sp_input: a SparseTensor of rank at least 2 with float values.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, 1.0, 5.0], [2, 3])
        >>> tf.sparse.softmax(st).values.numpy()
        array([0.5, 0.5, 1. ], dtype=float32)
    """
    sp = checked("tf.sparse.softmax", sp_input)
    rank = sp.shape.rank
    if rank is not None and rank < 2:
        raise ValueError(f"tf.sparse.softmax: the SparseTensor must have rank >= 2, got "
                         f"shape {sp.shape}")
    last = (-1 if rank is None else rank - 1,)
    _, groups, _ = SparseReduceGroups(sp.indices, sp.dense_shape, axes=last, keep_dims=False)
    # The row maxima only shift the exponents (for stability): they take no gradient.
    _, largest, _ = SparseReduceMaxSparse(sp.indices, stop_gradient(sp.values),
                                          sp.dense_shape, axes=last, keep_dims=False)
    largest = stop_gradient(largest)
    e = exp(sp.values - SparseValuesGather(largest, groups))
    totals = SparseValuesScatter(e, groups, largest)
    return SparseTensor(sp.indices, e / SparseValuesGather(totals, groups), sp.dense_shape)


def _axes(fn_name: str, sp: SparseTensor, axis) -> tuple:
    rank = sp.shape.rank
    if rank is None:
        if axis is None:
            raise ValueError(f"{fn_name}: reducing every axis needs a known rank")
        return tuple(int(a) for a in np.ravel(axis))
    return normalize_axes(fn_name, axis, rank)


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The sum of a SparseTensor's values over `axis` (all axes by default). The gradient
    reaches the values, also through a sparse result (where TF has no gradient).

    Args:
        sp_input: a SparseTensor.
        axis: an int or list of ints, negative counting from the end.
        keepdims: keep the reduced dimensions with size 1.
        output_is_sparse: return a SparseTensor (entries for the positions that received
            values) instead of a dense tensor.

    Returns:
        A dense tensor, or a SparseTensor with `output_is_sparse`.

    Raises:
        InvalidArgumentError: an axis is out of range.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, 2.0, 3.0], [2, 3])
        >>> tf.sparse.reduce_sum(st, axis=1).numpy()
        array([3., 3.], dtype=float32)
    """
    sp = checked("tf.sparse.reduce_sum", sp_input)
    indices, groups, dense_shape = SparseReduceGroups(
        sp.indices, sp.dense_shape, axes=_axes("tf.sparse.reduce_sum", sp, axis),
        keep_dims=bool(keepdims))
    result = SparseTensor(indices, SparseValuesScatter(sp.values, groups, indices), dense_shape)
    return result if output_is_sparse else to_dense(result)


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The largest value over `axis` among the entries present (the implicit zeros take no
    part; a position that receives no entry is 0). As TF's SparseReduceMax, it has no
    gradient (LookupError).

    Args:
        sp_input: a SparseTensor of real values.
        axis: an int or list of ints (default: all).
        keepdims: keep the reduced dimensions with size 1.
        output_is_sparse: return a SparseTensor instead of a dense tensor.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[0, 0], [1, 2]], [-1.0, -3.0], [2, 3])
        >>> tf.sparse.reduce_max(st, axis=1).numpy()
        array([-1., -3.], dtype=float32)
    """
    sp = checked("tf.sparse.reduce_max", sp_input)
    result = SparseTensor(*SparseReduceMaxSparse(
        sp.indices, sp.values, sp.dense_shape, axes=_axes("tf.sparse.reduce_max", sp, axis),
        keep_dims=bool(keepdims)))
    return result if output_is_sparse else to_dense(result)


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None) -> Tensor:
    """The matrix product of a sparse and a dense matrix (either order), optionally with
    either operand adjointed: `op(sp_a) @ op(b)`.

    Its gradient reaches the sparse values and the dense matrix. With SciPy installed,
    larger products run as a CSR product.

    Args:
        sp_a: a SparseTensor of rank 2 (or a dense matrix when `b` is sparse).
        b: a dense matrix of the same dtype (or a SparseTensor).
        adjoint_a, adjoint_b: use the (conjugate) transpose of that operand.

    Returns:
        A dense matrix.

    Raises:
        InvalidArgumentError: the inner dimensions differ, the dtypes differ, or an index is
            out of bounds.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.SparseTensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
        >>> tf.sparse.sparse_dense_matmul(a, tf.constant([[1.0], [10.0]])).numpy()
        array([[20.],
               [ 3.]], dtype=float32)
    """
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        # op(A) op(B) = (op(B)^T op(A)^T)^T, with a sparse first operand.
        dense = _dense_operand(sp_a, b)
        product = SparseTensorDenseMatMul(b.indices, b.values, b.dense_shape, dense,
                                          adjoint_a=not adjoint_b, adjoint_b=not adjoint_a)
        return _transpose_dense(product)
    sp = checked("tf.sparse.sparse_dense_matmul", sp_a)
    dense = _dense_operand(b, sp)
    return SparseTensorDenseMatMul(sp.indices, sp.values, sp.dense_shape, dense,
                                   adjoint_a=bool(adjoint_a), adjoint_b=bool(adjoint_b))


def map_values(op, *args, **kwargs) -> SparseTensor:
    """`op` applied to the values of the SparseTensors among the arguments, which must all
    have the same indices; the result has those indices.

    Raises:
        ValueError: no argument is a SparseTensor.
        InvalidArgumentError: the SparseTensors' indices differ.

    Example:
        >>> import tapeflow as tf
        >>> st = tf.SparseTensor([[0], [2]], [1.0, 2.0], [3])
        >>> tf.sparse.map_values(tf.multiply, st, 10.0).values.numpy()
        array([10., 20.], dtype=float32)
    """
    sparse = [x for x in nest.flatten((list(args), kwargs)) if isinstance(x, SparseTensor)]
    if not sparse:
        raise ValueError("tf.sparse.map_values: no argument is a SparseTensor")
    first = sparse[0]
    for other in sparse[1:]:
        same = other.indices.shape == first.indices.shape and bool(
            reduce_all(equal(other.indices, first.indices)))
        if not same:
            raise errors.InvalidArgumentError(
                None, "map_values", "tf.sparse.map_values: the SparseTensors' indices differ")
    swap = lambda x: x.values if isinstance(x, SparseTensor) else x  # noqa: E731
    call_args, call_kwargs = nest.map_structure(swap, (list(args), kwargs))
    return first.with_values(op(*call_args, **call_kwargs))


def bincount(values, weights=None, axis=0, minlength=None, maxlength=None,
             binary_output=False, name=None) -> SparseTensor:
    """How often each non-negative integer occurs in `values` (dense or sparse), as a
    SparseTensor: over all of it (`axis=0`) or per row of a 2-D input (`axis=-1`).

    Args:
        values: an int32/int64 tensor or SparseTensor.
        weights: summed instead of counting 1 per occurrence (same shape as values).
        axis: 0 (flatten) or -1 (per row).
        minlength, maxlength: bounds on the number of bins; values >= maxlength are
            ignored.
        binary_output: 1 for every value present instead of counts.

    Raises:
        ValueError: `axis` is neither 0 nor -1.
        InvalidArgumentError: a negative value.

    Example:
        >>> import tapeflow as tf
        >>> out = tf.sparse.bincount(tf.constant([1, 1, 3]))
        >>> out.indices.numpy().ravel().tolist(), out.values.numpy().tolist()
        ([1, 3], [2, 1])
    """
    if axis not in (0, -1):
        raise ValueError(f"tf.sparse.bincount: axis must be 0 or -1, got {axis}")
    if isinstance(values, SparseTensor):
        indices, flat, dense_shape = values.indices, values.values, values.dense_shape
        per_row = axis == -1 and values.shape.rank == 2
        w = None if weights is None else weights.values if isinstance(weights, SparseTensor) \
            else convert_to_tensor(weights)
    else:
        dense = convert_to_tensor(values)
        per_row = axis == -1 and dense.shape.rank == 2
        if not per_row:
            dense = _reshape_dense(dense, [-1])
        indices = Where(ones_like(dense, dtype=dtypes.bool))
        dense_shape = cast(convert_to_tensor(dense.shape.as_list()), dtypes.int64)
        flat = _reshape_dense(dense, [-1])
        w = None if weights is None else _reshape_dense(convert_to_tensor(weights), [-1])
    w = np.zeros(0, flat.dtype.as_numpy_dtype) if w is None else w
    return SparseTensor(*SparseCountSparseOutput(
        indices, flat, dense_shape, w, binary_output=bool(binary_output),
        minlength=-1 if minlength is None else int_value("bincount", minlength, "minlength"),
        maxlength=-1 if maxlength is None else int_value("bincount", maxlength, "maxlength"),
        per_row=per_row))


def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0,
                  output_type=dtypes.float32) -> tuple:
    """`alpha * (mat1 @ mat2)` at `indices` plus `beta * values`: the product sampled at
    the positions of a sparse matrix (batched over leading dimensions).

    Returns:
        `(indices, values, dense_shape)` of the result.

    Example:
        >>> import tapeflow as tf
        >>> _, v, _ = tf.sparse.sampled_addmm([[0, 0], [1, 1]], [1.0, 2.0], [2, 2],
        ...                                   tf.ones([2, 3]), tf.ones([3, 2]))
        >>> v.numpy()
        array([4., 5.], dtype=float32)
    """
    mat1 = convert_to_tensor(mat1, dtype=output_type)
    mat2 = convert_to_tensor(mat2, dtype=output_type)
    indices = convert_to_tensor(indices)
    values = convert_to_tensor(values, dtype=output_type)
    product = matmul(mat1, mat2)
    picked = gather_nd(product, indices, batch_dims=product.shape.rank - 2)
    return indices, alpha * picked + beta * values, convert_to_tensor(dense_shape)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None) -> SparseTensor:
    """Hashed feature crosses: for each batch row, one int64 hash for every combination of
    one feature from each input, `FingerprintCat64` over the features in input order
    (starting from `hash_key`), modulo `num_buckets` (or 2**63 - 1 when it is 0).

    Features are integers (tapeflow has no string tensors); rows where an input has no
    feature get no crosses.

    Args:
        inputs: SparseTensors of shape [batch, ?] and dense [batch, k] tensors, int32/int64.
        num_buckets: the number of hash buckets (0: the full int64 range).
        hash_key: the starting fingerprint (default TF's).

    Returns:
        An int64 SparseTensor of shape [batch, the most crosses in a row].

    Raises:
        TypeError: an input is not integer.
        InvalidArgumentError: the inputs' batch sizes differ.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.SparseTensor([[0, 0], [0, 1]], tf.constant([5, 7], tf.int64), [1, 2])
        >>> out = tf.sparse.cross_hashed([a, tf.constant([[3]], tf.int64)], num_buckets=100)
        >>> out.indices.numpy().tolist(), out.values.numpy().tolist()
        ([[0, 0], [0, 1]], [42, 60])
    """
    sparse, dense = [], []
    for x in inputs:
        if not isinstance(x, SparseTensor):
            x = convert_to_tensor(x)
        if x.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"tf.sparse.cross_hashed: features must be int32 or int64 (tapeflow "
                            f"has no string tensors), got {x.dtype.name}")
        if isinstance(x, SparseTensor):
            sparse += [x.indices, cast(x.values, dtypes.int64), x.dense_shape]
        else:
            dense.append(cast(x, dtypes.int64))
    return SparseTensor(*SparseCrossHashed(
        *sparse, *dense, n_sparse=len(sparse) // 3, num_buckets=int(num_buckets),
        hash_key=_DEFAULT_HASH_KEY if hash_key is None else int(hash_key)))
