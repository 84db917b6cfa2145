"""tf.linalg.LinearOperator: a (batch of) matrices known by what it does, not its entries,
and the operators made of other operators (Composition, Adjoint, Inversion).

The base class implements every method from `to_dense` (which defaults to multiplying the
identity); a subclass defines `_shape` and `_matmul` (or `_to_dense`) and overrides only
what its structure makes cheaper. All of it is composed of ops, so gradients flow to the
tensors (and Variables) an operator holds.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.tensor import Tensor, constant, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.graph import name_scope
from ..module import Module
from ..ops.array_ops import broadcast_to, expand_dims, reshape
from ..ops.complex_ops import conj, real
from ..ops.creation_ops import eye
from ..ops.diag_ops import diag_part
from ..ops.linalg_ops import adjoint as adjoint_of
from ..ops.linalg_ops import cholesky, det, eigvalsh, inv, slogdet, solve, svd
from ..ops.math_ops import abs, cast, matmul, reduce_sum
from ..ops.reduction_ops import reduce_all, reduce_max, reduce_min

__all__ = ["CombinedOperator", "LinearOperator", "LinearOperatorAdjoint",
           "LinearOperatorComposition", "LinearOperatorInversion", "both_non_singular",
           "checked_operators", "operator_product", "register_product"]


def implied_hints(is_non_singular, is_self_adjoint, is_positive_definite, is_square) -> tuple:
    """The hints with what they imply filled in (positive definite: non-singular;
    non-singular or self-adjoint: square), as TF checks them."""
    if is_positive_definite:
        if is_non_singular is False:
            raise ValueError("A positive definite matrix is always non-singular.")
        is_non_singular = True
    if is_non_singular:
        if is_square is False:
            raise ValueError("A non-singular matrix is always square.")
        is_square = True
    if is_self_adjoint:
        if is_square is False:
            raise ValueError("A self-adjoint matrix is always square.")
        is_square = True
    return is_non_singular, is_self_adjoint, is_positive_definite, is_square


def combined_hint(name: str, given, implied: bool):
    """A hint that the operator's parts imply (when `implied`): given False is an error."""
    if not implied:
        return given
    if given is False:
        raise ValueError(f"The operator's parts imply {name}, but the hint says it is not.")
    return True


# left @ right as one structured operator, for the pairs of types whose product has a
# structure of its own: {(left type, right type): rule(left, right)}; LinearOperator in a
# key stands for any type. Other pairs give a LinearOperatorComposition.
_PRODUCTS: dict = {}


def register_product(left_type, right_type):
    """Decorator registering `rule(left, right)`, the product of two operators of these types
    as one operator."""
    def register(rule):
        _PRODUCTS[(left_type, right_type)] = rule
        return rule
    return register


def operator_product(left, right) -> "LinearOperator":
    """left @ right as one operator: a structured one where a rule is registered, else their
    composition."""
    for key in ((type(left), type(right)), (type(left), LinearOperator),
                (LinearOperator, type(right))):
        if key in _PRODUCTS:
            return _PRODUCTS[key](left, right)
    return LinearOperatorComposition([left, right])


def both_non_singular(left, right):
    """The non-singularity hint of a product: True if both are, False if either is not."""
    hints = (left.is_non_singular, right.is_non_singular)
    return False if False in hints else (True if hints == (True, True) else None)


