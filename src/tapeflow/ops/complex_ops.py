"""Complex numbers: building them from parts, the parts, conjugate and angle; kernels and the
public TF-named functions. (|z| is `abs` in math_ops.)

Each op is one `define_op` row; its gradient rule lives in `complex_grad.py`.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..framework.execute import execute
from ..framework.registry import LINEAR, TRANSPARENT, define_op
from ..framework.tensor import Tensor, constant, convert_to_tensor
from .comparison_ops import less
from .math_ops import cast
from .op_util import NO_ATTRS, binary_inputs


# -- kernels ---------------------------------------------------------------------------------
_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


def _complex(real, imag):
    shape = np.broadcast_shapes(np.shape(real), np.shape(imag))
    out = np.empty_like(real, dtype=_COMPLEX_OF[real.dtype], shape=shape)
    out.real = real
    out.imag = imag
    return out


# -- ops -------------------------------------------------------------------------------------
Complex = define_op("Complex", _complex, family=LINEAR, batching=TRANSPARENT)
Real = define_op("Real", np.real, family=LINEAR, batching=TRANSPARENT)
Imag = define_op("Imag", np.imag, family=LINEAR, batching=TRANSPARENT)
Conj = define_op("Conj", np.conj, family=LINEAR, batching=TRANSPARENT)
# Elementwise but not holomorphic: its JVP comes from the gradient rule, transposed.
Angle = define_op("Angle", np.angle, batching=TRANSPARENT)


# -- public functions ------------------------------------------------------------------------
def complex(real, imag, name=None) -> Tensor:  # noqa: A001  (TF's public name)
    """real + imag * 1j: complex64 from float32 parts, complex128 from float64 ones.

    Raises:
        TypeError: the parts are not float32 or float64.
        InvalidArgumentError: the parts have different dtypes.

    Example:
        >>> import tapeflow as tf
        >>> tf.complex(tf.constant([1.0]), tf.constant([2.0])).numpy()
        array([1.+2.j], dtype=complex64)
    """
    real, imag = binary_inputs("Complex", real, imag)
    if real.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"complex: the real and imag parts must both be float32 or both "
                        f"float64, got {real.dtype.name} and {imag.dtype.name}.")
    return execute(Complex, (real, imag), NO_ATTRS)


def real(input, name=None) -> Tensor:  # noqa: A002  (TF's argument name)
    """The real part of a complex tensor; a real tensor is returned as it is.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.real(tf.constant([1 + 2j])).numpy()
        array([1.])
    """
    x = convert_to_tensor(input)
    if x.dtype.is_bool:
        raise TypeError(f"real: expected a numeric tensor, got dtype bool (shape "
                        f"{list(x.shape)}).")
    return execute(Real, (x,), NO_ATTRS) if x.dtype.is_complex else x


def imag(input, name=None) -> Tensor:  # noqa: A002
    """The imaginary part of a complex tensor; zeros for a real tensor.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.imag(tf.constant([1 + 2j])).numpy()
        array([2.])
    """
    x = convert_to_tensor(input)
    if x.dtype.is_complex:
        return execute(Imag, (x,), NO_ATTRS)
    return constant(np.zeros(x.shape, x.dtype._np))


def conj(x, name=None) -> Tensor:
    """The complex conjugate; a real tensor is returned as it is.

    Raises:
        TypeError: x is bool.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.conj(tf.constant([1 + 2j])).numpy()
        array([1.-2.j])
    """
    x = convert_to_tensor(x)
    if x.dtype.is_complex:
        return execute(Conj, (x,), NO_ATTRS)
    if x.dtype.is_bool:
        raise TypeError(f"conj: expected a numeric tensor, got dtype {x.dtype.name}.")
    return x


def angle(input, name=None) -> Tensor:  # noqa: A002
    """The argument of a complex tensor; for a real one pi where it is negative, else 0.

    Raises:
        TypeError: a real input that is not floating (pi is not representable in it).

    Example:
        >>> import tapeflow as tf
        >>> tf.math.angle(tf.constant([1j, -1 + 0j])).numpy()
        array([1.5708, 3.1416])
    """
    x = convert_to_tensor(input)
    if x.dtype.is_complex:
        return execute(Angle, (x,), NO_ATTRS)
    if not x.dtype.is_floating:
        raise TypeError(f"angle: cannot convert pi to a tensor of dtype {x.dtype.name}.")
    negative_part = cast(less(x, 0), x.dtype)
    return negative_part * np.pi
