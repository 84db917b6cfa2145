"""LinearOperators held as one tensor (or none): a full matrix, a lower triangle, a diagonal,
a scaled identity, the identity and zeros, and the products of them that keep a structure.
Each overrides what its structure makes cheaper than the dense path of the base class."""
from __future__ import annotations

import numbers

import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from ..ops.array_ops import expand_dims
from ..ops.complex_ops import conj, real
from ..ops.creation_ops import eye, ones, zeros
from ..ops.diag_ops import band_part, diag, diag_part
from ..ops.linalg_ops import adjoint as adjoint_of
from ..ops.linalg_ops import triangular_solve
from ..ops.math_ops import abs, cast, log, matmul, reduce_sum, sqrt
from ..ops.reduction_ops import reduce_prod
from .linear_operator import LinearOperator, both_non_singular, register_product

__all__ = ["LinearOperatorDiag", "LinearOperatorFullMatrix", "LinearOperatorIdentity",
           "LinearOperatorLowerTriangular", "LinearOperatorScaledIdentity", "LinearOperatorZeros",
           "column", "operator_tensor"]

_OPERATOR_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64,
                    dtypes.complex128)


def operator_tensor(value, argument: str, min_rank: int):
    """`value` as the tensor an operator holds (a Variable stays one, so its updates and
    gradients reach the operator), its dtype and rank checked as TF does."""
    tensor = value if isinstance(value, (Tensor, Variable)) else convert_to_tensor(value)
    if tensor.dtype not in _OPERATOR_DTYPES:
        raise TypeError(f"Argument {argument} must have dtype in "
                        f"{[d.name for d in _OPERATOR_DTYPES]}, got {tensor.dtype.name} "
                        f"(shape {list(tensor.shape)}).")
    if len(tensor.shape) < min_rank:
        raise ValueError(f"Argument {argument} must have at least {min_rank} dimensions. "
                         f"Found: shape {list(tensor.shape)}.")
    return tensor


# The hints of a Cholesky factor that is diagonal: positive definite, so non-singular.
_FACTOR_HINTS = {"is_non_singular": True, "is_self_adjoint": True, "is_positive_definite": True,
                 "is_square": True}


def _real_is_self_adjoint(tensor, is_self_adjoint):
    """A real diagonal (or scaled identity) is self-adjoint."""
    if tensor.dtype.is_complex:
        return is_self_adjoint
    if is_self_adjoint is False:
        raise ValueError("A real diagonal operator is always self adjoint.")
    return True


def column(x):
    """[..., n] as [..., n, 1]: a diagonal scaling the rows of a matrix."""
    return expand_dims(x, -1)


class LinearOperatorFullMatrix(LinearOperator):
    """An operator that is a dense [..., M, N] matrix.

    Args:
        matrix: a float16/32/64 or complex64/128 tensor (or Variable) of rank >= 2.

    Raises:
        TypeError: another dtype. ValueError: rank below 2.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
        >>> operator.shape, float(operator.determinant())
        (TensorShape([2, 2]), -2.0)
    """

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorFullMatrix"):
        self._matrix = operator_tensor(matrix, "matrix", 2)
        super().__init__(self._matrix.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name, parameters={"matrix": matrix})

    def _shape(self):
        return TensorShape(list(self._matrix.shape))

    def _matmul(self, x, adjoint, adjoint_arg):
        return matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _to_dense(self):
        return convert_to_tensor(self._matrix)


