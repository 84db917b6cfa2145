"""Linear algebra (tf.linalg): inverses, determinants, solves, decompositions, transposes;
kernels and the public TF-named functions.

Every op works on batches of matrices in the last two axes. Gradient rules are in
`linalg_grad.py`; diagonals and bands are in `diag_ops.py`.
"""
from __future__ import annotations

import collections
import functools

import numpy as np

from ..framework import errors
from ..framework.errors import invalid_argument
from ..framework.execute import execute
from ..framework.numpy_warnings import silenced
from ..framework.registry import define_op
from ..framework.tensor import Tensor
from .array_ops import Reshape, transpose
from .complex_ops import real
from .diag_ops import diag_part
from .math_ops import Sum, log, matmul
from .op_util import NO_ATTRS, as_input, binary_inputs

__all__ = ["adjoint", "cholesky", "det", "eigh", "eigvalsh", "inv", "logdet", "matmul",
           "matrix_transpose", "matvec", "qr", "slogdet", "solve", "svd", "triangular_solve"]


def _adjoint_value(x):
    """The conjugate transpose of the last two axes of a NumPy array."""
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if x.dtype.kind == "c" else x


def _half_in_float32(kernel):
    """`kernel` on float16 input computed in float32 and rounded back: TF has float16 kernels
    for these ops, LAPACK has none."""
    @functools.wraps(kernel)  # its attributes are the kernel's (a GraphDef import reads them)
    def run(x, **attrs):
        if x.dtype != np.float16:
            return kernel(x, **attrs)
        out = kernel(x.astype(np.float32), **attrs)
        if isinstance(out, tuple):
            return tuple(o.astype(np.float16) for o in out)
        return out.astype(np.float16)
    return run


@silenced
def _inverse(x, adjoint=False):
    try:
        inv = np.linalg.inv(x)
    except np.linalg.LinAlgError:
        raise invalid_argument(
            "MatrixInverse", f"Input is not invertible (shape {list(x.shape)}, dtype "
            f"{x.dtype}).") from None
    return _adjoint_value(inv) if adjoint else inv


@silenced
def _determinant(x):
    return np.linalg.det(x)


@silenced
def _log_determinant(x):
    sign, log_abs = np.linalg.slogdet(x)
    return sign, log_abs.astype(x.dtype)


def _stacked(matrix, rhs):
    """rhs broadcast to the batch shape of `matrix`: never read as a stack of vectors."""
    batch = np.broadcast_shapes(matrix.shape[:-2], rhs.shape[:-2])
    return np.broadcast_to(rhs, batch + rhs.shape[-2:])


@silenced
def _solve(matrix, rhs, adjoint=False):
    try:
        return np.linalg.solve(_adjoint_value(matrix) if adjoint else matrix, _stacked(matrix, rhs))
    except np.linalg.LinAlgError:
        raise invalid_argument(
            "MatrixSolve", f"Input matrix is not invertible (shape "
            f"{list(matrix.shape)}, dtype {matrix.dtype}).") from None


def _triangle(x, lower: bool):
    return np.tril(x) if lower else np.triu(x)


@silenced
def _triangular_solve(matrix, rhs, lower=True, adjoint=False):
    a = _triangle(matrix, lower)
    if adjoint:
        a, lower = _adjoint_value(a), not lower
    rhs = _stacked(a, rhs)
    try:
        return np.linalg.solve(a, rhs)
    except np.linalg.LinAlgError:
        return _substitute(np.broadcast_to(a, rhs.shape[:-1] + a.shape[-1:]), rhs, lower)


def _substitute(a, rhs, lower: bool):
    """Forward (or back) substitution, one row at a time over the whole batch: a zero on the
    diagonal gives inf/nan, as TF's triangular solve does (LAPACK's solve refuses)."""
    n = a.shape[-1]
    out = np.zeros(np.broadcast_shapes(a.shape[:-1], rhs.shape[:-1]) + rhs.shape[-1:],
                   np.result_type(a, rhs))
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n) if lower else range(n - 1, -1, -1):
            known = a[..., i:i + 1, :] @ out
            out[..., i, :] = (rhs[..., i, :] - known[..., 0, :]) / a[..., i, i:i + 1]
    return out


