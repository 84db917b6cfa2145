"""The rest of an eager Variable's TF members; expected values and errors are TF 2.21's."""
import pytest

import tapeflow as tf


def test_graph_members_of_an_eager_variable():
    v = tf.Variable(1.0)
    assert v.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert v.initializer is None
    assert not hasattr(v, "op") and not hasattr(v, "graph")
    with pytest.raises(AttributeError, match="undefined when eager"):
        v.op
    with pytest.raises(RuntimeError):
        v.initial_value
    with pytest.raises(NotImplementedError):
        v.initialized_value()
    with pytest.raises(RuntimeError):
        v.eval()
    with pytest.raises(RuntimeError):
        v.to_proto()
    assert v.load(2.0) is None and float(v) == 2.0


def test_set_shape_and_unknown_shapes():
    v = tf.Variable(1.0)
    v.set_shape([])
    assert v.shape == ()
    with pytest.raises(ValueError, match=r"Shapes \(\) and \(2,\) are not compatible"):
        v.set_shape([2])
    u = tf.Variable([1.0, 2.0], shape=tf.TensorShape(None))
    assert u.shape.rank is None
    assert u.assign([1.0, 2.0, 3.0]).numpy().tolist() == [1.0, 2.0, 3.0]
    assert u.shape.rank is None


def test_count_up_to():
    c = tf.Variable(0)
    assert [int(c.count_up_to(2)), int(c.count_up_to(2))] == [0, 1] and int(c) == 2
    with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 2"):
        c.count_up_to(2)
    assert int(c) == 2


def test_constructor_arguments():
    on_read = tf.VariableSynchronization.ON_READ
    assert tf.Variable(1.0, synchronization=on_read).trainable is False
    assert tf.Variable(1.0, synchronization=on_read, trainable=True).trainable is True
    assert float(tf.Variable(1.0, experimental_enable_variable_lifting=False)) == 1.0
    assert float(tf.Variable(1.0, caching_device="/cpu:0")) == 1.0
    with pytest.raises(ValueError, match="Invalid variable synchronization mode: x"):
        tf.Variable(1.0, synchronization="x")
    v = tf.Variable(1.0)
    assert v.assign(3.0, read_value=False) is None and v.assign_add(3.0, read_value=False) is None
    assert float(v) == 6.0
