"""Circulant LinearOperators, and their block-circulant 2-D and 3-D forms: matrices that the
discrete Fourier transform diagonalizes, given by that diagonal, the spectrum. Products and
solves are FFTs (O(N log N) a column); determinants are products of the spectrum."""
from __future__ import annotations

import math

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.tensor import constant
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import reshape, transpose
from ..ops.complex_ops import conj, imag, real
from ..ops.creation_ops import ones
from ..ops.linalg_ops import adjoint as adjoint_of
from ..ops.math_ops import abs, cast, log, reduce_mean, reduce_sum
from ..ops.reduction_ops import reduce_all, reduce_prod
from ..ops.signal_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d
from .linear_operator import LinearOperator, both_non_singular, register_product
from .linear_operator_structured import operator_tensor

__all__ = ["LinearOperatorCirculant", "LinearOperatorCirculant2D", "LinearOperatorCirculant3D"]

_TRANSFORMS = {1: (fft, ifft), 2: (fft2d, ifft2d), 3: (fft3d, ifft3d)}


class _BaseCirculant(LinearOperator):
    """A circulant operator of block depth 1, 2 or 3 (the last `block_depth` axes of the
    spectrum are the block shape), with TF's constructor (named after its class by
    default)."""

    block_depth_value: int

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name=None) -> None:
        self._spectrum = operator_tensor(spectrum, "spectrum", self.block_depth_value)
        if is_square is False:
            raise ValueError("A circulant operator is always square.")
        if not self._spectrum.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real spectrum always makes a self-adjoint operator.")
            is_self_adjoint = True
        super().__init__(input_output_dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         name=name or type(self).__name__,
                         parameters={"spectrum": spectrum,
                                     "input_output_dtype": input_output_dtype})

    @property
    def spectrum(self):
        return self._spectrum

    @property
    def block_depth(self) -> int:
        return self.block_depth_value

    @property
    def block_shape(self) -> TensorShape:
        return TensorShape(list(self._spectrum.shape)[-self.block_depth:])

    def block_shape_tensor(self):
        return constant(self.block_shape.as_list(), dtypes.int32)

    def _shape(self):
        dims = list(self._spectrum.shape)
        size = math.prod(dims[-self.block_depth:])
        return TensorShape(dims[:-self.block_depth] + [size, size])

    def _complex_spectrum(self):
        complex_dtype = dtypes.complex128 if self.dtype in (dtypes.float64, dtypes.complex128) \
            else dtypes.complex64
        return cast(self._spectrum, complex_dtype)

    def _as_output(self, z):
        return cast(real(z) if not self.dtype.is_complex else z, self.dtype)

    def _apply(self, x, adjoint: bool, adjoint_arg: bool, inverse: bool):
        """ifft(spectrum^(+-1) * fft(x)) over the block axes of each column of x."""
        x = adjoint_of(x) if adjoint_arg else x
        spectrum = self._complex_spectrum()
        spectrum = conj(spectrum) if adjoint else spectrum
        forward, backward = _TRANSFORMS[self.block_depth]
        rank = len(x.shape)
        columns = transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])
        block_shape = self.block_shape.as_list()
        blocks = reshape(cast(columns, spectrum.dtype), list(columns.shape[:-1]) + block_shape)
        # The spectrum's batch axes broadcast against those before the columns' axis.
        spectrum = reshape(spectrum, self.batch_shape.as_list() + [1] + block_shape)
        transformed = forward(blocks)
        transformed = transformed / spectrum if inverse else transformed * spectrum
        out = backward(transformed)
        out = reshape(out, list(out.shape[:-self.block_depth]) + [self.domain_dimension])
        rank = len(out.shape)
        return self._as_output(transpose(out, list(range(rank - 2)) + [rank - 1, rank - 2]))

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._apply(x, adjoint, adjoint_arg, inverse=False)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._apply(rhs, adjoint, adjoint_arg, inverse=True)

    def _block_axes(self) -> list:
        return list(range(-self.block_depth, 0))

    def _determinant(self):
        return self._as_output(reduce_prod(self._complex_spectrum(), axis=self._block_axes()))

    def _log_abs_determinant(self):
        return reduce_sum(log(abs(self._complex_spectrum())), axis=self._block_axes())

    def _trace(self):
        return self._as_output(reduce_sum(self._complex_spectrum(), axis=self._block_axes()))

    def _diag_part(self):
        mean = reduce_mean(self._complex_spectrum(), axis=self._block_axes())
        return self._as_output(mean[..., None] * ones([self.domain_dimension], mean.dtype))

    def _eigvals(self):
        values = reshape(self._complex_spectrum(),
                         self.batch_shape.as_list() + [self.domain_dimension])
        return self._as_output(values)

    def _with_spectrum(self, spectrum, **hints):
        return type(self)(spectrum, input_output_dtype=self.dtype, **hints)

    def _adjoint(self):
        return self._with_spectrum(conj(self._spectrum), **self.hints())

    def _inverse(self):
        return self._with_spectrum(1.0 / self._complex_spectrum(), **self.hints())

    def convolution_kernel(self, name="convolution_kernel"):
        """The first column's blocks: the inverse DFT of the spectrum."""
        return self._as_output(_TRANSFORMS[self.block_depth][1](self._complex_spectrum()))

    def assert_hermitian_spectrum(self, name="assert_hermitian_spectrum"):
        """Raises InvalidArgumentError unless the spectrum makes a real operator (its
        convolution kernel is real)."""
        kernel = _TRANSFORMS[self.block_depth][1](self._complex_spectrum())
        scale = np.finfo(kernel.dtype.real_dtype.as_numpy_dtype).eps * 100
        if not bool(reduce_all(abs(imag(kernel)) <= scale * (1 + abs(real(kernel))))):
            raise InvalidArgumentError(None, None, f"{self.name}: the spectrum is not "
                                                   f"Hermitian.")


