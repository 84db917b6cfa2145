"""Every promotion pair of `x + y` in each dtype-conversion mode, against what TF 2.21 gave
(tests/experimental/promotion_tf.json, written by tools/record_tnp_promotion.py)."""
import json
import pathlib

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import promotion
from tapeflow.framework.tensor import WeakTensor

FIXTURE = json.loads((pathlib.Path(__file__).parent / "promotion_tf.json").read_text())
PYTHON = {"i*": 1, "f*": 1.0, "c*": 1j}


def _operand(name):
    if name in PYTHON:
        return PYTHON[name]
    return tf.constant(True if name == "bool" else 1, name)


def _outcome(a, b):
    try:
        result = _operand(a) + _operand(b)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return ["raised", type(e).__name__]
    return [result.dtype.name, isinstance(result, WeakTensor)]


CASES = [(m, pair) for m in ("legacy", "safe", "all") for pair in FIXTURE["modes"][m]["add"]]


@pytest.mark.parametrize("mode,pair", CASES)
def test_each_pair_promotes_as_tf(numpy_behavior, mode, pair):
    a, b = pair.split(",")
    with numpy_behavior(dtype_conversion_mode=mode):
        assert _outcome(a, b) == FIXTURE["modes"][mode]["add"][pair]


@pytest.mark.parametrize("pair", sorted(FIXTURE["modes"]["off"]["add"]))
def test_off_mode_keeps_its_dtypes(pair):
    """Without NumPy behaviour, pairs TF computes keep TF's dtype (the default mode)."""
    a, b = pair.split(",")
    expected = FIXTURE["modes"]["off"]["add"][pair]
    if expected[0] != "raised":
        assert _outcome(a, b) == expected


# (source, repr TF 2.21 gives) under the "all" mode.
WEAK_REPRS = [
    ("tf.constant(1, tf.int32) + 1.0", "<tf.Tensor: shape=(), dtype=float64, numpy=2.0, weak=True>"),
    ("tf.add(tf.constant(1), tf.constant(1.5))",
     "<tf.Tensor: shape=(), dtype=float32, numpy=2.5, weak=True>"),
    ("tf.math.multiply(tf.constant(1), 1.5)",
     "<tf.Tensor: shape=(), dtype=float32, numpy=1.5, weak=True>"),
    ("1.5 + tf.constant(1)", "<tf.Tensor: shape=(), dtype=float32, numpy=2.5, weak=True>"),
    ("tf.math.negative(5.0)", "<tf.Tensor: shape=(), dtype=float32, numpy=-5.0, weak=True>"),
    ("tf.constant(5.0)", "<tf.Tensor: shape=(), dtype=float32, numpy=5.0, weak=True>"),
    ("tf.convert_to_tensor(5.0)", "<tf.Tensor: shape=(), dtype=float32, numpy=5.0>"),
    ("tf.math.negative(-5.0) + tf.math.negative(-1.0)",
     "<tf.Tensor: shape=(), dtype=float32, numpy=6.0, weak=True>"),
    ("tf.add(np.array(1, np.int8), tf.constant(1))",
     "<tf.Tensor: shape=(), dtype=int8, numpy=2>"),
    ("tf.add(tf.add(np.array(1, np.int8), tf.constant(1)), np.array(1, np.float16))",
     "<tf.Tensor: shape=(), dtype=float16, numpy=3.0>"),
    ("tf.constant(1, tf.int32) + np.float64(2.0)", "<tf.Tensor: shape=(), dtype=float64, numpy=3.0>"),
    ("tf.constant(2.0) * np.array([1, 2], np.int32)",
     "<tf.Tensor: shape=(2,), dtype=float64, numpy=array([2., 4.]), weak=True>"),
    ("tnp.array(1)", "<tf.Tensor: shape=(), dtype=int32, numpy=1, weak=True>"),
    ("tnp.array(1.0)", "<tf.Tensor: shape=(), dtype=float32, numpy=1.0, weak=True>"),
    ("tf.constant(1.0, tf.float32) + tf.constant(2.0)",
     "<tf.Tensor: shape=(), dtype=float32, numpy=3.0>"),
]


@pytest.mark.parametrize("source,expected", WEAK_REPRS)
def test_weak_tensors_and_their_reprs(numpy_behavior, source, expected):
    with numpy_behavior(dtype_conversion_mode="all"):
        assert repr(eval(source, {"tf": tf, "np": np, "tnp": tf.experimental.numpy})) == expected  # noqa: S307


# Under "legacy" only the operators promote; the functions refuse as without the mode.
LEGACY_FUNCTIONS = [
    ("tf.add(tf.constant(1), tf.constant(1.5))", tf.errors.InvalidArgumentError),
    ("tf.math.multiply(tf.constant(1), 1.5)", TypeError),
]


