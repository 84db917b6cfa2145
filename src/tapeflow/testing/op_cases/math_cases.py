"""Gradient-check rows for math ops (math_ops.py); the binary-row shapes and the complex-row
helpers the other families use too."""
import numpy as np

import tapeflow as tf
from tapeflow.ops import math_ops

from ._table import case, normal, positive, uniform

BROADCASTS = [((), (), "scalar"), ((3,), (3,), "same"), ((2, 3), (3,), "broadcast"),
               ((2, 1), (1, 3), "outer"), ((), (2, 3), "scalar-tensor")]


def complex_row(fn):
    """`fn` of complex tensors, each built from a (real, imag) pair of float arguments and
    seen through the real loss re(y) + im(y) / 2: it checks the conjugate convention of
    every rule on the path (a rule missing a conj fails it)."""
    def row(*parts):
        zs = [tf.complex(re, im) for re, im in zip(parts[::2], parts[1::2])]
        y = fn(*zs)
        return tf.math.real(y) + 0.5 * tf.math.imag(y)
    return row


def pair(*shape, real_part=normal):
    """Makers for the real and imaginary parts of a complex argument; imaginary parts in
    (-1, 1) keep rows off the poles of tan, tanh and sigmoid."""
    return real_part(*shape), uniform(-1.0, 1.0, *shape)


for _sx, _sy, _label in BROADCASTS:
    case("AddV2", tf.add, normal(*_sx), normal(*_sy), label=_label)
    case("Sub", tf.subtract, normal(*_sx), normal(*_sy), label=_label)
    case("Mul", tf.multiply, normal(*_sx), normal(*_sy), label=_label)
    case("RealDiv", tf.divide, normal(*_sx), positive(*_sy), label=_label)
    case("Pow", tf.pow, positive(*_sx), normal(*_sy), label=_label)
    case("Maximum", tf.maximum, normal(*_sx), normal(*_sy), label=_label)
    case("Minimum", tf.minimum, normal(*_sx), normal(*_sy), label=_label)
    case("SquaredDifference", tf.math.squared_difference, normal(*_sx), normal(*_sy),
         label=_label)
    case("DivNoNan", tf.math.divide_no_nan, normal(*_sx), positive(*_sy), label=_label)
    case("Atan2", tf.math.atan2, normal(*_sx), normal(*_sy), label=_label)
    case("FloorMod", tf.math.floormod, uniform(0.1, 0.9, *_sx), uniform(1.1, 1.9, *_sy),
         label=_label)
    case("FloorDiv", tf.math.floordiv, normal(*_sx), positive(*_sy), label=_label,
         differentiable=False)

# Pow's base below zero: the exponent gets no gradient there (TF's convention).
case("Pow", lambda x: tf.pow(x, 3.0), uniform(-2.0, -0.5, 4), label="negative base")
case("Pow", lambda y: tf.pow(np.array([0.0, 3.0]), y), uniform(0.5, 2.0, 2),
     label="exponent, zero base")
case("DivNoNan", lambda x: tf.math.divide_no_nan(x, np.array([2.0, 0.0, -1.0])), normal(3),
     label="zero divisor")
case("FloorMod", lambda x, y: tf.math.floormod(x, y), uniform(-2.9, -2.1, 3),
     uniform(-1.9, -1.1, 3), label="negative")
case("AddN", lambda a, b, c: tf.add_n([a, b, c]), normal(2, 3), normal(2, 3), normal(2, 3))
case("AddN", lambda a, b: tf.add_n([a, b]), normal(), normal(), label="scalar")
case("Maximum", lambda x: tf.clip_by_value(x, -0.5, 0.5), uniform(-1.0, 1.0, 6),
     label="clip_by_value")
case("Minimum", lambda x, lo, hi: tf.clip_by_value(x, lo, hi), normal(2, 3), uniform(-2, -1, 3),
     uniform(1, 2, 3), label="clip_by_value tensor bounds")

_UNARY = [("Neg", tf.negative, normal), ("Abs", tf.abs, normal), ("Sign", tf.sign, normal),
          ("Square", tf.square, normal), ("Sqrt", tf.sqrt, positive),
          ("Rsqrt", tf.math.rsqrt, positive), ("Reciprocal", tf.math.reciprocal, positive),
          ("Exp", tf.exp, normal), ("Expm1", tf.math.expm1, normal),
          ("Log", tf.math.log, positive), ("Log1p", tf.math.log1p, positive),
          ("Sin", tf.sin, normal), ("Cos", tf.cos, normal),
          ("Tan", tf.tan, lambda *s: uniform(-1.2, 1.2, *s)),
          ("Asin", tf.asin, lambda *s: uniform(-0.9, 0.9, *s)),
          ("Acos", tf.acos, lambda *s: uniform(-0.9, 0.9, *s)), ("Atan", tf.atan, normal),
          ("Sinh", tf.sinh, normal), ("Cosh", tf.cosh, normal), ("Tanh", tf.tanh, normal),
          ("Asinh", tf.asinh, normal), ("Acosh", tf.acosh, lambda *s: uniform(1.2, 3.0, *s)),
          ("Atanh", tf.atanh, lambda *s: uniform(-0.9, 0.9, *s)),
          ("Sigmoid", tf.sigmoid, normal)]
for _op, _fn, _make in _UNARY:
    case(_op, _fn, _make(2, 3))
    case(_op, _fn, _make(), label="scalar")
