"""train.Checkpoint and CheckpointManager: round trips, fresh-model restores, mismatches,
atomic writes and crashes mid-save."""
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.train import checkpoint as checkpoint_module
from tapeflow.train import tensor_bundle

layers = tf.keras.layers


class Net(tf.keras.Model):
    def __init__(self, hidden=4):
        super().__init__()
        self.l1 = layers.Dense(hidden, activation="relu")
        self.bn = layers.BatchNormalization()
        self.l2 = layers.Dense(1)

    def call(self, x, training=None):
        return self.l2(self.bn(self.l1(x), training=training))


X = np.random.default_rng(6).standard_normal((16, 3)).astype(np.float32)


def train(model, optimizer, steps=3):
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(X, training=True) - 1.0))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                      model.trainable_variables))


def state(*objects):
    return [v.numpy() for obj in objects
            for v in (obj.variables if not isinstance(obj, tf.Variable) else [obj])]


def same(a, b):
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_round_trip_of_model_optimizer_and_variable(tmp_path):
    model, opt, step = Net(), tf.keras.optimizers.Adam(0.1), tf.Variable(0, dtype=tf.int64)
    train(model, opt)
    step.assign(3)
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt, step=step)
    path = ckpt.save(tmp_path / "ckpt")
    assert path == str(tmp_path / "ckpt-1") and int(ckpt.save_counter) == 1
    assert tf.train.latest_checkpoint(tmp_path) == path
    saved = state(model, opt, step)
    prediction = model(X).numpy()
    train(model, opt)
    step.assign(9)
    assert not same(saved, state(model, opt, step))
    status = ckpt.restore(path)
    status.assert_consumed()
    assert same(saved, state(model, opt, step))
    np.testing.assert_array_equal(model(X).numpy(), prediction)


def test_restore_into_fresh_unbuilt_objects_builds_them_then_training_continues(tmp_path):
    model, opt = Net(), tf.keras.optimizers.Adam(0.1)
    train(model, opt)
    path = tf.train.Checkpoint(model=model, optimizer=opt).save(tmp_path / "ckpt")
    train(model, opt)                              # the reference continuation
    expected = state(model)

    # As TF: what does not exist yet is restored when it is created (the layers' weights
    # when the first call builds them, the slots when the first step makes them).
    fresh_model, fresh_opt = Net(), tf.keras.optimizers.Adam(0.1)
    ckpt = tf.train.Checkpoint(model=fresh_model, optimizer=fresh_opt)
    status = ckpt.restore(path)
    status.assert_existing_objects_matched()
    assert not fresh_model.built and int(fresh_opt.iterations) == 3
    with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint \(root\)\.model"):
        status.assert_consumed()
    train(fresh_model, fresh_opt)                  # slots and step count were restored too
    status.assert_consumed()
    for a, b in zip(expected, state(fresh_model)):
        np.testing.assert_array_equal(a, b)


# The keys TF 2.21 (Keras 3.15) writes for Checkpoint(model=, optimizer=) of this model
# after two Adam steps, with their shapes.
KERAS3_MLP_KEYS = [
    ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
    ("model/_functional/_operations/2/moving_mean/.ATTRIBUTES/VARIABLE_VALUE", [4]),
    ("model/_functional/_operations/2/moving_variance/.ATTRIBUTES/VARIABLE_VALUE", [4]),
    ("optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("optimizer/_trainable_variables/0/.ATTRIBUTES/VARIABLE_VALUE", [3, 4]),
    ("optimizer/_trainable_variables/1/.ATTRIBUTES/VARIABLE_VALUE", [4]),
    ("optimizer/_trainable_variables/2/.ATTRIBUTES/VARIABLE_VALUE", [4]),
    ("optimizer/_trainable_variables/3/.ATTRIBUTES/VARIABLE_VALUE", [4]),
    ("optimizer/_trainable_variables/4/.ATTRIBUTES/VARIABLE_VALUE", [4, 1]),
    ("optimizer/_trainable_variables/5/.ATTRIBUTES/VARIABLE_VALUE", [1]),
    ("optimizer/_variables/10/.ATTRIBUTES/VARIABLE_VALUE", [4, 1]),
    ("optimizer/_variables/11/.ATTRIBUTES/VARIABLE_VALUE", [4, 1]),
    ("optimizer/_variables/12/.ATTRIBUTES/VARIABLE_VALUE", [1]),
    ("optimizer/_variables/13/.ATTRIBUTES/VARIABLE_VALUE", [1]),
] + [(f"optimizer/_variables/{i}/.ATTRIBUTES/VARIABLE_VALUE", shape)
     for i, shape in [(2, [3, 4]), (3, [3, 4]), (4, [4]), (5, [4]), (6, [4]), (7, [4]),
                      (8, [4]), (9, [4])]] + [("save_counter/.ATTRIBUTES/VARIABLE_VALUE", [])]


def test_stored_names_are_the_ones_keras_3_writes(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(4),
                                 layers.BatchNormalization(), layers.Dense(1)])
    opt = tf.keras.optimizers.Adam(0.01)
    train(model, opt, 2)
    path = tf.train.Checkpoint(model=model, optimizer=opt).save(tmp_path / "ckpt")
    assert tf.train.list_variables(path) == sorted(KERAS3_MLP_KEYS)
    reader = tf.train.load_checkpoint(path)
    np.testing.assert_array_equal(
        reader.get_tensor("optimizer/_trainable_variables/4/.ATTRIBUTES/VARIABLE_VALUE"),
        model.layers[2].kernel.numpy())
    np.testing.assert_array_equal(         # Adam's momentum of the first kernel
        reader.get_tensor("optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE"),
        opt.variables[2].numpy())
    assert reader.get_variable_to_dtype_map()["optimizer/_iterations/.ATTRIBUTES/"
                                              "VARIABLE_VALUE"] == tf.int64


