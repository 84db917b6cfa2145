"""BackupAndRestore: fit resumes from the last completed epoch after a crash."""
import numpy as np
import pytest

import tapeflow as tf


def make_model():
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    return model


X = np.linspace(-1, 1, 32, dtype="float32").reshape(16, 2)
Y = X[:, :1] * 2 - X[:, 1:]


def test_a_crashed_fit_resumes_where_it_stopped(tmp_path):
    uninterrupted = make_model()
    uninterrupted.fit(X, Y, epochs=4, batch_size=4, shuffle=False, verbose=0)

    def crash(epoch, logs):
        if epoch == 1:
            raise RuntimeError("crash")

    model = make_model()
    with pytest.raises(RuntimeError, match="crash"):
        model.fit(X, Y, epochs=4, batch_size=4, shuffle=False, verbose=0, callbacks=[
            tf.keras.callbacks.BackupAndRestore(tmp_path),
            tf.keras.callbacks.LambdaCallback(on_epoch_end=crash)])
    restarted = make_model()                     # a new process: fresh weights
    history = restarted.fit(X, Y, epochs=4, batch_size=4, shuffle=False, verbose=0,
                            callbacks=[tf.keras.callbacks.BackupAndRestore(tmp_path)])
    assert history.epoch == [2, 3]
    for mine, theirs in zip(restarted.weights, uninterrupted.weights):
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)
    assert not tmp_path.exists()                 # deleted once fit ended normally


def test_the_backup_is_kept_when_asked(tmp_path):
    model = make_model()
    model.fit(X, Y, epochs=1, verbose=0, callbacks=[
        tf.keras.callbacks.BackupAndRestore(tmp_path, delete_checkpoint=False)])
    assert tf.train.latest_checkpoint(str(tmp_path)) is not None


@pytest.mark.parametrize("kwargs,message", [({"backup_dir": ""}, "Empty"),
                                            ({"backup_dir": "x", "save_freq": 10}, "save_freq")])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tf.keras.callbacks.BackupAndRestore(**kwargs)
