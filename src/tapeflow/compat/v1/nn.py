"""tf.compat.v1.nn: `tf.nn` with TF1's signatures where they differ (`dropout`'s
`keep_prob`, `softmax_cross_entropy_with_logits_v2`, `max_pool`'s `value`); every other name
is `tapeflow.nn`'s."""
from __future__ import annotations

import tapeflow as tf

__all__ = ["dropout", "softmax_cross_entropy_with_logits",
           "softmax_cross_entropy_with_logits_v2", "max_pool", "avg_pool"]


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """Dropout keeping each element with probability `keep_prob` (or dropping it with
    probability `rate`), scaling the kept ones by 1 / keep_prob.

    Raises:
        ValueError: both or neither of keep_prob and rate.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> tf1.nn.dropout(tf1.ones([4]), keep_prob=1.0).numpy()
        array([1., 1., 1., 1.], dtype=float32)
    """
    if (keep_prob is None) == (rate is None):
        raise ValueError("You must provide exactly one of `keep_prob` or `rate`.")
    if rate is None:
        rate = 1.0 - keep_prob
    return tf.nn.dropout(x, rate=rate, noise_shape=noise_shape, seed=seed, name=name)


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """`tf.nn.softmax_cross_entropy_with_logits` (gradients reach the labels too)."""
    axis = -1 if axis is None and dim is None else (dim if axis is None else axis)
    return tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=axis,
                                                   name=name)


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None):
    """TF1's softmax cross-entropy: no gradient flows into `labels`.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> loss = tf1.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0]],
        ...                                                logits=[[0.0, 0.0]])
        >>> round(float(loss[0]), 4)
        0.6931
    """
    return softmax_cross_entropy_with_logits_v2(tf.stop_gradient(labels), logits, axis, name,
                                                dim)


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):
    """`tf.nn.max_pool` with TF1's argument name `value`."""
    return tf.nn.max_pool(value if input is None else input, ksize, strides, padding,
                          data_format=data_format, name=name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):
    """`tf.nn.avg_pool` with TF1's argument name `value`."""
    return tf.nn.avg_pool(value if input is None else input, ksize, strides, padding,
                          data_format=data_format, name=name)


def __getattr__(name: str):
    try:
        return getattr(tf.nn, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
