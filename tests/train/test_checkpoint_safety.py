"""Loading is safe and saving survives being killed.

A writer killed mid-save (SIGKILL, in a child process) leaves the previous checkpoint
restorable exactly, and the `checkpoint` index never names a partial file. No file can run
code when loaded; paths in an index stay inside its directory; a truncated or garbled file
is a DataLossError naming it, and changes nothing.
"""
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tapeflow as tf

SRC = os.path.join(os.path.dirname(__file__), "..", "..", "src")

# Saves step 1 for good, then kills itself inside the write of step 2 (at `where`).
KILLED_WRITER = textwrap.dedent("""
    import os, signal, sys
    import numpy as np
    import tapeflow as tf
    from tapeflow.train import checkpoint as checkpoint_module

    directory, where = sys.argv[1], sys.argv[2]
    v = tf.Variable(np.arange(1000, dtype="float32"))
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), directory, max_to_keep=2)
    manager.save()
    v.assign(v + 1.0)
    die = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
    if where == "data":          # the data shard written, the index not
        from tapeflow.train import tensor_bundle
        tensor_bundle.build_table = die
    elif where == "rename":      # data complete, not yet renamed into place
        checkpoint_module.os.replace = die
    elif where == "index":       # data renamed into place, the index not yet rewritten
        write_state = checkpoint_module.write_state
        checkpoint_module.write_state = die
    manager.save()
""")


def run_killed_writer(directory, where: str) -> int:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(SRC))
    done = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(directory), where],
                          env=env, capture_output=True, timeout=120)
    return done.returncode


@pytest.mark.parametrize("where", ["data", "rename", "index"])
def test_a_writer_killed_mid_save_leaves_the_previous_checkpoint(tmp_path, where):
    assert run_killed_writer(tmp_path, where) == -signal.SIGKILL
    latest = tf.train.latest_checkpoint(tmp_path)
    assert latest == os.path.join(tmp_path, "ckpt-1")
    state = tf.train.get_checkpoint_state(tmp_path)
    for path in [state.model_checkpoint_path] + state.all_model_checkpoint_paths:
        reader = tf.train.load_checkpoint(path)       # the index names whole files only
        assert reader.get_tensor("v/.ATTRIBUTES/VARIABLE_VALUE").shape == (1000,)
    v = tf.Variable(np.zeros(1000, "float32"))
    tf.train.Checkpoint(v=v).restore(latest)
    np.testing.assert_array_equal(v.numpy(), np.arange(1000, dtype="float32"))


class _RunsCode:
    def __reduce__(self):
        return (os.system, ("touch PWNED",))


