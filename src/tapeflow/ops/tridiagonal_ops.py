"""Tridiagonal and banded matrices (tf.linalg.tridiagonal_solve, tridiagonal_matmul,
banded_triangular_solve, eigh_tridiagonal).

TridiagonalSolve is an op (its rule in `tridiagonal_grad.py`): a banded elimination in
O(M) steps over the whole batch. The rest are composed of ops, their gradients following.
"""
from __future__ import annotations

import numpy as np

from ..framework.errors import invalid_argument
from ..framework.execute import execute
from ..framework.numpy_warnings import silenced
from ..framework.registry import define_op
from ..framework.tensor import Tensor
from .array_ops import ConcatV2, SplitV, concat, expand_dims, reshape, stack, transpose
from .complex_ops import conj
from .creation_ops import zero_gradient, zeros_like
from .diag_ops import diag, diag_part
from .indexing_ops import boolean_mask
from .linalg_ops import _matrices, eigh, eigvalsh, matrix_transpose, triangular_solve
from .math_grad import conj as conj_if_complex
from .op_util import as_input, binary_inputs, shape_of

__all__ = ["banded_triangular_solve", "eigh_tridiagonal", "tridiagonal_matmul",
           "tridiagonal_solve"]


@silenced
def _tridiagonal_solve(diagonals, rhs, partial_pivoting=True, perturb_singular=False):
    """Gaussian elimination of the band (LAPACK's gtsv): with partial pivoting a row swap
    fills one second superdiagonal, `fill`. A zero pivot gives inf/nan, as TF; with
    `perturb_singular` it is replaced by a tiny value instead."""
    dtype = np.result_type(diagonals, rhs)
    batch = np.broadcast_shapes(diagonals.shape[:-2], rhs.shape[:-2])
    n = diagonals.shape[-1]
    bands = np.broadcast_to(diagonals, batch + diagonals.shape[-2:]).astype(dtype)
    upper, main, lower = bands[..., 0, :], bands[..., 1, :], bands[..., 2, :]
    fill = np.zeros_like(main)
    b = np.broadcast_to(rhs, batch + rhs.shape[-2:]).astype(dtype)
    tiny = max(np.finfo(dtype).eps * np.abs(bands).max(initial=0), np.finfo(dtype).tiny)

    def pivot(value):
        return np.where(value == 0, tiny, value) if perturb_singular else value

    for i in range(n - 1):
        d, below, right = main[..., i].copy(), lower[..., i + 1].copy(), upper[..., i].copy()
        d_next, b_i, b_next = main[..., i + 1].copy(), b[..., i, :].copy(), b[..., i + 1, :].copy()
        right_next = upper[..., i + 1].copy() if i < n - 2 else np.zeros_like(d)
        swap = np.abs(d) < np.abs(below) if partial_pivoting else np.zeros(d.shape, bool)
        factor = np.where(swap, d / np.where(swap, below, 1), below / pivot(np.where(swap, 1, d)))
        main[..., i] = np.where(swap, below, pivot(d))
        upper[..., i] = np.where(swap, d_next, right)
        fill[..., i] = np.where(swap, right_next, 0)
        main[..., i + 1] = np.where(swap, right - factor * d_next, d_next - factor * right)
        if i < n - 2:
            upper[..., i + 1] = np.where(swap, -factor * right_next, right_next)
        b[..., i, :] = np.where(swap[..., None], b_next, b_i)
        b[..., i + 1, :] = np.where(swap[..., None], b_i - factor[..., None] * b_next,
                                    b_next - factor[..., None] * b_i)
    x = np.zeros_like(b)
    for i in range(n - 1, -1, -1):
        known = b[..., i, :]
        if i < n - 1:
            known = known - upper[..., i, None] * x[..., i + 1, :]
        if i < n - 2:
            known = known - fill[..., i, None] * x[..., i + 2, :]
        x[..., i, :] = known / pivot(main[..., i])[..., None]
    return x


TridiagonalSolve = define_op("TridiagonalSolve", _tridiagonal_solve)