class LinearOperator(Module):
    """Base class of linear operators: an [..., M, N] batch of matrices used through
    matmul, solve, determinant and friends.

    Args:
        dtype: the dtype of the matrices and of what they multiply.
        graph_parents: unused (TF's deprecated argument).
        is_non_singular, is_self_adjoint, is_positive_definite, is_square: hints (True,
            False, or None for unknown) that let methods take cheaper paths and refuse
            impossible requests.
        name: the operator's name.
        parameters: the constructor's arguments, as a dict.

    Raises:
        ValueError: contradictory hints.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorFullMatrix([[2.0, 0.0], [0.0, 4.0]])
        >>> operator.matvec([1.0, 1.0]).numpy(), float(operator.determinant())
        (array([2., 4.], dtype=float32), 8.0)
    """

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None,
                 parameters=None) -> None:
        super().__init__()
        # Any string names an operator (composites join names with "_o_", "_x_", ...), not
        # only the identifiers a Module takes.
        self._name = str(name or type(self).__name__)
        self._name_scope = name_scope(self._name + "/")
        (self._is_non_singular, self._is_self_adjoint, self._is_positive_definite,
         self._is_square_hint) = implied_hints(is_non_singular, is_self_adjoint,
                                               is_positive_definite, is_square)
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self._parameters = dict(parameters or {})

    # -- what subclasses define --------------------------------------------------------------
    def _shape(self) -> TensorShape:
        raise NotImplementedError(f"{type(self).__name__} must define _shape.")

    def _matmul(self, x, adjoint: bool, adjoint_arg: bool) -> Tensor:
        dense = self.to_dense()
        return matmul(dense, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _to_dense(self) -> Tensor:
        identity = eye(self.domain_dimension, batch_shape=self.batch_shape.as_list(),
                       dtype=self.dtype)
        return self._matmul(identity, adjoint=False, adjoint_arg=False)

    # -- facts ----------------------------------------------------------------------------
    def hints(self) -> dict:
        """The four hints as keyword arguments, for an operator built from this one."""
        return {"is_non_singular": self.is_non_singular, "is_self_adjoint": self.is_self_adjoint,
                "is_positive_definite": self.is_positive_definite,
                "is_square": self._is_square_hint}

    @property
    def dtype(self):
        """The dtype of the operator's entries."""
        return self._dtype

    @property
    def parameters(self) -> dict:
        """The constructor's arguments."""
        return dict(self._parameters)

    @property
    def graph_parents(self) -> list:
        """Deprecated in TF; always empty."""
        return []

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        """The hint, or else whether the domain and range dimensions agree (None while one
        is unknown)."""
        dims = (self.domain_dimension, self.range_dimension)
        square = None if None in dims else dims[0] == dims[1]
        if self._is_square_hint is False and square:
            raise ValueError("User set is_square hint to False, but the operator was square.")
        return square if self._is_square_hint is None else self._is_square_hint

    @property
    def shape(self) -> TensorShape:
        """The static shape [..., M, N]."""
        return self._shape()

    @property
    def batch_shape(self) -> TensorShape:
        return TensorShape(self.shape.as_list()[:-2])

    @property
    def tensor_rank(self) -> int:
        return self.shape.rank

    @property
    def range_dimension(self):
        return self.shape.as_list()[-2]

    @property
    def domain_dimension(self):
        return self.shape.as_list()[-1]

    def shape_tensor(self, name="shape_tensor") -> Tensor:
        return constant(self.shape.as_list(), dtypes.int32)

    def batch_shape_tensor(self, name="batch_shape_tensor") -> Tensor:
        return constant(self.batch_shape.as_list(), dtypes.int32)

    def tensor_rank_tensor(self, name="tensor_rank_tensor") -> Tensor:
        return constant(self.tensor_rank, dtypes.int32)

    def range_dimension_tensor(self, name="range_dimension_tensor") -> Tensor:
        return constant(self.range_dimension, dtypes.int32)

    def domain_dimension_tensor(self, name="domain_dimension_tensor") -> Tensor:
        return constant(self.domain_dimension, dtypes.int32)

    # -- products and solves --------------------------------------------------------------
    def _typed(self, x, what: str) -> Tensor:
        """`x` as a tensor of this operator's dtype."""
        x = convert_to_tensor(x)
        if x.dtype != self.dtype:
            raise TypeError(f"{self.name}.{what}: expected an argument of dtype "
                            f"{self.dtype.name}, got {x.dtype.name} (shape {list(x.shape)}).")
        return x

    def _argument(self, x, rank: int, adjoint: bool, adjoint_arg: bool, what: str) -> Tensor:
        """`x` as a tensor of this operator's dtype, its size checked against the dimension
        the product (or solve) contracts."""
        x = self._typed(x, what)
        if x.ndim < rank:
            raise ValueError(f"{self.name}.{what}: the argument must have rank >= {rank}, got "
                             f"shape {list(x.shape)}.")
        size = x.shape[-1] if rank == 1 or adjoint_arg else x.shape[-2]
        solving = what.startswith("solve")
        expected = self.range_dimension if adjoint != solving else self.domain_dimension
        if None not in (size, expected) and size != expected:
            raise ValueError(f"{self.name}.{what}: dimensions {size} and {expected} are not "
                             f"compatible (operator shape {self.shape.as_list()}, argument "
                             f"shape {list(x.shape)}, adjoint={adjoint}).")
        return x

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """The operator times x: [..., M, N] @ [..., N, R] -> [..., M, R].

        Args:
            x: a tensor, or a LinearOperator (the result is then their product as an
                operator: a structured one where TF has one, such as Diag @ Diag, else their
                composition).
            adjoint: use the operator's adjoint.
            adjoint_arg: use x's adjoint.

        Raises:
            TypeError: a dtype other than the operator's.
            ValueError: sizes that do not match.
        """
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            return operator_product(left, x.adjoint() if adjoint_arg else x)
        x = self._argument(x, 2, adjoint, adjoint_arg, "matmul")
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def matvec(self, x, adjoint=False, name="matvec") -> Tensor:
        """The operator times a vector: [..., M, N] @ [..., N] -> [..., M]."""
        x = self._argument(x, 1, adjoint, False, "matvec")
        return self._matvec(x, adjoint=adjoint)

    def _matvec(self, x, adjoint: bool) -> Tensor:
        column = self._matmul(expand_dims(x, -1), adjoint=adjoint, adjoint_arg=False)
        return reshape(column, column.shape[:-1])


    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """x with operator @ x = rhs (adjoint(operator) @ x = rhs with `adjoint`).

        Raises:
            NotImplementedError: the hints say the operator is singular or not square.
            TypeError, ValueError: as for `matmul`.
        """
        self._check_square("Exact solve", solving=True)
        if isinstance(rhs, LinearOperator):
            left = self.adjoint() if adjoint else self
            return operator_product(left.inverse(), rhs.adjoint() if adjoint_arg else rhs)
        rhs = self._argument(rhs, 2, adjoint, adjoint_arg, "solve")
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint: bool, adjoint_arg: bool) -> Tensor:
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        matrix = self.to_dense()
        if tuple(matrix.shape[:-2]) != tuple(rhs.shape[:-2]):  # solve wants equal batches
            batch = list(np.broadcast_shapes(tuple(matrix.shape[:-2]), tuple(rhs.shape[:-2])))
            matrix = broadcast_to(matrix, batch + list(matrix.shape[-2:]))
            rhs = broadcast_to(rhs, batch + list(rhs.shape[-2:]))
        return solve(matrix, rhs, adjoint=adjoint)

    def solvevec(self, rhs, adjoint=False, name="solve") -> Tensor:
        """x with operator @ x = rhs for vectors: rhs [..., M] -> x [..., N]."""
        self._check_square("Exact solve", solving=True)
        rhs = self._argument(rhs, 1, adjoint, False, "solvevec")
        column = self._solve(expand_dims(rhs, -1), adjoint=adjoint, adjoint_arg=False)
        return reshape(column, column.shape[:-1])

    def _check_square(self, what: str, solving: bool = False) -> None:
        """Refuses `what` for an operator hinted not square (or, `solving`, singular)."""
        for refused, expected in ((solving and self.is_non_singular is False, "be singular"),
                                  (self.is_square is False, "not be square")):
            if refused:
                raise NotImplementedError(f"{what} not implemented for an operator that is "
                                          f"expected to {expected} ({self.name}).")

    # -- reductions -------------------------------------------------------------------------
    def determinant(self, name="det") -> Tensor:
        """The determinant of each matrix, shape batch_shape.

        Raises:
            NotImplementedError: the operator is known not to be square.
        """
        self._check_square("Determinant")
        return self._determinant()

    def _determinant(self) -> Tensor:
        return det(self.to_dense())

    def log_abs_determinant(self, name="log_abs_det") -> Tensor:
        """log|det| of each matrix, shape batch_shape, of the operator's dtype (as TF, complex
        for a complex operator)."""
        self._check_square("Determinant")
        return cast(self._log_abs_determinant(), self.dtype)

    def _log_abs_determinant(self) -> Tensor:
        return slogdet(self.to_dense())[1]

    def to_dense(self, name="to_dense") -> Tensor:
        """The matrices as a dense [..., M, N] tensor."""
        return self._to_dense()

    def diag_part(self, name="diag_part") -> Tensor:
        """The main diagonal of each matrix, [..., min(M, N)]."""
        return self._diag_part()

    def _diag_part(self) -> Tensor:
        return diag_part(self.to_dense())

    def trace(self, name="trace") -> Tensor:
        """The sum of the main diagonal of each matrix."""
        return self._trace()

    def _trace(self) -> Tensor:
        return reduce_sum(self.diag_part(), axis=-1)

    def add_to_tensor(self, x, name="add_to_tensor") -> Tensor:
        """x + the dense matrices."""
        return self.to_dense() + self._typed(x, "add_to_tensor")

    def eigvals(self, name="eigvals") -> Tensor:
        """The eigenvalues of a self-adjoint operator, ascending.

        Raises:
            NotImplementedError: the operator is not hinted self-adjoint.
        """
        if not self.is_self_adjoint:
            raise NotImplementedError(f"Only self-adjoint matrices are supported ({self.name}).")
        return self._eigvals()

    def _eigvals(self) -> Tensor:
        return eigvalsh(self.to_dense())

    def cond(self, name="cond") -> Tensor:
        """The condition number: the ratio of the largest to the smallest singular value."""
        if self.is_self_adjoint:
            values = abs(self.eigvals())
        else:
            values = svd(self.to_dense(), compute_uv=False)
        return reduce_max(values, axis=-1) / reduce_min(values, axis=-1)

    # -- operators made of this one -------------------------------------------------------
    def adjoint(self, name="adjoint") -> "LinearOperator":
        """The adjoint operator: this one when it is self-adjoint, else one of this class
        where the structure allows, else a LinearOperatorAdjoint."""
        return self if self.is_self_adjoint is True else self._adjoint()

    def _adjoint(self) -> "LinearOperator":
        return LinearOperatorAdjoint(self)

    H = property(adjoint, doc="The adjoint operator.")

    def inverse(self, name="inverse") -> "LinearOperator":
        """The inverse operator: one of this class where the structure allows, else a
        LinearOperatorInversion.

        Raises:
            ValueError: the hints say the operator is singular or not square.
        """
        if self.is_square is False:
            raise ValueError(f"Cannot take the Inverse: This operator represents a non square "
                             f"matrix ({self.name}).")
        if self.is_non_singular is False:
            raise ValueError(f"Cannot take the Inverse: This operator represents a singular "
                             f"matrix ({self.name}).")
        return self._inverse()

    def _inverse(self) -> "LinearOperator":
        return LinearOperatorInversion(self)

    def cholesky(self, name="cholesky") -> "LinearOperator":
        """The lower-triangular Cholesky factor: an operator of this class where the
        structure allows (a diagonal's is diagonal), else a LinearOperatorLowerTriangular.

        Raises:
            ValueError: the operator is not hinted self-adjoint and positive definite.
        """
        if not (self.is_positive_definite and self.is_self_adjoint):
            raise ValueError(f"Cholesky decomposition only exists for self-adjoint positive "
                             f"definite matrices; hint them so ({self.name}).")
        return self._cholesky()

    def _cholesky(self) -> "LinearOperator":
        from .linear_operator_structured import LinearOperatorLowerTriangular
        return LinearOperatorLowerTriangular(cholesky(self.to_dense()), is_non_singular=True,
                                             is_square=True)

    # -- assertions ----------------------------------------------------------------------
    def _require(self, holds, what: str) -> None:
        if not bool(reduce_all(holds)):
            raise InvalidArgumentError(None, None, f"{self.name}: the operator is not {what}.")

    def assert_non_singular(self, name="assert_non_singular"):
        """Raises InvalidArgumentError unless every matrix is non-singular (well conditioned
        to the dtype's precision)."""
        eps = np.finfo(self.dtype.real_dtype.as_numpy_dtype).eps
        self._require(self.cond() < 1 / eps, "non-singular")

    def assert_positive_definite(self, name="assert_positive_definite"):
        """Raises InvalidArgumentError unless every matrix is (Hermitian) positive definite."""
        self._require(real(eigvalsh(self.to_dense())) > 0, "positive definite")

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        """Raises InvalidArgumentError unless every matrix equals its adjoint."""
        dense = self.to_dense()
        self._require(dense == adjoint_of(dense), "self-adjoint")

    def __repr__(self) -> str:
        return (f"<tf.linalg.{type(self).__name__} '{self.name}' is_non_singular="
                f"{self.is_non_singular} is_self_adjoint={self.is_self_adjoint} "
                f"is_positive_definite={self.is_positive_definite} is_square={self.is_square} "
                f"shape={self.shape} dtype={self.dtype.name}>")


