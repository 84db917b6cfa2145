"""Diagonals and bands of (batched) matrices, and of tensors: kernels and the public TF-named
functions of tf.linalg's diag, diag_part, trace, tensor_diag, tensor_diag_part and band_part.

Each op is one `define_op` row; its gradient rule lives in `diag_grad.py`.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.errors import invalid_argument
from ..framework.execute import execute
from ..framework.graph_def import graph_def_form
from ..framework.registry import LINEAR, define_op
from ..framework.tensor import Tensor
from .indexing_ops import where
from .math_ops import reduce_sum
from .op_util import NO_ATTRS, as_input

__all__ = ["band_part", "diag", "diag_part", "set_diag", "tensor_diag", "tensor_diag_part",
           "trace"]


# -- kernels ---------------------------------------------------------------------------------
def _diag_size(length: int, k: int, num_rows: int, num_cols: int) -> tuple:
    """TF's output size of MatrixDiagV3 for a diagonal of `length` at offset `k`."""
    min_rows, min_cols = length - min(k, 0), length + max(k, 0)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    elif num_rows == -1:
        num_rows = min_rows
    elif num_cols == -1:
        num_cols = min_cols
    return num_rows, num_cols


def _matrix_diag(diagonal, k=0, num_rows=-1, num_cols=-1, padding_value=0):
    length = diagonal.shape[-1]
    rows, cols = _diag_size(length, k, num_rows, num_cols)
    out = np.full(diagonal.shape[:-1] + (rows, cols), padding_value, dtype=diagonal.dtype)
    index = np.arange(length)
    out[..., index + max(-k, 0), index + max(k, 0)] = diagonal
    return out


def _matrix_diag_part(x, k=0):
    return np.diagonal(x, offset=k, axis1=-2, axis2=-1).copy()


def _band_mask(rows: int, cols: int, num_lower: int, num_upper: int) -> np.ndarray:
    """True inside the band: (num_lower < 0 or i - j <= num_lower) and likewise above."""
    offset = np.arange(rows)[:, None] - np.arange(cols)[None, :]
    return (((num_lower < 0) | (offset <= num_lower)) & ((num_upper < 0) | (-offset <= num_upper)))


def _band_part(x, num_lower, num_upper):
    mask = _band_mask(x.shape[-2], x.shape[-1], num_lower, num_upper)
    return np.where(mask, x, np.zeros((), x.dtype))


def _tensor_diag(diagonal):
    n = diagonal.size
    out = np.zeros((n, n), diagonal.dtype)
    out[np.arange(n), np.arange(n)] = diagonal.ravel()
    return out.reshape(diagonal.shape * 2)


def _tensor_diag_part(x):
    half = x.shape[:x.ndim // 2]
    n = int(np.prod(half))
    return np.diagonal(x.reshape(n, n)).reshape(half)


MatrixDiag = define_op("MatrixDiagV3", _matrix_diag, family=LINEAR)
MatrixDiagPart = define_op("MatrixDiagPartV3", _matrix_diag_part, family=LINEAR)
MatrixBandPart = define_op("MatrixBandPart", _band_part, family=LINEAR)
Diag = define_op("Diag", _tensor_diag, family=LINEAR)
DiagPart = define_op("DiagPart", _tensor_diag_part, family=LINEAR)
# As a GraphDef node: TF's padding value is an input; tapeflow's diagonal part pads with 0.
graph_def_form("MatrixDiagPartV3", inputs={
    "padding_value": lambda op: np.zeros((), op.inputs[0].dtype.as_numpy_dtype)})


# -- public functions ------------------------------------------------------------------------
def _diag_offset(op_name: str, k) -> int:
    values = np.ravel(np.asarray(getattr(k, "_value", k)))
    if values.size != 1 or values.dtype.kind not in "iu":
        raise errors.UnimplementedError(
            None, op_name, f"{op_name}: only a single integer diagonal offset k is supported, "
            f"got {k!r}.")
    return int(values[0])


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align="RIGHT_LEFT") -> Tensor:
    """Batched matrices with `diagonal` on their k-th diagonal and `padding_value` elsewhere.

    Args:
        diagonal: a tensor of shape [..., L].
        k: the diagonal offset (0 main, > 0 above, < 0 below); one integer.
        num_rows, num_cols: the output's matrix size (-1: the smallest square that fits).

    Raises:
        InvalidArgumentError: a rank-0 diagonal or sizes that cannot hold it.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.diag(tf.constant([1.0, 2.0])).numpy()
        array([[1., 0.],
               [0., 2.]], dtype=float32)
    """
    d = as_input(diagonal)
    k = _diag_offset("MatrixDiagV3", k)
    if d.ndim < 1:
        raise invalid_argument(
            "MatrixDiagV3", f"diagonal must have rank >= 1, got shape {list(d.shape)}.")
    length = d.shape[-1]
    rows, cols = _diag_size(length, k, int(num_rows), int(num_cols))
    if min(rows + min(k, 0), cols - max(k, 0)) != length:
        raise invalid_argument(
            "MatrixDiagV3", f"a diagonal of length {length} at k={k} does not fit a "
            f"{rows}x{cols} matrix.")
    return execute(MatrixDiag, (d,), {"k": k, "num_rows": rows, "num_cols": cols,
                                      "padding_value": padding_value})


