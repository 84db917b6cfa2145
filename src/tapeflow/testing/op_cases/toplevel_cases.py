"""Gradient-check rows for the top-level ops of tf (truncating division, bitcasts,
histograms, checks, shape arithmetic) and tf.nn's window argmax, CTC and isotonic ops. Only CTCLoss
is differentiable, to first order (as TF's)."""
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
# The fused kernel's gradient output is not differentiable (order 1). Two steps of three
# classes, and a batch of two of four steps: labels of lengths 1 to 2.
case("CTCLoss", lambda x: tf.nn.ctc_loss([[1, 2], [2, 0]], x, [2, 1], [4, 3]),
     normal(4, 2, 3), order=1)
case("CTCLoss", lambda x: tf.nn.ctc_loss([[1, 1]], x, [2], [3], blank_index=2),
     normal(3, 1, 3), order=1, label="repeat")
case("CTCGreedyDecoder", lambda x: tf.nn.ctc_greedy_decoder(x, [4, 3])[1], normal(4, 2, 3),
     differentiable=False)
case("CTCBeamSearchDecoder", lambda x: tf.nn.ctc_beam_search_decoder(x, [4, 3], 4)[1],
     normal(4, 2, 3), differentiable=False)
case("Fingerprint", tf.fingerprint, normal(3, 2), differentiable=False)
case("IsotonicSegments", lambda x: tf.nn.isotonic_regression(x)[1], normal(2, 5),
     differentiable=False)

EXEMPT.update({
    "TruncateMod": "tests/ops/test_truncate_ops.py (no gradient rule, as TF: LookupError)",
    "GuaranteeConst": "tests/ops/test_graph_array_ops.py (no gradient rule, as TF: LookupError)",
    "Assert": "tests/ops/test_check_ops.py (no outputs)",
    "PreventGradient": "tests/ops/test_ctc_ops.py (its gradient is a LookupError by design)",
    "CheckPinned": "tests/ops/test_serving_ops.py (raises InvalidArgumentError when it runs)",
    "Timestamp": "tests/ops/test_timestamp.py (no inputs)",
    "BroadcastArgs": "tests/ops/test_shape_ops.py (integer inputs are never recorded)",
    "UnravelIndex": "tests/ops/test_shape_ops.py (integer inputs are never recorded)",
    "CollapseRepeated": "tests/ops/test_ctc_ops.py (integer inputs are never recorded)",
    "CTCUniqueLabels": "tests/ops/test_ctc_ops.py (integer inputs are never recorded)",
})