@silenced
def _cholesky(x):
    try:
        return np.linalg.cholesky(x)
    except np.linalg.LinAlgError:
        pass
    # As TF, which does not raise: NaN in the lower triangle of each matrix that is not
    # positive definite (the upper triangle stays 0).
    flat = x.reshape((-1,) + x.shape[-2:])
    out = np.zeros_like(flat)
    out[:, np.tri(flat.shape[-1], dtype=bool)] = np.nan
    for i, matrix in enumerate(flat):
        try:
            out[i] = np.linalg.cholesky(matrix)
        except np.linalg.LinAlgError:
            pass
    return out.reshape(x.shape)


@silenced
def _qr(x, full_matrices=False):
    return np.linalg.qr(x, mode="complete" if full_matrices else "reduced")


@silenced
def _eigh(x, compute_v=True):
    if not compute_v:
        return np.linalg.eigvalsh(x).astype(x.dtype), np.zeros(x.shape[:-2] + (0, 0), x.dtype)
    e, v = np.linalg.eigh(x)
    return e.astype(x.dtype), v


@silenced
def _svd(x, compute_uv=True, full_matrices=False):
    # Singular values are real, also for complex input (as TF returns them).
    if not compute_uv:
        empty = np.zeros(x.shape[:-2] + (0, 0), x.dtype)
        return np.linalg.svd(x, compute_uv=False), empty, empty
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s, u, _adjoint_value(vh)


MatrixInverse = define_op("MatrixInverse", _half_in_float32(_inverse))
MatrixDeterminant = define_op("MatrixDeterminant", _determinant)
LogMatrixDeterminant = define_op("LogMatrixDeterminant", _log_determinant, num_outputs=2)
MatrixSolve = define_op("MatrixSolve", _solve)
MatrixTriangularSolve = define_op("MatrixTriangularSolve", _triangular_solve)
Cholesky = define_op("Cholesky", _cholesky)
Qr = define_op("Qr", _half_in_float32(_qr), num_outputs=2)
SelfAdjointEigV2 = define_op("SelfAdjointEigV2", _eigh, num_outputs=2)
Svd = define_op("Svd", _svd, num_outputs=3)

_LINALG_DTYPES = ("float32", "float64", "complex64", "complex128")


def _matrices(op_name: str, x, square: bool = True, half: bool = False):
    """`x` as a tensor of (square) matrices of a dtype the linalg kernels take (float16 too
    with `half`)."""
    x = as_input(x)
    if x.dtype.name == "float16" and not half:
        raise errors.NotFoundError(
            None, op_name, f"{op_name}: no kernel for dtype float16 (shape {list(x.shape)}); "
            f"cast to float32.")
    if x.dtype.name not in _LINALG_DTYPES + ("float16",):
        raise invalid_argument(
            op_name, f"dtype {x.dtype.name} is not in the list of allowed values "
            f"({', '.join(_LINALG_DTYPES)}); shape {list(x.shape)}.")
    if x.ndim is None:  # unknown rank: checked when the graph runs
        return x
    if x.ndim < 2:
        raise invalid_argument(
            op_name, f"Input must have rank >= 2, got rank {x.ndim} (shape "
            f"{list(x.shape)}).")
    if square and None not in x.shape[-2:] and x.shape[-1] != x.shape[-2]:
        raise invalid_argument(
            op_name, f"Input matrices must be square, got shape {list(x.shape)}.")
    return x


def _solve_inputs(op_name: str, matrix, rhs, same_batch: bool):
    matrix, rhs = binary_inputs(op_name, matrix, rhs)
    matrix = _matrices(op_name, matrix)
    rhs = _matrices(op_name, rhs, square=False)
    a_shape, b_shape = tuple(matrix.shape), tuple(rhs.shape)
    if a_shape[-1] != b_shape[-2]:
        raise invalid_argument(
            op_name, f"Input matrix and right-hand side must have the same number of "
            f"rows: matrix {list(a_shape)}, rhs {list(b_shape)}.")
    if same_batch and a_shape[:-2] != b_shape[:-2]:
        raise invalid_argument(
            op_name, f"All input tensors must have the same outer dimensions: matrix "
            f"{list(a_shape)}, rhs {list(b_shape)}.")
    try:
        np.broadcast_shapes(a_shape[:-2], b_shape[:-2])
    except ValueError:
        raise invalid_argument(
            op_name, f"In[0] and In[1] must have compatible batch dimensions: "
            f"{list(a_shape)} vs. {list(b_shape)}.") from None
    return matrix, rhs


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None) -> Tensor:
    """The matrix-vector product a @ b over the last axes, with broadcast batch axes.

    Args:
        a: a tensor of shape [..., M, N].
        b: a tensor of shape [..., N] (with the dtype of `a`).
        transpose_a, adjoint_a: use the (conjugate) transpose of `a`.

    Returns:
        A tensor of shape [..., M].

    Raises:
        InvalidArgumentError: `a` below rank 2, `b` below rank 1, or sizes that do not match.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.matvec(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1.0, 1.0])).numpy()
        array([3., 7.], dtype=float32)
    """
    a, b = binary_inputs("MatMul", a, b)
    if b.ndim < 1:
        raise invalid_argument(
            "MatMul", f"matvec needs a vector of rank >= 1, got shape {list(b.shape)}.")
    column = Reshape(b, tuple(b.shape) + (1,))
    product = matmul(a, column, transpose_a=transpose_a, adjoint_a=adjoint_a)
    return Reshape(product, tuple(product.shape)[:-1])