def test_mismatched_shapes_raise_and_change_nothing_other_names_are_partial(tmp_path):
    small = Net(hidden=4)
    small(X)
    path = tf.train.Checkpoint(model=small).write(tmp_path / "small")

    wider = Net(hidden=5)
    wider(X)
    before = state(wider)
    with pytest.raises(ValueError, match=r"incompatible tensor with shape \(3, 4\).*shape "
                                         r"\(3, 5\).*model/l1/_kernel/.ATTRIBUTES/VARIABLE_VALUE"):
        tf.train.Checkpoint(model=wider).restore(path)
    assert same(before, state(wider))

    class Renamed(Net):
        def __init__(self):
            super().__init__()
            self.extra = layers.Dense(1)

        def call(self, x, training=None):
            return self.extra(super().call(x, training))

    # As in TF: a variable the checkpoint lacks is no error; the status names it.
    renamed = Renamed()
    renamed(X)
    status = tf.train.Checkpoint(model=renamed).read(path)   # written by write: no counter
    assert all(same(state(getattr(small, n)), state(getattr(renamed, n)))
               for n in ("l1", "bn", "l2"))
    for check in (status.assert_consumed, status.assert_existing_objects_matched):
        with pytest.raises(AssertionError, match=r"Found 2 Python objects that were not bound"
                                                 r".*'dense_\d+/kernel:0' shape=\(1, 1\)"):
            check()

    # Names that match nothing are held for objects made later; only the root matched.
    status = tf.train.Checkpoint(net=Net()).read(path)
    with pytest.raises(AssertionError, match="Nothing except the root object matched"):
        status.assert_nontrivial_match()
    with pytest.raises(AssertionError, match=r"\(root\)\.model\.l1\._kernel"):
        status.assert_consumed()


def test_failed_restore_into_an_unbuilt_model_leaves_it_unbuilt(tmp_path):
    model = Net(hidden=4)
    model(X)
    path = tf.train.Checkpoint(model=model, extra=tf.Variable([1.0, 2.0])).write(tmp_path / "c")
    fresh = Net(hidden=4)
    with pytest.raises(ValueError, match="extra/.ATTRIBUTES/VARIABLE_VALUE"):
        tf.train.Checkpoint(model=fresh, extra=tf.Variable([1.0])).restore(path)
    assert not fresh.built and fresh.l1.weights == [] and not fresh.l1.built


def test_partial_restores_and_status_checks(tmp_path):
    model, opt = Net(), tf.keras.optimizers.Adam()
    train(model, opt, 1)
    path = tf.train.Checkpoint(model=model, optimizer=opt).write(tmp_path / "full")
    weights_only = Net()
    status = tf.train.Checkpoint(model=weights_only).read(path)   # optimizer left out
    weights_only(X)                                 # built: the weights take their values
    assert same(state(model), state(weights_only))
    with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint "
                                             r"\(root\)\.optimizer\._iterations"):
        status.assert_consumed()
    status.expect_partial()
    status.assert_existing_objects_matched()
    nothing = tf.train.Checkpoint(model=Net()).restore(None)      # TF's answers to None
    assert type(nothing).__name__ == "InitializationOnlyStatus"
    for check in (nothing.assert_consumed, nothing.assert_existing_objects_matched,
                  nothing.assert_nontrivial_match):
        with pytest.raises(AssertionError, match=r"No checkpoint specified \(save_path=None\); "
                                                 r"nothing is being restored."):
            check()


