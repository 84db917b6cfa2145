"""More of tf.linalg: eigen-decompositions of general matrices, LU factorizations and the
solves, inverses and least squares built on factorizations, and the cross product.

Eig, Lu, Cross and MatrixSolveLs (the exact least squares) are ops, their rules in
`linalg_extra_grad.py`; everything else is composed of ops, so its gradient follows.
"""
from __future__ import annotations

import collections

import numpy as np

from ..framework import dtypes, errors
from ..framework.errors import invalid_argument
from ..framework.execute import execute
from ..framework.numpy_warnings import silenced
from ..framework.registry import MULTILINEAR, define_op
from ..framework.tensor import Tensor
from .array_ops import expand_dims
from .array_ops import shape as array_ops_shape
from .comparison_ops import equal
from .creation_ops import eye, ones_like
from .creation_ops import range as range_
from .diag_ops import band_part, diag_part, set_diag
from .indexing_ops import where
from .linalg_ops import _matrices, cholesky, matmul, svd, triangular_solve
from .math_ops import cast, reduce_sum
from .op_util import NO_ATTRS, as_input, binary_inputs
from .reduction_ops import reduce_max

__all__ = ["cholesky_solve", "cross", "eig", "eigvals", "lstsq", "lu", "lu_matrix_inverse",
           "lu_reconstruct", "lu_solve", "matrix_rank", "pinv"]


_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


@silenced
def _eig(x, compute_v=True):
    out_dtype = _COMPLEX_OF.get(x.dtype, x.dtype)
    if not compute_v:
        return np.linalg.eigvals(x).astype(out_dtype), np.zeros(x.shape[:-2] + (0, 0), out_dtype)
    e, v = np.linalg.eig(x)
    return e.astype(out_dtype), v.astype(out_dtype)


@silenced
def _lu(x, output_idx_type=np.int32):
    """Partial pivoting, the largest magnitude in the column (the first of ties) as pivot, as
    LAPACK's getrf: x[..., p, :] = L @ U, L unit lower and U upper triangular in one matrix."""
    n = x.shape[-1]
    flat = x.reshape((-1, n, n)).copy()
    perm = np.tile(np.arange(n, dtype=output_idx_type), (flat.shape[0], 1))
    batch = np.arange(flat.shape[0])
    for k in range(n):
        pivot = k + np.argmax(np.abs(flat[:, k:, k]), axis=1)
        for rows in (flat, perm):
            top = rows[batch, k].copy()
            rows[batch, k] = rows[batch, pivot]
            rows[batch, pivot] = top
        diagonal = flat[:, k, k:k + 1]
        flat[:, k + 1:, k] /= np.where(diagonal == 0, np.ones_like(diagonal), diagonal)
        flat[:, k + 1:, k + 1:] -= flat[:, k + 1:, k:k + 1] * flat[:, k:k + 1, k + 1:]
    return flat.reshape(x.shape), perm.reshape(x.shape[:-1])


def _cross(a, b):
    return np.cross(a, b)


@silenced
def _least_squares(matrix, rhs):
    """The minimum-norm least-squares solution of each system, by SVD."""
    batch = np.broadcast_shapes(matrix.shape[:-2], rhs.shape[:-2])
    a = np.broadcast_to(matrix, batch + matrix.shape[-2:]).reshape((-1,) + matrix.shape[-2:])
    b = np.broadcast_to(rhs, batch + rhs.shape[-2:]).reshape((-1,) + rhs.shape[-2:])
    out = np.empty((a.shape[0], a.shape[-1], b.shape[-1]), np.result_type(a, b))
    for i in range(a.shape[0]):
        out[i] = np.linalg.lstsq(a[i], b[i], rcond=None)[0]
    return out.reshape(batch + out.shape[-2:])


Eig = define_op("Eig", _eig, num_outputs=2)
Lu = define_op("Lu", _lu, num_outputs=2)
Cross = define_op("Cross", _cross, family=MULTILINEAR)
MatrixSolveLs = define_op("MatrixSolveLs", _least_squares)


EigResult = collections.namedtuple("Eig", ["e", "v"])
LuResult = collections.namedtuple("Lu", ["lu", "p"])