@pytest.mark.parametrize("source,error", LEGACY_FUNCTIONS)
def test_legacy_mode_leaves_the_functions_alone(numpy_behavior, source, error):
    with numpy_behavior(dtype_conversion_mode="legacy"):
        with pytest.raises(error):
            eval(source, {"tf": tf})  # noqa: S307
        assert repr(tf.constant(1) + 1.5) == "<tf.Tensor: shape=(), dtype=float64, numpy=2.5>"


def test_safe_names_the_dtypes_it_refuses(numpy_behavior):
    with numpy_behavior(dtype_conversion_mode="safe"):
        with pytest.raises(TypeError, match="int32 and float16"):
            tf.constant(1, tf.int32) + tf.constant(1.0, tf.float16)


def test_weak_results_keep_their_gradient(numpy_behavior):
    with numpy_behavior(dtype_conversion_mode="all"):
        x = tf.constant(3, tf.int32)
        w = tf.constant(2.0, tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = (x + 1.5) * w
            z = tf.math.abs(y)  # a weak input: a weak result, still on the tape
        assert y.numpy() == 9.0 and tape.gradient(z, w).numpy() == 4.5


def test_an_unknown_mode_is_a_value_error():
    with pytest.raises(ValueError, match="dtype_conversion_mode"):
        promotion.set_mode("numpy")


def test_promoted_operands_keep_their_gradient(numpy_behavior):
    with numpy_behavior(dtype_conversion_mode="all"):
        h = tf.constant([1.5, 2.0], tf.float16)
        with tf.GradientTape() as tape:
            tape.watch(h)
            y = h * tf.constant([2.0, 3.0], tf.float32)  # h is cast to float32
        assert y.dtype == tf.float32
        assert tape.gradient(y, h).numpy().tolist() == [2.0, 3.0]


def test_promotion_in_a_traced_function(numpy_behavior):
    with numpy_behavior(dtype_conversion_mode="all"):
        f = tf.function(lambda x, y: x * y + 1.5)
        result = f(tf.constant([1, 2], tf.int32), tf.constant([0.5, 0.25], tf.float32))
        assert result.dtype == tf.float32 and result.numpy().tolist() == [2.0, 2.0]


# (source, what TF 2.21 gives) under the "all" mode: a Variable takes values that promote to
# its own dtype, and refuses (TypeError) the others.
VARIABLE_ASSIGNMENTS = [
    ("tf.Variable(10, tf.int32).assign(tf.constant(5, tf.int8)).numpy()", "np.int32(5)"),
    ("tf.Variable(10.0, tf.float32).assign_sub(2).numpy()", "np.float32(8.0)"),
    ("tf.Variable(10, tf.int32).assign_add(tf.constant(5.0, tf.float32))", "TypeError"),
    ("tf.Variable(10, tf.int32).assign(1.5)", "TypeError"),
]


@pytest.mark.parametrize("source,expected", VARIABLE_ASSIGNMENTS)
def test_variable_assignments_promote_to_the_variables_dtype(numpy_behavior, source, expected):
    with numpy_behavior(dtype_conversion_mode="all"):
        try:
            result = repr(eval(source, {"tf": tf}))  # noqa: S307
        except TypeError:
            result = "TypeError"
        assert result == expected


# The numpy namespace under the "all" mode (TF 2.21's reprs): Python data and the defaults
# are 32-bit, integers become float32 in float functions; NumPy promotion between tensors.
TNP_UNDER_ALL = [
    ("tnp.add(tf.constant(1, tf.int32), 1.5)", "<tf.Tensor: shape=(), dtype=float64, numpy=2.5>"),
    ("tnp.add(tf.constant(1, tf.int8), tf.constant(1, tf.uint8))",
     "<tf.Tensor: shape=(), dtype=int16, numpy=2>"),
    ("tnp.sqrt(tf.constant(4, tf.int32))", "<tf.Tensor: shape=(), dtype=float32, numpy=2.0>"),
    ("tnp.asarray([1, 2.5])", "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1. , 2.5], "
     "dtype=float32), weak=True>"),
    ("tnp.mean(tf.constant([1, 2], tf.int32))", "<tf.Tensor: shape=(), dtype=float32, numpy=1.5>"),
    ("tnp.arange(3)", "<tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 2], "
     "dtype=int32), weak=True>"),
    ("tnp.zeros(2)", "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], "
     "dtype=float32)>"),
]


@pytest.mark.parametrize("source,expected", TNP_UNDER_ALL)
def test_the_numpy_namespace_under_the_all_mode(numpy_behavior, source, expected):
    with numpy_behavior(dtype_conversion_mode="all"):
        assert repr(eval(source, {"tf": tf, "tnp": tf.experimental.numpy})) == expected  # noqa: S307