def compact_diagonals(op_name: str, diagonals, diagonals_format: str):
    """The [..., 3, M] compact form (superdiagonal with its last entry unused, diagonal,
    subdiagonal with its first entry unused) of diagonals given in any of TF's formats."""
    if diagonals_format == "compact":
        diagonals = as_input(diagonals)
        if diagonals.ndim < 2 or diagonals.shape[-2] != 3:
            raise ValueError(f"{op_name}: compact diagonals must have shape [..., 3, M], got "
                             f"{list(diagonals.shape)}.")
        return diagonals
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (list, tuple)) or len(diagonals) != 3:
            raise ValueError(f"{op_name}: sequence diagonals must be a tuple (superdiagonal, "
                             f"diagonal, subdiagonal), got {type(diagonals).__name__}.")
        return stack([as_input(d) for d in diagonals], axis=-2)
    if diagonals_format == "matrix":
        matrix = as_input(diagonals)
        if matrix.ndim < 2 or matrix.shape[-1] != matrix.shape[-2]:
            raise ValueError(f"{op_name}: matrix diagonals must be square matrices, got shape "
                             f"{list(matrix.shape)}.")
        if matrix.shape[-1] == 1:
            return concat([zeros_like(matrix), matrix, zeros_like(matrix)], axis=-2)
        above, below = diag_part(matrix, k=1), diag_part(matrix, k=-1)
        padding = zeros_like(above[..., :1])
        return stack([concat([above, padding], -1), diag_part(matrix),
                      concat([padding, below], -1)], axis=-2)
    raise ValueError(f"{op_name}: unrecognized diagonals_format {diagonals_format!r} (compact, "
                     f"sequence or matrix).")


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True,
                      perturb_singular=False) -> Tensor:
    """Solves A x = rhs for tridiagonal A.

    Args:
        diagonals: A's three diagonals: 'compact' [..., 3, M] (superdiagonal, its last entry
            unused; diagonal; subdiagonal, its first entry unused), 'sequence' a tuple of
            those three [..., M] tensors, or 'matrix' the [..., M, M] matrix (only its
            tridiagonal band is read).
        rhs: [..., M, K], or [..., M] for one right-hand side ([..., K, M] with
            `transpose_rhs`).
        transpose_rhs, conjugate_rhs: transpose / conjugate rhs first.
        partial_pivoting: pivot on the larger of two rows (stable for any invertible A).
        perturb_singular: replace zero pivots by a tiny value instead of giving inf/nan.

    Returns:
        x, shaped like the (transposed) rhs.

    Raises:
        ValueError: bad shapes or an unknown diagonals_format.

    Example:
        >>> import tapeflow as tf
        >>> diagonals = tf.constant([[1.0, 1.0, 0.0], [2.0, 2.0, 2.0], [0.0, 1.0, 1.0]])
        >>> tf.linalg.tridiagonal_solve(diagonals, tf.constant([3.0, 4.0, 3.0])).numpy()
        array([1., 1., 1.], dtype=float32)
    """
    compact = compact_diagonals("tridiagonal_solve", diagonals, diagonals_format)
    compact, rhs = binary_inputs("TridiagonalSolve", compact, rhs)
    # float16 is not among the dtypes TF's op takes (InvalidArgumentError, not NotFoundError).
    compact = _matrices("TridiagonalSolve", compact, square=False, half=True)
    if compact.dtype.name == "float16":
        raise invalid_argument("TridiagonalSolve", f"Value for attr 'T' of half is not in the "
                                                   f"list of allowed values: double, float, "
                                                   f"complex64, complex128 (shape "
                                                   f"{list(compact.shape)}).")
    vector = rhs.ndim == compact.ndim - 1
    if vector:
        rhs = expand_dims(rhs, -1)
    elif transpose_rhs:
        rhs = matrix_transpose(rhs)
    if conjugate_rhs:
        rhs = conj(rhs)
    if rhs.ndim < 2 or rhs.shape[-2] != compact.shape[-1]:
        raise ValueError(f"tridiagonal_solve: rhs of shape {list(rhs.shape)} does not match "
                         f"diagonals of size {compact.shape[-1]} (shape {list(compact.shape)}).")
    x = execute(TridiagonalSolve, (compact, rhs), {"partial_pivoting": bool(partial_pivoting),
                                                    "perturb_singular": bool(perturb_singular)})
    return reshape(x, x.shape[:-1]) if vector else x


def shift(x, up: bool, axis: int):
    """x moved one place along `axis` (>= 0): up (entry i holds entry i + 1) or down, zero
    filled. On raw arrays or tensors alike (the gradient rule uses it too)."""
    n = shape_of(x)[axis]
    first, rest = SplitV(x, indices=(1,) if up else (n - 1,), axis=axis)
    if up:
        return ConcatV2(rest, zero_gradient(first), axis=axis)
    return ConcatV2(zero_gradient(rest), first, axis=axis)


def adjoint_diagonals(diagonals):
    """The compact diagonals of A^H from the compact diagonals of A."""
    rank = len(shape_of(diagonals))
    upper, main, lower = SplitV(conj_if_complex(diagonals), indices=(1, 2), axis=rank - 2)
    return ConcatV2(shift(lower, True, rank - 1), main, shift(upper, False, rank - 1),
                    axis=rank - 2)


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None) -> Tensor:
    """A @ rhs for tridiagonal A, in O(M K).

    Args:
        diagonals, diagonals_format: A, as for `tridiagonal_solve`.
        rhs: [..., M, K].

    Returns:
        A @ rhs, [..., M, K].

    Raises:
        ValueError: shapes that do not match, or an unknown diagonals_format.

    Example:
        >>> import tapeflow as tf
        >>> diagonals = tf.constant([[1.0, 1.0, 0.0], [2.0, 2.0, 2.0], [0.0, 1.0, 1.0]])
        >>> tf.linalg.tridiagonal_matmul(diagonals, tf.ones([3, 1])).numpy()
        array([[3.],
               [4.],
               [3.]], dtype=float32)
    """
    compact = compact_diagonals("tridiagonal_matmul", diagonals, diagonals_format)
    compact, rhs = binary_inputs("TridiagonalMatMul", compact, rhs)
    if rhs.ndim < 2 or rhs.shape[-2] != compact.shape[-1]:
        raise ValueError(f"tridiagonal_matmul: rhs of shape {list(rhs.shape)} does not match "
                         f"diagonals of size {compact.shape[-1]} (shape {list(compact.shape)}).")
    columns = transpose(compact, list(range(compact.ndim - 2)) + [compact.ndim - 1,
                                                                    compact.ndim - 2])
    above, main, below = columns[..., 0:1], columns[..., 1:2], columns[..., 2:3]
    rows = rhs.ndim - 2
    return above * shift(rhs, True, rows) + main * rhs + below * shift(rhs, False, rows)


