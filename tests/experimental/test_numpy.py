"""tf.experimental.numpy: results and dtypes against those TF 2.21 gave (recorded in
tnp_values_tf.json and promotion_tf.json), gradients, tracing, and NumPy behaviour."""
import importlib.util
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.testing.gradient_checker import check_grads

tnp = tf.experimental.numpy
HERE = pathlib.Path(__file__).parent


def _load(path: pathlib.Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cases = _load(HERE / "tnp_cases.py").cases
TNP_CALLS = _load(HERE.parent.parent / "tools" / "record_tnp_promotion.py").TNP_CALLS
VALUES = json.loads((HERE / "tnp_values_tf.json").read_text())
DTYPES = json.loads((HERE / "promotion_tf.json").read_text())["tnp"]
CASES = cases(tnp)


@pytest.mark.parametrize("name", sorted(n for n, v in VALUES.items() if v[0] != "raised"))
def test_results_match_tf(name):
    result = CASES[name]()
    results = result if isinstance(result, (list, tuple)) else [result]
    assert len(results) == len(VALUES[name])
    for ours, (dtype, values) in zip(results, VALUES[name]):
        assert ours.dtype.name == dtype, name
        np.testing.assert_allclose(np.asarray(ours), np.asarray(values, dtype=ours.dtype.name
                                   if dtype != "bool" else bool), rtol=1e-6, atol=1e-12)


def _evaluate(source):
    return eval(source, {"tnp": tnp, "tf": tf})  # noqa: S307  (the recorded table's calls)


@pytest.mark.parametrize("prefer", ["prefer_float64", "prefer_float32"])
@pytest.mark.parametrize("key", sorted(DTYPES["prefer_float64"]))
def test_result_dtypes_match_tf(numpy_behavior, prefer, key):
    with numpy_behavior(prefer_float32=prefer == "prefer_float32"):
        assert _result_dtype(key) == DTYPES[prefer][key]


def _result_dtype(key: str) -> str:
    if key.endswith("(operator)"):
        a, b = key.split(" (")[0].split(" + ")
        operand = {"int32": tf.constant(1), "float32": tf.constant(1.0), "1.5": 1.5}
        return (operand[a] + operand[b]).dtype.name
    result = _evaluate(TNP_CALLS[key])
    return result.name if isinstance(result, tf.DType) else result.dtype.name


def test_numpy_methods_on_tensors(numpy_behavior):
    with numpy_behavior():
        _check_numpy_methods()


def _check_numpy_methods():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert t.T.numpy().tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert t.size == 4 and t.tolist() == [[1.0, 2.0], [3.0, 4.0]] and t.data is t
    assert t.reshape(4).shape == [4] and t.reshape(1, 4).shape == [1, 4]
    assert t.reshape((4, 1)).shape == [4, 1] and t.ravel().shape == [4]
    assert t.flatten().shape == [4] and t.transpose().shape == [2, 2]
    assert t.astype(tf.int32).dtype == tf.int32 and t.astype(np.float64).dtype == tf.float64
    assert t.clip(1.5, 3).numpy().tolist() == [[1.5, 2.0], [3.0, 3.0]]
    assert t.max().numpy() == 4.0 and t.min().numpy() == 1.0
    assert t.mean(axis=0).numpy().tolist() == [2.0, 3.0]
    assert (+t) is t and round(tf.constant([0.5, 1.5])).numpy().tolist() == [0.0, 2.0]
    assert not hasattr(tf.Variable(1.0), "T")  # as TF: Variables get none of them


# (index, what TF 2.21 gives for x[index], x = [[1, 2, 3], [4, 5, 6]], with NumPy behaviour)
INDEXING = [
    ("[0, 1]", [[1, 2, 3], [4, 5, 6]]), ("([0, 1], [1, 2])", [2, 6]),
    ("tf.constant([0, 1])", [[1, 2, 3], [4, 5, 6]]), ("x > 2", [3, 4, 5, 6]),
    ("(slice(None), [0, 2])", [[1, 3], [4, 6]]), ("1", [4, 5, 6]),
]


@pytest.mark.parametrize("index,expected", INDEXING)
def test_numpy_indexing(numpy_behavior, index, expected):
    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    with numpy_behavior():
        key = eval(index, {"tf": tf, "x": x})  # noqa: S307
        assert x[key].numpy().tolist() == expected


def test_numpy_indexing_keeps_the_gradient(numpy_behavior):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with numpy_behavior():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x[[0, 1, 1], [2, 0, 0]] * 2.0)
        assert tape.gradient(y, x).numpy().tolist() == [[0, 0, 2], [4, 0, 0]]