def eig(tensor, name=None) -> EigResult:
    """The eigenvalues and eigenvectors of general square matrices (complex results).

    Eigenvectors have unit norm; their phase (and the order of the eigenvalues) is LAPACK's,
    which may differ from TF's: compare decompositions through quantities that do not
    depend on them. The gradient assumes distinct eigenvalues.

    Args:
        tensor: a float32/64 or complex64/128 tensor of shape [..., N, N].

    Returns:
        `(e, v)`: e [..., N] and v [..., N, N], complex64 for float32 input and complex128
        for float64, with tensor @ v = v * e.

    Raises:
        InvalidArgumentError: rank below 2, non-square matrices or an unsupported dtype.

    Example:
        >>> import tapeflow as tf
        >>> e, v = tf.linalg.eig(tf.constant([[2.0, 0.0], [0.0, 3.0]]))
        >>> e.numpy()
        array([2.+0.j, 3.+0.j], dtype=complex64)
    """
    x = _matrices("Eig", tensor)
    return EigResult(*execute(Eig, (x,), {"compute_v": True}))


def eigvals(tensor, name=None) -> Tensor:
    """The eigenvalues of general square matrices, complex64 for float32 input and
    complex128 for float64 (see `eig`, also for the errors).

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.eigvals(tf.constant([[0.0, 1.0], [-1.0, 0.0]], tf.float64)).numpy()
        array([0.+1.j, 0.-1.j])
    """
    x = _matrices("Eig", tensor)
    return execute(Eig, (x,), {"compute_v": False})[0]


def lu(input, output_idx_type=dtypes.int32, name=None) -> LuResult:  # noqa: A002
    """The LU decomposition with partial pivoting of each square matrix.

    Args:
        input: a float32/64 or complex64/128 tensor of shape [..., N, N].
        output_idx_type: the dtype of the permutation, int32 or int64.

    Returns:
        A named tuple `(lu, p)`: `lu` holds L below the diagonal (its unit diagonal is
        implied) and U on and above it; `p` [..., N] the row permutation, input[p] = L @ U.

    Raises:
        InvalidArgumentError: rank below 2, non-square matrices or an unsupported dtype.

    Example:
        >>> import tapeflow as tf
        >>> lu, p = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
        >>> p.numpy()
        array([1, 0], dtype=int32)
    """
    x = _matrices("Lu", input)
    index_dtype = dtypes.as_dtype(output_idx_type)
    if index_dtype not in (dtypes.int32, dtypes.int64):
        raise invalid_argument("Lu", f"output_idx_type must be int32 or int64, got "
                                     f"{index_dtype.name}.")
    return LuResult(*execute(Lu, (x,), {"output_idx_type": index_dtype.as_numpy_dtype}))


def cross(a, b, name=None) -> Tensor:
    """The cross product of 3-vectors in the last axis: a x b.

    Raises:
        InvalidArgumentError: shapes that differ.
        FailedPreconditionError: a last axis other than 3.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.cross(tf.constant([1.0, 0.0, 0.0]), tf.constant([0.0, 1.0, 0.0])).numpy()
        array([0., 0., 1.], dtype=float32)
    """
    a, b = binary_inputs("Cross", a, b)
    if a.dtype.is_complex or a.dtype.is_bool:
        raise invalid_argument("Cross", f"dtype {a.dtype.name} is not a real number type "
                                        f"(shapes {list(a.shape)} and {list(b.shape)}).")
    if a.shape != b.shape:
        raise invalid_argument("Cross", f"Both inputs must be of same shape: "
                                        f"{list(a.shape)} vs. {list(b.shape)}.")
    if a.ndim < 1 or a.shape[-1] != 3:
        raise errors.FailedPreconditionError(
            None, "Cross", f"Cross: cross products are only defined for 3-element vectors, got "
                           f"shape {list(a.shape)}.")
    return execute(Cross, (a, b), NO_ATTRS)


def cholesky_solve(chol, rhs, name=None) -> Tensor:
    """Solves A x = rhs given the Cholesky factor `chol` of A (as from `cholesky`).

    Args:
        chol: the lower-triangular factor [..., M, M] (only its lower triangle is read).
        rhs: [..., M, K], its batch axes broadcasting with chol's.

    Returns:
        x, [..., M, K].

    Raises:
        InvalidArgumentError: bad ranks, shapes or dtypes.

    Example:
        >>> import tapeflow as tf
        >>> chol = tf.linalg.cholesky(tf.constant([[4.0, 2.0], [2.0, 5.0]]))
        >>> tf.linalg.cholesky_solve(chol, tf.constant([[6.0], [7.0]])).numpy()
        array([[1.],
               [1.]], dtype=float32)
    """
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True)


