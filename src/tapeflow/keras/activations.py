"""keras.activations: activation functions, looked up by name with `get`."""
from __future__ import annotations

from ..ops import math_ops, nn_ops
from ..ops.op_util import as_input

__all__ = ["relu", "sigmoid", "tanh", "softmax", "linear", "exponential", "get", "serialize"]


def relu(x, alpha: float = 0.0, max_value=None, threshold: float = 0.0):
    """max(x, 0).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.activations.relu(tf.constant([-1.0, 2.0])).numpy()
        array([0., 2.], dtype=float32)
    """
    if alpha or max_value is not None or threshold:
        raise NotImplementedError("relu with alpha, max_value or threshold: use "
                                  "tf.nn.leaky_relu or tf.clip_by_value")
    return nn_ops.relu(x)


def sigmoid(x):
    """1 / (1 + exp(-x)).

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.activations.sigmoid(tf.constant(0.0)))
        0.5
    """
    return math_ops.sigmoid(x)


def tanh(x):
    """The hyperbolic tangent.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.activations.tanh(tf.constant(0.0)))
        0.0
    """
    return math_ops.tanh(x)


def softmax(x, axis: int = -1):
    """exp(x) / sum(exp(x)) along `axis`.

    Raises:
        ValueError: `x` has rank below 2 (as in Keras).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.activations.softmax(tf.constant([[0.0, 0.0]])).numpy()
        array([[0.5, 0.5]], dtype=float32)
    """
    x = as_input(x)
    if x.ndim <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input shape: "
                         f"{tuple(x.shape.as_list())}")
    return nn_ops.softmax(x, axis=axis)


def linear(x):
    """The identity: `x` unchanged.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.activations.linear(tf.constant(2.0)))
        2.0
    """
    return x


def exponential(x):
    """exp(x).

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.activations.exponential(tf.constant(0.0)))
        1.0
    """
    return math_ops.exp(x)


_BY_NAME = {fn.__name__: fn for fn in (relu, sigmoid, tanh, softmax, linear, exponential)}


def get(identifier):
    """The activation function for a name ('relu'), a callable, or None (linear).

    Raises:
        ValueError: an unknown name.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.activations.get("relu").__name__
        'relu'
    """
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        fn = _BY_NAME.get(identifier)
        if fn is None:
            raise ValueError(f"Unknown activation function: {identifier!r}. Known names: "
                             f"{', '.join(sorted(_BY_NAME))}.")
        return fn
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(activation) -> str:
    """The name `get` maps back to this activation."""
    return getattr(activation, "__name__", str(activation))