def inv(input, adjoint=False, name=None) -> Tensor:  # noqa: A002  (TF's argument name)
    """The inverse of each square matrix in the last two axes (of its adjoint with `adjoint`).

    Raises:
        InvalidArgumentError: rank below 2, non-square matrices, a singular matrix, or a
            dtype other than float32/64 or complex64/128.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.inv(tf.constant([[2.0, 0.0], [0.0, 4.0]])).numpy()
        array([[0.5 , 0.  ],
               [0.  , 0.25]], dtype=float32)
    """
    x = _matrices("MatrixInverse", input, half=True)
    return execute(MatrixInverse, (x,), {"adjoint": bool(adjoint)})


def det(input, name=None) -> Tensor:  # noqa: A002
    """The determinant of each square matrix; a singular matrix gives 0.

    Raises:
        InvalidArgumentError: rank below 2 or non-square matrices.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.linalg.det(tf.constant([[1.0, 2.0], [3.0, 4.0]])))
        -2.0
    """
    return execute(MatrixDeterminant, (_matrices("MatrixDeterminant", input),), NO_ATTRS)


def slogdet(input, name=None) -> tuple:  # noqa: A002
    """The sign and the log of the absolute value of each determinant, computed stably.

    Returns:
        `(sign, log_abs_determinant)`, each of shape [...]. Only the log gets a gradient.

    Example:
        >>> import tapeflow as tf
        >>> sign, logdet = tf.linalg.slogdet(tf.constant([[-2.0, 0.0], [0.0, 3.0]]))
        >>> float(sign), round(float(logdet), 4)
        (-1.0, 1.7918)
    """
    return execute(LogMatrixDeterminant, (_matrices("LogMatrixDeterminant", input),), NO_ATTRS)


def solve(matrix, rhs, adjoint=False, name=None) -> Tensor:
    """Solves matrix @ x = rhs (adjoint(matrix) @ x = rhs with `adjoint`) for x.

    Args:
        matrix: a tensor of shape [..., M, M].
        rhs: a tensor of shape [..., M, K] with the same batch shape.

    Raises:
        InvalidArgumentError: bad ranks or shapes, or a singular matrix.

    Example:
        >>> import tapeflow as tf
        >>> matrix, rhs = tf.constant([[2.0, 0.0], [0.0, 4.0]]), tf.constant([[2.0], [2.0]])
        >>> tf.linalg.solve(matrix, rhs).numpy()
        array([[1. ],
               [0.5]], dtype=float32)
    """
    matrix, rhs = _solve_inputs("MatrixSolve", matrix, rhs, same_batch=True)
    return execute(MatrixSolve, (matrix, rhs), {"adjoint": bool(adjoint)})


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None) -> Tensor:
    """Solves a triangular system; only the lower (or upper) triangle of `matrix` is read.

    Batch axes broadcast. As in TF, a zero on the diagonal is not an error: it gives inf/nan.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.triangular_solve(tf.constant([[2.0, 9.0], [1.0, 1.0]]),
        ...                            tf.constant([[2.0], [2.0]])).numpy()
        array([[1.],
               [1.]], dtype=float32)
    """
    matrix, rhs = _solve_inputs("MatrixTriangularSolve", matrix, rhs, same_batch=False)
    return execute(MatrixTriangularSolve, (matrix, rhs),
                   {"lower": bool(lower), "adjoint": bool(adjoint)})


def cholesky(input, name=None) -> Tensor:  # noqa: A002
    """The lower-triangular Cholesky factor L (input = L @ adjoint(L)); reads the lower triangle.

    As in TF, a matrix that is not positive definite is not an error: its factor is NaN.

    Raises:
        InvalidArgumentError: bad shapes or dtypes.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.cholesky(tf.constant([[4.0, 2.0], [2.0, 5.0]])).numpy()
        array([[2., 0.],
               [1., 2.]], dtype=float32)
    """
    return execute(Cholesky, (_matrices("Cholesky", input),), NO_ATTRS)


