"""keras.activations: activation functions, looked up by name with `get`."""
from __future__ import annotations

from .. import math as tf_math
from .. import nn as tf_nn
from ..ops import clip_ops, math_ops
from ..ops.op_util import as_input
from .naming import by_name

__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "linear", "exponential", "elu",
           "selu", "softplus", "softsign", "swish", "silu", "gelu", "relu6", "leaky_relu",
           "get", "serialize"]


def relu(x, alpha: float = 0.0, max_value=None, threshold: float = 0.0):
    """max(x, 0), generalised as Keras's: values below `threshold` become
    alpha * (x - threshold), and outputs are capped at `max_value`.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.activations.relu(tf.constant([-1.0, 2.0])).numpy()
        array([0., 2.], dtype=float32)
        >>> tf.keras.activations.relu(tf.constant([-1.0, 2.0, 9.0]), alpha=0.5,
        ...                           max_value=5.0).numpy()
        array([-0.5,  2. ,  5. ], dtype=float32)
    """
    x = as_input(x)
    if alpha:
        negative = tf_nn.relu(threshold - x) if threshold else tf_nn.relu(-x)
    if threshold:
        x = x * math_ops.cast(tf_math.greater(x, threshold), x.dtype)
    else:
        x = tf_nn.relu(x)
    if max_value is not None:
        x = clip_ops.clip_by_value(x, 0.0, max_value)
    if alpha:
        x = x - alpha * negative
    return x


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
    return tf_nn.softmax(x, axis=axis)


def log_softmax(x, axis: int = -1):
    """log(softmax(x)) along `axis`, computed stably.

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.activations.log_softmax(tf.constant([[0.0, 0.0]]))[0, 0]), 4)
        -0.6931
    """
    return tf_nn.log_softmax(x, axis=axis)


def linear(x):
    """The identity: `x` unchanged.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.activations.linear(tf.constant(2.0)))
        2.0
    """
    return x


def _elementwise(namespace, op_name: str, name: str, summary: str, value: str):
    """An activation that is `namespace.op_name` (looked up when called)."""
    def fn(x):
        return getattr(namespace, op_name)(x)
    fn.__name__ = fn.__qualname__ = name
    where = f"tf.{namespace.__name__.rsplit('.', 1)[-1]}.{op_name}"
    fn.__doc__ = (f"{summary} ({where}).\n\n    Example:\n        >>> import tapeflow as tf\n"
                  f"        >>> round(float(tf.keras.activations.{name}(tf.constant(1.0))), 4)\n"
                  f"        {value}\n")
    return fn


sigmoid = _elementwise(tf_math, "sigmoid", "sigmoid", "1 / (1 + exp(-x))", "0.7311")
tanh = _elementwise(tf_math, "tanh", "tanh", "The hyperbolic tangent", "0.7616")
exponential = _elementwise(tf_math, "exp", "exponential", "exp(x)", "2.7183")
elu = _elementwise(tf_nn, "elu", "elu", "x for x > 0, exp(x) - 1 otherwise", "1.0")
selu = _elementwise(tf_nn, "selu", "selu", "scale * elu(x) with Klambauer et al.'s alpha and "
                    "scale", "1.0507")
softplus = _elementwise(tf_nn, "softplus", "softplus", "log(1 + exp(x))", "1.3133")
softsign = _elementwise(tf_nn, "softsign", "softsign", "x / (1 + |x|)", "0.5")
swish = _elementwise(tf_nn, "swish", "swish", "x * sigmoid(x)", "0.7311")
silu = _elementwise(tf_nn, "silu", "silu", "x * sigmoid(x)", "0.7311")
gelu = _elementwise(tf_nn, "gelu", "gelu", "x * P(X <= x) for a standard normal X", "0.8413")
relu6 = _elementwise(tf_nn, "relu6", "relu6", "min(max(x, 0), 6)", "1.0")


def leaky_relu(x, alpha: float = 0.2):
    """x for x >= 0, alpha * x otherwise.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.activations.leaky_relu(tf.constant(-1.0), alpha=0.1))
        -0.1
    """
    return tf_nn.leaky_relu(x, alpha=alpha)


_BY_NAME = {fn.__name__: fn for fn in (relu, sigmoid, tanh, softmax, log_softmax, linear,
                                       exponential, elu, selu, softplus, softsign, swish, silu,
                                       gelu, relu6, leaky_relu)}


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
        return by_name("activation function", identifier, _BY_NAME)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(activation) -> str:
    """The name `get` maps back to this activation."""
    return getattr(activation, "__name__", str(activation))
