"""CheckpointManager as TF 2.21 runs it: checkpoint_interval with a step counter, the
state file with timestamps, keep_checkpoint_every_n_hours, and a directory whose latest
checkpoint is gone (restore_or_initialize raises, never starts fresh)."""
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.train import checkpoint as checkpoint_module


def test_checkpoint_interval_counts_steps_and_numbers_by_the_save_counter(tmp_path):
    step = tf.Variable(0, dtype=tf.int64)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(step=step), tmp_path,
                                         max_to_keep=None, step_counter=step,
                                         checkpoint_interval=2)
    saved = []
    for _ in range(6):
        saved.append(manager.save())
        step.assign_add(1)
    # TF 2.21: ['ckpt-1', None, 'ckpt-2', None, 'ckpt-3', None], then ckpt-4 unchecked
    assert [os.path.basename(p) if p else None for p in saved] == [
        "ckpt-1", None, "ckpt-2", None, "ckpt-3", None]
    assert os.path.basename(manager.save(check_interval=False)) == "ckpt-4"
    lines = (tmp_path / "checkpoint").read_text().splitlines()
    assert lines[:5] == ['model_checkpoint_path: "ckpt-4"'] + [
        f'all_model_checkpoint_paths: "ckpt-{i}"' for i in range(1, 5)]
    assert [line.split(":")[0] for line in lines[5:]] == \
        ["all_model_checkpoint_timestamps"] * 4 + ["last_preserved_timestamp"]
    with pytest.raises(ValueError, match="`step_counter` should be passed if "
                                         "`checkpoint_interval` is not None."):
        tf.train.CheckpointManager(tf.train.Checkpoint(), tmp_path / "x", 3,
                                   checkpoint_interval=2)
    again = tf.train.CheckpointManager(tf.train.Checkpoint(step=step), tmp_path, max_to_keep=2)
    assert [os.path.basename(p) for p in again.checkpoints] == ["ckpt-1", "ckpt-2", "ckpt-3",
                                                                "ckpt-4"]   # no sweep yet


def test_a_missing_latest_checkpoint_raises_instead_of_starting_fresh(tmp_path):
    v = tf.Variable(1.0)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), tmp_path, max_to_keep=2)
    path = manager.save()
    os.remove(path + ".index")
    started = []
    again = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), tmp_path, max_to_keep=2,
                                       init_fn=lambda: started.append(True))
    assert again.latest_checkpoint == path              # TF: what the state file names
    with pytest.raises(tf.errors.NotFoundError, match="Error when restoring from checkpoint"):
        again.restore_or_initialize()
    assert started == []


def test_keep_checkpoint_every_n_hours_keeps_one_per_period(tmp_path, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr("time.time", lambda: clock[0])
    v = tf.Variable(0)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), tmp_path, max_to_keep=1,
                                         keep_checkpoint_every_n_hours=1)
    for _ in range(5):
        clock[0] += 1800.0                              # half an hour per save
        manager.save()
    files = sorted(p for p in os.listdir(tmp_path) if p.endswith(".index"))
    # TF 2.21 with the same clock: ckpt-2 (t=4600) and ckpt-4 (t=8200) kept for good
    assert files == ["ckpt-2.index", "ckpt-4.index", "ckpt-5.index"]
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-5"]


def test_a_failed_save_leaves_the_previous_checkpoint_and_state(tmp_path, monkeypatch):
    v = tf.Variable([1.0, 2.0])
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), tmp_path, max_to_keep=3)
    first = manager.save()
    state = (tmp_path / "checkpoint").read_bytes()

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(checkpoint_module.os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        manager.save()
    monkeypatch.undo()
    assert (tmp_path / "checkpoint").read_bytes() == state
    assert tf.train.latest_checkpoint(tmp_path) == first


def test_the_checkpoint_guides_loop_resumes_model_optimizer_and_iterator(tmp_path):
    def toy_dataset():
        inputs = tf.range(10.0)[:, None]
        labels = inputs * 5.0 + tf.range(5.0)[None, :]
        return tf.data.Dataset.from_tensor_slices(dict(x=inputs, y=labels)).repeat().batch(2)

    def objects():
        net = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(5)])
        opt, iterator = tf.keras.optimizers.Adam(0.1), iter(toy_dataset())
        ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net,
                                   iterator=iterator)
        return net, opt, iterator, ckpt, tf.train.CheckpointManager(ckpt, tmp_path, 3)

    def train(net, opt, iterator, ckpt, manager, steps):
        for _ in range(steps):
            example = next(iterator)
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.abs(net(example["x"]) - example["y"]))
            grads = tape.gradient(loss, net.trainable_variables)
            opt.apply_gradients(zip(grads, net.trainable_variables))
            ckpt.step.assign_add(1)
            if int(ckpt.step) % 10 == 0:
                manager.save()

    first = objects()
    first[3].restore(first[4].latest_checkpoint)         # None: starts from scratch
    train(*first, 29)                                    # saved at steps 10, 20 and 30
    reference = first[0].get_weights()
    second = objects()
    assert second[4].restore_or_initialize() == str(tmp_path / "ckpt-3")
    assert int(second[3].step) == 30 and second[2]._consumed == 29
    second[3].restore(str(tmp_path / "ckpt-2"))          # back to step 20 ...
    train(*second, 10)                                   # ... and 10 steps on, again
    assert int(second[3].step) == 30
    for got, want in zip(second[0].get_weights(), reference):
        np.testing.assert_array_equal(got, want)         # the iterator resumed too
    # the save counter came back with ckpt-2, so step 30 rewrote ckpt-3
    assert [os.path.basename(p) for p in second[4].checkpoints] == ["ckpt-1", "ckpt-2",
                                                                     "ckpt-3"]
