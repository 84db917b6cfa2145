"""Gradient-check rows for nn ops: activations, losses, convolution and pooling."""
import numpy as np

import tapeflow as tf
from tapeflow.ops import conv_ops, nn_ops

from ._table import EXEMPT, case, ints, normal, uniform

case("Relu", tf.nn.relu, uniform(0.1, 1.0, 2, 3), label="positive")
case("Relu", lambda x: tf.nn.relu(x - 0.55), uniform(0.0, 0.5, 4), label="negative")
case("ReluGrad", lambda g, y: nn_ops.ReluGrad(g, y), normal(5), uniform(-1.0, 1.0, 5))
case("Softmax", tf.nn.softmax, normal(2, 4))
case("Softmax", lambda x: tf.nn.softmax(x, axis=0), normal(3, 2), label="axis=0")
case("SparseSoftmaxCrossEntropyWithLogits",
     lambda logits, labels: tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits),
     normal(4, 5), ints(5, 4))
EXEMPT["CustomGradient"] = "tests/test_custom_gradient.py (user rules are the user's)"

# Piecewise activations: inputs keep clear of the kinks (0, and 6 for relu6).
_KINKED = np.array([[-1.5, -0.4, 0.3], [2.0, 5.5, 7.0]])
case("Relu6", tf.nn.relu6, _KINKED)
case("Relu6Grad", lambda g, x: nn_ops.Relu6Grad(g, x), normal(2, 3), _KINKED)
case("Elu", tf.nn.elu, _KINKED)
case("Elu", tf.nn.elu, normal(), label="scalar")
case("EluGrad", lambda g, y: nn_ops.EluGrad(g, y), normal(2, 3), uniform(-0.9, 2.0, 2, 3))
case("Selu", tf.nn.selu, _KINKED)
case("SeluGrad", lambda g, y: nn_ops.SeluGrad(g, y), normal(2, 3), uniform(-1.5, 2.0, 2, 3))
case("LeakyRelu", tf.nn.leaky_relu, _KINKED)
case("LeakyRelu", lambda x: tf.nn.leaky_relu(x, alpha=0.5), normal(4), label="alpha=0.5")
case("LeakyReluGrad", lambda g, x: nn_ops.LeakyReluGrad(g, x, alpha=0.2), normal(2, 3),
     _KINKED)

_LARGE = np.array([-100.0, -20.0, -0.5, 0.5, 20.0, 100.0])
case("Softplus", tf.nn.softplus, normal(2, 3))
case("Softplus", tf.nn.softplus, _LARGE, label="|x| up to 100")
case("Softsign", tf.nn.softsign, _KINKED)
case("LogSoftmax", tf.nn.log_softmax, normal(2, 4))
case("LogSoftmax", lambda x: tf.nn.log_softmax(x, axis=0), normal(3, 2), label="axis=0")
case("LogSoftmax", tf.nn.log_softmax, _LARGE.reshape(2, 3), label="|x| up to 100")
case("Softplus", lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
     uniform(0.0, 1.0, 6), _LARGE, label="sigmoid cross entropy, |x| up to 100")
