"""The callbacks people pass to fit: checkpoints, backups, learning-rate control, NaN stops,
CSV and TensorBoard logs."""
import csv
import os

import numpy as np
import pytest

import tapeflow as tf

RNG = np.random.default_rng(0)
X = RNG.normal(size=(32, 3)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")


def regression(learning_rate=0.05):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4),
                                 tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate), loss="mse",
                  metrics=[tf.keras.metrics.MeanAbsoluteError(name="mae")])
    return model


def fit(model, epochs=3, **kwargs):
    kwargs.setdefault("batch_size", 8)
    return model.fit(X, Y, epochs=epochs, verbose=0, shuffle=False, **kwargs)


# -- ModelCheckpoint -----------------------------------------------------------------------
def test_model_checkpoint_formats_names_from_epoch_and_logs(tmp_path):
    model = regression()
    pattern = str(tmp_path / "ckpt-{epoch:02d}-{val_loss:.2f}.keras")
    history = fit(model, callbacks=[tf.keras.callbacks.ModelCheckpoint(pattern)],
                  validation_split=0.25)
    expected = sorted(pattern.format(epoch=e + 1, val_loss=v)
                      for e, v in enumerate(history.history["val_loss"]))
    assert sorted(str(tmp_path / name) for name in os.listdir(tmp_path)) == expected
    restored = tf.keras.models.load_model(expected[-1])
    np.testing.assert_array_equal(restored.predict(X, verbose=0), model.predict(X, verbose=0))


def test_model_checkpoint_save_best_only_keeps_the_best_weights(tmp_path):
    path = str(tmp_path / "best.weights.h5")
    model = regression()
    losses = []
    save = tf.keras.callbacks.ModelCheckpoint(path, monitor="loss", save_best_only=True,
                                              save_weights_only=True, mode="min")
    record = tf.keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: losses.append((logs["loss"], model.get_weights())))
    saved = []
    spy = tf.keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: saved.append(os.path.getmtime(path)
                                                      if os.path.exists(path) else None))
    # A rising learning rate makes later epochs worse, so the best is not the last.
    rising = tf.keras.callbacks.LearningRateScheduler(lambda epoch: [0.05, 0.05, 5.0, 5.0][epoch])
    fit(model, epochs=4, callbacks=[rising, save, record, spy])
    best_loss, best_weights = min(losses, key=lambda item: item[0])
    assert best_loss < losses[-1][0]
    other = regression()
    other.load_weights(path)
    for a, b in zip(other.get_weights(), best_weights):
        np.testing.assert_array_equal(a, b)
    assert save.best == best_loss


def test_model_checkpoint_every_n_batches(tmp_path):
    pattern = str(tmp_path / "e{epoch}-b{batch}.weights.h5")
    fit(regression(), epochs=2, callbacks=[
        tf.keras.callbacks.ModelCheckpoint(pattern, save_weights_only=True, save_freq=3)])
    assert sorted(os.listdir(tmp_path)) == ["e1-b3.weights.h5", "e2-b2.weights.h5"]


@pytest.mark.parametrize("kwargs, message", [
    ({"filepath": "m.h5"}, "must end in `.keras`"),
    ({"filepath": "m.keras", "save_weights_only": True}, "`.weights.h5`"),
    ({"filepath": "m.keras", "save_freq": "batch"}, "Unrecognized save_freq"),
])
def test_model_checkpoint_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tf.keras.callbacks.ModelCheckpoint(**kwargs)


def test_model_checkpoint_names_a_missing_log_key(tmp_path):
    save = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "{nothing}.keras"))
    with pytest.raises(KeyError, match="Failed to format"):
        fit(regression(), epochs=1, callbacks=[save])


# -- BackupAndRestore ----------------------------------------------------------------------
class Interrupt(tf.keras.callbacks.Callback):
    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_epoch_begin(self, epoch, logs=None):
        if epoch == self.epoch:
            raise KeyboardInterrupt


def test_backup_and_restore_resumes_where_training_stopped(tmp_path):
    uninterrupted = regression()
    fit(uninterrupted, epochs=5)
    backup_dir = str(tmp_path / "backup")
    model = regression()
    with pytest.raises(KeyboardInterrupt):
        fit(model, epochs=5, callbacks=[tf.keras.callbacks.BackupAndRestore(backup_dir),
                                        Interrupt(3)])
    assert sorted(os.listdir(backup_dir)) == ["latest.weights.h5", "training_metadata.json"]
    resumed = regression()                         # a fresh process: new model, same code
    history = fit(resumed, epochs=5, callbacks=[tf.keras.callbacks.BackupAndRestore(backup_dir)])
    assert history.epoch == [3, 4] and not os.path.exists(backup_dir)
    assert int(resumed.optimizer.iterations) == int(uninterrupted.optimizer.iterations)
    for a, b in zip(resumed.get_weights(), uninterrupted.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_backup_and_restore_checks_its_arguments():
    with pytest.raises(ValueError, match="Empty `backup_dir`"):
        tf.keras.callbacks.BackupAndRestore("")
    with pytest.raises(ValueError, match="save_freq"):
        tf.keras.callbacks.BackupAndRestore("dir", save_freq=0)


# -- learning rate -------------------------------------------------------------------------
def test_reduce_lr_on_plateau_reduces_after_patience_and_cooldown():
    model = regression(learning_rate=1.0)
    plateau = tf.keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: logs.update(plateau=1.0))
    reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="plateau", factor=0.5, patience=2,
                                                  cooldown=1, min_lr=0.1)
    history = fit(model, epochs=8, callbacks=[plateau, reduce])
    assert history.history["learning_rate"] == pytest.approx(
        [1.0, 1.0, 1.0, 0.5, 0.5, 0.25, 0.25, 0.125])     # logged before each reduction