for _op, _grad_op in [("SqrtGrad", math_ops.SqrtGrad), ("RsqrtGrad", math_ops.RsqrtGrad),
                      ("ReciprocalGrad", math_ops.ReciprocalGrad)]:
    case(_op, lambda y, dy, f=_grad_op: f(y, dy), positive(2, 3), normal(2, 3))
    case(_op, complex_row(lambda y, dy, f=_grad_op: f(y, dy)), *pair(2, 3, real_part=positive),
         *pair(2, 3), label="complex")

for _op, _fn in [("Round", tf.round), ("Floor", tf.floor), ("Ceil", tf.math.ceil)]:
    case(_op, _fn, normal(4), differentiable=False)
# Through float32 the finite differences need a wider step and tolerance.
case("Cast", lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64), normal(3),
     label="float32 roundtrip", eps=1e-3, rtol=1e-3)
case("Cast", lambda x: tf.cast(x, tf.int32), normal(3), differentiable=False, label="to int")
case("Cast", lambda x: tf.math.imag(tf.square(tf.cast(x, tf.complex128)) * (1 + 2j)), normal(3),
     label="to complex")

for _a, _b, _kw in [((2, 3), (3, 4), {}), ((5, 2, 3), (3, 4), {}),
                    ((3, 2), (3, 4), {"transpose_a": True}),
                    ((2, 3), (4, 3), {"transpose_b": True}),
                    ((3, 2), (4, 3), {"transpose_a": True, "transpose_b": True}),
                    ((3, 2), (3, 4), {"adjoint_a": True}),
                    ((2, 3), (4, 3), {"adjoint_b": True}),
                    ((2, 3, 2), (4, 3), {"adjoint_a": True, "adjoint_b": True})]:
    _label = ",".join(_kw) or ("batch broadcast" if len(_a) == 3 else "plain")
    case("BatchMatMulV2", lambda a, b, kw=_kw: tf.matmul(a, b, **kw), normal(*_a), normal(*_b),
         label=_label)
    case("BatchMatMulV2", complex_row(lambda a, b, kw=_kw: tf.matmul(a, b, **kw)), *pair(*_a),
         *pair(*_b), label=f"complex {_label}")

for _axis, _keep in [(None, False), (None, True), (0, False), (1, True), ([0, 1], False),
                     (-1, False), ([], False)]:
    _label = f"axis={_axis},keepdims={_keep}"
    case("Sum", lambda x, a=_axis, k=_keep: tf.reduce_sum(x, axis=a, keepdims=k), normal(2, 3),
         label=_label)
    case("Mean", lambda x, a=_axis, k=_keep: tf.reduce_mean(x, axis=a, keepdims=k), normal(2, 3),
         label=_label)
case("Sum", tf.reduce_sum, normal(), label="scalar")
case("Mean", tf.reduce_mean, normal(), label="scalar")

# Complex numbers: every rule that multiplies by a local derivative conjugates it.
_BINARY_COMPLEX = [("AddV2", tf.add), ("Sub", tf.subtract), ("Mul", tf.multiply),
                   ("RealDiv", tf.divide), ("SquaredDifference", tf.math.squared_difference),
                   ("DivNoNan", tf.math.divide_no_nan)]
for _op, _fn in _BINARY_COMPLEX:
    case(_op, complex_row(_fn), *pair(2, 3), *pair(3, real_part=positive), label="complex")
case("Pow", complex_row(tf.pow), *pair(2, 3, real_part=positive), *pair(3), label="complex")
_CENTRAL = lambda *s: uniform(-0.8, 0.8, *s)  # noqa: E731  (off the real-axis branch cuts)
_UNARY_COMPLEX = [("Neg", tf.negative, normal), ("Square", tf.square, normal),
                  ("Sqrt", tf.sqrt, positive), ("Rsqrt", tf.math.rsqrt, positive),
                  ("Reciprocal", tf.math.reciprocal, positive), ("Exp", tf.exp, normal),
                  ("Expm1", tf.math.expm1, normal), ("Log", tf.math.log, positive),
                  ("Log1p", tf.math.log1p, positive), ("Sin", tf.sin, normal),
                  ("Cos", tf.cos, normal), ("Tan", tf.tan, _CENTRAL), ("Asin", tf.asin, _CENTRAL),
                  ("Acos", tf.acos, _CENTRAL), ("Atan", tf.atan, positive),
                  ("Sinh", tf.sinh, normal), ("Cosh", tf.cosh, normal), ("Tanh", tf.tanh, normal),
                  ("Asinh", tf.asinh, positive),
                  ("Acosh", tf.acosh, lambda *s: uniform(1.5, 3.0, *s)),
                  ("Atanh", tf.atanh, _CENTRAL), ("Sigmoid", tf.sigmoid, normal),
                  ("ComplexAbs", tf.abs, normal), ("Sum", tf.reduce_sum, normal),
                  ("Mean", tf.reduce_mean, normal)]
for _op, _fn, _make in _UNARY_COMPLEX:
    case(_op, complex_row(_fn), *pair(2, 3, real_part=_make), label="complex")
case("AddN", complex_row(lambda a, b: tf.add_n([a, b])), *pair(3), *pair(3), label="complex")

case("RealDiv", tf.realdiv, normal(2, 3), positive(3), label="realdiv broadcast")
case("RealDiv", tf.realdiv, normal(), positive(2), label="realdiv scalar")
case("Mul", lambda x: tf.math.scalar_mul(2.5, x), normal(2, 3), label="scalar_mul")
case("Mul", tf.math.scalar_mul, normal(), normal(3), label="scalar_mul tensor scalar")
