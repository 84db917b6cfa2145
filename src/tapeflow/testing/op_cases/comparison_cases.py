"""Gradient-check rows for comparison_ops: none is differentiable."""
import tapeflow as tf

from ._table import EXEMPT, case, normal
from .math_cases import BROADCASTS

for _sx, _sy, _label in BROADCASTS:
    for _op, _fn in [("Equal", tf.equal), ("NotEqual", tf.not_equal), ("Less", tf.less),
                     ("LessEqual", tf.less_equal), ("Greater", tf.greater),
                     ("GreaterEqual", tf.greater_equal)]:
        case(_op, _fn, normal(*_sx), normal(*_sy), label=_label, differentiable=False)
for _op, _fn in [("IsNan", tf.math.is_nan), ("IsFinite", tf.math.is_finite),
                 ("IsInf", tf.math.is_inf)]:
    case(_op, _fn, normal(4), differentiable=False)

EXEMPT.update({
    op: "tests/ops/test_comparison_ops.py (bool inputs are never recorded; no gradient there)"
    for op in ("LogicalAnd", "LogicalOr", "LogicalNot")})
