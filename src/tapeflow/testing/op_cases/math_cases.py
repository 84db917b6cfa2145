"""Gradient-check rows for math ops."""
import tapeflow as tf

from ._table import case, normal, positive

for _shape_x, _shape_y, _label in [((), (), "scalar"), ((3,), (3,), "same"),
                                    ((2, 3), (3,), "broadcast"), ((2, 1), (1, 3), "outer")]:
    case("AddV2", tf.add, normal(*_shape_x), normal(*_shape_y), label=_label)
    case("Sub", tf.subtract, normal(*_shape_x), normal(*_shape_y), label=_label)
    case("Mul", tf.multiply, normal(*_shape_x), normal(*_shape_y), label=_label)
    case("RealDiv", tf.divide, normal(*_shape_x), positive(*_shape_y), label=_label)
    case("Pow", tf.pow, positive(*_shape_x), normal(*_shape_y), label=_label)

for _op, _fn, _make in [("Neg", tf.negative, normal), ("Square", tf.square, normal),
                        ("Sqrt", tf.sqrt, positive), ("Exp", tf.exp, normal),
                        ("Log", tf.math.log, positive), ("Tanh", tf.tanh, normal),
                        ("Sigmoid", tf.sigmoid, normal)]:
    case(_op, _fn, _make(2, 3))
    case(_op, _fn, _make(), label="scalar")

case("Round", tf.round, normal(4), differentiable=False)
# Through float32 the finite differences need a wider step and tolerance.
case("Cast", lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64), normal(3),
     label="float32 roundtrip", eps=1e-3, rtol=1e-3)
case("Cast", lambda x: tf.cast(x, tf.int32), normal(3), differentiable=False, label="to int")

case("BatchMatMulV2", tf.matmul, normal(2, 3), normal(3, 4))
case("BatchMatMulV2", tf.matmul, normal(5, 2, 3), normal(3, 4), label="batch broadcast")
case("BatchMatMulV2", lambda a, b: tf.matmul(a, b, transpose_a=True), normal(3, 2),
     normal(3, 4), label="transpose_a")
case("BatchMatMulV2", lambda a, b: tf.matmul(a, b, transpose_b=True), normal(2, 3),
     normal(4, 3), label="transpose_b")
case("BatchMatMulV2", lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
     normal(3, 2), normal(4, 3), label="transpose_both")

for _axis, _keep in [(None, False), (0, False), (1, True), ([0, 1], False), (-1, False)]:
    _label = f"axis={_axis},keepdims={_keep}"
    case("Sum", lambda x, a=_axis, k=_keep: tf.reduce_sum(x, axis=a, keepdims=k), normal(2, 3),
         label=_label)
    case("Mean", lambda x, a=_axis, k=_keep: tf.reduce_mean(x, axis=a, keepdims=k), normal(2, 3),
         label=_label)
