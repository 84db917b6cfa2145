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
    tensor._OVERRIDES.clear()


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


class Backed(tf.Variable):
    """A tf.Variable backed by a tensor, as Sonnet's functional TensorVariable: it never
    calls Variable.__init__, registers its own conversion, and has a `value()` of its own."""

    def __init__(self, value):
        self.tensor_value = value
        self._shape, self._dtype, self.reads = value.shape, value.dtype, 0

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    def value(self):
        self.reads += 1
        return self.tensor_value * 10.0


def test_a_variable_subclass_is_converted_by_its_function_and_operates_on_its_value():
    # TF 2.21: ops convert it through the registered function; Python operators apply to
    # `value()` (4 reads below); a tape sees through the conversion.
    tf.register_tensor_conversion_function(
        Backed, lambda v, dtype=None, name=None, as_ref=False: v.tensor_value)
    b = Backed(tf.constant([1.0, 2.0]))
    np.testing.assert_array_equal(tf.add(b, 1.0).numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(
        tf.matmul(tf.reshape(b, [1, 2]), tf.ones([2, 1])).numpy(), [[3.0]])
    np.testing.assert_array_equal(tf.ones_like(b).numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(tf.convert_to_tensor(b).numpy(), [1.0, 2.0])
    assert b.reads == 0 and float(tf.reduce_sum(b)) == 3.0
    np.testing.assert_array_equal((b + 1.0).numpy(), [11.0, 21.0])
    np.testing.assert_array_equal((1.0 + b).numpy(), [11.0, 21.0])
    np.testing.assert_array_equal((b * 2.0).numpy(), [20.0, 40.0])
    np.testing.assert_array_equal((-b).numpy(), [-10.0, -20.0])
    assert b.reads == 4
    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        b.tensor_value = x
        y = tf.reduce_sum(tf.multiply(b, b))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [6.0, 8.0])


def test_a_function_registered_for_variable_itself_does_not_replace_the_read():
    calls = []

    def spy(v, dtype=None, name=None, as_ref=False):
        calls.append(v)
        return tf.constant(0.0)

    tf.register_tensor_conversion_function(tf.Variable, spy)
    v = tf.Variable(2.0)
    assert float(tf.add(v, 1.0)) == 3.0 and float(tf.convert_to_tensor(v)) == 2.0
    assert calls == []


def test_references_sort_by_identity_and_refuse_other_objects():
    # TF: refs order by the wrapped object's identity; comparing with a non-reference is
    # "TypeError: Cannot compare wrapped object with unwrapped object".
    a, b = tf.Variable(1.0), tf.constant(2.0)
    refs = sorted([a.ref(), b.ref()])
    assert refs == sorted([b.ref(), a.ref()])
    assert (refs[0] < refs[1]) and not (refs[1] < refs[0]) and refs[1] > refs[0]
    assert {id(r.deref()) for r in refs} == {id(a), id(b)}
    assert a.ref().unwrapped is a
    with pytest.raises(TypeError, match="Cannot compare wrapped object with unwrapped object"):
        a.ref() < 3


def test_a_variable_subclass_with_its_own_value_keeps_its_own_operators():
    class Doubled(tf.Variable):
        def value(self):
            return tf.Variable.value(self) * 2.0

        def __neg__(self):
            return "own"

    v = Doubled(3.0)
    assert float(v + 1.0) == 7.0 and float(1.0 + v) == 7.0 and -v == "own"
    assert float(tf.Variable(3.0) + 1.0) == 4.0


class _WrappedVariable:
    """A library's stand-in for a tf.Variable (as Keras's TensorFlow-backend Variable is):
    converts through `__tf_tensor__`, names its variable by `handle`."""

    _should_act_as_resource_variable = True

    def __init__(self, value):
        self.value = tf.Variable(value)

    @property
    def handle(self):
        return self.value.handle

    def __tf_tensor__(self, dtype=None, name=None):
        return tf.convert_to_tensor(self.value, dtype=dtype, name=name)


def test_a_type_converts_itself_through_tf_tensor_and_tapes_reach_its_variable():
    w = _WrappedVariable([1.0, 2.0])
    assert tf.convert_to_tensor(w).numpy().tolist() == [1.0, 2.0]
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.square(w))
    assert tape.gradient(y, w).numpy().tolist() == [2.0, 4.0]  # through w.handle
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(w)
        y = tf.reduce_sum(tf.multiply(w, 3.0))
    assert tape.gradient(y, [w])[0].numpy().tolist() == [3.0, 3.0]
    v = w.value
    assert v.handle is v and v._shared_name == v.name[:-2]
    assert v._unique_id != tf.Variable(1.0, name=v._shared_name)._unique_id


def test_an_operand_converting_itself_is_asked_for_the_other_operands_dtype():
    asked = []

    class Half:
        def __tf_tensor__(self, dtype=None, name=None):
            asked.append(dtype)
            return tf.constant([2.0], tf.float16)

    assert (tf.constant([1.5], tf.float16) * Half()).numpy().tolist() == [3.0]
    assert asked == [tf.float16]
