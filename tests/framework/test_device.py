"""DeviceSpec parses and prints TF's device names; tf.device accepts them and places
nothing."""
import pytest

import tapeflow as tf


@pytest.mark.parametrize("text,fields,canonical", [
    ("/job:worker/replica:0/task:1/device:GPU:3", ("worker", 0, 1, "GPU", 3),
     "/job:worker/replica:0/task:1/device:GPU:3"),
    ("/gpu:0", (None, None, None, "GPU", 0), "/device:GPU:0"),
    ("CPU:0", (None, None, None, "CPU", 0), "/device:CPU:0"),
    ("/job:a/device:cpu:1", ("a", None, None, "CPU", 1), "/job:a/device:CPU:1"),
    ("/device:GPU:*", (None, None, None, "GPU", None), "/device:GPU:*"), ("", (None,) * 5, "")])
def test_parse_and_print(text, fields, canonical):
    spec = tf.DeviceSpec.from_string(text)
    assert (spec.job, spec.replica, spec.task, spec.device_type, spec.device_index) == fields
    assert spec.to_string() == canonical
    assert spec == tf.DeviceSpec.from_string(canonical) and hash(spec) == hash(
        tf.DeviceSpec.from_string(canonical))


def test_merge_and_replace():
    merged = tf.DeviceSpec.from_string("/job:a").make_merged_spec(
        tf.DeviceSpec.from_string("/device:CPU:1"))
    assert merged.to_string() == "/job:a/device:CPU:1"
    assert tf.DeviceSpec(job="a").replace(task=2).to_string() == "/job:a/task:2"
    assert tf.DeviceSpec(job="w", device_type="cpu", device_index=0).to_string() == \
        "/job:w/device:CPU:0"
    assert repr(tf.DeviceSpec(job="w")) == ("<DeviceSpec(job=w, replica=None, task=None, "
                                            "device_type=None, device_index=None)>")


def test_bad_spec():
    with pytest.raises(ValueError, match="Unknown attribute 'foo'"):
        tf.DeviceSpec.from_string("foo")


def test_device_scope_places_nothing():
    for name in ["/GPU:0", "/job:localhost/replica:0/task:0/device:CPU:0", None,
                 tf.DeviceSpec(device_type="GPU")]:
        with tf.device(name):
            assert float(tf.constant(2.0) * 3.0) == 6.0
    with pytest.raises(RuntimeError, match="functions"):
        with tf.device(lambda op: "/cpu:0"):
            pass
    with pytest.raises(ValueError):
        with tf.device("nonsense"):
            pass
