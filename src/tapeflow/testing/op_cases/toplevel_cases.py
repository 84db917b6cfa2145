"""Gradient-check rows for the top-level ops of tf (truncating division, bitcasts,
histograms, checks, shape arithmetic) and tf.nn's window argmax. None is differentiable."""
import tapeflow as tf

from ._table import EXEMPT, case, normal, positive

case("TruncateDiv", tf.truncatediv, normal(3, 4), positive(4), differentiable=False)
case("Bitcast", lambda x: tf.bitcast(x, tf.int32), normal(3), differentiable=False)
case("HistogramFixedWidth", lambda x: tf.histogram_fixed_width(x, [-1.0, 1.0], nbins=4),
     normal(8), differentiable=False)
case("HistogramFixedWidthBins",
     lambda x: tf.histogram_fixed_width_bins(x, [-1.0, 1.0], nbins=4), normal(8),
     differentiable=False)
case("WindowArgmax", lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")[1],
     normal(1, 4, 4, 2), differentiable=False)

EXEMPT.update({
    "TruncateMod": "tests/ops/test_truncate_ops.py (no gradient rule, as TF: LookupError)",
    "GuaranteeConst": "tests/ops/test_graph_array_ops.py (no gradient rule, as TF: LookupError)",
    "Assert": "tests/ops/test_check_ops.py (no outputs)",
    "PreventGradient": "tests/ops/test_ctc_ops.py (no gradient rule by design: LookupError)",
    "Timestamp": "tests/ops/test_timestamp.py (no inputs)",
    "BroadcastArgs": "tests/ops/test_shape_ops.py (integer inputs are never recorded)",
    "UnravelIndex": "tests/ops/test_shape_ops.py (integer inputs are never recorded)",
})
