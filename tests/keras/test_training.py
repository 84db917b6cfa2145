"""fit's sample_weight, class_weight, weighted_metrics and steps_per_epoch."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
X = np.array([[1.0, 2.0], [0.0, 1.0], [3.0, 1.0], [1.0, 1.0]], np.float32)
Y = np.array([0, 1, 2, 1])


def uniform_classifier():
    """Three equal logits for every example: each example's loss is log(3)."""
    model = tf.keras.Sequential([layers.Dense(3, kernel_initializer="ones")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"], weighted_metrics=["accuracy"])
    return model


def test_class_weight_scales_each_examples_loss_and_the_weighted_metrics():
    model = uniform_classifier()
    weights = {0: 1.0, 1: 2.0, 2: 0.5}
    history = model.fit(X, Y, class_weight=weights, batch_size=4, verbose=0, shuffle=False)
    per_example = np.array([weights[int(c)] for c in Y])
    assert history.history["loss"][0] == pytest.approx(np.log(3) * per_example.sum() / 4,
                                                       rel=1e-6)
    # Ties pick class 0: only the first example is right.
    assert history.history["accuracy"][0] == pytest.approx(0.25)
    assert history.history["weighted_accuracy"][0] == pytest.approx(1.0 / per_example.sum())
    # Classes left out of the dict weigh 1; one-hot targets use their argmax.
    onehot = tf.keras.Sequential([layers.Dense(3, kernel_initializer="ones")])
    onehot.compile(optimizer=tf.keras.optimizers.SGD(0.0),
                   loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True))
    history = onehot.fit(X, np.eye(3)[Y], class_weight={2: 3.0}, batch_size=4, verbose=0)
    assert history.history["loss"][0] == pytest.approx(np.log(3) * 6 / 4, rel=1e-6)


def test_class_weight_multiplies_sample_weight_and_skips_validation():
    model = uniform_classifier()
    sample = np.array([1.0, 1.0, 4.0, 0.0], np.float32)
    history = model.fit(X, Y, sample_weight=sample, class_weight={2: 0.5}, batch_size=4,
                        validation_data=(X, Y), verbose=0)
    assert history.history["loss"][0] == pytest.approx(np.log(3) * (1 + 1 + 2 + 0) / 4,
                                                       rel=1e-6)
    assert history.history["val_loss"][0] == pytest.approx(np.log(3), rel=1e-6)
    x = tf.keras.Input(shape=(2,))
    two = tf.keras.Model(x, [layers.Dense(3)(x), layers.Dense(3)(x)])
    two.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="only supported for Models with a single output"):
        two.fit(X, [np.eye(3)[Y], np.eye(3)[Y]], class_weight={0: 1.0}, verbose=0)


def test_sample_weight_in_fit_and_evaluate_matches_hand_computation():
    model = tf.keras.Sequential([layers.Dense(1, kernel_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mae")
    y = np.array([[1.0], [2.0], [3.0], [4.0]], np.float32)
    weights = np.array([0.5, 1.0, 0.0, 2.0], np.float32)
    # Batches of 3 and 1: the logged loss is the batch-size weighted mean of batch losses.
    history = model.fit(X, y, sample_weight=weights, batch_size=3, verbose=0, shuffle=False)
    first = (0.5 * 1 + 1.0 * 2 + 0.0 * 3) / 3
    second = 2.0 * 4 / 1
    assert history.history["loss"][0] == pytest.approx((3 * first + second) / 4)
    assert model.evaluate(X, y, sample_weight=weights, batch_size=4, verbose=0) == \
        pytest.approx((0.5 + 2 + 8) / 4)


def test_steps_per_epoch_continues_through_the_data_across_epochs():
    model = tf.keras.Sequential([layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.arange(10, dtype=np.float32)[:, None]
    seen = []
    log = tf.keras.callbacks.LambdaCallback(
        on_train_batch_begin=lambda batch, logs: seen.append(batch))
    with pytest.warns(UserWarning, match="ran out of data"):
        model.fit(x, x, batch_size=2, epochs=3, steps_per_epoch=3, shuffle=False, verbose=0,
                  callbacks=[log])
    assert seen == [0, 1, 2, 0, 1, 0, 1, 2]          # the second epoch runs out after 2
    assert int(model.optimizer.iterations) == 8
    seen.clear()
    with pytest.warns(UserWarning, match="ran out of data"):
        model.fit(x, x, batch_size=2, epochs=2, steps_per_epoch=7, shuffle=False, verbose=0,
                  callbacks=[log])
    assert seen == [0, 1, 2, 3, 4] * 2
    assert model.evaluate(x, x, batch_size=2, steps=1, verbose=0) == pytest.approx(
        model.evaluate(x[:2], x[:2], verbose=0))
    assert model.predict(x, batch_size=3, steps=2, verbose=0).shape == (6, 1)


@pytest.mark.parametrize("labels", [np.array(["a", "b", "a", "b"]), np.array([], "U").reshape(0)])
def test_fit_refuses_string_labels_naming_the_dtype_before_training(labels):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(loss="mse", optimizer="sgd")
    x = np.ones((len(labels), 2), "float32")
    with pytest.raises(ValueError, match=f"dtype {labels.dtype}"):
        model.fit(x, labels, verbose=0)
    assert not model.built