def _broadcast_batch(operators) -> list:
    return list(np.broadcast_shapes(*[tuple(op.batch_shape.as_list()) for op in operators]))


def checked_operators(operators, kind: str) -> list:
    """`operators` as a non-empty list of LinearOperators of one dtype."""
    operators = list(operators)
    if not operators:
        raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
    for op in operators:
        if not isinstance(op, LinearOperator):
            raise TypeError(f"{kind}: every operator must be a LinearOperator, got "
                            f"{type(op).__name__}.")
        if op.dtype != operators[0].dtype:
            raise TypeError(f"{kind}: expected all operators to have the same dtype. Found "
                            f"{operators[0].dtype.name} and {op.dtype.name} ({op.name}).")
    return operators


class CombinedOperator(LinearOperator):
    """An operator made of a list of others, named after them joined by `joiner`."""

    def __init__(self, operators, joiner: str, name=None, **hints) -> None:
        operators = checked_operators(operators, type(self).__name__)
        super().__init__(operators[0].dtype, **hints,
                         name=name or joiner.join(op.name for op in operators),
                         parameters={"operators": operators})
        self._operators = operators

    @property
    def operators(self) -> list:
        return list(self._operators)

    def _product(self, method: str, power=lambda op: 1, parts=None):
        """The product over the parts (or `parts`) of `op.method() ** power(op)`."""
        result = None
        for op in self._operators if parts is None else parts:
            factor = getattr(op, method)()
            factor = factor if power(op) == 1 else factor ** power(op)
            result = factor if result is None else result * factor
        return result


