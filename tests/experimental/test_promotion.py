"""Every promotion pair of `x + y` in each dtype-conversion mode, against what TF 2.21 gave
(tests/experimental/promotion_tf.json, written by tools/record_tnp_promotion.py)."""
import json
import pathlib

import pytest

import tapeflow as tf
from tapeflow.framework import promotion
from tapeflow.framework.tensor import WeakTensor

FIXTURE = json.loads((pathlib.Path(__file__).parent / "promotion_tf.json").read_text())
PYTHON = {"i*": 1, "f*": 1.0, "c*": 1j}


@pytest.fixture
def mode(request):
    promotion.set_mode(request.param)
    yield request.param
    promotion.set_mode("off")


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


@pytest.mark.parametrize("mode,pair", CASES, indirect=["mode"])
def test_each_pair_promotes_as_tf(mode, pair):
    a, b = pair.split(",")
    assert _outcome(a, b) == FIXTURE["modes"][mode]["add"][pair]


def test_weak_results_show_it_in_their_repr():
    promotion.set_mode("all")
    try:
        result = tf.constant(1) + 1.0
        assert repr(result) == "<tf.Tensor: shape=(), dtype=float64, numpy=2.0, weak=True>"
        assert repr(result + tf.constant(2.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=4.0>"
    finally:
        promotion.set_mode("off")


def test_safe_names_the_dtypes_it_refuses():
    promotion.set_mode("safe")
    try:
        with pytest.raises(TypeError, match="int32 and float16"):
            tf.constant(1) + tf.constant(1.0, tf.float16)
    finally:
        promotion.set_mode("off")


def test_weak_results_keep_their_gradient():
    promotion.set_mode("all")
    try:
        x = tf.constant(3, tf.int32)
        w = tf.constant(2.0, tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = (x + 1.5) * w
        assert y.numpy() == 9.0 and tape.gradient(y, w).numpy() == 4.5
    finally:
        promotion.set_mode("off")


def test_an_unknown_mode_is_a_value_error():
    with pytest.raises(ValueError, match="dtype_conversion_mode"):
        promotion.set_mode("numpy")