class LinearOperatorCirculant(_BaseCirculant):
    """A circulant operator given by its spectrum: C x = ifft(spectrum * fft(x)).

    Args:
        spectrum: a float or complex tensor (or Variable) of shape [..., N]; a real one makes
            the operator self-adjoint.
        input_output_dtype: the dtype of the operator and of what it multiplies.

    Raises:
        ValueError: is_square False, or is_self_adjoint False for a real spectrum.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorCirculant([4.0, 1.0, 1.0, 1.0],
        ...                                              input_output_dtype=tf.float32)
        >>> operator.to_dense().numpy()[0]
        array([1.75, 0.75, 0.75, 0.75], dtype=float32)
    """

    block_depth_value = 1


class LinearOperatorCirculant2D(_BaseCirculant):
    """A block circulant operator with circulant blocks, given by its 2-D spectrum
    [..., N0, N1] (the operator is N0 * N1 square); see LinearOperatorCirculant.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorCirculant2D([[4.0, 1.0], [1.0, 1.0]],
        ...                                                input_output_dtype=tf.float32)
        >>> operator.shape
        TensorShape([4, 4])
    """

    block_depth_value = 2


class LinearOperatorCirculant3D(_BaseCirculant):
    """A block circulant operator with 2-D circulant blocks, given by its 3-D spectrum
    [..., N0, N1, N2]; see LinearOperatorCirculant.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorCirculant3D(tf.ones([2, 2, 2]),
        ...                                                input_output_dtype=tf.float32)
        >>> float(operator.trace())
        8.0
    """

    block_depth_value = 3


def _circulant_product(left, right):
    return left._with_spectrum(left._complex_spectrum() * right._complex_spectrum(),
                               is_non_singular=both_non_singular(left, right))


for _class in (LinearOperatorCirculant, LinearOperatorCirculant2D, LinearOperatorCirculant3D):
    register_product(_class, _class)(_circulant_product)