class LinearOperatorComposition(CombinedOperator):
    """The product of operators: operators[0] @ operators[1] @ ... applied right to left.

    Args:
        operators: a non-empty list of LinearOperators of one dtype, each one's domain the
            next one's range.

    Raises:
        TypeError: operators of different dtypes.
        ValueError: an empty list or dimensions that do not chain.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
        >>> b = tf.linalg.LinearOperatorDiag([2.0, 3.0])
        >>> tf.linalg.LinearOperatorComposition([a, b]).to_dense().numpy()
        array([[ 2.,  6.],
               [ 6., 12.]], dtype=float32)
    """

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None) -> None:
        operators = checked_operators(operators, "LinearOperatorComposition")
        for left, right in zip(operators, operators[1:]):
            if None not in (left.domain_dimension, right.range_dimension) and \
                    left.domain_dimension != right.range_dimension:
                raise ValueError(f"Operators are incompatible: {left.name} has domain dimension "
                                 f"{left.domain_dimension}, {right.name} range dimension "
                                 f"{right.range_dimension}.")
        is_non_singular = combined_hint("non-singularity", is_non_singular,
                                        all(op.is_non_singular for op in operators))
        super().__init__(operators, "_o_", name, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square)

    def _shape(self) -> TensorShape:
        return TensorShape(_broadcast_batch(self._operators) + [
            self._operators[0].range_dimension, self._operators[-1].domain_dimension])

    def _matmul(self, x, adjoint, adjoint_arg):
        order = self._operators if adjoint else self._operators[::-1]
        x = order[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in order[1:]:
            x = op.matmul(x, adjoint=adjoint)
        return x

    def _solve(self, rhs, adjoint, adjoint_arg):
        if not all(op.is_square for op in self._operators):
            return super()._solve(rhs, adjoint, adjoint_arg)
        order = self._operators[::-1] if adjoint else self._operators
        rhs = order[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in order[1:]:
            rhs = op.solve(rhs, adjoint=adjoint)
        return rhs

    def _determinant(self):
        if not all(op.is_square for op in self._operators):
            return super()._determinant()
        return self._product("determinant")

    def _log_abs_determinant(self):
        if not all(op.is_square for op in self._operators):
            return super()._log_abs_determinant()
        return sum(op.log_abs_determinant() for op in self._operators)


def inherited_hints(operator, relation: str, **given) -> dict:
    """Each given hint, or `operator`'s where none is given: an operator and its `relation`
    (adjoint, inverse) share them, so a given hint contradicting the operator's is an error."""
    hints = {}
    for hint, value in given.items():
        inherited = getattr(operator, hint)
        if value is not None and inherited is not None and value != inherited:
            raise ValueError(f"An operator is {hint[3:]} if and only if its {relation} is "
                             f"({operator.name} has {hint}={inherited}).")
        hints[hint] = inherited if value is None else value
    return hints


class LinearOperatorAdjoint(LinearOperator):
    """The adjoint (conjugate transpose) of an operator, without forming it.

    Args:
        operator: the LinearOperator to take the adjoint of; its hints carry over.

    Raises:
        ValueError: a hint that contradicts the operator's.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
        >>> tf.linalg.LinearOperatorAdjoint(a).to_dense().numpy()
        array([[1., 3.],
               [2., 4.]], dtype=float32)
    """

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None) -> None:
        hints = inherited_hints(operator, "adjoint", is_non_singular=is_non_singular,
                                is_self_adjoint=is_self_adjoint,
                                is_positive_definite=is_positive_definite, is_square=is_square)
        super().__init__(operator.dtype, **hints, name=name or operator.name + "_adjoint",
                         parameters={"operator": operator})
        self._operator = operator

    @property
    def operator(self) -> LinearOperator:
        return self._operator

    def _shape(self) -> TensorShape:
        dims = self._operator.shape.as_list()
        return TensorShape(dims[:-2] + [dims[-1], dims[-2]])

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return conj(self._operator.determinant())

    def _log_abs_determinant(self):
        return self._operator.log_abs_determinant()

    def _diag_part(self):
        return conj(self._operator.diag_part())

    def _to_dense(self):
        return adjoint_of(self._operator.to_dense())

    def _adjoint(self) -> LinearOperator:
        return self._operator


class LinearOperatorInversion(LinearOperator):
    """The inverse of an operator, applied by solving with it.

    Args:
        operator: a square LinearOperator not hinted singular; its hints carry over.

    Raises:
        ValueError: the operator is hinted singular or not square.

    Example:
        >>> import tapeflow as tf
        >>> a = tf.linalg.LinearOperatorDiag([2.0, 4.0])
        >>> tf.linalg.LinearOperatorInversion(a).matvec([1.0, 1.0]).numpy()
        array([0.5 , 0.25], dtype=float32)
    """

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None) -> None:
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(f"operator and supplied hints must be non-singular ("
                             f"{operator.name}).")
        if operator.is_square is False or is_square is False:
            raise ValueError(f"An inverse exists only for square operators ({operator.name}).")
        hints = inherited_hints(operator, "inverse", is_self_adjoint=is_self_adjoint,
                                is_positive_definite=is_positive_definite)
        super().__init__(operator.dtype, is_non_singular=is_non_singular, is_square=is_square,
                         **hints,
                         name=name or operator.name + "_inv", parameters={"operator": operator})
        self._operator = operator

    @property
    def operator(self) -> LinearOperator:
        return self._operator

    def _shape(self) -> TensorShape:
        return self._operator.shape

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return 1.0 / self._operator.determinant()

    def _log_abs_determinant(self):
        return -self._operator.log_abs_determinant()

    def _to_dense(self):
        return inv(self._operator.to_dense())

    def _inverse(self) -> LinearOperator:
        return self._operator

