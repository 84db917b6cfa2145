"""Loss scaling for data-parallel training: `tf.nn.compute_average_loss` and
`tf.nn.scale_regularization_loss`.

Optimizers sum the replicas' gradients, so each replica divides its summed loss by the
global batch size (and a regularization loss by the number of replicas): the sum over the
replicas is then the mean over the global batch.
"""
from __future__ import annotations

from ..framework.tensor import convert_to_tensor
from ..ops import array_ops, math_ops
from .distribute_lib import get_strategy

__all__ = ["compute_average_loss", "scale_regularization_loss"]


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """The per-example losses summed and divided by the global batch size.

    Args:
        per_example_loss: per-example losses, [batch] or [batch, ...].
        sample_weight: optional weights, broadcast against `per_example_loss`.
        global_batch_size: the number of examples in the global batch (a number or a
            scalar tensor); by default this replica's batch size times
            `num_replicas_in_sync`.

    Returns:
        A scalar Tensor of the loss's dtype.

    Raises:
        ValueError: a non-positive or non-integer `global_batch_size`.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0, 6.0])))
        3.0
        >>> float(tf.nn.compute_average_loss(tf.constant([1.0, 2.0]), global_batch_size=4))
        0.75
    """
    loss = convert_to_tensor(per_example_loss)
    if sample_weight is not None:
        loss = math_ops.multiply(loss, math_ops.cast(sample_weight, loss.dtype))
    total = math_ops.reduce_sum(loss)
    if global_batch_size is None:
        local = array_ops.shape(loss)[0] if loss.shape.rank else 1
        count = math_ops.cast(local, loss.dtype) * get_strategy().num_replicas_in_sync
    else:
        if isinstance(global_batch_size, (int, float)) and (
                global_batch_size <= 0 or global_batch_size != int(global_batch_size)):
            raise ValueError("global_batch_size must be a positive integer, got "
                             f"{global_batch_size!r}")
        count = math_ops.cast(global_batch_size, loss.dtype)
    return math_ops.divide_no_nan(total, count)


def scale_regularization_loss(regularization_loss):
    """`regularization_loss` divided by the number of replicas (each adds its share).

    Example:
        >>> import tapeflow as tf
        >>> float(tf.nn.scale_regularization_loss(tf.constant(0.5)))
        0.5
    """
    loss = math_ops.reduce_sum(convert_to_tensor(regularization_loss))
    return math_ops.divide(loss, math_ops.cast(get_strategy().num_replicas_in_sync,
                                               loss.dtype))
