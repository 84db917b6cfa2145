"""Shape and layout ops: kernels and the public TF-named functions."""
from __future__ import annotations

import numpy as np

from ..framework.execute import execute
from ..framework.registry import define_op
from ..framework.tensor import Tensor
from .op_util import NO_ATTRS, as_input


def _identity(x):
    return x


def _transpose(x, perm):
    return np.transpose(x, perm)


def _reshape(x, shape):
    return x.reshape(shape if type(shape) is tuple else tuple(shape))


def _broadcast_to(x, shape):
    shape = shape if type(shape) is tuple else tuple(shape.tolist())
    if x.shape == shape:
        return x
    if x.size * 4 < 65536:
        # For small results a filled copy is several times cheaper than np.broadcast_to.
        out = np.empty(shape, x.dtype)
        out[...] = x
        return out
    return np.broadcast_to(x, shape)


def _concat(*values, axis):
    return np.concatenate(values, axis=axis)


def _split(x, indices, axis):
    return tuple(np.split(x, indices, axis=axis))


Identity = define_op("Identity", _identity)
ReadVariableOp = define_op("ReadVariableOp", _identity)
Reshape = define_op("Reshape", _reshape)
BroadcastTo = define_op("BroadcastTo", _broadcast_to)
Transpose = define_op("Transpose", _transpose)
ConcatV2 = define_op("ConcatV2", _concat)
SplitV = define_op("SplitV", _split, num_outputs=None)


def _shape_input(shape) -> Tensor:
    if isinstance(shape, Tensor):
        return shape
    return Tensor(np.asarray(getattr(shape, "as_list", lambda: shape)(), dtype=np.int32))


def identity(input, name=None) -> Tensor:  # noqa: A002  (TF's argument name)
    """Returns a tensor with the same value; gradients pass through unchanged.

    Example:
        >>> import tapeflow as tf
        >>> tf.identity(tf.constant([1.0])).numpy()
        array([1.], dtype=float32)
    """
    return execute(Identity, (as_input(input),), NO_ATTRS)


def reshape(tensor, shape, name=None) -> Tensor:
    """The same elements in a new shape; one dimension may be -1 (inferred).

    Raises:
        InvalidArgumentError: the element counts differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.reshape(tf.constant([1, 2, 3, 4, 5, 6]), [2, -1]).shape
        TensorShape([2, 3])
    """
    return execute(Reshape, (as_input(tensor), _shape_input(shape)), NO_ATTRS)


def broadcast_to(input, shape, name=None) -> Tensor:  # noqa: A002
    """`input` broadcast to `shape` following NumPy's rules.

    Example:
        >>> import tapeflow as tf
        >>> tf.broadcast_to(tf.constant([1, 2]), [2, 2]).numpy()
        array([[1, 2],
               [1, 2]], dtype=int32)
    """
    return execute(BroadcastTo, (as_input(input), _shape_input(shape)), NO_ATTRS)


def transpose(a, perm=None, conjugate=False, name="transpose") -> Tensor:
    """Permutes the axes of `a` (reverses them when `perm` is None).

    Example:
        >>> import tapeflow as tf
        >>> tf.transpose(tf.constant(0.0, shape=[2, 3, 4]), perm=[2, 0, 1]).shape
        TensorShape([4, 2, 3])
    """
    a = as_input(a)
    perm = tuple(range(a.ndim))[::-1] if perm is None else tuple(int(p) for p in np.asarray(perm))
    out = execute(Transpose, (a,), {"perm": perm})
    if conjugate and a.dtype.is_complex:
        from .math_ops import conj
        out = conj(out)
    return out
