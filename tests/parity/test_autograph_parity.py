"""AutoGraph parity: tests/autograph/patterns.py run under TensorFlow's tf.function (the file
with `import tensorflow as tf`) and under tapeflow's give the same values, and the same
exception classes for the functions TF rejects."""
import importlib.util
import pathlib

import numpy as np
import pytest

pytestmark = pytest.mark.parity

PATTERNS_FILE = pathlib.Path(__file__).parent.parent / "autograph" / "patterns.py"
# Patterns tapeflow converts and TF does not: {function name: reason}; strict xfails.
KNOWN_DIFFERENCES = {
    "for_else": "TF 2.21's AutoGraph leaves a loop with an else clause unconverted, so "
                "iterating over a graph tensor raises OperatorNotAllowedInGraphError; "
                "tapeflow runs the else clause when no break ran, as Python does",
}


def _load(path: pathlib.Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OURS = _load(PATTERNS_FILE, "autograph_patterns_tapeflow")


@pytest.fixture(scope="module")
def theirs(tensorflow, tmp_path_factory):
    """patterns.py importing TensorFlow (a file, so AutoGraph can read the source)."""
    source = PATTERNS_FILE.read_text().replace("import tapeflow as tf", "import tensorflow as tf")
    path = tmp_path_factory.mktemp("autograph") / "patterns_tensorflow.py"
    path.write_text(source)
    return _load(path, "autograph_patterns_tensorflow")


def _run(module, fn, inputs):
    result = module.tf.function(fn)(*module.constants(inputs))
    if isinstance(result, (list, tuple)):
        return [np.asarray(r).tolist() for r in result]
    return np.asarray(result).tolist()


@pytest.mark.parametrize("index", range(len(OURS.PATTERNS)),
                         ids=[f"{p[0].__name__}-{i}" for i, p in enumerate(OURS.PATTERNS)])
def test_pattern_values_match_tensorflow(theirs, index, request):
    fn, inputs, _ = OURS.PATTERNS[index]
    if fn.__name__ in KNOWN_DIFFERENCES:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_DIFFERENCES[fn.__name__],
                                              strict=True))
    their_fn = theirs.PATTERNS[index][0]
    np.testing.assert_allclose(_run(OURS, fn, inputs), _run(theirs, their_fn, inputs),
                               rtol=1e-6)


@pytest.mark.parametrize("index", range(len(OURS.ERRORS)),
                         ids=[p[0].__name__ for p in OURS.ERRORS])
def test_error_classes_match_tensorflow(theirs, index):
    fn, inputs, raises = OURS.ERRORS[index]
    with pytest.raises(raises):
        _run(theirs, theirs.ERRORS[index][0], inputs)
    with pytest.raises(raises):
        _run(OURS, fn, inputs)


GRADIENT_CASES = [i for i, p in enumerate(OURS.PATTERNS) if p[0].__name__ in OURS.DIFFERENTIABLE]


@pytest.mark.parametrize("index", GRADIENT_CASES,
                         ids=[f"{OURS.PATTERNS[i][0].__name__}-{i}" for i in GRADIENT_CASES])
def test_gradients_to_second_order_match_tensorflow(theirs, index):
    fn, inputs, _ = OURS.PATTERNS[index]
    ours = OURS.derivatives(fn, inputs)
    expected = theirs.derivatives(theirs.PATTERNS[index][0], inputs)
    for a, b in zip(ours, expected):
        np.testing.assert_allclose(a, b, rtol=1e-6)
