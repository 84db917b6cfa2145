"""What a tf.function may return and take: TF's TypeErrors for results that are not
tensors and for input signatures that are not (nested) sequences of specs."""
import pytest

import tapeflow as tf


class Custom:
    pass


@pytest.mark.parametrize("value, kind", [(object(), "object"), (Custom(), "Custom")])
def test_a_result_that_is_not_a_tensor_is_a_type_error(value, kind):
    f = tf.function(lambda: value)
    with pytest.raises(TypeError, match=f"returned a value of type {kind}, which a tf.function"):
        f()


def test_python_numbers_are_returned_as_tensors():
    one, half, none = tf.function(lambda: (1, 2.5, None))()
    assert (one.dtype, int(one)) == (tf.int32, 1)
    assert (half.dtype, float(half)) == (tf.float32, 2.5) and none is None


def test_input_signature_must_be_a_sequence_of_specs():
    with pytest.raises(TypeError, match="input_signature must be a tuple or a list"):
        tf.function(lambda x: x, input_signature=tf.TensorSpec([], tf.float32))
    with pytest.raises(TypeError, match=r"got invalid args \[3\] with types \[<class 'int'>\]"):
        tf.function(lambda x: x, input_signature=[3])


def test_arguments_that_do_not_fit_the_signature():
    f = tf.function(lambda x: x, input_signature=[tf.TensorSpec([2], tf.float32)])
    for bad in [(tf.constant([1.0, 2.0, 3.0]),), (tf.constant([1, 2]),),
                (tf.constant([1.0, 2.0]), tf.constant(1.0))]:
        with pytest.raises(TypeError, match="Binding inputs to tf.function"):
            f(*bad)
    assert f([1.0, 2.0]).numpy().tolist() == [1.0, 2.0]
    assert f(x=tf.constant([1.0, 2.0])).numpy().tolist() == [1.0, 2.0]
