"""Norms: tf.norm and l2_normalize.

Both are composed of math ops, as in TF, so the gradients (TF's nan at the zero vector for
the euclidean norm included) come from those ops' rules.
"""
from __future__ import annotations

import numbers

import numpy as np

from ..framework.deprecation import log_deprecation
from ..framework.tensor import Tensor, convert_to_tensor
from .array_ops import reshape, squeeze, transpose
from .complex_ops import complex, conj, imag, real
from .math_ops import (INEXACT, abs, maximum, pow, reduce_sum, require_dtype, rsqrt, sqrt,
                       square)
from .linalg_ops import svd
from .op_util import normalize_axes
from .reduction_ops import reduce_max

_VECTOR_ORDS = ("euclidean", 1, 2, np.inf)
_MATRIX_ORDS = ("euclidean", "fro", 1, 2, np.inf)


def _is_int(a) -> bool:
    return isinstance(a, numbers.Integral) and not isinstance(a, bool)


def _is_positive_real(p) -> bool:
    return isinstance(p, numbers.Real) and not isinstance(p, bool) and p > 0


def _check_norm_args(ord, axis) -> bool:  # noqa: A002  (TF's argument name)
    """Validates `ord` and `axis` as TF does; True for a matrix norm (two axes)."""
    bad_axis = f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}"
    if isinstance(axis, (tuple, list)) and len(axis) == 2:
        if not all(_is_int(a) for a in axis) or axis[0] == axis[1]:
            raise ValueError(bad_axis)
        if ord not in _MATRIX_ORDS:
            raise ValueError(f"'ord' must be a supported matrix norm in "
                             f"{list(_MATRIX_ORDS)}, got {ord}")
        return True
    if not (axis is None or _is_int(axis)):
        raise ValueError(bad_axis)
    if ord not in _VECTOR_ORDS and not _is_positive_real(ord):
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    return False


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None) -> Tensor:  # noqa: A002
    """The vector or matrix norm of `tensor`.

    With `axis` None the whole tensor is one vector; an int picks one vector axis; a pair
    of ints picks the two matrix axes. Its gradient at the zero vector is nan, as in TF.

    Args:
        tensor: a floating or complex tensor.
        ord: 'euclidean' (default), 1, 2, np.inf or any p > 0 for vectors; 'euclidean',
            'fro', 1, 2 (the largest singular value) or np.inf for matrices ('fro' and
            'euclidean' are the same).
        axis: None, an int, or a pair of distinct ints.
        keepdims: keep the reduced axes with length 1.

    Returns:
        The norms, of the tensor's dtype (the euclidean norm of a complex tensor is
        complex with a zero imaginary part, as in TF).

    Raises:
        ValueError: an unsupported `ord` or `axis`.
        InvalidArgumentError: an integer tensor, or an axis out of range.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.norm(tf.constant([3.0, 4.0])))
        5.0
        >>> float(tf.norm(tf.constant([[1.0, -2.0], [3.0, 4.0]]), ord=1, axis=[0, 1]))
        6.0
        >>> float(tf.norm(tf.constant([[3.0, 0.0], [0.0, -4.0]]), ord=2, axis=[0, 1]))
        4.0
    """
    matrix = _check_norm_args(ord, axis)
    x = convert_to_tensor(tensor)
    if x.dtype.is_bool:  # as TF, whose conj rejects it
        raise TypeError(f"norm: expected a numeric tensor, got dtype bool (shape "
                        f"{x.shape.as_list()}).")
    x = require_dtype("norm", x, INEXACT)
    axes = None if axis is None else normalize_axes("norm", axis, x.ndim)
    if matrix and axes[0] == axes[1]:
        raise ValueError(f"'axis' must be a tuple of 2 unique integers, got {axis}")
    if matrix and ord == 2:
        result = _spectral_norm(x, axes)
    elif ord in ("fro", "euclidean", 2):
        result = sqrt(reduce_sum(x * conj(x), axes, keepdims=True))
    else:
        result = abs(x)
        first = None if axes is None else axes[0]
        if ord == 1:
            result = reduce_sum(result, first, keepdims=True)
            if matrix:
                result = reduce_max(result, axes[1], keepdims=True)
        elif ord == np.inf:
            if matrix:
                result = reduce_sum(result, axes[1], keepdims=True)
            result = reduce_max(result, first, keepdims=True)
        else:
            result = pow(reduce_sum(pow(result, ord), axes, keepdims=True), 1.0 / ord)
    if keepdims:
        return result
    return reshape(result, []) if axes is None else squeeze(result, axis=list(axes))


def _spectral_norm(x, axes) -> Tensor:
    """The largest singular value of the matrices on `axes`, with those axes kept as 1s (as
    TF, real even for complex matrices); its gradient comes from the Svd op's rule."""
    shape = x.shape.as_list()
    batch = [i for i in range(len(shape)) if i not in axes]
    singular_values = svd(transpose(x, batch + list(axes)), compute_uv=False)
    if singular_values.dtype.is_complex:
        singular_values = real(singular_values)
    largest = reduce_max(singular_values, -1)
    return reshape(largest, [1 if i in axes else d for i, d in enumerate(shape)])


def normalize(tensor, ord="euclidean", axis=None, name=None) -> tuple:  # noqa: A002
    """`tensor` divided by its norm, and the norm (kept dimensions), as `norm` computes it.

    Args:
        tensor, ord, axis: as for `norm`.

    Returns:
        `(normalized, norm)`: the tensor's shape, and the norm with the reduced axes kept.

    Raises:
        ValueError: an unsupported `ord` or `axis`.

    Example:
        >>> import tapeflow as tf
        >>> unit, length = tf.linalg.normalize(tf.constant([3.0, 4.0]))
        >>> unit.numpy(), length.numpy()
        (array([0.6, 0.8], dtype=float32), array([5.], dtype=float32))
    """
    tensor = convert_to_tensor(tensor)
    length = norm(tensor, ord=ord, axis=axis, keepdims=True)
    return tensor / length, length


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None) -> Tensor:
    """x / sqrt(max(sum(x**2, axis), epsilon)): unit L2 norm along `axis` (all when None).

    Args:
        x: a floating or complex tensor.
        axis: None, an int or a list of ints (`dim` is its deprecated name).
        epsilon: the lower bound on the squared norm, so zeros stay finite.

    Raises:
        ValueError: both `axis` and `dim` are given.
        InvalidArgumentError: an integer tensor, or an axis out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.l2_normalize(tf.constant([3.0, 4.0])).numpy()
        array([0.6, 0.8], dtype=float32)
    """
    if dim is not None:
        if axis is not None:
            raise ValueError("l2_normalize: give `axis` or its deprecated name `dim`, not both.")
        log_deprecation("l2_normalize.dim", "calling l2_normalize with dim is deprecated and "
                        "will be removed in a future version.\nInstructions for updating:\n"
                        "dim is deprecated, use axis instead")
        axis = dim
    x = convert_to_tensor(x)
    if x.dtype.is_integer:  # as TF, where epsilon does not convert to x's dtype
        raise TypeError(f"l2_normalize: cannot convert epsilon to a tensor of dtype "
                        f"{x.dtype.name}.")
    x = require_dtype("l2_normalize", x, INEXACT)
    if x.dtype.is_complex:
        re, im = real(x), imag(x)
        square_sum = reduce_sum(square(re) + square(im), axis, keepdims=True)
        inverse_norm = rsqrt(maximum(square_sum, epsilon))
        return complex(re * inverse_norm, im * inverse_norm)
    square_sum = reduce_sum(square(x), axis, keepdims=True)
    return x * rsqrt(maximum(square_sum, epsilon))
