"""tf.experimental.Optional and iterators' get_next_as_optional, as TF 2.21 gives them."""
import pytest

import tapeflow as tf

Optional = tf.experimental.Optional


def test_a_value_and_its_spec():
    o = Optional.from_value({"a": tf.constant([1.0, 2.0]), "b": 3})
    assert bool(o.has_value())
    assert o.element_spec == {"a": tf.TensorSpec([2], tf.float32), "b": tf.TensorSpec([], tf.int32)}
    assert o._type_spec == tf.OptionalSpec(o.element_spec)
    value = o.get_value()
    assert value["a"].numpy().tolist() == [1.0, 2.0] and int(value["b"]) == 3
    assert isinstance(o, tf.__internal__.CompositeTensor)


def test_an_empty_one_has_no_value():
    e = Optional.empty(tf.TensorSpec([None, 2], tf.float32))
    assert not bool(e.has_value()) and e.element_spec == tf.TensorSpec([None, 2], tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        e.get_value()
    assert Optional.empty(None).element_spec is None
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        tf.function(e.get_value)()  # (when the graph runs)


def test_through_tf_function():
    o = tf.function(lambda x: Optional.from_value((x, x * 2)))(tf.constant(1.0))
    assert isinstance(o, Optional) and bool(o.has_value())
    assert [float(v) for v in o.get_value()] == [1.0, 2.0]


@pytest.mark.parametrize("traced", [False, True])
def test_iterator_next_as_optional(traced):
    it = iter(tf.data.Dataset.range(2))
    step = tf.function(lambda it: it.get_next_as_optional()) if traced else \
        (lambda it: it.get_next_as_optional())
    first, second, third = step(it), step(it), step(it)
    assert [int(first.get_value()), int(second.get_value())] == [0, 1]
    assert not bool(third.has_value())  # TF: False at the end
    assert third.element_spec == tf.TensorSpec([], tf.int64)


def test_a_function_takes_optionals_and_traces_once_per_element_spec():
    # TF 2.21: 0.0, 1.0, 3.0 with two traces (the empty Optional(None)s share one)
    traces = []

    @tf.function
    def f(o, x):
        traces.append(1)
        return tf.cond(o.has_value(), lambda: x + 1.0, lambda: x - 1.0)

    assert float(f(tf.experimental.Optional.empty(None), tf.constant(1.0))) == 0.0
    assert float(f(tf.experimental.Optional.empty(None), tf.constant(2.0))) == 1.0
    assert float(f(tf.experimental.Optional.from_value(tf.constant(1.0)),
                   tf.constant(2.0))) == 3.0
    assert len(traces) == 2


def test_a_generator_yields_empty_optionals_read_in_a_function():
    def gen():
        yield tf.constant([1.0]), tf.experimental.Optional.empty(None)
    ds = tf.data.Dataset.from_generator(
        gen, output_signature=(tf.TensorSpec([None]), tf.OptionalSpec(None)))

    @tf.function
    def step(it):
        x, o = next(it)
        return x, o.has_value()

    x, has = step(iter(ds))
    assert x.numpy().tolist() == [1.0] and not bool(has)  # TF 2.21: [1.0], False
