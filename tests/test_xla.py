"""tf.xla.experimental: compile's return structure and jit_scope, as TF 2.21 gives them."""
import pytest

import tapeflow as tf


def test_compile_returns_tfs_structures():
    one = tf.xla.experimental.compile(lambda: tf.constant(1.0) + 1)
    assert isinstance(one, list) and len(one) == 1 and float(one[0]) == 2.0
    pair = tf.xla.experimental.compile(lambda: (tf.constant(1.0), tf.constant(2)))
    assert isinstance(pair, list) and [float(pair[0]), int(pair[1])] == [1.0, 2]
    assert pair[1].dtype == tf.int32
    nested = tf.xla.experimental.compile(lambda: [tf.constant(1.0), [tf.constant(2.0)]])
    assert float(nested[1][0]) == 2.0
    mapping = tf.xla.experimental.compile(lambda: {"a": tf.constant(1.0)})
    assert float(mapping["a"]) == 1.0
    product = tf.xla.experimental.compile(lambda a, b: a * b, inputs=[tf.constant(2.0), 3.0])
    assert float(product[0]) == 6.0


def test_compile_of_none_is_a_type_error_eagerly():
    with pytest.raises(TypeError):
        tf.xla.experimental.compile(lambda: None)


def test_compile_and_jit_scope_inside_a_function():
    @tf.function
    def forward(x):
        with tf.xla.experimental.jit_scope():
            y = x + 1
        return tf.xla.experimental.compile(lambda: y * 2)[0]

    assert float(forward(tf.constant(1.0))) == 4.0


def test_jit_scope_eagerly_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="jit_scope"):
        with tf.xla.experimental.jit_scope():
            pass


def test_function_with_jit_compile_runs():
    @tf.function(jit_compile=True)
    def double(x):
        return x * 2

    assert float(double(tf.constant(3.0))) == 6.0