# TF's fused rule is exact for labels that sum to 1: rows hold one argument fixed so that the
# finite differences never leave the simplex.
_DISTRIBUTIONS = np.array([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
case("SoftmaxCrossEntropyWithLogits",
     lambda x: tf.nn.softmax_cross_entropy_with_logits(_DISTRIBUTIONS, x),
     _LARGE.reshape(2, 3), label="logits, |x| up to 100")
case("SoftmaxCrossEntropyWithLogits",
     lambda x: tf.nn.softmax_cross_entropy_with_logits(_DISTRIBUTIONS.T, x, axis=0),
     normal(3, 2), label="logits, axis=0")
case("SoftmaxCrossEntropyWithLogits",
     lambda x: tf.nn.softmax_cross_entropy_with_logits(_DISTRIBUTIONS[1], x),
     normal(4, 3), label="logits, broadcast labels")
case("SoftmaxCrossEntropyWithLogits",
     lambda p: tf.nn.softmax_cross_entropy_with_logits(p, _LARGE.reshape(2, 3)),
     uniform(0.0, 1.0, 2, 3), label="labels")
case("Tanh", lambda x: tf.nn.gelu(x, approximate=True), normal(2, 3), label="gelu approximate")
# The outputs weighed differently, so that each one's rule is checked.
case("LSTMGates", lambda x, h, u, c: tf.concat([o * w for o, w in zip(
    nn_ops.LSTMGates(x, h, u, c), (1.0, -1.5, 0.5))], -1),
     normal(2, 8), normal(2, 3), normal(3, 8), normal(2, 2))
case("LSTMGatesGrad", lambda *args: tf.concat([o * w for o, w in zip(
    nn_ops.LSTMGatesGrad(*args), (1.0, -1.5))], -1),
     uniform(0.1, 0.9, 2, 8), normal(2, 2), normal(2, 2), normal(2, 2), normal(2, 2),
     normal(2, 8))
case("Sigmoid", tf.nn.silu, normal(2, 3), label="silu")
case("Sigmoid", lambda x: tf.nn.swish(x, beta=1.5), normal(4), label="swish beta=1.5")

case("BiasAdd", tf.nn.bias_add, normal(2, 3, 4), normal(4), label="NHWC")
case("BiasAdd", lambda v, b: tf.nn.bias_add(v, b, data_format="NCHW"), normal(2, 3, 2, 2),
     normal(3), label="NCHW")
case("Sqrt", lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
     normal(4, 3), normal(3), uniform(0.5, 2.0, 3), normal(3), normal(3),
     label="batch_normalization")
case("Square", tf.nn.l2_loss, normal(2, 3), label="l2_loss")
case("Mean", lambda x: tf.nn.moments(x, axes=[0])[1], normal(4, 3), label="moments variance")
case("Mean", lambda x: tf.nn.moments(x, axes=[0, 1], keepdims=True)[0], normal(4, 3),
     label="moments mean,keepdims")

for _strides, _padding, _dilations, _label in [
        (1, "SAME", 1, "SAME"), (2, "VALID", 1, "VALID,stride 2"),
        ([2, 1], "SAME", 1, "SAME,strides 2x1"), (1, "VALID", 2, "dilation 2"),
        (2, [[0, 0], [1, 2], [0, 1], [0, 0]], 1, "explicit padding")]:
    case("Conv2D", lambda x, w, s=_strides, p=_padding, d=_dilations: tf.nn.conv2d(
        x, w, strides=s, padding=p, dilations=d), normal(2, 5, 6, 2), normal(3, 2, 2, 3),
        label=_label)
case("Conv2D", lambda x, w: tf.nn.conv2d(x, w, 1, "SAME", data_format="NCHW"),
     normal(1, 2, 4, 4), normal(2, 2, 2, 3), label="NCHW")
case("Conv2D", lambda x, w: tf.nn.conv1d(x, w, stride=2, padding="SAME"), normal(2, 7, 2),
     normal(3, 2, 3), label="conv1d")
case("Conv2DBackpropInput", lambda x, w: tf.nn.conv2d_transpose(
    x, w, output_shape=[2, 5, 6, 2], strides=2, padding="SAME"), normal(2, 3, 3, 3),
    normal(3, 3, 2, 3), label="conv2d_transpose SAME")
case("Conv2DBackpropInput", lambda x, w: tf.nn.conv2d_transpose(
    x, w, output_shape=[1, 6, 6, 1], strides=1, padding="VALID", dilations=2),
    normal(1, 2, 2, 2), normal(3, 3, 1, 2), label="conv2d_transpose VALID,dilation 2")
_CONV_ATTRS = {"strides": (2, 1), "dilations": (1, 1), "pads": ((1, 1), (0, 1))}
case("Conv2DBackpropFilter", lambda x, g: conv_ops.Conv2DBackpropFilter(
    x, g, filter_sizes=(3, 2, 2, 3), **_CONV_ATTRS), normal(2, 5, 4, 2), normal(2, 3, 4, 3))

# Grouped, depthwise and separable convolutions: Conv2D with a filter depth dividing the input's.
case("Conv2D", lambda x, w: tf.nn.conv2d(x, w, 2, "SAME"), normal(1, 5, 4, 4), normal(3, 2, 2, 6),
     label="grouped, 2 groups")
case("Conv2D", lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID"),
     normal(2, 4, 5, 3), normal(2, 3, 3, 2), label="depthwise_conv2d")
case("Conv2D", lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"),
     normal(1, 5, 5, 2), normal(3, 3, 2, 1), label="depthwise_conv2d stride 2")
case("Conv2D", lambda x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME"),
     normal(1, 4, 4, 2), normal(3, 3, 2, 2), normal(1, 1, 4, 3), label="separable_conv2d")
case("Conv2D", lambda x, w: tf.nn.convolution(x, w, padding="SAME"), normal(2, 6, 4),
     normal(3, 2, 4), label="convolution 1-D grouped")
case("Conv2DBackpropInput", lambda x, w: tf.nn.conv1d_transpose(x, w, [2, 7, 2], 2, "SAME"),
     normal(2, 4, 3), normal(3, 2, 3), label="conv1d_transpose")

# 3-D: the same N-d kernels as 2-D.
for _strides, _padding, _label in [([1, 1, 1, 1, 1], "SAME", "SAME"),
                                   ([1, 2, 1, 2, 1], "VALID", "VALID,strides 2x1x2")]:
    case("Conv3D", lambda x, w, s=_strides, p=_padding: tf.nn.conv3d(x, w, s, p),
         normal(1, 4, 3, 5, 2), normal(2, 3, 2, 2, 3), label=_label)
# (TF's gradient of a rank-5 convolution or pool fails without an explicit data_format.)
case("Conv3D", lambda x, w: tf.nn.convolution(x, w, strides=[2, 2, 2], padding="SAME",
                                               data_format="NDHWC"),
     normal(1, 3, 4, 3, 1), normal(2, 2, 2, 1, 2), label="convolution 3-D")
case("Conv3DBackpropInputV2", lambda x, w: tf.nn.conv3d_transpose(
    x, w, [1, 4, 3, 5, 2], [1, 2, 2, 2, 1], "SAME"), normal(1, 2, 2, 3, 3),
    normal(2, 2, 3, 2, 3), label="conv3d_transpose")
_CONV3D_ATTRS = {"strides": (1, 2, 1), "dilations": (1, 1, 1), "pads": ((0, 1), (1, 0), (0, 0))}
case("Conv3DBackpropFilterV2", lambda x, g: conv_ops.Conv3DBackpropFilterV2(
    x, g, filter_sizes=(2, 2, 2, 2, 3), **_CONV3D_ATTRS), normal(1, 3, 4, 3, 2),
    normal(1, 3, 2, 2, 3))
for _ksize, _strides, _padding in [(2, 2, "VALID"), ([1, 3, 2, 2, 1], 1, "SAME")]:
    case("MaxPool3D", lambda x, k=_ksize, s=_strides, p=_padding: tf.nn.max_pool3d(x, k, s, p),
         normal(1, 4, 5, 4, 2), label=f"k={_ksize},s={_strides},{_padding}")
    case("AvgPool3D", lambda x, k=_ksize, s=_strides, p=_padding: tf.nn.avg_pool3d(x, k, s, p),
         normal(1, 4, 5, 4, 2), label=f"k={_ksize},s={_strides},{_padding}")
case("MaxPool3D", lambda x: tf.nn.pool(x, [2, 2, 2], "MAX", strides=[1, 2, 1], padding="SAME"),
     normal(1, 3, 4, 3, 1), label="pool MAX 3-D")
case("AvgPool3D", lambda x: tf.nn.avg_pool(x, 2, 1, "SAME"), normal(1, 3, 3, 3, 2),
     label="avg_pool 3-D")
_POOL3D_ATTRS = {"ksize": (2, 3, 2), "strides": (2, 2, 1), "pads": ((0, 0), (1, 1), (0, 1))}
case("MaxPool3DGrad", lambda x, g: conv_ops.MaxPool3DGrad(
    x, conv_ops.MaxPool3D(x, **_POOL3D_ATTRS), g, **_POOL3D_ATTRS), normal(1, 4, 5, 3, 2),
    normal(1, 2, 3, 3, 2))
case("MaxPool3DGradGrad", lambda x, g: conv_ops.MaxPool3DGradGrad(
    x, conv_ops.MaxPool3D(x, **_POOL3D_ATTRS), g, **_POOL3D_ATTRS), normal(1, 4, 5, 3, 2),
    normal(1, 4, 5, 3, 2))
case("AvgPool3DGrad", lambda g: conv_ops.AvgPool3DGrad(
    g, input_sizes=(1, 4, 5, 3, 2), **_POOL3D_ATTRS), normal(1, 2, 3, 3, 2))

for _ksize, _strides, _padding, _label in [(2, 2, "VALID", "2x2/2 VALID"),
                                           (3, 2, "SAME", "3x3/2 SAME"),
                                           ([2, 3], 1, "VALID", "2x3/1 overlapping")]:
    case("MaxPool", lambda x, k=_ksize, s=_strides, p=_padding: tf.nn.max_pool2d(x, k, s, p),
         normal(2, 5, 6, 2), label=_label)
    case("AvgPool", lambda x, k=_ksize, s=_strides, p=_padding: tf.nn.avg_pool2d(x, k, s, p),
         normal(2, 5, 6, 2), label=_label)
case("MaxPool", lambda x: tf.nn.max_pool2d(x, 2, 1, [[0, 0], [1, 0], [0, 1], [0, 0]]),
     normal(1, 3, 3, 2), label="explicit padding")
case("AvgPool", lambda x: tf.nn.avg_pool2d(x, 2, 2, "VALID", data_format="NCHW"),
     normal(1, 2, 4, 4), label="NCHW")
_POOL_ATTRS = {"ksize": (3, 3), "strides": (2, 2), "pads": ((1, 1), (1, 1))}
case("MaxPoolGrad", lambda x, g: conv_ops.MaxPoolGrad(
    x, conv_ops.MaxPool(x, **_POOL_ATTRS), g, **_POOL_ATTRS), normal(1, 5, 5, 2),
    normal(1, 3, 3, 2))
case("MaxPoolGradGrad", lambda x, g: conv_ops.MaxPoolGradGrad(
    x, conv_ops.MaxPool(x, **_POOL_ATTRS), g, **_POOL_ATTRS), normal(1, 5, 5, 2),
    normal(1, 5, 5, 2))
case("AvgPoolGrad", lambda g: conv_ops.AvgPoolGrad(g, input_sizes=(1, 5, 5, 2), **_POOL_ATTRS),
     normal(1, 3, 3, 2))

# The N-d and 1-D pools: reshapes around the 2-D ops.
for _ksize, _strides, _padding in [(2, 1, "VALID"), (3, 2, "SAME"), ([1, 2, 1], [1, 1, 1], "SAME")]:
    case("MaxPool", lambda x, k=_ksize, s=_strides, p=_padding: tf.nn.max_pool1d(x, k, s, p),
         normal(2, 5, 3), label=f"max_pool1d k={_ksize},s={_strides},{_padding}")
    case("AvgPool", lambda x, k=_ksize, s=_strides, p=_padding: tf.nn.avg_pool1d(x, k, s, p),
         normal(2, 5, 3), label=f"avg_pool1d k={_ksize},s={_strides},{_padding}")
case("MaxPool", lambda x: tf.nn.max_pool1d(x, 2, 1, [[0, 0], [1, 0], [0, 0]]), normal(1, 4, 2),
     label="max_pool1d explicit padding")
case("AvgPool", lambda x: tf.nn.avg_pool1d(x, 2, 2, "VALID", data_format="NCW"), normal(1, 2, 6),
     label="avg_pool1d NCW")
case("MaxPool", lambda x: tf.nn.max_pool(x, 2, 1, "SAME"), normal(1, 3, 3, 2), label="max_pool 2-D")
case("MaxPool", lambda x: tf.nn.max_pool(x, 2, 2, "VALID"), normal(2, 4, 1), label="max_pool 1-D")
case("AvgPool", lambda x: tf.nn.avg_pool(x, 2, 1, "SAME"), normal(1, 3, 3, 2), label="avg_pool 2-D")
case("AvgPool", lambda x: tf.nn.avg_pool(x, 3, 1, "SAME"), normal(2, 4, 1), label="avg_pool 1-D")
case("Softplus", tf.math.log_sigmoid, normal(2, 3), label="log_sigmoid")
case("Softplus", tf.math.log_sigmoid, uniform(-100.0, 100.0, 6), label="log_sigmoid |x| to 100")
EXEMPT.update({
    op: "tests/ops/test_rnn_ops.py (no CPU kernel, as in TF on a CPU: graphs only)"
    for op in ("CudnnRNN", "CudnnRNNBackprop")})
