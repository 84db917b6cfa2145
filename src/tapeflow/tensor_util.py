"""`make_tensor_proto` and `make_ndarray`: tensors as TensorFlow's TensorProto messages and
back, made by the `tensorboard` package's protobuf classes (the `tensorboard` extra,
imported on first use)."""
from __future__ import annotations

import numpy as np

from .framework import dtypes
from .framework.tensor import is_tensor

__all__ = ["make_ndarray", "make_tensor_proto"]


def _tensorboard(module: str):
    from .summary import tensorboard_module  # (tf.summary loads on first use)
    return tensorboard_module(module, "tf.make_tensor_proto and tf.make_ndarray use the "
                              "TensorProto of")


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False,
                      allow_broadcast=False):
    """A TensorProto (TensorFlow's protobuf message for a tensor) holding `values`.

    Args:
        values: a tensor, NumPy array or Python value.
        dtype: the proto's dtype (default the values').
        shape: the proto's shape; a single value is repeated to fill it.
        verify_shape: require `values` to have `shape`.
        allow_broadcast: allow values to broadcast to `shape`.

    Returns:
        A `TensorProto`.

    Raises:
        TypeError: values that do not fit `dtype` or (with verify_shape) `shape`.
        ValueError: both verify_shape and allow_broadcast.
        ImportError: the tensorboard package is not installed.

    Example:
        >>> import tapeflow as tf
        >>> proto = tf.make_tensor_proto([[1.0, 2.0]])
        >>> [d.size for d in proto.tensor_shape.dim], tf.make_ndarray(proto).tolist()
        ([1, 2], [[1.0, 2.0]])
    """
    if is_tensor(values):
        values = values.numpy()
    if allow_broadcast:
        if verify_shape:
            raise ValueError("allow_broadcast and verify_shape are not both allowed.")
        if shape is not None:
            try:
                values = np.broadcast_to(np.asarray(values), tuple(shape))
            except (TypeError, ValueError) as e:
                raise ValueError(f"make_tensor_proto: cannot broadcast the values to {shape}: "
                                 f"{e}") from None
    stub = None if dtype is None else _tensorboard("compat.tensorflow_stub.dtypes").as_dtype(
        dtypes.as_dtype(dtype).name)
    make = _tensorboard("util.tensor_util").make_tensor_proto
    try:
        return make(values, stub, shape, verify_shape)
    except (TypeError, ValueError) as e:  # said by the TensorProto maker (or NumPy under it)
        raise type(e)(f"make_tensor_proto: {e}") from None


def make_ndarray(tensor) -> np.ndarray:
    """The NumPy array a TensorProto holds.

    Raises:
        TypeError: `tensor` is not a TensorProto.

    Example:
        >>> import tapeflow as tf
        >>> tf.make_ndarray(tf.make_tensor_proto(3)).tolist()
        3
    """
    if not hasattr(tensor, "tensor_shape"):
        raise TypeError(f"make_ndarray expects a TensorProto, got {type(tensor).__name__}")
    return _tensorboard("util.tensor_util").make_ndarray(tensor)