def _unit_lower(lower_upper):
    """L of a packed LU factor: its strict lower triangle and a unit diagonal."""
    return set_diag(band_part(lower_upper, -1, 0), ones_like(diag_part(lower_upper)))


def _lu_inputs(op_name: str, lower_upper, perm) -> tuple:
    """The packed factor as square matrices, and P with P[i, perm[i]] = 1 (P @ x is x's rows
    in the order of `perm`)."""
    lower_upper = _matrices(op_name, lower_upper)
    perm = as_input(perm)
    if not perm.dtype.is_integer:
        raise TypeError(f"{op_name}: perm must be an integer tensor, got {perm.dtype.name} "
                        f"(shape {list(perm.shape)}).")
    if perm.ndim is not None and perm.ndim < 1 or None not in (
            perm.shape[-1:] + lower_upper.shape[-1:]) and perm.shape[-1] != lower_upper.shape[-1]:
        raise invalid_argument(op_name, f"perm of shape {list(perm.shape)} does not match "
                                        f"lower_upper of shape {list(lower_upper.shape)}.")
    # One-hot rows, by comparison: the size may be known only when a graph runs.
    positions = range_(array_ops_shape(perm, out_type=perm.dtype)[-1], dtype=perm.dtype)
    return lower_upper, cast(equal(expand_dims(perm, -1), positions), lower_upper.dtype)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None) -> Tensor:
    """Solves input @ x = rhs from the LU decomposition `(lower_upper, perm)` of `lu`.

    Args:
        lower_upper: the packed factors [..., M, M].
        perm: the row permutation [..., M], an integer tensor.
        rhs: [..., M, K], its batch axes broadcasting with lower_upper's.
        validate_args: unused (the arguments are always checked).

    Returns:
        x, [..., M, K].

    Raises:
        TypeError: a non-integer perm.
        InvalidArgumentError: shapes that do not match, or an unsupported dtype.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> tf.linalg.lu_solve(*tf.linalg.lu(a), tf.constant([[5.0], [11.0]])).numpy()
        array([[1.],
               [2.]], dtype=float32)
    """
    lower_upper, rhs = binary_inputs("lu_solve", lower_upper, rhs)
    lower_upper, permutation = _lu_inputs("lu_solve", lower_upper, perm)
    permuted = matmul(permutation, rhs)
    y = triangular_solve(_unit_lower(lower_upper), permuted, lower=True)
    return triangular_solve(lower_upper, y, lower=False)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None) -> Tensor:
    """The inverse of a matrix from its LU decomposition `(lower_upper, perm)` (see
    `lu_solve` for the arguments and errors).

    Example:
        >>> import tapeflow as tf
        >>> a = tf.constant([[2.0, 0.0], [0.0, 4.0]])
        >>> tf.linalg.lu_matrix_inverse(*tf.linalg.lu(a)).numpy()
        array([[0.5 , 0.  ],
               [0.  , 0.25]], dtype=float32)
    """
    lower_upper = _lu_inputs("lu_matrix_inverse", lower_upper, perm)[0]
    identity = eye(lower_upper.shape[-1], batch_shape=lower_upper.shape[:-2],
                   dtype=lower_upper.dtype)
    return lu_solve(lower_upper, perm, identity)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None) -> Tensor:
    """The matrix whose LU decomposition is `(lower_upper, perm)`: P^T @ L @ U (see
    `lu_solve` for the arguments and errors).

    Example:
        >>> import tapeflow as tf
        >>> a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> tf.linalg.lu_reconstruct(*tf.linalg.lu(a)).numpy()
        array([[1., 2.],
               [3., 4.]], dtype=float32)
    """
    lower_upper, permutation = _lu_inputs("lu_reconstruct", lower_upper, perm)
    product = matmul(_unit_lower(lower_upper), band_part(lower_upper, 0, -1))
    return matmul(permutation, product, transpose_a=True)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None) -> Tensor:
    """The least-squares solutions of matrix @ x = rhs, minimizing
    ||matrix @ x - rhs||^2 + l2_regularizer * ||x||^2.

    Args:
        matrix: a tensor of shape [..., M, N].
        rhs: a tensor of shape [..., M, K].
        l2_regularizer: a scalar >= 0, used by the fast path only.
        fast: solve the normal equations by Cholesky (fast, differentiable; needs `matrix` of
            full rank unless regularized); otherwise an SVD-based solve, exact for
            rank-deficient matrices (the minimum-norm solution), with no gradient (as TF).
            Unlike TF's, the fast path also differentiates with respect to l2_regularizer.

    Returns:
        A tensor of shape [..., N, K].

    Raises:
        InvalidArgumentError: bad ranks, dtypes or row counts.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        >>> tf.linalg.lstsq(a, tf.constant([[1.0], [2.0], [3.0]])).numpy().round(4)
        array([[1.],
               [2.]], dtype=float32)
    """
    matrix, rhs = binary_inputs("MatrixSolveLs", matrix, rhs)
    matrix = _matrices("MatrixSolveLs", matrix, square=False)
    rhs = _matrices("MatrixSolveLs", rhs, square=False)
    if matrix.shape[-2] != rhs.shape[-2]:
        raise invalid_argument("MatrixSolveLs", f"matrix and rhs must have the same number of "
                                                f"rows: {list(matrix.shape)} vs. "
                                                f"{list(rhs.shape)}.")
    if not fast:
        return execute(MatrixSolveLs, (matrix, rhs), NO_ATTRS)
    rows, cols = matrix.shape[-2:]
    if None in (rows, cols):
        raise ValueError(f"lstsq: the matrix dimensions must be known when the graph is built, "
                         f"got shape {list(matrix.shape)}.")
    regularizer = cast(l2_regularizer, matrix.dtype) * eye(min(rows, cols), dtype=matrix.dtype)
    if rows >= cols:
        gram = matmul(matrix, matrix, adjoint_a=True) + regularizer
        return cholesky_solve(cholesky(gram), matmul(matrix, rhs, adjoint_a=True))
    gram = matmul(matrix, matrix, adjoint_b=True) + regularizer
    return matmul(matrix, cholesky_solve(cholesky(gram), rhs), adjoint_a=True)


