"""Neural-network ops (tf.nn): activations, softmax and cross entropies."""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import define_op
from ..framework.tensor import Tensor
from .op_util import NO_ATTRS, as_input, normalize_axis


def _relu(x):
    return np.maximum(x, 0)


def _relu_grad(g, y):
    return np.multiply(g, y > 0)


def _softmax(x, axis):
    e = np.exp(x - np.maximum.reduce(x, axis=axis, keepdims=True))
    return e / np.add.reduce(e, axis=axis, keepdims=True)


def _check_labels(labels, classes: int) -> None:
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        bad = labels[(labels < 0) | (labels >= classes)].ravel()[0]
        raise errors.InvalidArgumentError(
            None, "SparseSoftmaxCrossEntropyWithLogits",
            f"SparseSoftmaxCrossEntropyWithLogits: received a label value of {bad} which is "
            f"outside the valid range of [0, {classes}).")


def _sparse_xent(logits, labels):
    """Loss per example and its gradient w.r.t. the logits (softmax minus one-hot), as TF's
    fused kernel returns both."""
    _check_labels(labels, logits.shape[-1])
    shifted = logits - np.maximum.reduce(logits, axis=-1, keepdims=True)
    exp = np.exp(shifted)
    total = np.add.reduce(exp, axis=-1, keepdims=True)
    index = labels[..., None].astype(np.intp)
    loss = (np.log(total) - np.take_along_axis(shifted, index, axis=-1))[..., 0]
    backprop = exp / total
    np.put_along_axis(backprop, index, np.take_along_axis(backprop, index, axis=-1) - 1, axis=-1)
    return loss, backprop


Relu = define_op("Relu", _relu)
ReluGrad = define_op("ReluGrad", _relu_grad)
Softmax = define_op("Softmax", _softmax)
SparseSoftmaxXent = define_op("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent,
                              num_outputs=2)


def relu(features, name=None) -> Tensor:
    """max(features, 0), elementwise; the gradient at 0 is 0, as in TF.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.relu(tf.constant([-1.0, 2.0])).numpy()
        array([0., 2.], dtype=float32)
    """
    return execute(Relu, (as_input(features),), NO_ATTRS)


def softmax(logits, axis=None, name=None) -> Tensor:
    """exp(logits) / sum(exp(logits)) along `axis` (default -1), computed stably.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.softmax(tf.constant([0.0, 0.0])).numpy()
        array([0.5, 0.5], dtype=float32)
    """
    logits = as_input(logits)
    axis = normalize_axis("Softmax", -1 if axis is None else axis, logits.ndim)
    return execute(Softmax, (logits,), {"axis": axis})


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None) -> Tensor:
    """Cross entropy between integer class `labels` and unnormalized `logits`, per example.

    Args:
        labels: int32/int64 tensor of shape [d0, ..., dn-1], values in [0, num_classes).
        logits: float tensor of shape [d0, ..., dn-1, num_classes].

    Returns:
        A tensor shaped like `labels` with the dtype of `logits`. Labels get no gradient.

    Raises:
        InvalidArgumentError: a label out of range, or shapes that do not match.

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.nn.sparse_softmax_cross_entropy_with_logits(
        ...     labels=tf.constant([0]), logits=tf.constant([[0.0, 0.0]]))
        >>> round(float(tf.reduce_sum(loss)), 4)
        0.6931
    """
    labels, logits = as_input(labels), as_input(logits)
    if not labels.dtype.is_integer:
        raise errors.InvalidArgumentError(
            None, "SparseSoftmaxCrossEntropyWithLogits",
            f"SparseSoftmaxCrossEntropyWithLogits: labels must be int32 or int64, got "
            f"{labels.dtype.name}.")
    if logits.ndim < 1 or logits._value.shape[:-1] != labels._value.shape:
        raise errors.InvalidArgumentError(
            None, "SparseSoftmaxCrossEntropyWithLogits",
            f"SparseSoftmaxCrossEntropyWithLogits: logits shape {list(logits.shape)} must be "
            f"labels shape {list(labels.shape)} plus a class axis.")
    return execute(SparseSoftmaxXent, (logits, labels), NO_ATTRS)[0]
