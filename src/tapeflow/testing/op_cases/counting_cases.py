"""Gradient-check rows for counting_ops: none is differentiable."""
import tapeflow as tf

from ._table import EXEMPT, case, normal

case("LowerBound", lambda s, v: tf.searchsorted(tf.sort(s), v), normal(2, 5), normal(2, 3),
     differentiable=False)
case("UpperBound", lambda s, v: tf.searchsorted(tf.sort(s), v, side="right"), normal(6),
     normal(4), differentiable=False)
# TF's InTopKV2 takes float32 predictions only.
case("InTopKV2", lambda p: tf.math.in_top_k([0, 3, 1], tf.cast(p, tf.float32), 2), normal(3, 4),
     differentiable=False)
EXEMPT.update({
    op: "tests/ops/test_counting_ops.py (no gradient rule, as TF: LookupError)"
    for op in ("Unique", "UniqueWithCounts", "DenseBincount")})
