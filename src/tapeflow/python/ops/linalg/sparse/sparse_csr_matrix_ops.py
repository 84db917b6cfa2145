"""`tensorflow.python.ops.linalg.sparse.sparse_csr_matrix_ops`: sparse matrices (a batch of
them for rank 3) and their products, over tapeflow's SparseTensor.

A `CSRSparseMatrix` holds its entries in row-major order, which is what the CSR layout
stores; tapeflow keeps them as the SparseTensor of those entries. The product of two keeps
TF's structure: an entry wherever a stored entry of `a` meets one of `b` (a sum that
cancels to 0 stays stored), its value differentiable in both operands' values.

Example:
    >>> import tapeflow as tf
    >>> from tapeflow.python.ops.linalg.sparse import sparse_csr_matrix_ops as csr
    >>> a = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    >>> b = tf.sparse.SparseTensor([[0, 1], [2, 0], [2, 1]], [3.0, 4.0, 5.0], [3, 2])
    >>> product = csr.sparse_matrix_sparse_mat_mul(
    ...     csr.sparse_tensor_to_csr_sparse_matrix(a.indices, a.values, a.dense_shape),
    ...     csr.sparse_tensor_to_csr_sparse_matrix(b.indices, b.values, b.dense_shape),
    ...     tf.float32)
    >>> st = csr.csr_sparse_matrix_to_sparse_tensor(product, tf.float32)
    >>> st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()
    ([[0, 1], [1, 0], [1, 1]], [3.0, 8.0, 10.0], [2, 2])
"""
from __future__ import annotations

import collections

from .....framework import dtypes, errors
from .....framework.sparse_tensor import SparseTensor
from .....ops.array_ops import shape
from .....ops.indexing_ops import gather_nd, where
from .....ops.comparison_ops import greater
from .....ops.math_ops import cast, matmul
from ..... import sparse as _sparse

__all__ = ["CSRSparseMatrix", "SparseTensorValue", "sparse_tensor_to_csr_sparse_matrix",
           "csr_sparse_matrix_to_sparse_tensor", "sparse_matrix_sparse_mat_mul"]

SparseTensorValue = collections.namedtuple("CSRSparseMatrixToSparseTensor",
                                           ["indices", "values", "dense_shape"])


class CSRSparseMatrix:
    """A sparse matrix (rank 2) or a batch of them (rank 3), entries in row-major order."""

    __slots__ = ("_entries",)

    def __init__(self, entries: SparseTensor) -> None:
        if entries.shape.rank not in (2, 3):
            raise errors.InvalidArgumentError(
                None, "SparseTensorToCSRSparseMatrix", f"SparseTensorToCSRSparseMatrix: a "
                f"sparse matrix has rank 2 or 3 (a batch), got dense shape "
                f"{entries.shape.as_list()}")
        self._entries = _sparse.reorder(entries)

    @property
    def dtype(self) -> dtypes.DType:
        return self._entries.dtype

    @property
    def shape(self):
        return self._entries.shape

    def to_sparse_tensor(self) -> SparseTensor:
        return self._entries

    def __repr__(self) -> str:
        return f"<CSRSparseMatrix shape={self.shape.as_list()} dtype={self.dtype.name}>"


def sparse_tensor_to_csr_sparse_matrix(indices, values, dense_shape, name=None):
    """The CSR matrix of the sparse tensor `(indices, values, dense_shape)` (rank 2 or 3).

    Raises:
        InvalidArgumentError: another rank.
    """
    return CSRSparseMatrix(SparseTensor(indices, values, dense_shape))


def csr_sparse_matrix_to_sparse_tensor(sparse_matrix, type, name=None):  # noqa: A002
    """`(indices, values, dense_shape)` of a CSR matrix's entries, in row-major order.

    Raises:
        InvalidArgumentError: `type` is not the matrix's dtype.
    """
    entries = sparse_matrix.to_sparse_tensor()
    _check_type("CSRSparseMatrixToSparseTensor", sparse_matrix, type)
    return SparseTensorValue(entries.indices, entries.values, entries.dense_shape)


def sparse_matrix_sparse_mat_mul(a, b, type, transpose_a=False, transpose_b=False,  # noqa: A002
                                 adjoint_a=False, adjoint_b=False, name=None):
    """The CSR matrix `a @ b` (batched for rank 3), stored wherever an entry of `a` meets
    one of `b`.

    Raises:
        InvalidArgumentError: `type` is not the operands' dtype, or their shapes do not
            multiply.
    """
    for m in (a, b):
        _check_type("SparseMatrixSparseMatMul", m, type)
    x, y = a.to_sparse_tensor(), b.to_sparse_tensor()
    if a.shape.rank != b.shape.rank:
        raise errors.InvalidArgumentError(
            None, "SparseMatrixSparseMatMul", f"SparseMatrixSparseMatMul: operands of rank "
            f"{a.shape.rank} and {b.shape.rank} (shapes {a.shape.as_list()} and "
            f"{b.shape.as_list()})")
    options = dict(transpose_a=transpose_a, transpose_b=transpose_b, adjoint_a=adjoint_a,
                   adjoint_b=adjoint_b)
    values = matmul(_sparse.to_dense(x), _sparse.to_dense(y), **options)
    stored = matmul(_pattern(x), _pattern(y), **options)
    indices = where(greater(stored, 0.0))
    return CSRSparseMatrix(SparseTensor(indices, gather_nd(values, indices),
                                        shape(values, out_type=dtypes.int64)))


def _pattern(entries: SparseTensor):
    """1.0 where `entries` stores an entry, else 0.0 (dense)."""
    ones = SparseTensor(entries.indices, cast(entries.values * 0 + 1, dtypes.float32),
                        entries.dense_shape)
    return _sparse.to_dense(ones)


def _check_type(op_name: str, matrix, type) -> None:  # noqa: A002
    if dtypes.as_dtype(type) is not matrix.dtype:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: type {dtypes.as_dtype(type).name} given for a sparse "
            f"matrix of {matrix.dtype.name}")