class LinearOperatorLowerTriangular(LinearOperator):
    """A square lower-triangular operator; only the lower triangle of `tril` is read.

    Args:
        tril: a tensor (or Variable) of shape [..., N, N].

    Raises:
        ValueError: is_square=False, or rank below 2.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorLowerTriangular([[2.0, 9.0], [1.0, 4.0]])
        >>> operator.solvevec([2.0, 5.0]).numpy()
        array([1., 1.], dtype=float32)
    """

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowerTriangular"):
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        self._tril = operator_tensor(tril, "tril", 2)
        super().__init__(self._tril.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"tril": tril})

    def _shape(self):
        return TensorShape(list(self._tril.shape))

    def _to_dense(self):
        return band_part(self._tril, -1, 0)

    def _matmul(self, x, adjoint, adjoint_arg):
        return matmul(self._to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        return triangular_solve(self._tril, rhs, lower=True, adjoint=adjoint)

    def _diag_part(self):
        return diag_part(self._tril)

    def _determinant(self):
        return reduce_prod(self._diag_part(), axis=-1)

    def _log_abs_determinant(self):
        return reduce_sum(log(abs(self._diag_part())), axis=-1)


class LinearOperatorDiag(LinearOperator):
    """A square diagonal operator, [..., N] diagonal entries as an [..., N, N] matrix.

    Args:
        diag: a tensor (or Variable) of shape [..., N]; real ones make the operator
            self-adjoint.

    Raises:
        ValueError: rank below 1, is_square=False, or is_self_adjoint=False for a real diag.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorDiag([1.0, 2.0, 4.0])
        >>> round(float(operator.log_abs_determinant()), 4), operator.is_self_adjoint
        (2.0794, True)
    """

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorDiag"):
        self._diag = operator_tensor(diag, "diag", 1)
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        super().__init__(self._diag.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=_real_is_self_adjoint(self._diag, is_self_adjoint),
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"diag": diag})

    @property
    def diag(self):
        return self._diag

    def _shape(self):
        dims = list(self._diag.shape)
        return TensorShape(dims + dims[-1:])

    def _scale(self, adjoint: bool):
        return column(conj(self._diag) if adjoint else self._diag)

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._scale(adjoint) * (adjoint_of(x) if adjoint_arg else x)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return (adjoint_of(rhs) if adjoint_arg else rhs) / self._scale(adjoint)

    def _to_dense(self):
        return diag(self._diag)

    def _diag_part(self):
        return convert_to_tensor(self._diag)

    def _determinant(self):
        return reduce_prod(self._diag, axis=-1)

    def _log_abs_determinant(self):
        return reduce_sum(log(abs(self._diag)), axis=-1)

    def _eigvals(self):
        values = convert_to_tensor(self._diag)
        return real(values) if values.dtype.is_complex else values

    def _adjoint(self):
        return LinearOperatorDiag(conj(self._diag), **self.hints())

    def _inverse(self):
        return LinearOperatorDiag(1.0 / self._diag, **self.hints())

    def _cholesky(self):
        return LinearOperatorDiag(sqrt(self._diag), **_FACTOR_HINTS)


def _row_count(value, argument: str) -> int:
    """A non-negative integer size argument."""
    count = getattr(value, "numpy", lambda: value)()
    if not isinstance(count, numbers.Integral) and not (
            hasattr(count, "dtype") and count.dtype.kind in "iu" and count.ndim == 0):
        raise TypeError(f"Argument {argument} must be an integer, got {value!r}.")
    if count < 0:
        raise ValueError(f"Argument {argument} must be non-negative, got {int(count)}.")
    return int(count)


def _batch_dims(batch_shape) -> list:
    if batch_shape is None:
        return []
    return [_row_count(d, "batch_shape") for d in
            getattr(batch_shape, "numpy", lambda: batch_shape)()]


