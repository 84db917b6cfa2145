"""Keras under tf.function: the traced steps match eager ones (skipped without graph mode)."""
import numpy as np
import pytest

import tapeflow as tf

pytestmark = pytest.mark.skipif(not hasattr(tf, "function"), reason="needs graph mode")
O = tf.keras.optimizers
rng = np.random.default_rng(7)
W0 = rng.standard_normal((3, 2)).astype(np.float32)
GRADS = [rng.standard_normal((3, 2)).astype(np.float32) for _ in range(3)]


@pytest.mark.parametrize("make", [
    lambda: O.SGD(0.1, momentum=0.9, nesterov=True),
    lambda: O.Adam(0.1, amsgrad=True, clipnorm=1.0),
    lambda: O.AdamW(O.schedules.ExponentialDecay(0.1, 1, 0.5), weight_decay=0.1),
    lambda: O.RMSprop(0.01, momentum=0.5, centered=True, global_clipnorm=2.0),
    lambda: O.Adagrad(O.schedules.PiecewiseConstantDecay([1], [0.5, 0.1]), clipvalue=0.3),
])
def test_optimizer_steps_in_a_function_match_eager_steps(make):
    eager_w, traced_w = tf.Variable(W0), tf.Variable(W0)
    eager, traced = make(), make()

    @tf.function
    def step(g):
        traced.apply_gradients([(g, traced_w)])

    for g in GRADS:
        eager.apply_gradients([(tf.constant(g), eager_w)])
        step(tf.constant(g))
    np.testing.assert_allclose(traced_w.numpy(), eager_w.numpy(), rtol=1e-5, atol=1e-6)
    assert int(traced.iterations) == int(eager.iterations) == 3
    for a, b in zip(traced.variables, eager.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_a_training_step_with_metrics_in_a_function_matches_eager():
    x = rng.standard_normal((16, 4)).astype(np.float32)
    y = rng.integers(0, 3, 16)
    results = []
    for compile_step in (lambda f: f, tf.function):
        tf.keras.utils.set_random_seed(1)
        model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"),
                                     tf.keras.layers.BatchNormalization(),
                                     tf.keras.layers.Dense(3)])
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        optimizer = tf.keras.optimizers.Adam(0.01)
        mean = tf.keras.metrics.Mean()
        accuracy = tf.keras.metrics.SparseCategoricalAccuracy()

        def train_step(images, labels):
            with tf.GradientTape() as tape:
                predictions = model(images, training=True)
                loss = loss_object(labels, predictions)
            optimizer.minimize(loss, model.trainable_variables, tape=tape)
            mean.update_state(loss)
            accuracy.update_state(labels, predictions)

        step = compile_step(train_step)
        for _ in range(3):
            step(tf.constant(x), tf.constant(y))
        results.append([float(mean.result()), float(accuracy.result()),
                        *[w.numpy() for w in model.weights]])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_dropout_in_a_function_draws_a_new_mask_each_call():
    layer = tf.keras.layers.Dropout(0.5, seed=2)
    step = tf.function(lambda x: layer(x, training=True))
    x = tf.ones([2, 50])
    first, second = step(x).numpy(), step(x).numpy()
    assert set(np.unique(first)) == {0.0, 2.0}
    assert not np.array_equal(first, second)
