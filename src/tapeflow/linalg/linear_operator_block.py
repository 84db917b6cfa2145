"""LinearOperators assembled from others: the block diagonal (direct sum) and the Kronecker
product. Products, solves and determinants work block by block (or factor by factor)."""
from __future__ import annotations

import math

import numpy as np

from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import broadcast_to, concat, expand_dims, reshape
from ..ops.creation_ops import zeros
from ..ops.linalg_ops import adjoint as adjoint_of
from .linear_operator import CombinedOperator, _broadcast_batch, checked_operators, combined_hint

__all__ = ["LinearOperatorBlockDiag", "LinearOperatorKronecker"]


def _hints_of_parts(operators, is_non_singular, is_self_adjoint, is_positive_definite) -> dict:
    """What holds of every part holds of a block diagonal or Kronecker product of them."""
    return {
        "is_non_singular": combined_hint("non-singularity", is_non_singular,
                                         all(op.is_non_singular for op in operators)),
        "is_self_adjoint": combined_hint("self-adjointness", is_self_adjoint,
                                         all(op.is_self_adjoint for op in operators)),
        "is_positive_definite": combined_hint("positive definiteness", is_positive_definite,
                                              all(op.is_positive_definite for op in operators)),
    }


class LinearOperatorBlockDiag(CombinedOperator):
    """The block diagonal of square operators: [[A, 0], [0, B]] for operators [A, B].

    Args:
        operators: a non-empty list of square LinearOperators of one dtype.

    Raises:
        TypeError: operators of different dtypes. ValueError: an empty list, a non-square
            operator, or is_square=False.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorBlockDiag(
        ...     [tf.linalg.LinearOperatorDiag([2.0]), tf.linalg.LinearOperatorIdentity(2)])
        >>> operator.matvec([1.0, 1.0, 1.0]).numpy(), float(operator.determinant())
        (array([2., 1., 1.], dtype=float32), 2.0)
    """

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None) -> None:
        operators = checked_operators(operators, "LinearOperatorBlockDiag")
        if is_square is False or not all(op.is_square for op in operators):
            raise ValueError("LinearOperatorBlockDiag takes square operators only (and is "
                             "square).")
        super().__init__(operators, "_ds_", name, is_square=True,
                         **_hints_of_parts(operators, is_non_singular, is_self_adjoint,
                                           is_positive_definite))

    def _shape(self):
        size = sum(op.domain_dimension for op in self._operators)
        return TensorShape(_broadcast_batch(self._operators) + [size, size])

    def _blocks(self, x, axis: int) -> list:
        """x cut along `axis` into the pieces each block acts on."""
        pieces, start = [], 0
        for op in self._operators:
            stop = start + op.domain_dimension
            pieces.append(x[..., start:stop, :] if axis == -2 else x[..., start:stop])
            start = stop
        return pieces

    def _blockwise(self, method: str, x, adjoint: bool, adjoint_arg: bool):
        x = adjoint_of(x) if adjoint_arg else x
        parts = [getattr(op, method)(piece, adjoint=adjoint)
                 for op, piece in zip(self._operators, self._blocks(x, -2))]
        batch = list(np.broadcast_shapes(*[tuple(p.shape[:-2]) for p in parts]))
        return concat([broadcast_to(p, batch + list(p.shape[-2:])) for p in parts], axis=-2)

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._blockwise("matmul", x, adjoint, adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._blockwise("solve", rhs, adjoint, adjoint_arg)

    def _to_dense(self):
        batch = self.batch_shape.as_list()
        size = self.domain_dimension
        rows, start = [], 0
        for op in self._operators:
            n = op.domain_dimension
            block = broadcast_to(op.to_dense(), batch + [n, n])
            rows.append(concat([zeros(batch + [n, start], self.dtype), block,
                                zeros(batch + [n, size - start - n], self.dtype)], axis=-1))
            start += n
        return concat(rows, axis=-2)

    def _diag_part(self):
        batch = self.batch_shape.as_list()
        return concat([broadcast_to(op.diag_part(), batch + [op.domain_dimension])
                       for op in self._operators], axis=-1)

    def _determinant(self):
        return self._product("determinant")

    def _log_abs_determinant(self):
        return sum(op.log_abs_determinant() for op in self._operators)

    def _trace(self):
        return sum(op.trace() for op in self._operators)


def _kronecker(a, b):
    """The Kronecker product of the matrices in the last two axes of a and b."""
    batch = list(np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2])))
    (m, n), (p, q) = a.shape[-2:], b.shape[-2:]
    product = expand_dims(expand_dims(a, -1), -3) * expand_dims(expand_dims(b, -3), -2)
    return reshape(broadcast_to(product, batch + [m, p, n, q]), batch + [m * p, n * q])


class LinearOperatorKronecker(CombinedOperator):
    """The Kronecker product of operators: the [m p, n q] matrix of blocks a[i, j] * B.

    Args:
        operators: a non-empty list of LinearOperators of one dtype.

    Raises:
        TypeError: operators of different dtypes. ValueError: an empty list.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorKronecker(
        ...     [tf.linalg.LinearOperatorDiag([1.0, 2.0]),
        ...      tf.linalg.LinearOperatorFullMatrix([[0.0, 1.0], [1.0, 0.0]])])
        >>> operator.to_dense().numpy()
        array([[0., 1., 0., 0.],
               [1., 0., 0., 0.],
               [0., 0., 0., 2.],
               [0., 0., 2., 0.]], dtype=float32)
    """

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None) -> None:
        operators = checked_operators(operators, "LinearOperatorKronecker")
        super().__init__(operators, "_x_", name, is_square=is_square,
                         **_hints_of_parts(operators, is_non_singular, is_self_adjoint,
                                           is_positive_definite))

    def _shape(self):
        rows = math.prod(op.range_dimension for op in self._operators)
        cols = math.prod(op.domain_dimension for op in self._operators)
        return TensorShape(_broadcast_batch(self._operators) + [rows, cols])

    def _to_dense(self):
        result = self._operators[0].to_dense()
        for op in self._operators[1:]:
            result = _kronecker(result, op.to_dense())
        return result

    def _square_parts(self) -> bool:
        return all(op.is_square for op in self._operators)

    def _determinant(self):
        # det(A (x) B) = det(A)^q det(B)^n for A n x n and B q x q.
        if not self._square_parts():
            return super()._determinant()
        return self._product("determinant", lambda op: self.domain_dimension // op.domain_dimension)

    def _log_abs_determinant(self):
        if not self._square_parts():
            return super()._log_abs_determinant()
        size = self.domain_dimension
        return sum((size // op.domain_dimension) * op.log_abs_determinant()
                   for op in self._operators)

    def _trace(self):
        if not self._square_parts():
            return super()._trace()
        return self._product("trace")

    def _diag_part(self):
        if not self._square_parts():
            return super()._diag_part()
        result = self._operators[0].diag_part()
        for op in self._operators[1:]:
            part = op.diag_part()
            batch = list(np.broadcast_shapes(tuple(result.shape[:-1]), tuple(part.shape[:-1])))
            outer = expand_dims(result, -1) * expand_dims(part, -2)
            result = reshape(broadcast_to(outer, batch + list(outer.shape[-2:])),
                             batch + [result.shape[-1] * part.shape[-1]])
        return result
