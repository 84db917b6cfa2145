"""tf.nn functions composed of other ops (their gradients come from those ops'): `crelu`,
the sufficient-statistics moments, `batch_norm_with_global_normalization`, local response
normalization, and the Poisson and weighted logistic losses."""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.tensor import Tensor
from .array_ops import concat, pad, squeeze
from .comparison_ops import less_equal
from .creation_ops import zeros_like
from .indexing_ops import slice as slice_
from .indexing_ops import where
from .math_ops import (abs, add, add_n, cast, divide_no_nan, exp, log, log1p, multiply, pow,
                       reciprocal, reduce_sum, square, squared_difference)
from .nn_ops import _float_features, batch_normalization, relu
from .op_util import as_input, binary_inputs, normalize_axes

__all__ = ["batch_norm_with_global_normalization", "crelu", "local_response_normalization",
           "log_poisson_loss", "normalize_moments", "sufficient_statistics",
           "weighted_cross_entropy_with_logits", "weighted_moments"]


def crelu(features, axis=-1, name=None) -> Tensor:
    """relu of `features` and of `-features`, concatenated along `axis` (twice the depth).

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.crelu(tf.constant([[1.0, -2.0]])).numpy()
        array([[1., 0., 0., 2.]], dtype=float32)
    """
    x = as_input(features)
    return relu(concat([x, -x], axis))


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None) -> tuple:
    """The count of the elements reduced over `axes`, and the sums of `x - shift` and of
    its square there: what `normalize_moments` turns into a mean and a variance.

    Args:
        x: a floating tensor.
        axes: the axes to reduce.
        shift: None, or a value subtracted first (for numerical stability).
        keepdims: keep the reduced axes as 1.

    Returns:
        `(count, mean_ss, variance_ss, shift)`; count is a scalar of x's dtype.

    Example:
        >>> import tapeflow as tf
        >>> count, m_ss, v_ss, _ = tf.nn.sufficient_statistics(tf.constant([[1.0, 3.0]]), [1])
        >>> float(count), m_ss.numpy(), v_ss.numpy()
        (2.0, array([4.], dtype=float32), array([10.], dtype=float32))
    """
    x = as_input(x)
    if shift is not None:
        shift = binary_inputs("Sub", x, shift)[1]
    shifted = x if shift is None else x - shift
    mean_ss = reduce_sum(shifted, axis=axes, keepdims=keepdims)   # checks the axes
    variance_ss = reduce_sum(square(shifted), axis=axes, keepdims=keepdims)
    axes = normalize_axes("SufficientStatistics", axes, x.ndim)
    count = cast(np.prod([x.shape[a] for a in axes], dtype=np.int64), x.dtype)
    return count, mean_ss, variance_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None) -> tuple:
    """The mean and variance from `sufficient_statistics`' sums.

    Returns:
        `(mean, variance)`: mean_ss / counts (+ shift), and variance_ss / counts minus the
        square of the shifted mean.

    Example:
        >>> import tapeflow as tf
        >>> mean, variance = tf.nn.normalize_moments(4.0, tf.constant([8.0]),
        ...                                          tf.constant([20.0]), None)
        >>> mean.numpy(), variance.numpy()
        (array([2.], dtype=float32), array([1.], dtype=float32))
    """
    mean_ss = as_input(mean_ss)
    divisor = reciprocal(binary_inputs("Mul", mean_ss, counts)[1])
    shifted_mean = mean_ss * divisor
    mean = shifted_mean if shift is None else add(*binary_inputs("AddV2", shifted_mean, shift))
    variance = binary_inputs("Mul", variance_ss, divisor)[0] * divisor - square(shifted_mean)
    return mean, variance


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None) -> tuple:
    """The mean and variance of `x` over `axes`, each element counted `frequency_weights`
    times (weights broadcast against x); 0 where all weights are 0.

    Returns:
        `(mean, variance)`.

    Example:
        >>> import tapeflow as tf
        >>> mean, variance = tf.nn.weighted_moments(tf.constant([1.0, 3.0]), [0],
        ...                                         tf.constant([1.0, 3.0]))
        >>> float(mean), float(variance)
        (2.5, 0.75)
    """
    x = as_input(x)
    axes = normalize_axes("WeightedMoments", axes, x.ndim)
    weights = cast(as_input(frequency_weights), x.dtype)
    total = reduce_sum(weights + zeros_like(x), axis=axes, keepdims=True)
    mean = divide_no_nan(reduce_sum(weights * x, axis=axes, keepdims=True), total)
    variance = divide_no_nan(
        reduce_sum(weights * squared_difference(x, mean), axis=axes, keepdims=True), total)
    if not keepdims:
        mean, variance = squeeze(mean, list(axes)), squeeze(variance, list(axes))
    return mean, variance


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma,  # noqa: A002
                                         variance_epsilon, scale_after_normalization,
                                         name=None) -> Tensor:
    """`batch_normalization` with offset `beta`, and scale `gamma` where
    `scale_after_normalization` (TF 1's form of it).

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.batch_norm_with_global_normalization(
        ...     tf.constant([1.0, 3.0]), 2.0, 1.0, 0.0, 2.0, 0.0, True).numpy()
        array([-2.,  2.], dtype=float32)
    """
    return batch_normalization(input, mean, variance, beta,
                               gamma if scale_after_normalization else None, variance_epsilon)


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0,  # noqa: A002
                                 beta=0.5, name=None) -> Tensor:
    """Each channel divided by (bias + alpha * the sum of squares of the channels within
    `depth_radius` of it) ** beta, at every pixel of a 4-D tensor (also `tf.nn.lrn`).

    Args:
        input: a 4-D float16 or float32 tensor, channels last.
        depth_radius: the half-width of the channel window.
        bias, alpha, beta: the normalization's constants.

    Raises:
        InvalidArgumentError: input not 4-D, or not float16 / float32.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.lrn(tf.constant([[[[1.0, 2.0]]]]), depth_radius=1, alpha=1.0,
        ...           beta=1.0).numpy()
        array([[[[0.16666667, 0.33333334]]]], dtype=float32)
    """
    x = _float_features("LRN", input)
    if x.dtype.name not in ("float16", "float32"):
        raise errors.InvalidArgumentError(
            None, "LRN", f"LRN: Value for attr 'T' of {x.dtype.name} is not in the list of "
            f"allowed values: half, bfloat16, float (shape {list(x.shape)}).")
    if x.ndim != 4:
        raise errors.InvalidArgumentError(
            None, "LRN", f"LRN: in must be 4-dimensional, got shape {list(x.shape)}.")
    radius, depth = int(depth_radius), x.shape[-1]
    squares = pad(square(x), [[0, 0], [0, 0], [0, 0], [radius, radius]])
    window = add_n([slice_(squares, [0, 0, 0, k], [-1, -1, -1, depth])
                    for k in range(2 * radius + 1)])
    return x * pow(multiply(window, alpha) + bias, -float(beta))


