"""Gradient-check rows for array ops: layout and creation ops."""
import numpy as np

import tapeflow as tf
from tapeflow.ops import array_ops

from ._table import EXEMPT, case, normal

case("Identity", tf.identity, normal(2, 3))
case("CheckNumerics", lambda x: tf.debugging.check_numerics(x * x, "x"), normal(2, 3))
case("EnsureShape", lambda x: tf.ensure_shape(x * x, [2, None]), normal(2, 3))
case("PlaceholderWithDefault",
     lambda x: tf.compat.v1.placeholder_with_default(x, [2, 3]), normal(2, 3))
case("IdentityN", lambda x, y: tf.identity_n([x, y])[1] * 2.0, normal(2), normal(3))
case("Reshape", lambda x: tf.reshape(x, [3, -1]), normal(2, 3))
case("Reshape", lambda x: tf.reshape(x, [1, 1]), normal(), label="scalar")
case("BroadcastTo", lambda x: tf.broadcast_to(x, [4, 2, 3]), normal(2, 1))
case("BroadcastTo", lambda x: tf.broadcast_to(x, [2, 2]), normal(), label="scalar")
# The engine's reduction of a broadcast gradient for shapes known only when a graph runs.
case("SumToShape", lambda g: array_ops.SumToShape(g, tf.constant([1, 3])), normal(4, 2, 3))
case("SumToShape", lambda g: array_ops.SumToShape(g, tf.constant([3, 1])), normal(3, 2), label="inner")
case("Transpose", lambda x: tf.transpose(x, perm=[2, 0, 1]), normal(2, 3, 4))
case("Transpose", tf.transpose, normal(2, 3), label="default perm")
case("ConcatV2", lambda x, y: tf.concat([x, y], axis=1), normal(2, 3), normal(2, 1))
case("ConcatV2", lambda x, y, z: tf.concat([x, y, z], axis=0), normal(1, 2), normal(3, 2),
     normal(2, 2), label="axis=0, three")
case("ConcatV2", lambda x, y: tf.concat([x, y], axis=-1), normal(2), normal(3), label="axis=-1")
case("SplitV", lambda x: tf.split(x, [1, -1], axis=1)[1] * 2.0, normal(2, 3), label="sizes")
case("SplitV", lambda x: tf.split(x, 3)[0] + tf.split(x, 3)[2], normal(6, 2), label="count")
case("SplitV", lambda x: tf.split(x, 2, axis=-1)[1], normal(2, 4), label="axis=-1")
case("ExpandDims", lambda x: tf.expand_dims(x, 0), normal(2, 3), label="axis=0")
case("ExpandDims", lambda x: tf.expand_dims(x, -1), normal(2, 3), label="axis=-1")
case("ExpandDims", lambda x: tf.expand_dims(x, 0), normal(), label="scalar")
case("Squeeze", tf.squeeze, normal(1, 3, 1), label="all")
case("Squeeze", lambda x: tf.squeeze(x, axis=[-1]), normal(1, 3, 1), label="axis=-1")
case("Pack", lambda x, y: tf.stack([x, y]), normal(2, 3), normal(2, 3), label="axis=0")
case("Pack", lambda x, y: tf.stack([x, y], axis=-1), normal(2, 3), normal(2, 3), label="axis=-1")
case("Pack", lambda x, y: tf.stack([x, y]), normal(), normal(), label="scalars")
case("Unpack", lambda x: tf.unstack(x)[1], normal(3, 2), label="axis=0")
case("Unpack", lambda x: tf.unstack(x, axis=1)[0] * tf.unstack(x, axis=1)[2], normal(2, 3),
     label="axis=1")
case("Unpack", lambda x: tf.unstack(x)[0], normal(2), label="to scalars")
case("Tile", lambda x: tf.tile(x, [2, 3]), normal(2, 1))
case("Tile", lambda x: tf.tile(x, [3]), normal(2), label="1-D")
case("Tile", lambda x: tf.tile(x, []), normal(), label="scalar")
case("PadV2", lambda x: tf.pad(x, [[1, 0], [2, 1]]), normal(2, 3))
case("PadV2", lambda x: tf.pad(x, [[2, 2]], constant_values=3.0), normal(3),
     label="constant_values")
case("MirrorPad", lambda x: tf.pad(x, [[1, 2], [0, 2]], "REFLECT"), normal(3, 3),
     label="REFLECT")
case("MirrorPad", lambda x: tf.pad(x, [[3, 1], [2, 0]], "symmetric"), normal(3, 2),
     label="SYMMETRIC")
case("MirrorPadGrad",
     lambda g: array_ops.MirrorPadGrad(g, paddings=((2, 1),), mode="REFLECT"), normal(6))
case("ReverseV2", lambda x: tf.reverse(x, [0]), normal(2, 3), label="axis=0")
case("ReverseV2", lambda x: tf.reverse(x, [-1, 0]), normal(2, 3), label="both axes")
case("Roll", lambda x: tf.roll(x, 2, 0), normal(5), label="1-D")
case("Roll", lambda x: tf.roll(x, [1, -2, 1], [0, 1, 0]), normal(3, 4), label="repeated axis")
case("Shape", lambda x: tf.shape(x), normal(2, 3), differentiable=False)
case("Size", lambda x: tf.size(x), normal(2, 3), differentiable=False)
case("Rank", lambda x: tf.rank(x), normal(2, 3), differentiable=False)

case("Fill", lambda v: tf.fill([2, 3], v), normal())
case("ZerosLike", tf.zeros_like, normal(2), differentiable=False)
case("OnesLike", tf.ones_like, normal(2), differentiable=False)
case("OneHot", lambda on: tf.one_hot([0, 2, 5], 3, on_value=on, off_value=-1.0, dtype=tf.float64),
     normal(),
     differentiable=False)
case("Range", lambda start: tf.range(start, 5.0, 0.5), np.array(1.25), differentiable=False)
case("LinSpace", lambda a, b: tf.linspace(a, b, 4), normal(), normal())
case("LinSpace", lambda a, b: tf.linspace(a, b, 3, axis=-1), normal(2), normal(2),
     label="vectors, axis=-1")
case("LinSpace", lambda a, b: tf.linspace(a, b, 1), normal(2), normal(2), label="num=1")
case("BroadcastTo", lambda x, y: tf.meshgrid(x, y)[0] * tf.meshgrid(x, y)[1], normal(3),
     normal(2), label="meshgrid xy")
case("BroadcastTo", lambda x, y, z: tf.meshgrid(x, y, z, indexing="ij")[2], normal(2),
     normal(3), normal(2), label="meshgrid ij")
EXEMPT["ReadVariableOp"] = "tests/framework/test_variables.py (gradients through reads)"
case("StopGradient", tf.stop_gradient, normal(3), differentiable=False)