def diag_part(input, name="diag_part", k=0, padding_value=0,  # noqa: A002
              align="RIGHT_LEFT") -> Tensor:
    """The k-th diagonal of each matrix in the last two axes, shape [..., L].

    Raises:
        InvalidArgumentError: rank below 2, or k outside the matrix.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.diag_part(tf.constant([[1.0, 2.0], [3.0, 4.0]])).numpy()
        array([1., 4.], dtype=float32)
    """
    x = as_input(input)
    k = _diag_offset("MatrixDiagPartV3", k)
    if x.ndim < 2:
        raise invalid_argument(
            "MatrixDiagPartV3", f"input must have rank >= 2, got shape {list(x.shape)}.")
    rows, cols = x.shape[-2], x.shape[-1]
    if not -rows < k < cols and rows * cols:
        raise invalid_argument(
            "MatrixDiagPartV3", f"diagonal index k={k} is outside a {rows}x{cols} "
            f"matrix (shape {list(x.shape)}).")
    return execute(MatrixDiagPart, (x,), {"k": k})


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT") -> Tensor:  # noqa: A002
    """Each matrix of `input` with its k-th diagonal replaced by `diagonal`.

    Args:
        input: a tensor of shape [..., M, N].
        diagonal: a tensor of shape [..., L], L the length of the k-th diagonal of an M x N
            matrix, with the dtype of `input`.
        k: the diagonal offset (0 main, > 0 above, < 0 below); one integer.

    Raises:
        InvalidArgumentError: rank below 2, k outside the matrix or a diagonal of the wrong
            length.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.set_diag(tf.zeros([2, 3]), tf.constant([1.0, 2.0]), k=1).numpy()
        array([[0., 1., 0.],
               [0., 0., 2.]], dtype=float32)
    """
    x, d = as_input(input), as_input(diagonal)
    k = _diag_offset("MatrixSetDiagV3", k)
    if x.ndim < 2 or d.ndim < 1:
        raise invalid_argument(
            "MatrixSetDiagV3", f"input must have rank >= 2 and diagonal rank >= 1, got shapes "
            f"{list(x.shape)} and {list(d.shape)}.")
    rows, cols = x.shape[-2], x.shape[-1]
    length = min(rows + min(k, 0), cols - max(k, 0))
    if not -rows < k < cols or d.shape[-1] != length:
        raise invalid_argument(
            "MatrixSetDiagV3", f"diagonal {k} of a {rows}x{cols} matrix has length "
            f"{max(length, 0)}, got a diagonal of shape {list(d.shape)} (input shape "
            f"{list(x.shape)}).")
    on_diagonal = np.eye(rows, cols, k, dtype=bool)
    return where(on_diagonal, diag(d, k=k, num_rows=rows, num_cols=cols), x)


def trace(x, name=None) -> Tensor:
    """The sum of the main diagonal of each matrix in the last two axes.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.linalg.trace(tf.constant([[1.0, 2.0], [3.0, 4.0]])))
        5.0
    """
    d = diag_part(x)
    return reduce_sum(d, axis=d.ndim - 1)  # which rejects bool, as TF's


def tensor_diag(diagonal, name=None) -> Tensor:
    """A tensor of shape diagonal.shape * 2 with `diagonal` on its diagonal.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.tensor_diag(tf.constant([1, 2])).numpy()
        array([[1, 0],
               [0, 2]], dtype=int32)
    """
    return execute(Diag, (as_input(diagonal),), NO_ATTRS)


def tensor_diag_part(input, name=None) -> Tensor:  # noqa: A002
    """The diagonal of a tensor of shape s + s (the inverse of `tensor_diag`).

    Raises:
        InvalidArgumentError: an odd rank, or a shape whose halves differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.tensor_diag_part(tf.constant([[1, 0], [0, 2]])).numpy()
        array([1, 2], dtype=int32)
    """
    x = as_input(input)
    shape = list(x.shape)
    half = len(shape) // 2
    if not shape or len(shape) % 2 or shape[:half] != shape[half:]:
        raise invalid_argument(
            "DiagPart", f"input must have an even, non-zero rank and equal halves, "
            f"got shape {shape}.")
    return execute(DiagPart, (x,), NO_ATTRS)


def band_part(input, num_lower, num_upper, name=None) -> Tensor:  # noqa: A002
    """Keeps `num_lower` diagonals below and `num_upper` above the main one (negative: all).

    Raises:
        InvalidArgumentError: rank below 2, or a band larger than the matrix.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.band_part(tf.constant(1.0, shape=[3, 3]), 0, -1).numpy()
        array([[1., 1., 1.],
               [0., 1., 1.],
               [0., 0., 1.]], dtype=float32)
    """
    x = as_input(input)
    if x.ndim < 2:
        raise invalid_argument(
            "MatrixBandPart", f"input must be at least 2-dim, got shape {list(x.shape)}.")
    lower, upper = int(num_lower), int(num_upper)
    if lower > x.shape[-2] or upper > x.shape[-1]:
        raise invalid_argument(
            "MatrixBandPart", f"num_lower ({lower}) must be negative or at most the "
            f"number of rows, num_upper ({upper}) at most the number of columns (shape "
            f"{list(x.shape)}).")
    return execute(MatrixBandPart, (x,), {"num_lower": lower, "num_upper": upper})
