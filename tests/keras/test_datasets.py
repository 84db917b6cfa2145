"""fit / evaluate / predict on tf.data.Datasets; metric names as given to compile."""
import warnings

import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
Dataset = tf.data.Dataset
rng = np.random.default_rng(0)
X = rng.normal(size=(10, 3)).astype(np.float32)
Y = (X @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)


def linear(learning_rate: float = 0.0, **compile_kwargs):
    model = tf.keras.Sequential([layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate), loss="mse",
                  **compile_kwargs)
    return model


def test_a_dataset_trains_like_the_same_arrays():
    on_arrays = linear(0.05)
    on_dataset = linear(0.05)
    expected = on_arrays.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0).history
    got = on_dataset.fit(Dataset.from_tensor_slices((X, Y)).batch(4), epochs=3,
                         verbose=0).history
    np.testing.assert_allclose(got["loss"], expected["loss"], rtol=1e-6)
    np.testing.assert_allclose(on_dataset.layers[0].kernel.numpy(),
                               on_arrays.layers[0].kernel.numpy(), rtol=1e-6)


def test_sample_weights_in_the_dataset_and_evaluate_and_predict():
    model = linear()
    weights = np.zeros(10, np.float32)
    weights[:5] = 1.0
    weighted = Dataset.from_tensor_slices((X, Y, weights)).batch(5)
    logs = model.evaluate(weighted, verbose=0, return_dict=True)
    first_half = float(np.mean((X[:5].sum(axis=1, keepdims=True) - Y[:5]) ** 2))
    assert logs["loss"] == pytest.approx(first_half / 2, rel=1e-5)   # batch 2 weighs 0
    predictions = model.predict(Dataset.from_tensor_slices(X).batch(3), verbose=0)
    np.testing.assert_allclose(predictions, X.sum(axis=1, keepdims=True), rtol=1e-6)
    with_targets = model.predict(Dataset.from_tensor_slices((X, Y)).batch(3), verbose=0)
    np.testing.assert_allclose(with_targets, predictions)


def test_steps_per_epoch_continue_through_the_dataset_and_warn_when_it_runs_out():
    model = linear()
    seen = []
    ds = Dataset.from_tensor_slices((X, Y)).batch(4)          # 3 batches per pass
    callback = tf.keras.callbacks.LambdaCallback(
        on_train_batch_end=lambda batch, logs: seen.append(batch))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = model.fit(ds, epochs=3, steps_per_epoch=2, callbacks=[callback], verbose=0)
    assert len(history.history["loss"]) == 3
    assert seen == [0, 1, 0, 0, 1]          # epoch 2 ends with the pass; epoch 3 starts anew
    assert any("ran out of data" in str(w.message) for w in caught)


def test_infinite_datasets_need_steps():
    model = linear(metrics=["mae"])
    repeated = Dataset.from_tensor_slices((X, Y)).batch(4).repeat()
    history = model.fit(repeated, epochs=2, steps_per_epoch=2, validation_data=repeated,
                        validation_steps=2, verbose=0)
    assert sorted(history.history) == ["loss", "mae", "val_loss", "val_mae"]
    assert len(model.evaluate(repeated, steps=2, verbose=0)) == 2
    assert model.predict(Dataset.from_tensor_slices(X).batch(4).repeat(), steps=2,
                         verbose=0).shape == (8, 1)
    for call in (lambda: model.fit(repeated, verbose=0),
                 lambda: model.fit(X, Y, validation_data=repeated, verbose=0),
                 lambda: model.evaluate(repeated, verbose=0)):
        with pytest.raises(ValueError, match="infinite"):
            call()


def test_validation_steps_continue_where_the_last_validation_stopped():
    model = linear()
    batches = [(X[i:i + 2], Y[i:i + 2]) for i in range(0, 10, 2)]
    losses = [float(np.mean((x.sum(axis=1, keepdims=True) - y) ** 2)) for x, y in batches]
    validation = Dataset.from_tensor_slices((X, Y)).batch(2)
    history = model.fit(X, Y, epochs=2, validation_data=validation, validation_steps=2,
                        verbose=0)
    assert history.history["val_loss"] == pytest.approx(
        [np.mean(losses[:2]), np.mean(losses[2:4])], rel=1e-5)


def test_class_weight_with_a_dataset():
    model = tf.keras.Sequential([layers.Dense(3, kernel_initializer="ones")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    labels = np.array([0, 1, 2, 1])
    ds = Dataset.from_tensor_slices((X[:4], labels)).batch(4)
    history = model.fit(ds, class_weight={1: 2.0, 2: 0.5}, verbose=0)
    assert history.history["loss"][0] == pytest.approx(np.log(3) * 5.5 / 4, rel=1e-6)


@pytest.mark.parametrize("kwargs,match", [
    ({"y": Y}, "`y` should not be passed"),
    ({"sample_weight": np.ones(10)}, "`sample_weights` should not be passed"),
    ({"validation_split": 0.2}, "`validation_split` is only supported for tensors"),
])
def test_arguments_a_dataset_does_not_take(kwargs, match):
    with pytest.raises(ValueError, match=match):
        linear().fit(Dataset.from_tensor_slices((X, Y)).batch(4), verbose=0, **kwargs)


def test_a_dataset_of_dicts_feeds_a_functional_model():
    inputs = {"a": tf.keras.Input(shape=(2,), name="a"), "b": tf.keras.Input(shape=(1,), name="b")}
    merged = layers.Concatenate()([inputs["a"], inputs["b"]])
    model = tf.keras.Model(inputs, layers.Dense(1, kernel_initializer="ones")(merged))
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
    ds = Dataset.from_tensor_slices(({"a": X[:, :2], "b": X[:, 2:]}, Y)).batch(5)
    assert model.evaluate(ds, verbose=0) == pytest.approx(
        float(np.mean((X.sum(axis=1, keepdims=True) - Y) ** 2)), rel=1e-5)


@pytest.mark.parametrize("name", ["mae", "mse", "mean_absolute_error", "mean_squared_error",
                                  "acc", "accuracy", "binary_accuracy", "MeanAbsoluteError"])
def test_a_metric_given_by_name_logs_under_that_name(name):
    model = tf.keras.Sequential([layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="sgd", loss="mse", metrics=[name])
    history = model.fit(X, (Y > 0).astype(np.float32), epochs=1, verbose=0)
    assert sorted(history.history) == sorted(["loss", name])


def test_metric_names_with_several_outputs_and_functions():
    x = tf.keras.Input(shape=(3,))
    model = tf.keras.Model(x, [layers.Dense(1, name="p")(x), layers.Dense(1, name="q")(x)])
    model.compile(optimizer="sgd", loss="mse",
                  metrics=[["mae"], [tf.keras.metrics.MeanSquaredError()]])
    history = model.fit(X, [Y, Y], epochs=1, verbose=0)
    assert {"p_mae", "q_mean_squared_error"} <= set(history.history)
