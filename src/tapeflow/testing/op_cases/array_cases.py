"""Gradient-check rows for array ops."""
import tapeflow as tf
from tapeflow.ops import array_ops

from ._table import EXEMPT, case, normal

case("Identity", tf.identity, normal(2, 3))
case("Reshape", lambda x: tf.reshape(x, [3, -1]), normal(2, 3))
case("BroadcastTo", lambda x: tf.broadcast_to(x, [4, 2, 3]), normal(2, 1))
case("Transpose", lambda x: tf.transpose(x, perm=[2, 0, 1]), normal(2, 3, 4))
case("Transpose", tf.transpose, normal(2, 3), label="default perm")
case("ConcatV2", lambda x, y: array_ops.ConcatV2(x, y, axis=1), normal(2, 3), normal(2, 1))
case("SplitV", lambda x: array_ops.SplitV(x, indices=(1,), axis=1)[1] * 2.0, normal(2, 3))
case("StopGradient", tf.stop_gradient, normal(3), differentiable=False)
EXEMPT["ReadVariableOp"] = "tests/framework/test_variables.py (gradients through reads)"