def test_numpy_behavior_is_off_by_default():
    assert not hasattr(tf.constant(1.0), "T")
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant(1) + tf.constant(1.0)


_M = np.array([[0.3, 1.2], [2.0, -1.0]])
_V = np.array([0.3, 1.2, 0.5])
# name -> (function of tensors, arguments): compositions of ops, checked to second order
# against central differences with the checker the op table uses (no new gradient rules).
COMPOSED = {
    "sinc": (tnp.sinc, [_V]), "logaddexp": (tnp.logaddexp, [_V, _V * 2 + 0.1]),
    "logaddexp2": (tnp.logaddexp2, [_V, _V * 2 + 0.1]), "hypot": (tnp.hypot, [_V, _V + 1]),
    "cbrt": (tnp.cbrt, [_V]), "log2": (tnp.log2, [_V]), "log10": (tnp.log10, [_V]),
    "exp2": (tnp.exp2, [_V]), "deg2rad": (tnp.deg2rad, [_V]),
    "std": (lambda a: tnp.std(a, axis=0), [_M]), "var": (lambda a: tnp.var(a), [_M]),
    "nanmean": (lambda a: tnp.nanmean(a, axis=1), [_M]),
    "average": (lambda a, w: tnp.average(a, axis=1, weights=w), [_M, np.array([0.2, 0.9])]),
    "ptp": (lambda a: tnp.ptp(a, axis=1), [_M]), "kron": (tnp.kron, [_M, _M[:1]]),
    "cross": (tnp.cross, [_V, _V[::-1].copy()]), "outer": (tnp.outer, [_V, _V]),
    "vdot": (tnp.vdot, [_V, _V + 1]), "inner": (tnp.inner, [_M, _M]),
    "dot": (tnp.dot, [_M, _M]), "matmul": (tnp.matmul, [_M, _V[:2].copy()]),
    "polyval": (tnp.polyval, [_V, _M]), "diff": (lambda a: tnp.diff(a, n=1, axis=0), [_M]),
    "tril": (tnp.tril, [_M]), "trace": (tnp.trace, [_M]), "vander": (tnp.vander, [_V]),
    "take_along_axis": (lambda a: tnp.take_along_axis(a, np.array([[1], [0]]), 1), [_M]),
    "linspace": (lambda a, b: tnp.linspace(a, b, 4), [_V, _V + 2]),
    "moveaxis": (lambda a: tnp.moveaxis(a, 0, 1), [_M]), "rot90": (tnp.rot90, [_M]),
    "clip": (lambda a: tnp.clip(a, 0.5, 1.5), [_M]),
    "where": (lambda a, b: tnp.where(a > 0.5, a, b), [_M, _M * 2]),
    "around": (lambda a: tnp.around(a * 0.0 + a, 1) + a, [_M]),
}


@pytest.mark.parametrize("name", sorted(COMPOSED))
def test_gradients_of_composed_functions(name):
    fn, args = COMPOSED[name]
    check_grads(fn, args, order=2)


def test_functions_trace_in_tf_function():
    @tf.function
    def f(x):
        return tnp.sum(tnp.exp2(x) * tnp.hypot(x, 1.0), axis=0)
    x = tf.constant([[1.0, 2.0], [0.5, 0.0]], tf.float64)
    np.testing.assert_allclose(f(x).numpy(), np.sum(np.exp2(x.numpy()) * np.hypot(x.numpy(), 1),
                                                    axis=0))


def test_random_draws_of_numpys_shapes_and_dtypes():
    tnp.random.seed(3)
    assert tnp.random.randn(2, 3).shape == [2, 3] and tnp.random.rand(2).dtype == tf.float64
    draws = tnp.random.randint(2, 5, size=(100,))
    assert draws.dtype == tf.int64 and set(draws.numpy().tolist()) <= {2, 3, 4}
    assert tnp.random.uniform(1.0, 2.0, size=4).numpy().min() >= 1.0
    assert tnp.random.poisson(3.0, size=(5,)).dtype == tf.int64


def test_the_namespace_exports_only_tf_names():
    coverage = _load(HERE.parent / "test_tf_coverage.py")
    names = set(coverage.TF_2_21_NAMES["experimental.numpy"]) | {"random"}
    assert set(tnp.__all__) == names


def test_dtype_names_and_infos_are_numpys():
    assert tnp.float32 is np.float32 and tnp.bool_ is np.bool_ and tnp.ndarray is tf.Tensor
    assert tnp.finfo(tnp.float32).eps == np.finfo(np.float32).eps
    assert tnp.iinfo(tnp.int8).max == 127 and tnp.issubdtype(tnp.float32, tnp.inexact)
    assert tnp.promote_types(tnp.int8, tnp.uint8) == np.int16
