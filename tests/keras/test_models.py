"""Model and Sequential: building, compile / fit / evaluate / predict, History, callbacks."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.keras.callbacks import base as callbacks_module

layers = tf.keras.layers
rng = np.random.default_rng(5)
X = rng.standard_normal((64, 2)).astype(np.float32)
Y = (X[:, 0] + X[:, 1] > 0).astype(np.int64)


def classifier(seed=0):
    tf.keras.utils.set_random_seed(seed)
    return tf.keras.Sequential([layers.Dense(8, activation="relu"), layers.Dense(2)])


class TwoLayer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = layers.Dense(4, activation="relu")
        self.out = layers.Dense(1)

    def call(self, x, training=None):
        return self.out(self.hidden(x))


def test_sequential_add_pop_build_and_weights_order():
    model = tf.keras.Sequential(name="stack")
    model.add(layers.Dense(3, input_shape=(4,)))
    assert model.built and model.layers[0].kernel.shape == [4, 3]
    model.add(layers.Dense(1))
    assert [v.shape.as_list() for v in model.trainable_variables] == [[4, 3], [3], [3, 1], [1]]
    popped = model.pop()
    assert popped.units == 1 and len(model.layers) == 1
    with pytest.raises(TypeError, match="must be an instance of class Layer"):
        model.add("dense")
    with pytest.raises(ValueError, match="no layers"):
        tf.keras.Sequential()(tf.constant([[1.0]]))


def test_subclassed_model_tracks_layers_and_builds_from_a_shape():
    model = TwoLayer()
    model.build((None, 3))
    assert model.built and [l.name for l in model.layers] == [model.hidden.name, model.out.name]
    assert model.get_layer(index=1) is model.out
    assert model.get_layer(model.hidden.name) is model.hidden
    with pytest.raises(ValueError, match="No such layer"):
        model.get_layer("nope")
    assert len(model.trainable_variables) == 4


def test_fit_learns_and_returns_history():
    model = classifier()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(X, Y, batch_size=16, epochs=15, verbose=0)
    assert sorted(history.history) == ["accuracy", "loss"]
    assert history.epoch == list(range(15))
    assert history.history["loss"][-1] < 0.3 * history.history["loss"][0]
    assert history.history["accuracy"][-1] >= 0.95
    assert model.history is history
    assert int(model.optimizer.iterations) == 15 * 4
    loss, accuracy = model.evaluate(X, Y, verbose=0)
    assert accuracy >= 0.95 and loss < 0.3
    assert model.metrics_names == ["loss", "accuracy"]
    predictions = model.predict(X, batch_size=10)
    assert predictions.shape == (64, 2) and isinstance(predictions, np.ndarray)
    np.testing.assert_allclose(predictions, model(X).numpy(), rtol=1e-5, atol=1e-6)


def test_epoch_loss_is_the_sample_weighted_mean_of_batch_losses():
    model = tf.keras.Sequential([layers.Dense(1, kernel_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
    x = np.ones((5, 1), np.float32)
    y = np.arange(5, dtype=np.float32)[:, None]
    history = model.fit(x, y, batch_size=2, epochs=1, shuffle=False, verbose=0)
    assert history.history["loss"][0] == pytest.approx(np.mean(y ** 2))   # batches 2, 2, 1
    assert model.evaluate(x, y, batch_size=3, verbose=0) == pytest.approx(np.mean(y ** 2))
    assert model.evaluate(x, y, verbose=0, return_dict=True) == \
        {"loss": pytest.approx(np.mean(y ** 2))}


def test_validation_data_split_and_early_stopping():
    model = classifier(1)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.SparseCategoricalAccuracy(name="acc")])
    history = model.fit(X, Y, validation_split=0.25, epochs=2, verbose=0)
    assert sorted(history.history) == ["acc", "loss", "val_acc", "val_loss"]
    history = model.fit(X, Y, validation_data=(X[:8], Y[:8]), epochs=1, verbose=0)
    assert len(history.history["val_loss"]) == 1
    # Stop as soon as the training loss does not improve by 10 per epoch: after 2 epochs.
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", min_delta=10.0, patience=1,
                                            restore_best_weights=True)
    history = model.fit(X, Y, epochs=10, verbose=0, callbacks=[stop])
    assert history.epoch == [0, 1] and stop.stopped_epoch == 1
    assert model.stop_training


def test_early_stopping_restores_the_best_weights():
    model = tf.keras.Sequential([layers.Dense(1, kernel_initializer="zeros", use_bias=False)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    seen = []
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2,
                                            restore_best_weights=True)
    log = tf.keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: seen.append(model.get_weights()[0].copy()))
    x, y = np.ones((4, 1), np.float32), np.ones((4, 1), np.float32)
    # Epoch losses are measured before each step: w = 0 (loss 1), then 0.2 (0.64); from
    # epoch 1 on, a diverging learning rate makes every later loss worse.
    rates = tf.keras.callbacks.LambdaCallback(
        on_epoch_begin=lambda epoch, logs=None: model.optimizer.learning_rate.assign(
            0.1 if epoch == 0 else 5.0))
    model.fit(x, y, epochs=10, batch_size=4, verbose=0, callbacks=[rates, log, stop])
    assert stop.best_epoch == 1 and stop.stopped_epoch == 3
    assert abs(seen[-1][0, 0]) > 50
    np.testing.assert_array_equal(model.get_weights()[0], seen[1])


def test_lambda_callback_hooks_run_in_order():
    events = []
    callback = tf.keras.callbacks.LambdaCallback(
        on_train_begin=lambda logs: events.append("train_begin"),
        on_epoch_begin=lambda epoch, logs: events.append(f"epoch_begin {epoch}"),
        on_batch_end=lambda batch, logs: events.append(f"batch_end {batch} {sorted(logs)}"),
        on_epoch_end=lambda epoch, logs: events.append(f"epoch_end {epoch}"),
        on_train_end=lambda logs: events.append("train_end"))
    model = classifier()
    model.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(X[:4], Y[:4], batch_size=2, epochs=1, verbose=0, callbacks=[callback])
    assert events == ["train_begin", "epoch_begin 0", "batch_end 0 ['loss']",
                      "batch_end 1 ['loss']", "epoch_end 0", "train_end"]
    with pytest.raises(TypeError, match="unknown hook"):
        tf.keras.callbacks.LambdaCallback(on_coffee_break=print)


def test_progress_bar_and_line_per_epoch_logging(capsys, monkeypatch):
    pytest.importorskip("tqdm")
    model = classifier()
    model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(X, Y, batch_size=32, epochs=2)
    err = capsys.readouterr().err
    assert "Epoch 1/2" in err and "Epoch 2/2" in err and "accuracy:" in err
    model.fit(X, Y, epochs=1, verbose=2)
    assert capsys.readouterr().out.startswith("Epoch 1/1 - loss: ")
    monkeypatch.setattr(callbacks_module, "_tqdm", lambda: None)     # tqdm not installed
    model.fit(X, Y, epochs=1, verbose=1)
    assert "Epoch 1/1 - loss: " in capsys.readouterr().out


def test_custom_train_step_keeps_the_loop():
    class Counting(TwoLayer):
        steps = 0

        def train_step(self, data):
            Counting.steps += 1
            return super().train_step(data)

    model = Counting()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    model.fit(X, X[:, :1], batch_size=32, epochs=3, verbose=0)
    assert Counting.steps == 6 and int(model.optimizer.iterations) == 6
    loss = model.train_on_batch(X[:4], X[:4, :1])
    assert isinstance(loss, float) and Counting.steps == 7
    if hasattr(tf, "function"):                 # traced: the Python body runs once per shape
        model.run_eagerly = False
        model.fit(X, X[:, :1], batch_size=32, epochs=3, verbose=0)
        assert Counting.steps == 8 and int(model.optimizer.iterations) == 13


def test_errors_before_and_during_training():
    model = classifier()
    with pytest.raises(RuntimeError, match="must compile"):
        model.fit(X, Y)
    model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    with pytest.raises(ValueError, match="Data cardinality is ambiguous"):
        model.fit(X, Y[:10], verbose=0)
    with pytest.raises(ValueError, match="Target data is missing"):
        model.fit(X, verbose=0)
    before = [w.numpy() for w in model.weights]
    with pytest.raises(tf.errors.InvalidArgumentError, match="label value of 7"):
        model.fit(X[:4], np.array([0, 1, 7, 1]), verbose=0)
    assert all(np.array_equal(a, w.numpy()) for a, w in zip(before, model.weights))
    with pytest.raises(ValueError, match="incompatible with the layer"):
        model.predict(X[:, :1])
    with pytest.raises(ValueError, match="steps_per_epoch"):
        model.fit(X, Y, steps_per_epoch=0, verbose=0)


def test_compile_with_names_and_function_losses():
    model = TwoLayer()
    model.compile(optimizer="rmsprop", loss="mean_absolute_error", metrics=["mse"])
    assert isinstance(model.optimizer, tf.keras.optimizers.RMSprop)
    history = model.fit(X, X[:, :1], epochs=1, verbose=0)
    assert sorted(history.history) == ["loss", "mse"]
    binary = tf.keras.Sequential([layers.Dense(1, activation="sigmoid")])
    binary.compile("adam", "binary_crossentropy", metrics=["accuracy"])
    binary.fit(X, Y.astype(np.float32)[:, None], epochs=1, verbose=0)
    assert isinstance(binary.compiled_metrics.metrics[0], tf.keras.metrics.BinaryAccuracy)


def test_summary_lists_layers_shapes_and_parameter_counts():
    lines = []
    model = tf.keras.Sequential([layers.Dense(4, name="hidden"),
                                 layers.BatchNormalization(name="bn"),
                                 layers.Dense(1, name="out")])
    with pytest.raises(ValueError, match="not yet been built"):
        model.summary()
    model(X)
    model.summary(print_fn=lines.append)
    assert lines[4].split() == ["hidden", "(Dense)", "(None,", "4)", "12"]
    assert lines[5].split() == ["bn", "(BatchNormalization)", "(None,", "4)", "16"]
    assert lines[-4:-1] == ["Total params: 33", "Trainable params: 25",
                            "Non-trainable params: 8"]
    subclassed = TwoLayer()
    subclassed(X)
    subclassed.summary(print_fn=lines.append)
    assert "multiple" in lines[-7] and lines[-4] == "Total params: 17"
