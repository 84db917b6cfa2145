"""Batch, layer, group and unit normalization against their formulas."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
rng = np.random.default_rng(2)


def test_training_uses_batch_statistics_and_moves_the_averages():
    x = rng.standard_normal((8, 3)).astype(np.float32) * 2 + 1
    bn = tf.keras.layers.BatchNormalization(momentum=0.9, epsilon=1e-3,
                                            gamma_initializer="random_normal",
                                            beta_initializer="random_normal")
    out = bn(x, training=True).numpy()
    gamma, beta = bn.gamma.numpy(), bn.beta.numpy()
    mean, var = x.mean(0), x.var(0)
    np.testing.assert_allclose(out, gamma * (x - mean) / np.sqrt(var + 1e-3) + beta,
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.1 * mean, rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), 0.9 + 0.1 * var, rtol=1e-5)
    assert [w.name.split("/")[1] for w in bn.trainable_weights] == ["gamma:0", "beta:0"]
    assert len(bn.non_trainable_weights) == 2


def test_inference_uses_moving_statistics_and_changes_nothing():
    bn = tf.keras.layers.BatchNormalization(epsilon=0.0, moving_mean_initializer="ones",
                                            moving_variance_initializer=
                                            tf.keras.initializers.Constant(4.0))
    out = bn(tf.constant([[3.0], [5.0]])).numpy()
    np.testing.assert_allclose(out, [[1.0], [2.0]])
    assert bn.moving_mean.numpy().tolist() == [1.0]
    bn.trainable = False            # a frozen layer normalizes with its moving statistics
    np.testing.assert_allclose(bn(tf.constant([[3.0], [5.0]]), training=True).numpy(),
                               [[1.0], [2.0]])


def test_gradients_match_the_batch_norm_formula():
    x = rng.standard_normal((6, 2)).astype(np.float32)
    r = rng.standard_normal((6, 2)).astype(np.float32)
    bn = tf.keras.layers.BatchNormalization(epsilon=1e-3, gamma_initializer="random_uniform")
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        loss = tf.reduce_sum(bn(xt, training=True) * r)
    gx, gg, gb = tape.gradient(loss, [xt, bn.gamma, bn.beta])
    g = bn.gamma.numpy()
    mean, var = x.mean(0), x.var(0)
    xhat = (x - mean) / np.sqrt(var + 1e-3)
    np.testing.assert_allclose(gb.numpy(), r.sum(0), rtol=1e-5)
    np.testing.assert_allclose(gg.numpy(), (r * xhat).sum(0), rtol=1e-4, atol=1e-6)
    dxhat = r * g
    want = (dxhat - dxhat.mean(0) - xhat * (dxhat * xhat).mean(0)) / np.sqrt(var + 1e-3)
    np.testing.assert_allclose(gx.numpy(), want, rtol=1e-3, atol=1e-5)


def test_channel_axis_of_images_and_bad_axis():
    x = rng.standard_normal((2, 3, 3, 4)).astype(np.float32)
    bn = tf.keras.layers.BatchNormalization(axis=-1, epsilon=0.0, center=False, scale=False)
    out = bn(x, training=True).numpy()
    np.testing.assert_allclose(out.mean((0, 1, 2)), 0.0, atol=1e-5)
    np.testing.assert_allclose(out.var((0, 1, 2)), 1.0, rtol=1e-4)
    assert len(bn.weights) == 2
    with pytest.raises(ValueError, match="invalid axis 3"):
        tf.keras.layers.BatchNormalization(axis=3)(tf.constant([[1.0, 2.0]]))


def _layer_norm(x, gamma, beta, axes, eps):
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


@pytest.mark.parametrize("axis", [-1, [1, 2]])
def test_layer_normalization_forward_and_gradients_match_numpy(axis):
    rng = np.random.default_rng(11)
    x64 = rng.standard_normal((3, 4, 5))
    ln = tf.keras.layers.LayerNormalization(axis=axis, dtype="float64",
                                            gamma_initializer="random_normal",
                                            beta_initializer="random_normal")
    x = tf.constant(x64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = ln(x)
        loss = tf.reduce_sum(out * out * out)
    axes = (2,) if axis == -1 else (1, 2)
    shape = [1, 1, 5] if axis == -1 else [1, 4, 5]
    gamma = ln.gamma.numpy().reshape(shape)
    beta = ln.beta.numpy().reshape(shape)
    assert ln.gamma.shape == shape[1:] if axis != -1 else ln.gamma.shape == [5]
    expected = _layer_norm(x64, gamma, beta, axes, 1e-3)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10)
    grads = tape.gradient(loss, [x, ln.gamma, ln.beta])

    def numeric(f, value, eps=1e-6):
        flat = value.ravel()
        result = np.zeros_like(flat)
        for i in range(flat.size):
            up, down = flat.copy(), flat.copy()
            up[i] += eps
            down[i] -= eps
            result[i] = (f(up.reshape(value.shape)) - f(down.reshape(value.shape))) / (2 * eps)
        return result.reshape(value.shape)

    def total(x_, g_=gamma, b_=beta):
        return (_layer_norm(x_, g_, b_, axes, 1e-3) ** 3).sum()
    np.testing.assert_allclose(grads[0].numpy(), numeric(total, x64), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grads[1].numpy().reshape(shape),
                               numeric(lambda g_: total(x64, g_), gamma), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grads[2].numpy().reshape(shape),
                               numeric(lambda b_: total(x64, gamma, b_), beta), rtol=1e-5,
                               atol=1e-6)


def test_layer_normalization_options_and_errors():
    x = np.array([[1.0, 3.0], [2.0, 6.0]], np.float32)
    plain = tf.keras.layers.LayerNormalization(center=False, scale=False, epsilon=0.0)
    np.testing.assert_allclose(plain(x).numpy(), [[-1.0, 1.0], [-1.0, 1.0]])
    assert plain.weights == []
    ln = tf.keras.layers.LayerNormalization(name="norm")
    np.testing.assert_allclose(ln(x, training=True).numpy(), ln(x).numpy())
    assert [w.name for w in ln.weights] == ["norm/gamma:0", "norm/beta:0"]
    with pytest.raises(ValueError, match=r'"norm".*axis 1 .*value 2.*\(1, 3\)'):
        ln(np.ones((1, 3), np.float32))
    with pytest.raises(ValueError, match=r"invalid axis 3 .*rank 2"):
        tf.keras.layers.LayerNormalization(axis=3)(x)


def test_group_normalization_normalizes_each_group_of_each_example():
    x = np.random.default_rng(7).standard_normal((2, 3, 6)).astype(np.float32) * 3 + 1
    gn = layers.GroupNormalization(groups=3, epsilon=1e-3, gamma_initializer="random_normal",
                                   beta_initializer="random_normal")
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = gn(xt)
        total = tf.reduce_sum(y * y)
    grouped = x.reshape(2, 3, 3, 2)
    mean = grouped.mean(axis=(1, 3), keepdims=True)
    var = grouped.var(axis=(1, 3), keepdims=True)
    want = ((grouped - mean) / np.sqrt(var + 1e-3)).reshape(x.shape) * gn.gamma.numpy() \
        + gn.beta.numpy()
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-4, atol=1e-5)
    assert [w.shape for w in gn.weights] == [[6], [6]]
    grads = tape.gradient(total, [xt, gn.gamma, gn.beta])
    assert all(g is not None for g in grads)
    first = layers.GroupNormalization(groups=3, axis=1)
    np.testing.assert_allclose(first(x.transpose(0, 2, 1)).numpy(),
                               layers.GroupNormalization(groups=3)(x).numpy()
                               .transpose(0, 2, 1), rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="groups"):
        layers.GroupNormalization(groups=4)(x)


def test_unit_normalization_scales_to_unit_norm_and_keeps_zeros():
    x = tf.constant([[3.0, 4.0], [0.0, 0.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layers.UnitNormalization()(x)
        total = tf.reduce_sum(y * tf.constant([[1.0, 0.0], [1.0, 0.0]]))
    np.testing.assert_allclose(y.numpy(), [[0.6, 0.8], [0.0, 0.0]], rtol=1e-6)
    # d(x0 / |x|)/dx = (|x|^2 e0 - x0 x) / |x|^3 at (3, 4): (16, -12) / 125.
    np.testing.assert_allclose(tape.gradient(total, x).numpy()[0], [16 / 125, -12 / 125],
                               rtol=1e-5)
    cube = np.random.default_rng(2).standard_normal((2, 3, 4)).astype(np.float32)
    y = layers.UnitNormalization(axis=[1, 2])(cube).numpy()
    np.testing.assert_allclose((y ** 2).sum(axis=(1, 2)), [1.0, 1.0], rtol=1e-5)
