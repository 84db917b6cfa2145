"""tf.experimental.numpy against TensorFlow: the table of calls in tests/experimental/
tnp_cases.py (values and dtypes), gradients of a sample of composed functions, and the
recorded promotion fixture, re-recorded from the installed TensorFlow (the promotion modes
are process-wide, so TF runs them in subprocesses)."""
import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

ROOT = pathlib.Path(__file__).parent.parent.parent
_spec = importlib.util.spec_from_file_location("tnp_cases",
                                               ROOT / "tests" / "experimental" / "tnp_cases.py")
tnp_cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tnp_cases)
NAMES = sorted(tnp_cases.cases(tapeflow.experimental.numpy))


def _describe(result):
    results = result if isinstance(result, (list, tuple)) else [result]
    return [(str(np.dtype(r.dtype.as_numpy_dtype)), np.asarray(r)) for r in results]


@pytest.mark.parametrize("name", NAMES)
def test_tnp_calls_agree_with_tf(tensorflow, name):
    try:
        theirs = _describe(tnp_cases.cases(tensorflow.experimental.numpy)[name]())
    except Exception:  # noqa: BLE001  (TF refuses NumPy inputs there: nothing to compare)
        pytest.skip("TF raises for this call")
    ours = _describe(tnp_cases.cases(tapeflow.experimental.numpy)[name]())
    assert [d for d, _ in ours] == [d for d, _ in theirs]
    for (_, a), (_, b) in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-12)


GRADIENT_CASES = {
    "logaddexp": lambda tnp, x: tnp.logaddexp(x, 2.0 * x),
    "hypot": lambda tnp, x: tnp.hypot(x, 1.0),
    "var": lambda tnp, x: tnp.var(x, axis=0),
    "kron": lambda tnp, x: tnp.kron(x, x),
    "cross": lambda tnp, x: tnp.cross(x[0], x[1]),
    "diff": lambda tnp, x: tnp.diff(x, axis=1),
    "tril": lambda tnp, x: tnp.tril(x),
    "take_along_axis": lambda tnp, x: tnp.take_along_axis(x, np.array([[1, 0, 1]]), 0),
    "polyval": lambda tnp, x: tnp.polyval([1.0, -2.0, 0.5], x),
    "moveaxis": lambda tnp, x: tnp.moveaxis(x, 0, 1) * 3.0,
}


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_gradients_agree_with_tf(tensorflow, name):
    x = np.array([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]])
    grads = []
    for tf in (tapeflow, tensorflow):
        v = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = tf.reduce_sum(GRADIENT_CASES[name](tf.experimental.numpy, v) ** 2)
        grads.append(tape.gradient(y, v).numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-6, atol=1e-10)


def test_promotion_fixture_is_what_tf_gives(tensorflow, tmp_path):
    out = tmp_path / "promotion.json"
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    subprocess.run([sys.executable, str(ROOT / "tools" / "record_tnp_promotion.py"), str(out)],
                   check=True, env=env, capture_output=True)
    recorded = json.loads((ROOT / "tests" / "experimental" / "promotion_tf.json").read_text())
    assert json.loads(out.read_text()) == recorded


def test_promotion_guide_cells_are_what_tf_gives(tensorflow):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "record_promotion_guide.py")],
                         check=True, env=env, capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_file_location(
        "guide", ROOT / "tests" / "experimental" / "test_promotion_guide.py")
    guide = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(guide)
    assert json.loads(out) == [expected for _, _, expected in guide.CELLS]
