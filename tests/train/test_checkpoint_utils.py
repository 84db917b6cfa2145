"""Reading checkpoints (load_checkpoint, CheckpointReader), following a directory
(checkpoints_iterator) and CheckpointOptions."""
import threading

import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1

KEY = "w/.ATTRIBUTES/VARIABLE_VALUE"


def test_a_reader_gives_names_shapes_dtypes_and_values(tmp_path):
    prefix = tf.train.Checkpoint(w=tf.Variable([[1.0, 2.0]]), n=tf.Variable(3)).save(
        str(tmp_path / "ckpt"))
    for reader in (tf.train.load_checkpoint(prefix), tf.train.load_checkpoint(str(tmp_path)),
                   tf1.train.NewCheckpointReader(prefix)):
        shapes = reader.get_variable_to_shape_map()
        assert shapes[KEY] == [1, 2] and shapes["n/.ATTRIBUTES/VARIABLE_VALUE"] == []
        assert reader.get_variable_to_dtype_map()[KEY] == tf.float32
        assert reader.has_tensor(KEY) and not reader.has_tensor("v")
        np.testing.assert_array_equal(reader.get_tensor(KEY), [[1.0, 2.0]])
        assert f"{KEY} (float32) [1, 2]" in reader.debug_string().decode()
        with pytest.raises(tf.errors.NotFoundError):
            reader.get_tensor("missing")
    assert sorted(tf.train.load_checkpoint(prefix).get_variable_to_shape_map()) == \
        [name for name, _ in tf.train.list_variables(prefix)]


def test_missing_checkpoints(tmp_path):
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file"):
        tf.train.load_checkpoint(str(tmp_path))
    with pytest.raises(tf.errors.NotFoundError):
        tf1.train.NewCheckpointReader(str(tmp_path / "nothing"))


def test_a_saver_checkpoint_reads_by_variable_name(tmp_path):
    with tf1.Graph().as_default():
        w = tf1.get_variable("dense/kernel", initializer=tf1.constant([1.5, -2.0]))
        sess = tf1.Session()
        sess.run(tf1.global_variables_initializer())
        prefix = tf1.train.Saver().save(sess, str(tmp_path / "model"))
    np.testing.assert_array_equal(tf1.train.load_checkpoint(prefix).get_tensor("dense/kernel"),
                                  [1.5, -2.0])
    assert w.name == "dense/kernel:0"


def test_the_iterator_yields_each_new_checkpoint_then_times_out(tmp_path):
    checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(checkpoint, str(tmp_path), max_to_keep=3)
    manager.save()
    seen = []
    later = threading.Timer(0.3, manager.save)
    later.start()
    for path in tf.train.checkpoints_iterator(str(tmp_path), timeout=2.5):
        seen.append(path.rsplit("-", 1)[1])
        if len(seen) == 2:
            break
    later.join()
    assert seen == ["1", "2"]
    calls = []
    finished = list(tf.train.checkpoints_iterator(
        str(tmp_path), timeout=0, timeout_fn=lambda: calls.append(1) or True))
    assert finished == [manager.latest_checkpoint] and calls == [1]


def test_options_are_accepted_and_kept(tmp_path):
    options = tf.train.CheckpointOptions(experimental_io_device="/job:localhost",
                                         enable_async=True)
    assert options.experimental_io_device == "/job:localhost" and options.enable_async
    checkpoint = tf.train.Checkpoint(v=tf.Variable(2.0))
    prefix = checkpoint.save(str(tmp_path / "c"), options=options)
    checkpoint.v.assign(0.0)
    checkpoint.restore(prefix, options=options)
    assert float(checkpoint.v) == 2.0
    assert tf1.train.CheckpointOptions is tf.train.CheckpointOptions
