"""Conversions beyond `cast`: `saturate_cast` (clamps to the target's range first) and
`bitcast` (reinterprets the bytes)."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.tensor import Tensor
from .complex_ops import real
from .math_ops import cast, maximum, minimum
from .op_util import as_input

__all__ = ["bitcast", "saturate_cast"]


def _bound(value, source: np.dtype, toward: float):
    """`value` (a bound of the target type) as the nearest `source` value on the target's
    side of it: float32(2**31 - 1) rounds up to 2**31, so the bound steps back below."""
    bound = np.asarray(value).astype(source)
    if source.kind == "f" and (float(bound) - float(value)) * toward < 0:
        bound = np.nextafter(bound, np.asarray(toward, source))
    return bound


def saturate_cast(value, dtype, name=None) -> Tensor:
    """`value` cast to `dtype`, first clamped to the range `dtype` can hold (the real part
    of a complex value going to a real type). The gradient flows where the value was not
    clamped.

    Args:
        value: a numeric tensor.
        dtype: the target dtype.

    Returns:
        A tensor of `dtype`.

    Example:
        >>> import tapeflow as tf
        >>> tf.saturate_cast(tf.constant([-1.0, 300.0, 2.7]), tf.uint8).numpy()
        array([  0, 255,   2], dtype=uint8)
    """
    x = as_input(value)
    target = dtypes.as_dtype(dtype)
    if x.dtype.is_complex and not target.is_complex:
        x = real(x)
    source = x.dtype._np
    if not target.is_complex and not target.is_bool and not x.dtype.is_bool:
        if x.dtype.min < target.min:
            x = maximum(x, _bound(target.min, source, 1.0))
        if x.dtype.max > target.max:
            x = minimum(x, _bound(target.max, source, -1.0))
    return cast(x, target)


def _bitcast(x, type):  # noqa: A002  (TF's attr name)
    if x.dtype.itemsize == type.itemsize:
        return x.view(type)
    if x.dtype.itemsize > type.itemsize:
        ratio = x.dtype.itemsize // type.itemsize
        return np.ascontiguousarray(x).view(type).reshape(x.shape + (ratio,))
    ratio = type.itemsize // x.dtype.itemsize
    if not x.ndim or x.shape[-1] != ratio:
        raise errors.InvalidArgumentError(
            None, "Bitcast", f"Bitcast: Cannot bitcast from {x.dtype} to {type}: the last "
            f"dimension of shape {list(x.shape)} must be {ratio}")
    return np.ascontiguousarray(x).view(type).reshape(x.shape[:-1])


Bitcast = define_op("Bitcast", _bitcast)
no_gradient("Bitcast")


def bitcast(input, type, name=None) -> Tensor:  # noqa: A002  (TF's argument names)
    """The bytes of `input` read as `type`, without copying values: to a smaller type adds
    a last dimension (of the size ratio), to a larger one removes it (it must equal the
    ratio). Not differentiable.

    Args:
        input: a numeric tensor.
        type: a numeric dtype.

    Returns:
        A tensor of `type`.

    Raises:
        InvalidArgumentError: to a larger type, a last dimension that is not the ratio;
            between complex and real types of different sizes.

    Example:
        >>> import tapeflow as tf
        >>> tf.bitcast(tf.constant([1.0]), tf.int32).numpy()
        array([1065353216], dtype=int32)
    """
    x = as_input(input)
    target = dtypes.as_dtype(type)
    if x.dtype.is_bool or target.is_bool or (x.dtype.is_complex != target.is_complex
                                             and x.dtype.size != target.size):
        raise errors.InvalidArgumentError(
            None, "Bitcast", f"Bitcast: Cannot bitcast from {x.dtype.name} to {target.name} "
            f"(shape {list(x.shape)})")
    return execute(Bitcast, (x,), {"type": target._np})
