"""Dense, Activation, Flatten, Reshape and Dropout against hand-written NumPy."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
rng = np.random.default_rng(0)


def test_dense_output_and_gradients_match_numpy():
    x = rng.standard_normal((5, 4)).astype(np.float32)
    r = rng.standard_normal((5, 3)).astype(np.float32)
    dense = layers.Dense(3, activation="relu", bias_initializer="random_normal")
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        loss = tf.reduce_sum(dense(xt) * r)
    gx, gw, gb = tape.gradient(loss, [xt, dense.kernel, dense.bias])
    w, b = dense.kernel.numpy(), dense.bias.numpy()
    z = x @ w + b
    upstream = r * (z > 0)
    np.testing.assert_allclose(float(loss), np.sum(np.maximum(z, 0) * r), rtol=1e-5)
    np.testing.assert_allclose(gw.numpy(), x.T @ upstream, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gb.numpy(), upstream.sum(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gx.numpy(), upstream @ w.T, rtol=1e-5, atol=1e-6)


def test_dense_on_rank3_inputs_multiplies_the_last_axis():
    dense = layers.Dense(2, use_bias=False)
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    out = dense(x)
    assert out.shape == [2, 3, 2] and dense.weights == [dense.kernel]
    np.testing.assert_allclose(out.numpy(), x @ dense.kernel.numpy(), rtol=1e-5)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(dense(x))
    np.testing.assert_allclose(tape.gradient(loss, dense.kernel).numpy(),
                               np.broadcast_to(x.sum((0, 1))[:, None], (4, 2)), rtol=1e-5)


def test_dense_validation_and_integer_inputs():
    with pytest.raises(ValueError, match="units"):
        layers.Dense(0)
    dense = layers.Dense(1, kernel_initializer="ones")
    assert dense(tf.constant([[1, 2]])).numpy().tolist() == [[3.0]]
    assert dense.get_config()["units"] == 1


def test_activation_layer_and_activation_names():
    x = tf.constant([[-2.0, 0.5]])
    np.testing.assert_allclose(layers.Activation("sigmoid")(x).numpy(),
                               1 / (1 + np.exp([[2.0, -0.5]])), rtol=1e-6)
    np.testing.assert_allclose(layers.Activation("softmax")(x).numpy().sum(), 1.0, rtol=1e-6)
    np.testing.assert_allclose(layers.Activation(tf.keras.activations.elu)(x).numpy(),
                               [[np.exp(-2.0) - 1, 0.5]], rtol=1e-6)
    with pytest.raises(ValueError, match="Unknown activation"):
        layers.Activation("rleu")


def test_relu_with_alpha_threshold_and_max_value_follows_keras():
    x = tf.constant([-3.0, -1.0, 0.5, 2.0, 8.0])
    out = tf.keras.activations.relu(x, alpha=0.1, max_value=6.0, threshold=1.0).numpy()
    # Below the threshold: alpha * (x - threshold); above: x, capped at max_value.
    np.testing.assert_allclose(out, [-0.4, -0.2, -0.05, 2.0, 6.0], rtol=1e-6)


def test_flatten_and_reshape_keep_the_batch_axis():
    x = tf.constant(np.arange(24.0, dtype=np.float32).reshape(2, 3, 4))
    np.testing.assert_array_equal(layers.Flatten()(x).numpy(), x.numpy().reshape(2, 12))
    assert layers.Flatten()(tf.constant([1.0, 2.0])).shape == [2, 1]
    np.testing.assert_array_equal(layers.Reshape((4, 3))(x).numpy(), x.numpy().reshape(2, 4, 3))
    assert layers.Reshape((-1, 2))(x).shape == [2, 6, 2]
    with pytest.raises(ValueError, match=r'"bad_reshape".*input_shape = \[3, 4\]'):
        layers.Reshape((5,), name="bad_reshape")(x)
    with pytest.raises(ValueError, match="at most one unknown"):
        layers.Reshape((-1, -1))


def test_flatten_gradient_is_reshaped_back():
    x = tf.constant(rng.standard_normal((2, 2, 3)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(layers.Flatten()(x) * tf.constant(np.arange(6.0, dtype=np.float32)))
    np.testing.assert_array_equal(tape.gradient(loss, x).numpy(),
                                  np.broadcast_to(np.arange(6.0).reshape(2, 3), (2, 2, 3)))


def test_dropout_scales_kept_units_and_is_identity_at_inference():
    layer = layers.Dropout(0.25, seed=3)
    x = tf.constant(1.0, shape=[4, 1000])
    assert np.array_equal(layer(x).numpy(), x.numpy())
    tf.random.set_seed(5)
    out = layer(x, training=True).numpy()
    assert set(np.unique(out)) == {0.0, np.float32(1 / 0.75)}
    assert abs((out == 0).mean() - 0.25) < 0.02
    second = layer(x, training=True).numpy()
    assert not np.array_equal(out, second)                             # a new mask per call
    same_seed = layers.Dropout(0.25, seed=3)                            # the sequence repeats
    assert [np.array_equal(m, same_seed(x, training=True).numpy()) for m in (out, second)] \
        == [True, True]
    shared = layers.Dropout(0.5, noise_shape=(None, 1), seed=0)(x, training=True).numpy()
    assert all(len(np.unique(row)) == 1 for row in shared)             # whole rows dropped
    assert np.all(layers.Dropout(1.0)(x, training=True).numpy() == 0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        layers.Dropout(1.5)


def test_dropout_seed_state_is_a_variable_but_not_a_weight():
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(2),
                                 layers.Dropout(0.5, seed=4)])
    dropout = model.layers[-1]
    assert dropout.weights == [] and model.non_trainable_weights == []
    assert len(model.get_weights()) == 2
    state = dropout.seed_generator.state
    assert model.non_trainable_variables == [state] and model.variables[-1] is state
    np.testing.assert_array_equal(state.numpy(), [4, 0])
    model(np.ones((2, 3), np.float32), training=True)
    np.testing.assert_array_equal(state.numpy(), [4, 1])


def test_unseeded_dropout_repeats_after_set_random_seed():
    x = tf.ones([2, 50])
    masks = []
    for _ in range(2):
        tf.keras.utils.set_random_seed(11)
        masks.append(layers.Dropout(0.5)(x, training=True).numpy())
    np.testing.assert_array_equal(masks[0], masks[1])


def test_dropout_in_a_traced_function_advances_its_state():
    layer = layers.Dropout(0.5, seed=2)
    step = tf.function(lambda t: layer(t, training=True))
    x = tf.ones([2, 40])
    first, second = step(x).numpy(), step(x).numpy()
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(layer.seed_generator.state.numpy(), [2, 2])


def test_dropout_gradient_is_the_mask():
    layer = layers.Dropout(0.5, seed=1)
    x = tf.constant(1.0, shape=[3, 4])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, training=True)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), y.numpy())


def test_identity_returns_its_inputs():
    x = tf.constant([[1.0, 2.0]])
    layer = tf.keras.layers.Identity()
    assert layer(x) is x and layer.weights == [] and "name" in layer.get_config()