class LinearOperatorIdentity(LinearOperator):
    """The identity operator of size num_rows (over `batch_shape`), holding no matrix.

    Args:
        num_rows: a non-negative integer.
        batch_shape: a list of non-negative integers, or None.
        dtype: the dtype (float32 by default).

    Raises:
        ValueError: a negative size, or a hint that is not True.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.LinearOperatorIdentity(2).matvec([3.0, 4.0]).numpy()
        array([3., 4.], dtype=float32)
    """

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True,
                 is_self_adjoint=True, is_positive_definite=True, is_square=True,
                 assert_proper_shapes=False, name="LinearOperatorIdentity"):
        for hint, given in (("non-singular", is_non_singular), ("self adjoint", is_self_adjoint),
                            ("positive definite", is_positive_definite),
                            ("square", is_square)):
            if not given:
                raise ValueError(f"An identity operator is always {hint}.")
        self._num_rows = _row_count(num_rows, "num_rows")
        self._batch = _batch_dims(batch_shape)
        super().__init__(dtypes.float32 if dtype is None else dtype, is_non_singular=True,
                         is_self_adjoint=True, is_positive_definite=True, is_square=True,
                         name=name, parameters={"num_rows": num_rows, "batch_shape": batch_shape,
                                                "dtype": dtype})

    def _shape(self):
        return TensorShape(self._batch + [self._num_rows, self._num_rows])

    def _matmul(self, x, adjoint, adjoint_arg):
        x = adjoint_of(x) if adjoint_arg else x
        return x + zeros(self._batch + [1, 1], self.dtype) if self._batch else x

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _to_dense(self):
        return eye(self._num_rows, batch_shape=self._batch, dtype=self.dtype)

    def _diag_part(self):
        return ones(self._batch + [self._num_rows], self.dtype)

    def _determinant(self):
        return ones(self._batch, self.dtype)

    def _log_abs_determinant(self):
        return zeros(self._batch, self.dtype.real_dtype)

    def _trace(self):
        return cast(self._num_rows, self.dtype) * ones(self._batch, self.dtype)

    def _eigvals(self):
        return ones(self._batch + [self._num_rows], self.dtype.real_dtype)

    def _inverse(self):
        return self

    def _cholesky(self):
        return self


class LinearOperatorScaledIdentity(LinearOperator):
    """multiplier * I of size num_rows; the batch shape is the multiplier's.

    Args:
        num_rows: a non-negative integer.
        multiplier: a tensor (or Variable) of shape batch_shape.

    Raises:
        ValueError: a negative size, is_square=False, or is_self_adjoint=False for a real
            multiplier.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorScaledIdentity(3, 2.0)
        >>> float(operator.determinant()), float(operator.trace())
        (8.0, 6.0)
    """

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorScaledIdentity"):
        if is_square is False:
            raise ValueError("A ScaledIdentity operator is always square.")
        self._num_rows = _row_count(num_rows, "num_rows")
        self._multiplier = operator_tensor(multiplier, "multiplier", 0)
        super().__init__(self._multiplier.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=_real_is_self_adjoint(self._multiplier,
                                                               is_self_adjoint),
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"num_rows": num_rows, "multiplier": multiplier})

    @property
    def multiplier(self):
        return self._multiplier

    def _shape(self):
        return TensorShape(list(self._multiplier.shape) + [self._num_rows, self._num_rows])

    def _scale(self, adjoint: bool):
        m = conj(self._multiplier) if adjoint else convert_to_tensor(self._multiplier)
        return column(column(m))

    def _matmul(self, x, adjoint, adjoint_arg):
        return (adjoint_of(x) if adjoint_arg else x) * self._scale(adjoint)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return (adjoint_of(rhs) if adjoint_arg else rhs) / self._scale(adjoint)

    def _to_dense(self):
        return self._scale(False) * eye(self._num_rows, dtype=self.dtype)

    def _diag_part(self):
        return column(self._multiplier) * ones([self._num_rows], self.dtype)

    def _determinant(self):
        return self._multiplier ** self._num_rows

    def _log_abs_determinant(self):
        return self._num_rows * log(abs(self._multiplier))

    def _trace(self):
        return cast(self._num_rows, self.dtype) * self._multiplier

    def _scaled(self, multiplier, **hints):
        return LinearOperatorScaledIdentity(self._num_rows, multiplier, **hints)

    def _adjoint(self):
        return self._scaled(conj(self._multiplier), **self.hints())

    def _inverse(self):
        return self._scaled(1.0 / self._multiplier, **self.hints())

    def _cholesky(self):
        return self._scaled(sqrt(self._multiplier), **_FACTOR_HINTS)