def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None) -> Tensor:
    """Solves A x = rhs (adjoint(A) x = rhs with `adjoint`) for triangular A with K bands.

    Args:
        bands: [..., K, M]: lower: the diagonal, then the subdiagonals, each right-aligned
            (padded on the left); upper: the superdiagonals from the K-1-th down to the
            diagonal, each left-aligned (padded on the right).
        rhs: [..., M, N].

    Returns:
        x, [..., M, N].

    Raises:
        InvalidArgumentError: bad shapes (K > M, sizes that differ) or dtypes.

    Example:
        >>> import tapeflow as tf
        >>> bands = tf.constant([[2.0, 2.0], [0.0, 1.0]])
        >>> tf.linalg.banded_triangular_solve(bands, tf.constant([[2.0], [3.0]])).numpy()
        array([[1.],
               [1.]], dtype=float32)
    """
    bands, rhs = binary_inputs("BandedTriangularSolve", bands, rhs)
    if bands.ndim < 2 or rhs.ndim < 2 or bands.shape[-2] > bands.shape[-1] or \
            rhs.shape[-2] != bands.shape[-1]:
        raise invalid_argument("BandedTriangularSolve", f"bands [..., K, M] with K <= M and rhs "
                                                        f"[..., M, N] expected, got shapes "
                                                        f"{list(bands.shape)} and "
                                                        f"{list(rhs.shape)}.")
    count, size = bands.shape[-2:]
    matrix = None
    for j in range(count):
        if lower:
            part = diag(bands[..., j, j:], k=-j, num_rows=size, num_cols=size)
        else:
            offset = count - 1 - j
            part = diag(bands[..., j, :size - offset], k=offset, num_rows=size, num_cols=size)
        matrix = part if matrix is None else matrix + part
    return triangular_solve(matrix, rhs, lower=lower, adjoint=adjoint)


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None,
                     name=None):
    """The eigenvalues (and eigenvectors) of the Hermitian tridiagonal matrix with diagonal
    `alpha` and superdiagonal `beta`, ascending.

    Args:
        alpha: [N] real (or complex with zero imaginary part).
        beta: [N - 1].
        eigvals_only: return the eigenvalues only.
        select: 'a' all, 'i' those of indices select_range[0] to select_range[1] inclusive,
            'v' those in the half-open interval (select_range[0], select_range[1]].
        tol: unused (TF's bisection tolerance; this computes them exactly).

    Returns:
        The eigenvalues [P], or `(eigenvalues, eigenvectors)` with eigenvectors [N, P] as
        columns (their signs may differ from TF's).

    Raises:
        ValueError: an unknown `select`, a missing `select_range`, or shapes other than [N]
            and [N - 1].

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.eigh_tridiagonal(tf.constant([2.0, 2.0]), tf.constant([1.0])).numpy()
        array([1., 3.], dtype=float32)
    """
    if select not in ("a", "i", "v"):
        raise ValueError(f"eigh_tridiagonal: select must be 'a', 'i' or 'v', got {select!r}.")
    if select != "a" and select_range is None:
        raise ValueError(f"eigh_tridiagonal: select={select!r} needs a select_range.")
    alpha, beta = binary_inputs("eigh_tridiagonal", alpha, beta)
    if alpha.ndim != 1 or beta.ndim != 1 or beta.shape[0] != max(alpha.shape[0] - 1, 0):
        raise ValueError(f"eigh_tridiagonal: alpha must be a vector [N] and beta [N - 1], got "
                         f"shapes {list(alpha.shape)} and {list(beta.shape)}.")
    size = alpha.shape[-1]
    matrix = diag(alpha)
    if size > 1:
        matrix = matrix + diag(beta, k=1) + diag(conj(beta), k=-1)
    if eigvals_only:
        values, vectors = eigvalsh(matrix), None
    else:
        values, vectors = eigh(matrix)
    if select == "i":
        low, high = int(select_range[0]), int(select_range[1])
        values = values[low:high + 1]
        vectors = None if vectors is None else vectors[:, low:high + 1]
    elif select == "v":
        low, high = select_range
        keep = (values > low) & (values <= high)
        values = boolean_mask(values, keep)
        vectors = None if vectors is None else boolean_mask(vectors, keep, axis=1)
    return values if eigvals_only else (values, vectors)
