"""tf.nn: activations, softmax, losses, convolution, pooling and normalization."""
from .ops.embedding_ops import embedding_lookup
from .ops.random_ops import dropout
from .ops.sort_ops import top_k
from .ops.math_ops import sigmoid, tanh
from .ops.norm_ops import l2_normalize
from .ops.nn_ops import relu, softmax, sparse_softmax_cross_entropy_with_logits
from .ops.conv_ops import conv1d, conv2d, conv2d_transpose
from .ops.pool_ops import avg_pool2d, max_pool2d
from .ops.nn_ops import (batch_normalization, bias_add, elu, gelu, l2_loss, leaky_relu,
                         log_softmax, moments, relu6, selu, sigmoid_cross_entropy_with_logits,
                         silu, softmax_cross_entropy_with_logits, softplus, softsign, swish)

from . import nn_experimental as experimental  # noqa: E402

__all__ = ["relu", "sigmoid", "softmax", "sparse_softmax_cross_entropy_with_logits", "tanh",
           "dropout", "embedding_lookup"]
__all__ += ["l2_normalize"]
__all__ += ["avg_pool2d", "batch_normalization", "bias_add", "conv1d", "conv2d",
            "conv2d_transpose", "elu", "gelu", "l2_loss", "leaky_relu", "log_softmax",
            "max_pool2d", "moments", "relu6", "selu", "sigmoid_cross_entropy_with_logits", "silu",
            "softmax_cross_entropy_with_logits", "softplus", "softsign", "swish"]
__all__ += ["top_k"]
from .ops.pool_ops import avg_pool, avg_pool1d, max_pool, max_pool1d  # noqa: E402

__all__ += ["avg_pool", "avg_pool1d", "max_pool", "max_pool1d"]
from .ops.conv_ops import (conv1d_transpose, conv3d, conv3d_transpose, convolution,  # noqa: E402
                           depthwise_conv2d, separable_conv2d)
from .ops.pool_ops import avg_pool3d, max_pool3d, pool  # noqa: E402

__all__ += ["avg_pool3d", "conv1d_transpose", "conv3d", "conv3d_transpose", "convolution",
            "depthwise_conv2d", "max_pool3d", "pool", "separable_conv2d"]

__all__ += ["compute_average_loss", "scale_regularization_loss"]
from .ops.candidate_sampling_ops import (all_candidate_sampler,  # noqa: E402
                                         compute_accidental_hits, fixed_unigram_candidate_sampler,
                                         learned_unigram_candidate_sampler)
from .sampled_losses import nce_loss, sampled_softmax_loss  # noqa: E402

__all__ += ["all_candidate_sampler", "compute_accidental_hits", "fixed_unigram_candidate_sampler",
            "learned_unigram_candidate_sampler", "nce_loss", "sampled_softmax_loss"]


def __getattr__(name: str):
    # The loss scaling of data-parallel training lives with tf.distribute, loaded on first use.
    if name in ("compute_average_loss", "scale_regularization_loss"):
        from .distribute import losses
        return getattr(losses, name)
    raise AttributeError(f"module 'tapeflow.nn' has no attribute {name!r}")
from .ops.space_ops import depth_to_space, space_to_batch, space_to_depth  # noqa: E402

__all__ += ["depth_to_space", "space_to_batch", "space_to_depth"]
from .ops.counting_ops import in_top_k  # noqa: E402

__all__ += ["in_top_k"]
from .ops.math_utility_ops import approx_max_k, approx_min_k, zero_fraction  # noqa: E402

__all__ += ["approx_max_k", "approx_min_k", "zero_fraction"]

from .sparse.embedding import embedding_lookup_sparse, safe_embedding_lookup_sparse  # noqa: E402

__all__ += ["embedding_lookup_sparse", "safe_embedding_lookup_sparse"]

from .ctc_decoders import ctc_beam_search_decoder, ctc_greedy_decoder  # noqa: E402
from .ops.conv_variants import (atrous_conv2d, atrous_conv2d_transpose,  # noqa: E402
                                conv_transpose, depthwise_conv2d_backprop_filter,
                                depthwise_conv2d_backprop_input, with_space_to_batch)
from .ops.ctc_ops import collapse_repeated, ctc_loss, ctc_unique_labels  # noqa: E402
from .ops.fractional_pool_ops import fractional_avg_pool, fractional_max_pool  # noqa: E402
from .ops.isotonic_ops import isotonic_regression  # noqa: E402
from .ops.morphology_ops import dilation2d, erosion2d, max_pool_with_argmax  # noqa: E402
from .ops.nn_impl_ops import (batch_norm_with_global_normalization, crelu,  # noqa: E402
                              local_response_normalization, log_poisson_loss, lrn,
                              normalize_moments, sufficient_statistics,
                              weighted_cross_entropy_with_logits, weighted_moments)

__all__ += ["atrous_conv2d", "atrous_conv2d_transpose", "batch_norm_with_global_normalization",
            "collapse_repeated", "conv_transpose", "crelu", "ctc_beam_search_decoder",
            "ctc_greedy_decoder", "ctc_loss", "ctc_unique_labels",
            "depthwise_conv2d_backprop_filter", "depthwise_conv2d_backprop_input",
            "dilation2d", "erosion2d", "fractional_avg_pool", "fractional_max_pool",
            "isotonic_regression", "local_response_normalization", "log_poisson_loss", "lrn",
            "max_pool_with_argmax", "normalize_moments", "sufficient_statistics",
            "weighted_cross_entropy_with_logits", "weighted_moments", "with_space_to_batch"]