def test_reduce_lr_on_plateau_respects_min_lr_and_rejects_big_factors():
    model = regression()
    model.optimizer.learning_rate = 0.2
    reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.1, patience=0,
                                                  min_lr=0.05)
    reduce.set_model(model)
    reduce.on_train_begin()
    for epoch in range(3):
        reduce.on_epoch_end(epoch, {"loss": 1.0})
    assert float(model.optimizer.learning_rate) == pytest.approx(0.05)
    with pytest.raises(ValueError, match="factor >= 1.0"):
        tf.keras.callbacks.ReduceLROnPlateau(factor=1.0)


def test_learning_rate_scheduler_sets_each_epoch_and_logs_it():
    model = regression()
    history = fit(model, callbacks=[
        tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 / (epoch + 1))])
    assert history.history["learning_rate"] == pytest.approx([0.1, 0.05, 0.1 / 3])
    with pytest.raises(ValueError, match="should be a float"):
        fit(regression(), epochs=1,
            callbacks=[tf.keras.callbacks.LearningRateScheduler(lambda epoch: "fast")])


# -- TerminateOnNaN and CSVLogger ----------------------------------------------------------
def test_terminate_on_nan_stops_at_the_first_bad_batch(capsys):
    model = regression()
    bad = X.copy()
    bad[9] = np.nan                                # in the second batch
    steps = []
    history = model.fit(bad, Y, epochs=3, batch_size=8, verbose=0, shuffle=False, callbacks=[
        tf.keras.callbacks.TerminateOnNaN(),
        tf.keras.callbacks.LambdaCallback(on_batch_end=lambda b, logs: steps.append(b))])
    assert steps == [0, 1] and history.epoch == [0]
    assert "Batch 1: Invalid loss, terminating training" in capsys.readouterr().out


def test_csv_logger_writes_a_row_per_epoch_and_appends(tmp_path):
    path = str(tmp_path / "log.csv")
    history = fit(regression(), epochs=2, validation_split=0.25,
                  callbacks=[tf.keras.callbacks.CSVLogger(path)])
    fit(regression(), epochs=1, callbacks=[tf.keras.callbacks.CSVLogger(path, append=True)])
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["epoch", "loss", "mae", "val_loss", "val_mae"]
    assert [row[0] for row in rows[1:]] == ["0", "1", "0"]
    assert float(rows[2][1]) == pytest.approx(history.history["loss"][1])
    assert len(rows) == 4                          # one header only


# -- TensorBoard ---------------------------------------------------------------------------
def read_run(directory):
    event_accumulator = pytest.importorskip(
        "tensorboard.backend.event_processing.event_accumulator")
    accumulator = event_accumulator.EventAccumulator(directory, size_guidance={"tensors": 0})
    accumulator.Reload()
    return accumulator


def values(accumulator, tag):
    from tensorboard.util import tensor_util
    return [(event.step, tensor_util.make_ndarray(event.tensor_proto))
            for event in accumulator.Tensors(tag)]


def test_tensorboard_writes_epoch_scalars_histograms_and_the_model(tmp_path):
    model = regression()
    history = fit(model, callbacks=[tf.keras.callbacks.TensorBoard(str(tmp_path),
                                                                   histogram_freq=2)],
                  validation_split=0.25)
    assert sorted(os.listdir(tmp_path)) == ["train", "validation"]
    train = read_run(str(tmp_path / "train"))
    tags = train.Tags()["tensors"]
    assert {"keras", "epoch_loss", "epoch_mae", "epoch_learning_rate"} <= set(tags)
    loss = values(train, "epoch_loss")
    assert [step for step, _ in loss] == [0, 1, 2]
    np.testing.assert_allclose([float(v) for _, v in loss], history.history["loss"], rtol=1e-6)
    assert train.SummaryMetadata("epoch_loss").plugin_data.plugin_name == "scalars"
    kernel = f"{model.name}/{model.layers[0].kernel.name.split(':')[0]}/histogram"  # Keras's
    histogram = values(train, kernel)
    assert [step for step, _ in histogram] == [0, 2] and histogram[0][1].shape == (30, 3)
    assert histogram[0][1][:, 2].sum() == 12           # every kernel entry counted once
    assert train.SummaryMetadata(kernel).plugin_data.plugin_name == "histograms"
    validation = read_run(str(tmp_path / "validation"))
    np.testing.assert_allclose([float(v) for _, v in values(validation, "epoch_loss")],
                               history.history["val_loss"], rtol=1e-6)
    assert [s for s, _ in values(validation, "evaluation_loss_vs_iterations")] == [3, 6, 9]


def test_tensorboard_batch_level_logs(tmp_path):
    fit(regression(), epochs=2, callbacks=[tf.keras.callbacks.TensorBoard(
        str(tmp_path), update_freq=2, write_graph=False, write_steps_per_second=True)])
    train = read_run(str(tmp_path / "train"))
    assert [step for step, _ in values(train, "batch_loss")] == [2, 4, 6, 8]
    assert "keras" not in train.Tags()["tensors"]
    assert all(v > 0 for _, v in values(train, "epoch_steps_per_second"))
