"""The rest of tf.experimental: dlpack, async_scope, function_executor_type,
register_filesystem_plugin, enable_strict_mode, extension_type.as_dict and the narrow dtypes.
Messages, classes and enum numbers are TensorFlow 2.21's (recorded with it)."""
import logging

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import deprecation

dlpack = tf.experimental.dlpack


@pytest.mark.parametrize("value", [np.array([1.0, 2.0], np.float32), np.arange(6).reshape(2, 3),
                                   np.array([True, False])])
def test_dlpack_round_trip(value):
    capsule = dlpack.to_dlpack(tf.constant(value))
    assert type(capsule).__name__ == "PyCapsule"
    out = dlpack.from_dlpack(capsule)
    assert out.dtype == tf.as_dtype(value.dtype) and np.array_equal(out.numpy(), value)


def test_dlpack_numpy_and_errors():
    out = dlpack.from_dlpack(np.arange(3.0).__dlpack__())
    assert repr(out) == "<tf.Tensor: shape=(3,), dtype=float64, numpy=array([0., 1., 2.])>"
    shared = np.zeros(2, np.float32)
    assert np.shares_memory(np.from_dlpack(shared), shared)
    capsule = dlpack.to_dlpack(tf.constant([1.0]))
    dlpack.from_dlpack(capsule)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='must be a capsule with name "dltensor", got "used_dltensor"'):
        dlpack.from_dlpack(capsule)
    with pytest.raises(TypeError):
        dlpack.from_dlpack([1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="dtype string"):
        dlpack.to_dlpack(tf.constant(["a"]))


def test_async_scope():
    with tf.experimental.async_scope():
        x = tf.constant(1) + 1
    assert int(x) == 2 and tf.experimental.async_clear_error() is None
    with pytest.raises(tf.errors.InvalidArgumentError):
        with tf.experimental.async_scope():
            tf.reshape(tf.constant([1, 2, 3]), [2])


def test_function_executor_type_sets_the_call_attribute():
    inner = tf.function(lambda x: x * 2.0)
    seen = []

    @tf.function
    def outer(x):
        with tf.experimental.function_executor_type("SINGLE_THREADED_EXECUTOR"):
            y = inner(x)
        seen.append(y.op.get_attr("executor_type") if hasattr(y.op, "get_attr")
                    else y.op.attrs.get("executor_type"))
        return y + inner(x)
    assert float(outer(tf.constant(1.0))) == 4.0
    assert seen == ["SINGLE_THREADED_EXECUTOR"]
    graph = outer.get_concrete_function(tf.constant(1.0)).graph.as_graph_def()
    calls = [n for n in graph.node if n.op in ("PartitionedCall", "StatefulPartitionedCall")]
    assert sorted(n.attr["executor_type"].s for n in calls) == [b"", b"SINGLE_THREADED_EXECUTOR"]


def test_register_filesystem_plugin(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        tf.experimental.register_filesystem_plugin(str(tmp_path / "none.so"))
    assert str(info.value) == ("[Errno 2] The file to load file system plugin from does not "
                               f"exist.: '{tmp_path / 'none.so'}'")
    empty = tmp_path / "x.so"
    empty.write_bytes(b"")
    with pytest.raises(tf.errors.NotFoundError, match="file too short"):
        tf.experimental.register_filesystem_plugin(str(empty))


def test_strict_mode(monkeypatch, caplog):
    monkeypatch.setattr(deprecation, "_STRICT", [False])
    monkeypatch.setattr(deprecation, "_LOGGED", set())
    with caplog.at_level(logging.WARNING, logger="tapeflow"):
        tf.math.l2_normalize([3.0, 4.0], dim=0)
    assert "dim is deprecated, use axis instead" in caplog.text
    tf.experimental.enable_strict_mode()
    assert deprecation.is_strict_mode()
    with pytest.raises(RuntimeError) as info:
        tf.config.experimental_run_functions_eagerly(False)
    assert str(info.value) == ("This behavior has been deprecated, which raises an error in "
                               "strict mode.")
    tf.config.experimental_run_functions_eagerly(False)  # TF reports each name once


def test_extension_type_as_dict():
    class P(tf.experimental.ExtensionType):
        a: int
        b: tf.Tensor
    fields = tf.experimental.extension_type.as_dict(P(1, [2]))
    assert list(fields) == ["a", "b"] and fields["a"] == 1
    assert fields["b"].numpy().tolist() == [2]
    with pytest.raises(AttributeError, match="_tf_extension_type_fields"):
        tf.experimental.extension_type.as_dict(3)


@pytest.mark.parametrize("name, enum, floating, low, high", [
    ("float8_e4m3fnuz", 26, True, -240, 240), ("int4", 29, False, -8, 7),
    ("uint4", 30, False, 0, 15), ("int2", 31, False, -2, 1),
    ("float4_e2m1fn", 33, True, -6, 6), ("float8_e4m3fn", 25, True, -448, 448),
])
def test_narrow_dtypes(name, enum, floating, low, high):
    pytest.importorskip("ml_dtypes")
    dtype = getattr(tf.experimental, name)
    assert (dtype.name, dtype.as_datatype_enum, dtype.is_floating, dtype.is_integer) == \
        (name, enum, floating, not floating)
    assert (dtype.min, dtype.max, dtype.size) == (low, high, 1)
    assert tf.as_dtype(name) is dtype
    t = tf.cast(tf.constant([1.0, -1.0 if low < 0 else 2.0]), dtype)
    assert t.dtype is dtype
    assert tf.cast(t, tf.float32).numpy().tolist() == [1.0, -1.0 if low < 0 else 2.0]
