"""tf.nn: activations, softmax, losses, convolution, pooling and normalization."""
from .ops.conv_ops import avg_pool2d, conv1d, conv2d, conv2d_transpose, max_pool2d
from .ops.math_ops import sigmoid, tanh
from .ops.nn_ops import (batch_normalization, bias_add, elu, gelu, l2_loss, leaky_relu,
                         log_softmax, moments, relu, relu6, selu, sigmoid_cross_entropy_with_logits,
                         silu, softmax, softmax_cross_entropy_with_logits, softplus, softsign,
                         sparse_softmax_cross_entropy_with_logits, swish)

__all__ = ["avg_pool2d", "batch_normalization", "bias_add", "conv1d", "conv2d",
           "conv2d_transpose", "elu", "gelu", "l2_loss", "leaky_relu", "log_softmax",
           "max_pool2d", "moments", "relu", "relu6", "selu", "sigmoid",
           "sigmoid_cross_entropy_with_logits", "silu", "softmax",
           "softmax_cross_entropy_with_logits", "softplus", "softsign",
           "sparse_softmax_cross_entropy_with_logits", "swish", "tanh"]
