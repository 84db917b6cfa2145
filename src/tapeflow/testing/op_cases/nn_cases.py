"""Gradient-check rows for nn ops."""
import tapeflow as tf
from tapeflow.ops import nn_ops

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