def test_no_file_runs_code_on_load(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    metadata = np.frombuffer(b'{"format": "tapeflow-checkpoint", "version": 1, "builds": {}}',
                             np.uint8)
    np.savez(tmp_path / "evil.npz", **{"v/.ATTRIBUTES/VARIABLE_VALUE":
                                       np.array([_RunsCode()], dtype=object),
                                       "_CHECKPOINTABLE_OBJECT_GRAPH": metadata})
    v = tf.Variable([1.0])
    with pytest.raises(tf.errors.DataLossError, match="evil.npz"):
        tf.train.Checkpoint(v=v).restore(tmp_path / "evil")
    assert not (tmp_path / "PWNED").exists()
    assert v.numpy().tolist() == [1.0]


def test_values_that_are_not_numbers_are_data_loss(tmp_path):
    metadata = np.frombuffer(b'{"format": "tapeflow-checkpoint", "version": 1, "builds": {}}',
                             np.uint8)
    np.savez(tmp_path / "strings.npz", **{
        "a/.ATTRIBUTES/VARIABLE_VALUE": np.ones(1, "float32"),
        "v/.ATTRIBUTES/VARIABLE_VALUE": np.array(["x"]),
        "_CHECKPOINTABLE_OBJECT_GRAPH": metadata})
    a, v = tf.Variable([1.0]), tf.Variable([1.0])
    with pytest.raises(tf.errors.DataLossError, match="strings.npz"):
        tf.train.Checkpoint(a=a, v=v).restore(tmp_path / "strings")
    assert a.numpy().tolist() == [1.0] and v.numpy().tolist() == [1.0]


@pytest.mark.parametrize("entry", ["../outside/ckpt-1", "/etc/ckpt-1", "sub/../../ckpt-1"])
def test_index_paths_are_confined_to_their_directory(tmp_path, entry):
    outside = tmp_path / "outside"
    inside = tmp_path / "inside"
    inside.mkdir()
    tf.train.Checkpoint(v=tf.Variable(5.0)).write(outside / "ckpt-1")
    (inside / "checkpoint").write_text(f'model_checkpoint_path: "{entry}"\n'
                                       f'all_model_checkpoint_paths: "{entry}"\n')
    with pytest.raises(tf.errors.DataLossError, match="outside"):
        tf.train.latest_checkpoint(inside)
    with pytest.raises(tf.errors.DataLossError, match="checkpoint"):
        tf.train.get_checkpoint_state(inside)


def test_an_absolute_index_path_inside_the_directory_is_fine(tmp_path):
    tf.train.Checkpoint(v=tf.Variable(5.0)).write(tmp_path / "ckpt-1")
    (tmp_path / "checkpoint").write_text(
        f'model_checkpoint_path: "{tmp_path / "ckpt-1"}"\n')
    assert tf.train.latest_checkpoint(tmp_path) == str(tmp_path / "ckpt-1")


def test_a_garbled_index_is_data_loss_naming_it(tmp_path):
    (tmp_path / "checkpoint").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(tf.errors.DataLossError, match="checkpoint"):
        tf.train.latest_checkpoint(tmp_path)


def saved_file(tmp_path) -> bytes:
    """The index of a small checkpoint; its data shard is copied for 'cut' and 'bad'."""
    ckpt = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0, 3.0]), w=tf.Variable([[4.0]]))
    ckpt.write(tmp_path / "good")
    shard = (tmp_path / "good.data-00000-of-00001").read_bytes()
    for name in ("cut", "bad"):
        (tmp_path / f"{name}.data-00000-of-00001").write_bytes(shard)
    return (tmp_path / "good.index").read_bytes()


def test_every_truncation_is_data_loss_and_changes_nothing(tmp_path):
    data = saved_file(tmp_path)
    v, w = tf.Variable([0.0, 0.0, 0.0]), tf.Variable([[0.0]])
    ckpt = tf.train.Checkpoint(v=v, w=w)
    for length in sorted(set(range(0, len(data), max(1, len(data) // 97)))):
        (tmp_path / "cut.index").write_bytes(data[:length])
        with pytest.raises(tf.errors.DataLossError, match="cut.index"):
            ckpt.restore(tmp_path / "cut")
        assert v.numpy().tolist() == [0.0, 0.0, 0.0] and w.numpy().tolist() == [[0.0]]


def test_garbled_bytes_are_data_loss_or_a_faithful_read(tmp_path):
    data = saved_file(tmp_path)
    rng = np.random.default_rng(0)
    for trial in range(150):
        garbled = bytearray(data)
        for position in rng.integers(0, len(data), size=rng.integers(1, 4)):
            garbled[position] ^= int(rng.integers(1, 256))
        (tmp_path / "bad.index").write_bytes(bytes(garbled))
        v, w = tf.Variable([0.0, 0.0, 0.0]), tf.Variable([[0.0]])
        try:
            tf.train.Checkpoint(v=v, w=w).restore(tmp_path / "bad")
        except tf.errors.DataLossError as e:
            assert "bad.index" in str(e)
            assert v.numpy().tolist() == [0.0, 0.0, 0.0] and w.numpy().tolist() == [[0.0]]
        except ValueError as e:  # read whole, but not this object graph: nothing changed
            assert "incompatible tensor" in str(e)
            assert v.numpy().tolist() == [0.0, 0.0, 0.0] and w.numpy().tolist() == [[0.0]]
