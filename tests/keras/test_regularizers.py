"""Regularizers, Layer.losses, add_loss, and the regularization term of fit's loss."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
R = tf.keras.regularizers
W = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)


def test_penalty_values_match_their_formulas():
    assert float(R.L1(0.3)(tf.constant(W))) == pytest.approx(0.3 * np.abs(W).sum())
    assert float(R.L2(0.3)(tf.constant(W))) == pytest.approx(0.3 * (W ** 2).sum())
    assert float(R.L1L2(0.1, 0.2)(tf.constant(W))) == pytest.approx(
        0.1 * np.abs(W).sum() + 0.2 * (W ** 2).sum())
    assert float(R.L1L2()(tf.constant(W))) == 0.0
    assert R.l2().get_config() == {"l2": 0.01} and R.l1().get_config() == {"l1": 0.01}
    assert R.l1_l2().get_config() == {"l1": 0.01, "l2": 0.01}
    assert R.get("l1_l2").get_config() == {"l1": 0.01, "l2": 0.01}
    assert R.get(R.serialize(R.L2(0.5))).get_config() == {"l2": 0.5}
    with pytest.raises(ValueError, match="l2"):
        R.L2(float("nan"))
    with pytest.raises(ValueError, match="Unknown regularizer"):
        R.get("l3")


def test_weight_regularizers_join_losses_with_gradients():
    dense = layers.Dense(2, kernel_initializer=tf.keras.initializers.Constant(W),
                         bias_initializer="ones", kernel_regularizer=R.l2(0.1),
                         bias_regularizer="l1")
    assert dense.losses == []
    dense(np.ones((3, 2), np.float32))
    values = [float(v) for v in dense.losses]
    assert values == pytest.approx([0.1 * (W ** 2).sum(), 0.01 * 2])
    with tf.GradientTape() as tape:
        total = tf.add_n(dense.losses)
    kernel_grad, bias_grad = tape.gradient(total, [dense.kernel, dense.bias])
    np.testing.assert_allclose(kernel_grad.numpy(), 0.2 * W, rtol=1e-6)
    np.testing.assert_allclose(bias_grad.numpy(), [0.01, 0.01])
    assert dense.get_config()["kernel_regularizer"] == {
        "module": "keras.regularizers", "class_name": "L2", "config": {"l2": 0.1},
        "registered_name": None}


def test_activity_regularizer_is_divided_by_the_batch_size_and_reset_each_call():
    dense = layers.Dense(2, kernel_initializer="ones", activity_regularizer=R.l1(0.5))
    x = np.array([[1.0, 2.0], [-3.0, 0.0], [1.0, 1.0]], np.float32)
    out = dense(x).numpy()
    assert [float(v) for v in dense.losses] == pytest.approx([0.5 * np.abs(out).sum() / 3])
    dense(x[:1])
    assert [float(v) for v in dense.losses] == pytest.approx([0.5 * 2 * 3 / 1])


def test_add_loss_in_call_counts_for_the_latest_outer_call_only():
    class Penalized(layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x))
            return x

    inner = Penalized()
    model = tf.keras.Sequential([inner, Penalized()])
    model(np.ones((1, 2), np.float32))
    assert [float(v) for v in model.losses] == [2.0, 2.0]
    model(np.full((1, 2), 3.0, np.float32))
    assert [float(v) for v in model.losses] == [6.0, 6.0]
    constant = tf.Variable(1.5)
    model.add_loss(lambda: constant * 2.0)
    assert [float(v) for v in model.losses] == [3.0, 6.0, 6.0]   # own losses first
    with pytest.raises(ValueError, match="zero-argument callable"):
        model.add_loss(tf.constant(1.0))
    with pytest.raises(TypeError, match="symbolic"):
        model.add_loss(tf.keras.Input(shape=(1,)))


def test_fit_minimizes_the_compiled_loss_plus_the_regularization():
    x = np.array([[1.0], [2.0]], np.float32)
    y = np.array([[1.0], [1.0]], np.float32)
    model = tf.keras.Sequential([layers.Dense(1, kernel_initializer="ones", use_bias=False,
                                              kernel_regularizer=R.l2(0.25))])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, batch_size=2, epochs=1, verbose=0, shuffle=False)
    mse = np.mean((x * 1.0 - y) ** 2)
    assert history.history["loss"][0] == pytest.approx(mse + 0.25)
    # d/dw [mean((w x - y)^2) + 0.25 w^2] at w = 1: mean(2 (x - y) x) + 0.5 = 2 + 0.5
    assert float(model.layers[0].kernel[0, 0]) == pytest.approx(1.0 - 0.1 * 2.5)
    assert model.evaluate(x, y, verbose=0) == pytest.approx(
        np.mean((x * 0.75 - y) ** 2) + 0.25 * 0.75 ** 2)


def test_regularized_functional_model_trains_under_tf_function_and_eagerly():
    for eager in (False, True):
        tf.keras.utils.set_random_seed(0)
        x = tf.keras.Input(shape=(4,))
        out = layers.Dense(1, kernel_regularizer=R.l1(0.01),
                           activity_regularizer=R.l2(0.01))(x)
        model = tf.keras.Model(x, out)
        model.compile(optimizer="sgd", loss="mse", run_eagerly=eager)
        data = np.random.default_rng(0).standard_normal((8, 4)).astype(np.float32)
        history = model.fit(data, data[:, :1], epochs=1, batch_size=8, verbose=0)
        assert history.history["loss"][0] > 0
        out = model(data)
        activity = 0.01 * float(tf.reduce_sum(out ** 2)) / 8
        kernel = 0.01 * float(tf.reduce_sum(tf.abs(model.layers[1].kernel)))
        assert [float(v) for v in model.losses] == pytest.approx([activity, kernel])
