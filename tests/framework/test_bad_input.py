"""Bad input raises TF's exception class, worded as TF words it, and changes nothing."""
import numpy as np
import pytest

import tapeflow as tf

NOT_TENSORS = {
    "None": (None, "unsupported type"),
    "object": (object(), "unsupported type"),
    "dict": ({"a": 1}, "unsupported type"),
    "ragged list": ([[1.0], [2.0, 3.0]], "non-rectangular"),
    "list with None": ([1.0, None], "mixed types"),
    "object array": (np.array([1, None], dtype=object), "NumPy array"),
}

WHERE_A_TENSOR_GOES = {
    "convert_to_tensor": lambda v: tf.convert_to_tensor(v),
    "constant": lambda v: tf.constant(v),
    "x + v": lambda v: tf.constant([1.0, 2.0]) + v,
    "v * x": lambda v: v * tf.constant([1.0, 2.0]),
    "multiply": lambda v: tf.multiply(tf.constant([1.0, 2.0]), v),
    "matmul": lambda v: tf.matmul(tf.ones([2, 2]), v),
    "reduce_sum": lambda v: tf.reduce_sum(v),
    "reshape": lambda v: tf.reshape(v, [-1]),
    "exp": lambda v: tf.exp(v),
}


@pytest.mark.parametrize("value", sorted(NOT_TENSORS))
@pytest.mark.parametrize("where", sorted(WHERE_A_TENSOR_GOES))
def test_non_tensors_raise_value_error_at_conversion(value, where):
    bad, words = NOT_TENSORS[value]
    with pytest.raises(ValueError, match=words):
        WHERE_A_TENSOR_GOES[where](bad)


@pytest.mark.parametrize("value", [None, object(), [1.0, None]])
def test_assign_of_a_non_tensor_leaves_the_variable(value):
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError):
        v.assign(value)
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


def test_text_as_a_number_is_a_type_error():
    with pytest.raises(TypeError, match="float32"):
        tf.convert_to_tensor("a", tf.float32)
    with pytest.raises(TypeError, match="string"):
        tf.constant(1, tf.string)
    # NumPy text arrays are cast as NumPy casts them (TF too)
    assert tf.constant(np.array(["1"]), tf.int32).numpy().tolist() == [1]


HUGE = [100000, 100000, 10]
def huge_zeros():
    return tf.zeros(HUGE)


ALLOCATIONS = {
    "broadcast_to": ("BroadcastTo", lambda: tf.broadcast_to(tf.constant(1.0), HUGE)),
    "zeros": ("Fill", lambda: tf.zeros(HUGE)),
    "ones": ("Fill", lambda: tf.ones(HUGE)),
    "fill": ("Fill", lambda: tf.fill(HUGE, 1.0)),
    "random.normal": ("RandomStandardNormal", lambda: tf.random.normal(HUGE)),
    "random.uniform": ("RandomUniform", lambda: tf.random.uniform(HUGE)),
    "tile": ("Tile", lambda: tf.tile(tf.ones([10]), [10 ** 11])),
    "range": ("Range", lambda: tf.range(10 ** 12, dtype=tf.int64)),
    "function": ("Fill", lambda: tf.function(huge_zeros)()),
}


@pytest.mark.parametrize("case", sorted(ALLOCATIONS))
def test_allocations_too_large_are_resource_exhausted(case):
    op_name, make = ALLOCATIONS[case]
    with pytest.raises(tf.errors.ResourceExhaustedError, match=rf"{op_name}.*OOM.*shape\["):
        make()


@pytest.mark.parametrize("initializer", ["glorot_uniform", "zeros", "ones", "random_normal"])
def test_a_layer_whose_weights_do_not_fit_stays_unbuilt(initializer):
    layer = tf.keras.layers.Dense(10 ** 7, kernel_initializer=initializer)
    with pytest.raises(tf.errors.ResourceExhaustedError, match=r"OOM.*shape\[1000000,10000000\]"):
        layer(tf.ones([1, 10 ** 6]))
    assert not layer.built and not layer.weights


def test_a_failed_allocation_leaves_the_variable():
    v = tf.Variable([1.0])
    with pytest.raises(tf.errors.ResourceExhaustedError):
        v.assign_add(tf.reduce_sum(tf.zeros(HUGE)))
    assert v.numpy().tolist() == [1.0]


@pytest.mark.parametrize("fn, message", [
    (lambda: tf.ones([2, 3]) + tf.ones([4]), r"AddV2: Incompatible shapes: \[2,3\] vs\. \[4\]"),
    (lambda: tf.reshape(tf.ones([6]), [4, 2]),
     "Reshape: Input to reshape is a tensor with 6 values, but the requested shape has 8"),
    (lambda: tf.reshape(tf.ones([6]), [4, -1]),
     "Input to reshape is a tensor with 6 values, but the requested shape requires a "
     "multiple of 4"),
])
def test_error_texts_read_like_tf(fn, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message) as info:
        fn()
    assert "broadcast together" not in str(info.value)
    assert "cannot reshape array" not in str(info.value)


def test_a_graph_is_refused_with_tf_wording_while_it_is_built():
    with pytest.raises(ValueError, match=r"Mul: Incompatible shapes: \[2,3\] vs\. \[4\]"):
        tf.function(lambda a, b: a * b)(tf.ones([2, 3]), tf.ones([4]))
