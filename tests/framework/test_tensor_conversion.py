"""register_tensor_conversion_function: convert_to_tensor and op inputs use it."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import tensor, tensor_conversion


@pytest.fixture(autouse=True)
def clean_registry(monkeypatch):
    monkeypatch.setattr(tensor_conversion, "_PRIORITIES", {})
    monkeypatch.setattr(tensor, "CONVERSION_FUNCTIONS", tensor.CONVERSION_FUNCTIONS)
    saved = list(tensor.CONVERSION_FUNCTIONS)
    yield
    tensor.CONVERSION_FUNCTIONS[:] = saved


class Meters:
    def __init__(self, value):
        self.value = value


def to_tensor(m, dtype=None, name=None, as_ref=False):
    return tf.constant(m.value, dtype)


def test_conversion_reaches_convert_to_tensor_and_ops():
    tf.register_tensor_conversion_function(Meters, to_tensor)
    assert float(tf.convert_to_tensor(Meters(2.0))) == 2.0
    assert tf.convert_to_tensor(Meters(2), dtype=tf.int64).dtype == tf.int64
    assert float(tf.add(Meters(2.0), 1.0)) == 3.0
    assert float(tf.constant(3.0) * Meters(2.0)) == 6.0
    assert float(tf.reduce_sum(Meters([1.0, 2.0]))) == 3.0


def test_priority_and_not_implemented():
    tf.register_tensor_conversion_function(Meters, lambda *a, **k: NotImplemented, priority=1)
    tf.register_tensor_conversion_function(Meters, to_tensor, priority=50)
    assert float(tf.convert_to_tensor(Meters(4.0))) == 4.0


@pytest.mark.parametrize("base", [float, int, np.ndarray, np.float32])
def test_numbers_and_arrays_cannot_be_registered(base):
    with pytest.raises(TypeError, match="numeric"):
        tf.register_tensor_conversion_function(base, to_tensor)


def test_a_function_returning_a_non_tensor():
    tf.register_tensor_conversion_function(Meters, lambda m, **k: m)
    with pytest.raises(RuntimeError, match="non-Tensor"):
        tf.convert_to_tensor(Meters(1.0))