class LinearOperatorZeros(LinearOperator):
    """The zero operator of shape batch_shape + [num_rows, num_columns], holding no matrix.

    Args:
        num_rows: a non-negative integer.
        num_columns: a non-negative integer (num_rows when None).
        batch_shape: a list of non-negative integers, or None.
        dtype: the dtype (float32 by default).

    Raises:
        ValueError: a negative size, is_non_singular / is_positive_definite True, or
            is_square / is_self_adjoint True (the defaults) for a non-square shape.

    Example:
        >>> import tapeflow as tf
        >>> zeros = tf.linalg.LinearOperatorZeros(2, 3, is_square=False, is_self_adjoint=False)
        >>> zeros.matvec([1.0, 2.0, 3.0]).numpy()
        array([0., 0.], dtype=float32)
    """

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None,
                 is_non_singular=False, is_self_adjoint=True, is_positive_definite=False,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorZeros"):
        if is_non_singular:
            raise ValueError("A zero operator is always singular.")
        if is_positive_definite:
            raise ValueError("A zero operator is always not positive-definite.")
        self._num_rows = _row_count(num_rows, "num_rows")
        self._num_columns = self._num_rows if num_columns is None else \
            _row_count(num_columns, "num_columns")
        self._batch = _batch_dims(batch_shape)
        if is_square and self._num_rows != self._num_columns:
            raise ValueError(f"LinearOperatorZeros initialized as is_square=True, but got "
                             f"num_rows({self._num_rows}) != num_columns({self._num_columns}).")
        super().__init__(dtypes.float32 if dtype is None else dtype, is_non_singular=False,
                         is_self_adjoint=is_self_adjoint, is_positive_definite=False,
                         is_square=is_square, name=name,
                         parameters={"num_rows": num_rows, "num_columns": num_columns,
                                     "batch_shape": batch_shape, "dtype": dtype})

    def _shape(self):
        return TensorShape(self._batch + [self._num_rows, self._num_columns])

    def _matmul(self, x, adjoint, adjoint_arg):
        x = adjoint_of(x) if adjoint_arg else x
        rows = self._num_columns if adjoint else self._num_rows
        batch = np.broadcast_shapes(tuple(self._batch), tuple(x.shape[:-2]))
        return zeros(list(batch) + [rows, x.shape[-1]], self.dtype)

    def _to_dense(self):
        return zeros(self.shape.as_list(), self.dtype)

    def _diag_part(self):
        return zeros(self._batch + [min(self._num_rows, self._num_columns)], self.dtype)

    def _determinant(self):
        return zeros(self._batch, self.dtype)

    def _log_abs_determinant(self):
        return log(zeros(self._batch, self.dtype.real_dtype))

    def _trace(self):
        return zeros(self._batch, self.dtype)

    def add_to_tensor(self, x, name="add_to_tensor"):
        return self._typed(x, "add_to_tensor")


@register_product(LinearOperatorIdentity, LinearOperator)
def _identity_times(left, right):
    return right


@register_product(LinearOperator, LinearOperatorIdentity)
def _times_identity(left, right):
    return left


def _diagonal_of(operator):
    """The diagonal of a Diag, or a ScaledIdentity's multiplier broadcast along one."""
    if isinstance(operator, LinearOperatorDiag):
        return operator.diag
    return column(operator.multiplier) * ones([operator.domain_dimension], operator.dtype)


@register_product(LinearOperatorDiag, LinearOperatorDiag)
@register_product(LinearOperatorDiag, LinearOperatorScaledIdentity)
@register_product(LinearOperatorScaledIdentity, LinearOperatorDiag)
def _diagonal_product(left, right):
    return LinearOperatorDiag(_diagonal_of(left) * _diagonal_of(right),
                              is_non_singular=both_non_singular(left, right))


@register_product(LinearOperatorScaledIdentity, LinearOperatorScaledIdentity)
def _scaled_product(left, right):
    return LinearOperatorScaledIdentity(left.domain_dimension, left.multiplier * right.multiplier,
                                        is_non_singular=both_non_singular(left, right))


@register_product(LinearOperatorDiag, LinearOperatorLowerTriangular)
def _diagonal_times_lower(left, right):
    return LinearOperatorLowerTriangular(column(left.diag) * right.to_dense(),
                                         is_non_singular=both_non_singular(left, right))