def _real_matrices(a, op_name: str) -> tuple:
    """`a` as real matrices, and max(M, N) times its dtype's epsilon (the default tolerance
    of a singular value, relative to the largest), as a tensor (M and N may be known only
    when a graph runs)."""
    a = _matrices(op_name, a, square=False)
    if a.dtype.is_complex:
        raise TypeError(f"{op_name}: input `a` must have a float dtype, got {a.dtype.name} "
                        f"(shape {list(a.shape)}).")
    size = cast(reduce_max(array_ops_shape(a)[-2:]), a.dtype)
    return a, size * np.finfo(a.dtype.as_numpy_dtype).eps


def pinv(a, rcond=None, validate_args=False, name=None) -> Tensor:
    """The Moore-Penrose pseudo-inverse of each matrix, from its SVD: singular values at or
    below rcond * (the largest one) count as zero.

    Args:
        a: a float32/64 tensor of shape [..., M, N].
        rcond: the relative cutoff; default 10 * max(M, N) * the dtype's epsilon.

    Returns:
        A tensor of shape [..., N, M].

    Raises:
        TypeError: a complex dtype (as TF).

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.pinv(tf.constant([[2.0, 0.0], [0.0, 0.0]])).numpy()
        array([[0.5, 0. ],
               [0. , 0. ]], dtype=float32)
    """
    a, tolerance = _real_matrices(a, "pinv")
    if rcond is None:
        rcond = 10.0 * tolerance
    s, u, v = svd(a, full_matrices=False, compute_uv=True)
    cutoff = cast(rcond, a.dtype) * reduce_max(s, axis=-1, keepdims=True)
    kept = where(s > cutoff, s, np.array(np.inf, a.dtype.as_numpy_dtype))
    return matmul(v / kept[..., None, :], u, adjoint_b=True)


def matrix_rank(a, tol=None, validate_args=False, name=None) -> Tensor:
    """The number of singular values above `tol` of each matrix, as int32.

    Args:
        a: a float32/64 tensor of shape [..., M, N].
        tol: the threshold; default max(M, N) * the dtype's epsilon * the largest singular
            value.

    Returns:
        An int32 tensor of shape [...].

    Raises:
        TypeError: a complex dtype (as TF).

    Example:
        >>> import tapeflow as tf
        >>> int(tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]])))
        1
    """
    a, tolerance = _real_matrices(a, "matrix_rank")
    s = svd(a, compute_uv=False)
    if tol is None:
        tol = tolerance * reduce_max(s, axis=-1, keepdims=True)
    else:
        tol = cast(tol, a.dtype)
    return reduce_sum(cast(s > tol, dtypes.int32), axis=-1)