def test_missing_and_corrupt_files(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find"):
        ckpt.restore(tmp_path / "absent")
    (tmp_path / "broken.npz").write_bytes(b"not a checkpoint")
    with pytest.raises(tf.errors.DataLossError, match="Unable to read"):
        ckpt.restore(tmp_path / "broken")
    with pytest.raises(ValueError, match="trackable"):
        tf.train.Checkpoint(x=3.0)


def test_a_crash_mid_save_leaves_the_previous_checkpoint_intact(tmp_path, monkeypatch):
    v = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(v=v)
    manager = tf.train.CheckpointManager(ckpt, tmp_path, max_to_keep=3)
    first = manager.save()
    original = (tmp_path / "ckpt-1.index").read_bytes()

    def crash(entries):           # the new data written, then the process "dies"
        raise KeyboardInterrupt("power cut")

    v.assign([5.0, 6.0])
    monkeypatch.setattr(tensor_bundle, "build_table", crash)
    with pytest.raises(KeyboardInterrupt):
        ckpt.write(tmp_path / "ckpt-1")         # even overwriting the same checkpoint
    with pytest.raises(KeyboardInterrupt):
        manager.save()
    monkeypatch.undo()
    assert (tmp_path / "ckpt-1.index").read_bytes() == original
    assert sorted(os.listdir(tmp_path)) == [                # no temp files left
        "checkpoint", "ckpt-1.data-00000-of-00001", "ckpt-1.index"]
    assert tf.train.latest_checkpoint(tmp_path) == first
    ckpt.restore(tf.train.latest_checkpoint(tmp_path))
    assert v.numpy().tolist() == [1.0, 2.0]


def test_a_crash_before_the_rename_keeps_the_old_file(tmp_path, monkeypatch):
    v = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(v=v)
    path = ckpt.write(tmp_path / "c")
    v.assign(2.0)

    def no_rename(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(checkpoint_module.os, "replace", no_rename)
    with pytest.raises(OSError, match="disk full"):
        ckpt.write(path)
    monkeypatch.undo()
    ckpt.restore(path)
    assert float(v) == 1.0 and sorted(os.listdir(tmp_path)) == ["c.data-00000-of-00001", "c.index"]


def test_manager_keeps_the_newest_and_recovers_its_list(tmp_path):
    step = tf.Variable(0)
    ckpt = tf.train.Checkpoint(step=step)
    manager = tf.train.CheckpointManager(ckpt, tmp_path / "run", max_to_keep=2)
    assert manager.latest_checkpoint is None and manager.restore_or_initialize() is None
    for _ in range(4):
        step.assign_add(1)
        manager.save()
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-3", "ckpt-4"]
    assert sorted(os.listdir(tmp_path / "run")) == [
        "checkpoint", "ckpt-3.data-00000-of-00001", "ckpt-3.index",
        "ckpt-4.data-00000-of-00001", "ckpt-4.index"]
    assert manager.save(checkpoint_number=100).endswith("ckpt-100")

    step.assign(0)
    again = tf.train.CheckpointManager(tf.train.Checkpoint(step=step), tmp_path / "run",
                                       max_to_keep=2)
    assert [os.path.basename(p) for p in again.checkpoints] == ["ckpt-4", "ckpt-100"]
    assert again.restore_or_initialize().endswith("ckpt-100")
    assert int(step) == 4 and int(again.checkpoint.save_counter) == 5
    assert again.save().endswith("ckpt-6")      # numbering continues from the restored counter
    with pytest.raises(ValueError, match="max_to_keep"):
        tf.train.CheckpointManager(ckpt, tmp_path, max_to_keep=0)


def test_checkpoint_of_a_plain_module(tmp_path):
    class Linear(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0, 2.0]])
            self.parts = [tf.Variable(3.0), {"b": tf.Variable([4.0])}]

    a, b = Linear(), Linear()
    a.w.assign([[7.0, 8.0]])
    a.parts[1]["b"].assign([9.0])
    path = tf.train.Checkpoint(m=a).write(tmp_path / "m")
    tf.train.Checkpoint(m=b).read(path).assert_consumed()
    assert b.w.numpy().tolist() == [[7.0, 8.0]] and b.parts[1]["b"].numpy().tolist() == [9.0]


def test_model_save_weights_and_load_weights(tmp_path):
    model = tf.keras.Sequential([layers.Dense(3, activation="relu"), layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(X, X[:, :1], epochs=2, verbose=0)
    model.save_weights(tmp_path / "weights")
    fresh = tf.keras.Sequential([layers.Dense(3, activation="relu"), layers.Dense(1)])
    fresh.compile(optimizer="adam", loss="mse")
    status = fresh.load_weights(tmp_path / "weights")
    np.testing.assert_array_equal(fresh.predict(X), model.predict(X))   # built, restored
    status.assert_existing_objects_matched()
    assert int(fresh.optimizer.iterations) == int(model.optimizer.iterations)
    bigger = tf.keras.Sequential([layers.Dense(4), layers.Dense(1)])
    bigger.load_weights(tmp_path / "weights")
    with pytest.raises(ValueError, match=r"shape \(3, 3\).*shape \(3, 4\)"):
        bigger.predict(X)                              # the restore on build finds the mismatch
