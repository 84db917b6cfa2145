"""LinearOperators whose entries follow a pattern of a few numbers: a permutation, a
Householder reflection, a Toeplitz and a tridiagonal matrix."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import broadcast_to, concat, reverse, unstack
from ..ops.complex_ops import conj
from ..ops.creation_ops import one_hot, ones, zeros
from ..ops.diag_ops import diag
from ..ops.gather_ops import gather
from ..ops.linalg_ops import adjoint as adjoint_of
from ..ops.math_ops import cast, matmul, reduce_sum
from ..ops.tridiagonal_ops import (adjoint_diagonals, compact_diagonals, tridiagonal_matmul,
                                   tridiagonal_solve)
from .linear_operator import LinearOperator
from .linear_operator_structured import column, operator_tensor

__all__ = ["LinearOperatorHouseholder", "LinearOperatorPermutation", "LinearOperatorToeplitz",
           "LinearOperatorTridiag"]


class LinearOperatorPermutation(LinearOperator):
    """The permutation matrix P with P[i, perm[i]] = 1: P @ x is x's rows in perm's order.

    Args:
        perm: an integer tensor [..., N] holding each of 0 .. N-1 once.
        dtype: the operator's dtype (float32 by default).

    Raises:
        TypeError: a non-integer perm. ValueError: rank below 1, or is_non_singular or
            is_square False.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.LinearOperatorPermutation([1, 2, 0]).matvec([10.0, 20.0, 30.0]).numpy()
        array([20., 30., 10.], dtype=float32)
    """

    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name="LinearOperatorPermutation"):
        self._perm = convert_to_tensor(perm)
        if not self._perm.dtype.is_integer:
            raise TypeError(f"Argument perm must have an integer dtype, got "
                            f"{self._perm.dtype.name}.")
        if len(self._perm.shape) < 1:
            raise ValueError(f"Argument perm must have rank >= 1, got shape "
                             f"{list(self._perm.shape)}.")
        for hint, given in (("non-singular", is_non_singular), ("square", is_square)):
            if given is False:
                raise ValueError(f"A Permutation operator is always {hint}.")
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"perm": perm, "dtype": dtype})

    @property
    def perm(self):
        return self._perm

    def _shape(self):
        dims = list(self._perm.shape)
        return TensorShape(dims + dims[-1:])

    def _to_dense(self):
        return one_hot(self._perm, self._perm.shape[-1], dtype=self.dtype)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _log_abs_determinant(self):
        return zeros(self.batch_shape.as_list(), self.dtype.real_dtype)


class LinearOperatorHouseholder(LinearOperator):
    """The reflection I - 2 v v^H / (v^H v) across the hyperplane orthogonal to v.

    Args:
        reflection_axis: v, a tensor (or Variable) of shape [..., N].

    Raises:
        ValueError: is_self_adjoint False, or is_positive_definite True.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.LinearOperatorHouseholder([0.0, 1.0]).matvec([3.0, 4.0]).numpy()
        array([ 3., -4.], dtype=float32)
    """

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorHouseholder"):
        self._axis = operator_tensor(reflection_axis, "reflection_axis", 1)
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        if is_positive_definite is True:
            raise ValueError("A Householder operator is always non-positive definite.")
        if is_square is False:
            raise ValueError("A Householder operator is always square.")
        super().__init__(self._axis.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=True, is_positive_definite=False, is_square=True,
                         name=name, parameters={"reflection_axis": reflection_axis})

    @property
    def reflection_axis(self):
        return self._axis

    def _shape(self):
        dims = list(self._axis.shape)
        return TensorShape(dims + dims[-1:])

    def _matmul(self, x, adjoint, adjoint_arg):
        x = adjoint_of(x) if adjoint_arg else x
        v = column(self._axis)
        scale = 2.0 / reduce_sum(conj(v) * v, axis=[-2, -1], keepdims=True)
        return x - v * (scale * matmul(v, x, adjoint_a=True))

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _inverse(self):
        return self

    def _determinant(self):
        return -ones(self.batch_shape.as_list(), self.dtype)

    def _log_abs_determinant(self):
        return zeros(self.batch_shape.as_list(), self.dtype.real_dtype)

    def _trace(self):
        return cast(self.domain_dimension - 2, self.dtype) * ones(self.batch_shape.as_list(),
                                                                  self.dtype)


class LinearOperatorToeplitz(LinearOperator):
    """The Toeplitz matrix with first column `col` and first row `row` (row[0] is unused:
    the diagonal is col[0]), constant along each diagonal.

    Args:
        col, row: tensors (or Variables) of shape [..., N].

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.LinearOperatorToeplitz([1.0, 2.0, 3.0], [9.0, 4.0, 5.0]).to_dense().numpy()
        array([[1., 4., 5.],
               [2., 1., 4.],
               [3., 2., 1.]], dtype=float32)
    """

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorToeplitz"):
        self._col = operator_tensor(col, "col", 1)
        self._row = operator_tensor(row, "row", 1)
        if self._col.dtype != self._row.dtype:
            raise TypeError(f"col and row must have one dtype, got {self._col.dtype.name} and "
                            f"{self._row.dtype.name}.")
        if is_square is False:
            raise ValueError("Only square Toeplitz operators currently supported.")
        super().__init__(self._col.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"col": col, "row": row})

    @property
    def col(self):
        return self._col

    @property
    def row(self):
        return self._row

    def _shape(self):
        batch = np.broadcast_shapes(tuple(self._col.shape[:-1]), tuple(self._row.shape[:-1]))
        n = self._col.shape[-1]
        return TensorShape(list(batch) + [n, n])

    def _to_dense(self):
        # T[i, j] = w[n - 1 + i - j] for w = (row[n-1], ..., row[1], col[0], ..., col[n-1]).
        n = self._col.shape[-1]
        batch = self.batch_shape.as_list()
        row = broadcast_to(self._row, batch + [n])
        col = broadcast_to(self._col, batch + [n])
        values = concat([reverse(row[..., 1:], [-1]), col], axis=-1)
        positions = n - 1 + np.arange(n)[:, None] - np.arange(n)[None, :]
        return gather(values, positions, axis=len(batch))


class LinearOperatorTridiag(LinearOperator):
    """A square tridiagonal operator, from its diagonals in any of tridiagonal_solve's
    formats; products and solves take O(N) per column.

    Args:
        diagonals: 'compact' [..., 3, N], 'sequence' a tuple of three [..., N] tensors, or
            'matrix' [..., N, N] (see `tf.linalg.tridiagonal_solve`; to_dense returns that
            matrix, the other methods read its tridiagonal band).
        diagonals_format: 'compact', 'sequence' or 'matrix'.

    Raises:
        ValueError: an unknown format, or is_square False.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorTridiag([[1.0, 2.0, 0.0], [3.0, 4.0, 5.0],
        ...                                            [0.0, 6.0, 7.0]])
        >>> operator.to_dense().numpy()
        array([[3., 1., 0.],
               [6., 4., 2.],
               [0., 7., 5.]], dtype=float32)
    """

    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorTridiag"):
        if is_square is False:
            raise ValueError("A tridiagonal operator is always square.")
        self._format = diagonals_format
        self._diagonals = diagonals
        self._compact = compact_diagonals("LinearOperatorTridiag", diagonals, diagonals_format)
        super().__init__(self._compact.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"diagonals": diagonals,
                                     "diagonals_format": diagonals_format})

    @property
    def diagonals(self):
        return self._diagonals

    @property
    def diagonals_format(self) -> str:
        return self._format

    def _shape(self):
        dims = list(self._compact.shape)
        return TensorShape(dims[:-2] + [dims[-1], dims[-1]])

    def _banded(self, function, x, adjoint: bool, adjoint_arg: bool):
        """`function` (tridiagonal_matmul or _solve) of the diagonals and x, both with the
        batch shape they broadcast to (a matrix x is never read as a batch of vectors)."""
        x = adjoint_of(x) if adjoint_arg else x
        compact = adjoint_diagonals(self._compact) if adjoint else self._compact
        batch = list(np.broadcast_shapes(tuple(compact.shape[:-2]), tuple(x.shape[:-2])))
        return function(broadcast_to(compact, batch + list(compact.shape[-2:])),
                        broadcast_to(x, batch + list(x.shape[-2:])))

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._banded(tridiagonal_matmul, x, adjoint, adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._banded(tridiagonal_solve, rhs, adjoint, adjoint_arg)

    def _to_dense(self):
        if self._format == "matrix":
            return convert_to_tensor(self._diagonals)
        upper, main, lower = unstack(self._compact, axis=-2)
        return diag(main) + diag(upper[..., :-1], k=1) + diag(lower[..., 1:], k=-1)

    def _diag_part(self):
        return unstack(self._compact, axis=-2)[1]