lrn = local_response_normalization


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None) -> Tensor:
    """The negative log likelihood of `targets` under Poisson distributions of log rate
    `log_input`: exp(log_input) - targets * log_input, plus with `compute_full_loss`
    Stirling's approximation of log(targets!) where targets > 1.

    Raises:
        ValueError: targets and log_input of different shapes.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.log_poisson_loss(tf.constant([0.0, 1.0]), tf.constant([0.0, 1.0])).numpy()
        array([1.      , 1.718282], dtype=float32)
    """
    log_input, targets = binary_inputs("Mul", log_input, targets)
    if log_input.shape != targets.shape:
        raise ValueError(f"`log_input` and `targets` must have the same shape, received "
                         f"({tuple(log_input.shape)} vs {tuple(targets.shape)}).")
    result = exp(log_input) - log_input * targets
    if not compute_full_loss:
        return result
    stirling = targets * log(targets) - targets + 0.5 * log(2.0 * np.pi * targets)
    return result + where(less_equal(targets, 1.0), zeros_like(targets), stirling)


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None) -> Tensor:
    """The logistic loss with the positive term weighted by `pos_weight`:
    (1 - z) * x + (1 + (q - 1) * z) * log(1 + exp(-x)), computed stably, for logits x,
    labels z and pos_weight q.

    Raises:
        ValueError: labels and logits of different shapes.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.weighted_cross_entropy_with_logits(
        ...     tf.constant([0.0, 1.0]), tf.constant([-100.0, 100.0]), 3.0).numpy()
        array([0., 0.], dtype=float32)
    """
    logits, labels = binary_inputs("Mul", logits, labels)
    if logits.shape != labels.shape:
        raise ValueError(f"`logits` and `labels` must have the same shape, received "
                         f"({tuple(logits.shape)} vs {tuple(labels.shape)}).")
    log_weight = 1.0 + (binary_inputs("Mul", labels, pos_weight)[1] - 1.0) * labels
    return (1.0 - labels) * logits + log_weight * (log1p(exp(-abs(logits))) + relu(-logits))
