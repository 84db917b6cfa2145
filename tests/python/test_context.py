"""tensorflow.python.eager.context: TF's values, read from tapeflow's own state."""
import pytest

import tapeflow as tf
from tapeflow.python.eager import context


def test_one_context_reports_eager_and_graph_building():
    ctx = context.context()
    assert ctx is context.context_safe() and ctx.executing_eagerly()
    seen = []

    @tf.function
    def f():
        seen.append((ctx.executing_eagerly(), context.executing_eagerly(), ctx.device_name))
        return tf.constant(1)

    f()
    assert seen == [(False, False, "")]
    with context.graph_mode():
        assert not context.executing_eagerly() and context.is_in_graph_mode()
        with context.eager_mode():
            assert context.executing_eagerly() and context.in_eager_mode()


def test_device_scopes_as_tf_names_them():
    ctx = context.context()
    assert ctx.device_name == "" and ctx.device_spec.device_type is None
    with tf.device("/GPU:0"):
        assert ctx.device_name == "/job:localhost/replica:0/task:0/device:GPU:0"
        assert ctx.device_spec.device_type == "GPU"
    with tf.device("cpu:0"):
        assert ctx.device_name == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert ctx.num_gpus() == context.num_gpus() == 0 and not context.is_tfrt_enabled()
    assert [d.device_type for d in ctx.list_physical_devices()] == ["CPU"]


def test_scope_name_has_the_trailing_slash():
    with tf.name_scope("outer"):
        assert context.context().scope_name == "outer/"
    assert context.context().scope_name == ""


def test_a_reset_context_takes_a_new_device_configuration():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.list_logical_devices()  # fixes the configuration
    with pytest.raises(RuntimeError):
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    context._reset_context()
    try:
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        assert len(tf.config.list_logical_devices("CPU")) == 2
    finally:
        context._reset_context()
    assert len(tf.config.list_logical_devices("CPU")) == 1
