"""Fused batch normalization (TF's FusedBatchNorm op family), composed from tapeflow ops.

Composed rather than a primitive, so its gradients come from the rules of the ops it is
made of; as TF's op, the statistics it returns pass no gradient back.
"""
from __future__ import annotations

import numpy as np

from .custom_gradient import stop_gradient
from .framework import errors
from .framework.tensor import convert_to_tensor
from .ops.array_ops import reshape, shape
from .ops.gather_ops import gather
from .ops.math_ops import cast, maximum, reduce_mean, rsqrt
from .ops.reduction_ops import reduce_prod

__all__ = ["fused_batch_norm"]

_CHANNEL_AXIS = {"NHWC": -1, "NDHWC": -1, "NCHW": 1, "NCDHW": 1}


def fused_batch_norm(x, scale, offset, mean, variance, epsilon: float = 1e-4,
                     exponential_avg_factor: float = 1.0, data_format: str = "NHWC",
                     is_training: bool = True) -> tuple:
    """Batch normalization over every axis but the channels, as TF's FusedBatchNormV3.

    Args:
        x: a 4-D (or 5-D) float tensor.
        scale, offset: per-channel float32 tensors.
        mean, variance: per-channel running statistics: the population estimates in
            inference, blended with the batch's by `exponential_avg_factor` in training
            (ignored, and may be empty, when the factor is 1).
        epsilon: added to the variance.
        exponential_avg_factor: the weight of the batch statistics in the returned ones.
        data_format: "NHWC", "NCHW", "NDHWC" or "NCDHW".
        is_training: normalize with the batch's statistics (True) or with `mean` and
            `variance`.

    Returns:
        (y, batch_mean, batch_variance, reserve_space_1, reserve_space_2,
        reserve_space_3): y in x's dtype; in training the (blended) batch mean and the
        Bessel-corrected batch variance, then the batch mean and biased variance; in
        inference `mean` and `variance` twice; reserve_space_3 is empty.

    Raises:
        InvalidArgumentError: an unknown `data_format`, or x not 4-D or 5-D.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.batch_norm import fused_batch_norm
        >>> y, m, v, *_ = fused_batch_norm(tf.reshape(tf.range(4.0), [4, 1, 1, 1]),
        ...                                tf.ones([1]), tf.zeros([1]), tf.zeros([0]),
        ...                                tf.zeros([0]), epsilon=0.0)
        >>> m.numpy(), v.numpy()
        (array([1.5], dtype=float32), array([1.6666666], dtype=float32))
    """
    x = convert_to_tensor(x)
    scale, offset = convert_to_tensor(scale), convert_to_tensor(offset)
    mean, variance = convert_to_tensor(mean), convert_to_tensor(variance)
    if data_format not in _CHANNEL_AXIS:
        raise errors.InvalidArgumentError(
            None, "FusedBatchNormV3", f"FusedBatchNormV3: invalid data_format {data_format!r} "
            f"(x shape {x.shape.as_list()}, dtype {x.dtype.name})")
    if x.shape.rank not in (4, 5):
        raise errors.InvalidArgumentError(
            None, "FusedBatchNormV3", f"FusedBatchNormV3: input must be 4-dimensional or "
            f"5-dimensional, got shape {x.shape.as_list()}")
    rank = x.shape.rank
    channel = _CHANNEL_AXIS[data_format] % rank
    axes = tuple(a for a in range(rank) if a != channel)
    per_channel = [1] * rank
    per_channel[channel] = -1
    inner = x if x.dtype == scale.dtype else cast(x, scale.dtype)

    def along_channels(t):
        return reshape(t, per_channel)

    if is_training:
        batch_mean = reduce_mean(inner, axes)
        centered = inner - along_channels(batch_mean)
        biased = reduce_mean(centered * centered, axes)
        y = centered * along_channels(rsqrt(biased + epsilon) * scale) + along_channels(offset)
        unbiased = biased * _bessel_factor(x, axes, biased.dtype)
        running_mean, running_variance = batch_mean, unbiased
        if exponential_avg_factor != 1.0:
            keep = 1.0 - exponential_avg_factor
            running_mean = mean * keep + batch_mean * exponential_avg_factor
            running_variance = variance * keep + unbiased * exponential_avg_factor
        stats = (running_mean, running_variance, batch_mean, biased)
    else:
        fixed_mean, fixed_variance = stop_gradient(mean), stop_gradient(variance)
        y = (inner - along_channels(fixed_mean)) * along_channels(
            rsqrt(fixed_variance + epsilon) * scale) + along_channels(offset)
        stats = (mean, variance, mean, variance)
    if y.dtype != x.dtype:
        y = cast(y, x.dtype)
    empty = convert_to_tensor(np.zeros([0], np.float32))
    return (y,) + tuple(stop_gradient(s) for s in stats) + (empty,)


def _bessel_factor(x, axes: tuple, dtype):
    """n / (n - 1) for the n elements per channel: a number when x's shape says n, else
    computed from the shape x has when the graph runs (an unknown batch size)."""
    dims = [x.shape[a] for a in axes]
    if all(d is not None for d in dims):
        count = int(np.prod(dims))
        return count / max(count - 1, 1)
    count = cast(reduce_prod(gather(shape(x), list(axes))), dtype)
    return count / maximum(count - 1.0, 1.0)
