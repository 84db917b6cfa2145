"""LinearOperators assembled from others: the block diagonal (direct sum), the block lower
triangle, the Kronecker product and low-rank updates. Products, solves and determinants work
block by block (or factor by factor, or by the Woodbury identity)."""
from __future__ import annotations

import math

import numpy as np

from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import broadcast_to, concat, expand_dims, reshape
from ..ops.complex_ops import conj
from ..ops.creation_ops import eye, zeros
from ..ops.diag_ops import diag
from ..ops.linalg_ops import adjoint as adjoint_of
from ..ops.linalg_ops import det, slogdet
from ..ops.linalg_ops import solve as solve_matrix
from ..ops.math_ops import abs, log, matmul, reduce_sum
from ..ops.reduction_ops import reduce_prod
from .linear_operator import (CombinedOperator, LinearOperator, LinearOperatorComposition,
                              _broadcast_batch, both_non_singular, checked_operators,
                              combined_hint, register_product)
from .linear_operator_structured import (LinearOperatorDiag, LinearOperatorIdentity,
                                         operator_tensor)

__all__ = ["LinearOperatorBlockDiag", "LinearOperatorBlockLowerTriangular",
           "LinearOperatorKronecker", "LinearOperatorLowRankUpdate"]


def _cut(x, sizes, axis: int) -> list:
    """x cut along `axis` (-2 or -1) into pieces of `sizes`."""
    pieces, start = [], 0
    for size in sizes:
        pieces.append(x[..., start:start + size, :] if axis == -2 else x[..., start:start + size])
        start += size
    return pieces


def _stack_rows(parts) -> object:
    """Matrices of equal widths stacked along axis -2, their batch axes broadcast."""
    batch = list(np.broadcast_shapes(*[tuple(p.shape[:-2]) for p in parts]))
    return concat([broadcast_to(p, batch + list(p.shape[-2:])) for p in parts], axis=-2)