def logdet(matrix, name=None) -> Tensor:
    """log(det(matrix)) of Hermitian positive definite matrices, from their Cholesky factor.

    Returns:
        A real tensor of shape [...]: 2 * sum(log(diag(cholesky(matrix)))).

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.linalg.logdet(tf.constant([[4.0, 2.0], [2.0, 5.0]]))), 4)
        2.7726
    """
    diagonal = diag_part(cholesky(matrix))
    if diagonal.dtype.is_complex:
        diagonal = real(diagonal)
    return 2.0 * execute(Sum, (log(diagonal),), {"axis": (diagonal.ndim - 1,), "keepdims": False})


QrResult = collections.namedtuple("Qr", ["q", "r"])


def qr(input, full_matrices=False, name=None) -> QrResult:  # noqa: A002
    """The QR decomposition of each matrix: input = q @ r, q orthonormal, r upper triangular.

    Returns:
        A named tuple `(q, r)`: q [..., M, P], r [..., P, N] with P = min(M, N), or P = M
        with `full_matrices`.

    Example:
        >>> import tapeflow as tf
        >>> q, r = tf.linalg.qr(tf.constant([[3.0, 1.0], [4.0, 2.0], [0.0, 2.0]]))
        >>> q.shape, r.shape
        (TensorShape([3, 2]), TensorShape([2, 2]))
    """
    x = _matrices("Qr", input, square=False, half=True)
    return QrResult(*execute(Qr, (x,), {"full_matrices": bool(full_matrices)}))


def eigh(tensor, name=None) -> tuple:
    """Eigenvalues (ascending) and eigenvectors of self-adjoint matrices; reads the lower triangle.

    Returns:
        `(e, v)`: e [..., N], v [..., N, N] with input = v @ diag(e) @ adjoint(v). The
        gradient assumes distinct eigenvalues.

    Example:
        >>> import tapeflow as tf
        >>> e, v = tf.linalg.eigh(tf.constant([[2.0, 1.0], [1.0, 2.0]]))
        >>> e.numpy()
        array([1., 3.], dtype=float32)
    """
    x = _matrices("SelfAdjointEigV2", tensor)
    return execute(SelfAdjointEigV2, (x,), {"compute_v": True})


def eigvalsh(tensor, name=None) -> Tensor:
    """The eigenvalues (ascending) of self-adjoint matrices.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.eigvalsh(tf.constant([[2.0, 1.0], [1.0, 2.0]])).numpy()
        array([1., 3.], dtype=float32)
    """
    x = _matrices("SelfAdjointEigV2", tensor)
    return execute(SelfAdjointEigV2, (x,), {"compute_v": False})[0]


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """The singular value decomposition tensor = u @ diag(s) @ adjoint(v).

    Returns:
        `(s, u, v)` with compute_uv (s descending, [..., P] with P = min(M, N)), else `s`.
        The gradient assumes distinct, non-zero singular values.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.svd(tf.constant([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False).numpy()
        array([4., 3.], dtype=float32)
    """
    x = _matrices("Svd", tensor, square=False)
    s, u, v = execute(Svd, (x,), {"compute_uv": bool(compute_uv),
                                  "full_matrices": bool(full_matrices)})
    return (s, u, v) if compute_uv else s


def matrix_transpose(a, name="matrix_transpose", conjugate=False) -> Tensor:
    """Swaps the last two axes (and conjugates with `conjugate`).

    Raises:
        ValueError: rank below 2.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.matrix_transpose(tf.constant(0.0, shape=[5, 2, 3])).shape
        TensorShape([5, 3, 2])
    """
    a = as_input(a)
    if a.ndim < 2:
        raise ValueError(f"matrix_transpose: argument 'a' should be a (batch) matrix, with rank "
                         f">= 2. Received shape {list(a.shape)}")
    perm = tuple(range(a.ndim - 2)) + (a.ndim - 1, a.ndim - 2)
    return transpose(a, perm=perm, conjugate=conjugate)


def adjoint(matrix, name=None) -> Tensor:
    """The conjugate transpose of the last two axes.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.adjoint(tf.constant([[1.0, 2.0]])).shape
        TensorShape([2, 1])
    """
    return matrix_transpose(matrix, conjugate=True)

