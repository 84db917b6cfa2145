"""parallel_stack and guarantee_const, and tf.tuple's control dependencies."""
import pytest

import tapeflow as tf


def test_parallel_stack_only_in_graphs():
    with pytest.raises(RuntimeError, match="eager"):
        tf.parallel_stack([tf.constant([1, 2])])
    f = tf.function(lambda a, b: tf.parallel_stack([a, b]))
    assert f(tf.constant([1, 2]), tf.constant([3, 4])).numpy().tolist() == [[1, 2], [3, 4]]
    unknown = tf.function(lambda a: tf.parallel_stack([a]),
                          input_signature=[tf.TensorSpec([None])])
    with pytest.raises(ValueError, match="fully defined"):
        unknown(tf.constant([1.0]))


def test_guarantee_const_is_an_identity_without_a_gradient_rule():
    x = tf.constant(2.0)
    assert float(tf.guarantee_const(x)) == 2.0
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.guarantee_const(x) * 2.0
    with pytest.raises(LookupError, match="GuaranteeConst"):
        tape.gradient(y, x)


def test_tuple():
    a, none, b = tf.tuple([tf.constant(1), None, tf.constant(2.0)])
    assert int(a) == 1 and none is None and float(b) == 2.0
    with tf.Graph().as_default():
        x, y = tf.constant(1.0), tf.constant(2.0)
        gate = tf.no_op()
        x2, y2 = tf.tuple([x, y], control_inputs=[gate])
    assert {op.name for op in x2.op.control_inputs} == {x.op.name, y.op.name, gate.name}
    with pytest.raises(TypeError):
        tf.tuple(tf.constant(1.0))