def _assemble(blocks, sizes, batch: list, dtype):
    """The dense matrix of a square grid of blocks (dense tensors, or None for zeros)."""
    rows = []
    for i, row in enumerate(blocks):
        parts = [zeros(batch + [sizes[i], sizes[j]], dtype) if block is None else
                 broadcast_to(block, batch + [sizes[i], sizes[j]]) for j, block in enumerate(row)]
        rows.append(concat(parts, axis=-1))
    return concat(rows, axis=-2)


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

    def _sizes(self) -> list:
        return [op.domain_dimension for op in self._operators]

    def _blockwise(self, method: str, x, adjoint: bool, adjoint_arg: bool):
        x = adjoint_of(x) if adjoint_arg else x
        return _stack_rows([getattr(op, method)(piece, adjoint=adjoint)
                            for op, piece in zip(self._operators, _cut(x, self._sizes(), -2))])

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._blockwise("matmul", x, adjoint, adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._blockwise("solve", rhs, adjoint, adjoint_arg)

    def _to_dense(self):
        count = len(self._operators)
        blocks = [[op.to_dense() if i == j else None for j in range(count)]
                  for i, op in enumerate(self._operators)]
        return _assemble(blocks, self._sizes(), self.batch_shape.as_list(), self.dtype)

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

    def _adjoint(self):
        return LinearOperatorBlockDiag([op.adjoint() for op in self._operators], **self.hints())

    def _inverse(self):
        return LinearOperatorBlockDiag([op.inverse() for op in self._operators], **self.hints())

    def _cholesky(self):
        return LinearOperatorBlockDiag([op.cholesky() for op in self._operators],
                                       is_non_singular=True, is_square=True)


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

    def _adjoint(self):
        return LinearOperatorKronecker([op.adjoint() for op in self._operators], **self.hints())

    def _inverse(self):
        return LinearOperatorKronecker([op.inverse() for op in self._operators], **self.hints())

    def _cholesky(self):
        return LinearOperatorKronecker([op.cholesky() for op in self._operators],
                                       is_non_singular=True, is_square=True)

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


@register_product(LinearOperatorBlockDiag, LinearOperatorBlockDiag)
def _block_diagonal_product(left, right):
    if left._sizes() != right._sizes():
        return LinearOperatorComposition([left, right])
    return LinearOperatorBlockDiag([a.matmul(b) for a, b in zip(left.operators, right.operators)],
                                   is_non_singular=both_non_singular(left, right))


class LinearOperatorBlockLowerTriangular(CombinedOperator):
    """A block lower-triangular operator: row i of `operators` holds the blocks A[i][0..i],
    the diagonal ones square. Solves are block forward (or back) substitutions.

    Args:
        operators: a list of lists of LinearOperators of one dtype, row i of length i + 1.

    Raises:
        TypeError: operators of different dtypes. ValueError: rows of the wrong lengths, a
            non-square diagonal block, or is_square False.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorBlockLowerTriangular(
        ...     [[tf.linalg.LinearOperatorDiag([2.0])],
        ...      [tf.linalg.LinearOperatorFullMatrix([[1.0]]),
        ...       tf.linalg.LinearOperatorDiag([4.0])]])
        >>> operator.to_dense().numpy(), operator.solvevec([2.0, 5.0]).numpy()
        (array([[2., 0.],
               [1., 4.]], dtype=float32), array([1., 1.], dtype=float32))
    """

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name="LinearOperatorBlockLowerTriangular") -> None:
        rows = [list(row) for row in operators]
        if any(len(row) != i + 1 for i, row in enumerate(rows)):
            raise ValueError(f"Argument operators must be a list of lists with row i of length "
                             f"i + 1, got row lengths {[len(row) for row in rows]}.")
        diagonal = [row[-1] for row in rows]
        if is_square is False or not all(op.is_square for op in diagonal):
            raise ValueError("The diagonal operators of a block lower-triangular operator must "
                             "be square (and so is it).")
        is_non_singular = combined_hint("non-singularity", is_non_singular,
                                        all(op.is_non_singular for op in diagonal))
        super().__init__([op for row in rows for op in row], "_", name, is_square=True,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite)
        self._rows = rows
        self._parameters["operators"] = rows

    @property
    def operators(self) -> list:
        return [list(row) for row in self._rows]

    def _diagonal(self) -> list:
        return [row[-1] for row in self._rows]

    def _sizes(self) -> list:
        return [op.domain_dimension for op in self._diagonal()]

    def _shape(self):
        size = sum(self._sizes())
        return TensorShape(_broadcast_batch(self._operators) + [size, size])

    def _block(self, i: int, j: int, adjoint: bool):
        """The block at (i, j) of the operator, or of its adjoint; None above the diagonal."""
        if adjoint:
            i, j = j, i
        return self._rows[i][j] if j <= i else None

    def _matmul(self, x, adjoint, adjoint_arg):
        x = adjoint_of(x) if adjoint_arg else x
        pieces, count = _cut(x, self._sizes(), -2), len(self._rows)
        results = []
        for i in range(count):
            terms = [self._block(i, j, adjoint).matmul(pieces[j], adjoint=adjoint)
                     for j in range(count) if self._block(i, j, adjoint) is not None]
            results.append(sum(terms[1:], terms[0]))
        return _stack_rows(results)

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        pieces, count = _cut(rhs, self._sizes(), -2), len(self._rows)
        solved = [None] * count
        for i in range(count - 1, -1, -1) if adjoint else range(count):
            remainder = pieces[i]
            for j, known in enumerate(solved):
                block = self._block(i, j, adjoint)
                if known is not None and block is not None and j != i:
                    remainder = remainder - block.matmul(known, adjoint=adjoint)
            solved[i] = self._rows[i][i].solve(remainder, adjoint=adjoint)
        return _stack_rows(solved)

    def _to_dense(self):
        count = len(self._rows)
        blocks = [[self._rows[i][j].to_dense() if j <= i else None for j in range(count)]
                  for i in range(count)]
        return _assemble(blocks, self._sizes(), self.batch_shape.as_list(), self.dtype)

    def _diag_part(self):
        batch = self.batch_shape.as_list()
        return concat([broadcast_to(op.diag_part(), batch + [op.domain_dimension])
                       for op in self._diagonal()], axis=-1)

    def _determinant(self):
        return self._product("determinant", parts=self._diagonal())

    def _log_abs_determinant(self):
        return sum(op.log_abs_determinant() for op in self._diagonal())

    def _trace(self):
        return sum(op.trace() for op in self._diagonal())


