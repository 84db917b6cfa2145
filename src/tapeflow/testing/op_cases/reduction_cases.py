"""Gradient-check rows for reductions, scans and norms (reduction_ops.py, norm_ops.py)."""
import numpy as np

import tapeflow as tf

from ._table import EXEMPT, case, normal, positive, uniform
from .math_cases import complex_row, pair

_AXES = [(None, False), (None, True), (0, False), (1, True), ([0, 1], False), (-1, False),
         ([], False)]
for _op, _fn in [("Prod", tf.reduce_prod), ("Max", tf.reduce_max), ("Min", tf.reduce_min),
                 ("ReduceLogSumExp", tf.reduce_logsumexp)]:
    for _axis, _keep in _AXES:
        case(_op, lambda x, f=_fn, a=_axis, k=_keep: f(x, axis=a, keepdims=k), normal(2, 3),
             label=f"axis={_axis},keepdims={_keep}")
    case(_op, _fn, normal(), label="scalar")
    case(_op, lambda x, f=_fn: f(x, axis=[0, 2]), normal(2, 3, 4), label="axes=[0,2] of 3")
case("Prod", tf.reduce_prod, normal(5, 2, 3), label="3-d all")
for _axis, _keep in _AXES[:-1]:
    case("EuclideanNorm", lambda x, a=_axis, k=_keep: tf.math.reduce_euclidean_norm(x, a, k),
         normal(2, 3), label=f"axis={_axis},keepdims={_keep}")
case("EuclideanNorm", tf.math.reduce_euclidean_norm, normal(), label="scalar")
case("EuclideanNorm", lambda x: tf.math.reduce_euclidean_norm(x, [0, 2]), normal(2, 3, 4),
     label="axes=[0,2] of 3")
_WITH_ZEROS = np.array([[1.5, 0.0, 2.0, -0.5], [0.0, -1.0, 3.0, 0.5]])
case("Prod", lambda x: tf.reduce_prod(x, axis=1), _WITH_ZEROS, label="with zeros")
case("Prod", complex_row(lambda z: tf.reduce_prod(z, axis=0)), *pair(3, 2), label="complex")
case("ReduceLogSumExp", lambda x: tf.reduce_logsumexp(x * 1000.0, axis=1), normal(2, 3),
     label="large |x|")
case("Mean", lambda x: tf.math.reduce_variance(x, axis=1), normal(2, 3), label="variance")
case("Mean", complex_row(lambda z: tf.math.reduce_variance(z, axis=0)), *pair(3, 2),
     label="complex variance")
case("Sqrt", lambda x: tf.math.reduce_std(x, axis=[0, 1], keepdims=True), normal(2, 3),
     label="std")

for _op, _fn, _make in [("Cumsum", tf.math.cumsum, normal), ("Cumprod", tf.math.cumprod,
                                                                 positive)]:
    for _axis in (0, 1, -1):
        for _exclusive in (False, True):
            for _reverse in (False, True):
                case(_op, lambda x, f=_fn, a=_axis, e=_exclusive, r=_reverse:
                     f(x, axis=a, exclusive=e, reverse=r), _make(2, 3),
                     label=f"axis={_axis},exclusive={_exclusive},reverse={_reverse}")
    case(_op, complex_row(lambda z, f=_fn: f(z, axis=1, exclusive=True)),
         *pair(2, 3, real_part=_make), label="complex")
# At a zero the gradient's division by x is 0 / 0: the rule takes the other products there.
for _exclusive in (False, True):
    for _reverse in (False, True):
        case("Cumprod", lambda x, e=_exclusive, r=_reverse: tf.math.cumprod(
            x, axis=1, exclusive=e, reverse=r), _WITH_ZEROS,
            label=f"with zeros,exclusive={_exclusive},reverse={_reverse}")
# Two zeros in a line: exact to first order only (the rule's comment says why).
case("Cumprod", lambda x: tf.math.cumprod(x, axis=1), np.array([[2.0, 0.0, 3.0, 0.0, 5.0]]),
     label="two zeros", order=1)

for _op, _fn in [("ArgMax", tf.argmax), ("ArgMin", tf.argmin)]:
    case(_op, _fn, normal(3, 4), differentiable=False)
    case(_op, lambda x, f=_fn: f(x, axis=-1, output_type=tf.int32), normal(3, 4),
         differentiable=False, label="axis=-1")
case("NotEqual", lambda x: tf.math.count_nonzero(x, axis=0), normal(2, 3), differentiable=False,
     label="count_nonzero")

# Norms are compositions; each row is named after an op it records.
for _ord, _axis, _op in [("euclidean", None, "Sqrt"), ("euclidean", 0, "Sqrt"),
                         (2, 1, "Sqrt"), (1, None, "Abs"), (1, -1, "Abs"),
                         (np.inf, None, "Max"), (np.inf, 0, "Max"), (3, 1, "Pow"),
                         (0.5, None, "Pow"), ("fro", (0, 1), "Sqrt"), (1, (0, 1), "Max"),
                         (np.inf, (0, 1), "Max"), (1, (-1, -2), "Max")]:
    case(_op, lambda x, o=_ord, a=_axis: tf.norm(x, ord=o, axis=a), normal(2, 3),
         label=f"norm ord={_ord},axis={_axis}")
case("Sqrt", lambda x: tf.norm(x, axis=[1, 2], keepdims=True), normal(2, 3, 4),
     label="norm matrices keepdims")
for _axis, _keep, _shape in [((0, 1), False, (3, 4)), ((1, 0), True, (4, 3)),
                             ((0, 2), False, (3, 2, 4)), ((-1, -2), True, (2, 3, 3))]:
    case("Svd", lambda x, a=_axis, k=_keep: tf.norm(x, ord=2, axis=a, keepdims=k),
         normal(*_shape), label=f"matrix 2-norm axis={_axis},keepdims={_keep}")
case("Sqrt", complex_row(lambda z: tf.norm(z, axis=1)), *pair(2, 3), label="complex norm")
case("Rsqrt", lambda x: tf.math.l2_normalize(x, axis=1), normal(2, 3), label="l2_normalize")
case("Rsqrt", tf.math.l2_normalize, normal(4), label="l2_normalize all axes")
case("Rsqrt", complex_row(lambda z: tf.nn.l2_normalize(z, axis=0)), *pair(3, 2),
     label="complex l2_normalize")
case("RealDiv", lambda x: tf.clip_by_norm(x, 0.5), normal(2, 3), label="clip_by_norm clipped")
case("RealDiv", lambda x: tf.clip_by_norm(x, 100.0), normal(2, 3),
     label="clip_by_norm unclipped")
case("RealDiv", lambda x: tf.clip_by_norm(x, 1.0, axes=[1]), uniform(-1.0, 1.0, 3, 4),
     label="clip_by_norm axes")

EXEMPT.update({
    op: "tests/ops/test_reduction_ops.py (bool inputs are never recorded; no gradient there)"
    for op in ("All", "Any")})