class LinearOperatorLowRankUpdate(LinearOperator):
    """base_operator + u @ diag(diag_update) @ v^H, solved by the Woodbury identity and its
    determinant taken by the matrix determinant lemma, both through the small K x K
    capacitance matrix diag(diag_update)^-1 + v^H base^-1 u.

    Args:
        base_operator: a square LinearOperator [..., M, M].
        u: a tensor [..., M, K].
        diag_update: a tensor [..., K], or None for ones.
        v: a tensor [..., M, K], or None for u (a self-adjoint update).
        is_diag_update_positive: a hint that diag_update is positive.

    Raises:
        TypeError: dtypes that differ. ValueError: a non-square base operator.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorLowRankUpdate(
        ...     tf.linalg.LinearOperatorDiag([1.0, 2.0]), tf.constant([[1.0], [1.0]]))
        >>> operator.to_dense().numpy(), float(operator.determinant())
        (array([[2., 1.],
               [1., 3.]], dtype=float32), 5.0)
    """

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorLowRankUpdate") -> None:
        if base_operator.is_square is False:
            raise ValueError(f"The base operator must be square ({base_operator.name}).")
        self._base = base_operator
        self._u = operator_tensor(u, "u", 2)
        self._v = self._u if v is None else operator_tensor(v, "v", 2)
        self._diag_update = None if diag_update is None else operator_tensor(
            diag_update, "diag_update", 1)
        for tensor in (self._u, self._v, self._diag_update):
            if tensor is not None and tensor.dtype != base_operator.dtype:
                raise TypeError(f"u, v and diag_update must have the base operator's dtype "
                                f"{base_operator.dtype.name}, got {tensor.dtype.name}.")
        if is_diag_update_positive is None and diag_update is None:
            is_diag_update_positive = True
        self._is_diag_update_positive = is_diag_update_positive
        if v is None and base_operator.is_self_adjoint:
            is_self_adjoint = combined_hint("self-adjointness", is_self_adjoint, True)
            if base_operator.is_positive_definite and is_diag_update_positive:
                is_positive_definite = combined_hint("positive definiteness",
                                                     is_positive_definite, True)
        super().__init__(base_operator.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"base_operator": base_operator, "u": u,
                                     "diag_update": diag_update, "v": v,
                                     "is_diag_update_positive": is_diag_update_positive})

    @property
    def base_operator(self) -> LinearOperator:
        return self._base

    @property
    def u(self):
        return self._u

    @property
    def v(self):
        return self._v

    @property
    def diag_update(self):
        return self._diag_update

    @property
    def is_diag_update_positive(self):
        return self._is_diag_update_positive

    @property
    def diag_operator(self) -> LinearOperator:
        """diag(diag_update) as an operator (the identity when there is none)."""
        if self._diag_update is None:
            return LinearOperatorIdentity(self._u.shape[-1], dtype=self.dtype)
        return LinearOperatorDiag(self._diag_update,
                                  is_positive_definite=self._is_diag_update_positive or None)

    def _shape(self):
        batch = np.broadcast_shapes(tuple(self._base.batch_shape.as_list()),
                                    tuple(self._u.shape[:-2]), tuple(self._v.shape[:-2]))
        return TensorShape(list(batch) + [self._base.range_dimension] * 2)

    def _scale(self, x, adjoint: bool, inverse: bool = False):
        """diag(diag_update) @ x (its adjoint's, or its inverse's)."""
        if self._diag_update is None:
            return x
        d = expand_dims(conj(self._diag_update) if adjoint else self._diag_update, -1)
        return x / d if inverse else d * x

    def _factors(self, adjoint: bool) -> tuple:
        """(left, right) with the update left @ D @ right^H (swapped for the adjoint)."""
        return (self._v, self._u) if adjoint else (self._u, self._v)

    def _matmul(self, x, adjoint, adjoint_arg):
        x = adjoint_of(x) if adjoint_arg else x
        left, right = self._factors(adjoint)
        update = matmul(left, self._scale(matmul(right, x, adjoint_a=True), adjoint))
        return self._base.matmul(x, adjoint=adjoint) + update

    def _capacitance(self, adjoint: bool):
        """D^-1 + right^H base^-1 left, the K x K matrix Woodbury solves with."""
        left, right = self._factors(adjoint)
        inner = matmul(right, self._base.solve(left, adjoint=adjoint), adjoint_a=True)
        if self._diag_update is None:
            return inner + eye(self._u.shape[-1], dtype=self.dtype)
        return inner + diag(1.0 / (conj(self._diag_update) if adjoint else self._diag_update))

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        left, right = self._factors(adjoint)
        base_solution = self._base.solve(rhs, adjoint=adjoint)
        correction = solve_matrix(self._capacitance(adjoint),
                                  matmul(right, base_solution, adjoint_a=True))
        return base_solution - self._base.solve(matmul(left, correction), adjoint=adjoint)

    def _determinant(self):
        result = det(self._capacitance(False)) * self._base.determinant()
        if self._diag_update is not None:
            result = result * reduce_prod(self._diag_update, axis=-1)
        return result

    def _log_abs_determinant(self):
        result = slogdet(self._capacitance(False))[1] + self._base.log_abs_determinant()
        if self._diag_update is not None:
            result = result + reduce_sum(log(abs(self._diag_update)), axis=-1)
        return result

    def _to_dense(self):
        return self._base.to_dense() + matmul(self._u, self._scale(adjoint_of(self._v), False))
