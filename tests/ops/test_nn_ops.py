"""tf.nn activations, losses and normalization: values, stability at large |x|, gradients."""
import numpy as np
import pytest
import scipy.special

import tapeflow as tf
from tapeflow.framework import errors
from tapeflow.ops import nn_ops

rng = np.random.default_rng(5)
X = np.array([-100.0, -3.0, -0.5, 0.0, 0.5, 3.0, 7.0, 100.0])


def value_and_grad(f, *args):
    tensors = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(tensors)
        y = f(*tensors)
    return y.numpy(), [None if g is None else g.numpy() for g in tape.gradient(y, tensors)]


def hessian_times(f, x, v):
    """The Hessian of sum(f) at x times v, by differentiating the recorded backward pass."""
    x = tf.constant(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        directional = tf.reduce_sum(inner.gradient(y, x) * v)
    return outer.gradient(directional, x).numpy()


def second_derivative(f, x):
    """For an elementwise f the Hessian is diagonal: its product with ones is f''."""
    return hessian_times(f, x, np.ones_like(x))


@pytest.mark.parametrize("fn,expected,derivative", [
    (tf.nn.relu6, np.clip(X, 0, 6), ((X > 0) & (X < 6)) * 1.0),
    (tf.nn.elu, np.where(X > 0, X, np.expm1(np.minimum(X, 0))), np.where(X < 0, np.exp(X), 1)),
    (tf.nn.selu, nn_ops.SELU_SCALE * np.where(X > 0, X, nn_ops.SELU_ALPHA * np.expm1(
        np.minimum(X, 0))), nn_ops.SELU_SCALE * np.where(X < 0, nn_ops.SELU_ALPHA * np.exp(X), 1)),
    (tf.nn.leaky_relu, np.where(X > 0, X, 0.2 * X), np.where(X > 0, 1, 0.2)),
    (tf.nn.softplus, np.logaddexp(0, X), scipy.special.expit(X)),
    (tf.nn.softsign, X / (1 + np.abs(X)), 1 / (1 + np.abs(X)) ** 2),
    (tf.nn.silu, X * scipy.special.expit(X),
     scipy.special.expit(X) * (1 + X * (1 - scipy.special.expit(X)))),
], ids=["relu6", "elu", "selu", "leaky_relu", "softplus", "softsign", "silu"])
def test_activation_values_and_derivatives(fn, expected, derivative):
    # At 0 the derivatives take TF's side (1 for elu, scale for selu); elu's and selu's come
    # from the output (y + 1), which is exactly 0 at x = -100.
    y, (g,) = value_and_grad(fn, X)
    np.testing.assert_allclose(y, expected, rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(g, derivative, rtol=1e-12, atol=1e-15)


def test_activations_are_finite_and_keep_float32_at_large_inputs():
    x = X.astype(np.float32)
    for fn in (tf.nn.relu6, tf.nn.elu, tf.nn.selu, tf.nn.leaky_relu, tf.nn.softplus,
               tf.nn.softsign, tf.nn.silu, tf.nn.log_softmax):
        y, (g,) = value_and_grad(fn, x)
        assert y.dtype == np.float32 and g.dtype == np.float32
        assert np.all(np.isfinite(y)) and np.all(np.isfinite(g)), fn.__name__
    assert tf.nn.softplus(x).numpy()[-1] == 100.0


def test_leaky_relu_alpha_and_gelu():
    np.testing.assert_allclose(tf.nn.leaky_relu(X, alpha=0.5).numpy(), np.where(X > 0, X, X / 2))
    x = np.linspace(-4, 4, 9)
    approximate = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    np.testing.assert_allclose(tf.nn.gelu(x, approximate=True).numpy(), approximate, rtol=1e-12)
    exact = x * 0.5 * scipy.special.erfc(-x / np.sqrt(2))
    np.testing.assert_allclose(tf.nn.gelu(x).numpy(), exact, rtol=1e-12, atol=1e-15)
    assert tf.nn.swish is tf.nn.silu
    np.testing.assert_allclose(tf.nn.silu(x, beta=2.0).numpy(), x * scipy.special.expit(2 * x))


def test_second_derivatives_of_elu_selu_and_softsign():
    np.testing.assert_allclose(second_derivative(tf.nn.elu, X), np.where(X < 0, np.exp(X), 0),
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(second_derivative(tf.nn.selu, X), np.where(
        X < 0, nn_ops.SELU_SCALE * nn_ops.SELU_ALPHA * np.exp(X), 0), rtol=1e-12, atol=1e-15)
    x = X[X != 0]
    np.testing.assert_allclose(second_derivative(tf.nn.softsign, x),
                               -2 * np.sign(x) / (1 + np.abs(x)) ** 3, rtol=1e-12)


@pytest.mark.parametrize("fn", [tf.nn.relu, tf.nn.relu6, tf.nn.leaky_relu,
                                lambda x: tf.nn.max_pool2d(tf.reshape(x, [1, 2, 2, 1]), 2, 1,
                                                           "VALID")])
def test_piecewise_linear_ops_have_a_connected_zero_second_derivative(fn):
    # As TF's rules for ReluGrad, Relu6Grad, LeakyReluGrad and MaxPoolGrad: zeros, not None.
    np.testing.assert_array_equal(second_derivative(fn, np.array([-1.5, 0.5, 2.0, 7.0])), 0.0)


def test_log_softmax_is_stable_and_takes_an_axis():
    logits = np.array([[100.0, 0.0, -100.0], [1.0, 2.0, 3.0]])
    expected = logits - scipy.special.logsumexp(logits, axis=-1, keepdims=True)
    np.testing.assert_allclose(tf.nn.log_softmax(logits).numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(tf.nn.log_softmax(logits, axis=0).numpy(),
                               logits - scipy.special.logsumexp(logits, axis=0), rtol=1e-12)
    _, (g,) = value_and_grad(tf.nn.log_softmax, logits)
    np.testing.assert_allclose(g, 1 - 3 * scipy.special.softmax(logits, axis=-1), atol=1e-12)
    with pytest.raises(errors.InvalidArgumentError, match="LogSoftmax"):
        tf.nn.log_softmax(logits, axis=2)


def test_sigmoid_cross_entropy_is_exact_at_large_logits():
    logits = np.array([100.0, 100.0, -100.0, -100.0, 0.0]).astype(np.float32)
    labels = np.array([1.0, 0.0, 1.0, 0.0, 0.3]).astype(np.float32)
    loss, (g_labels, g_logits) = value_and_grad(
        lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x), labels, logits)
    np.testing.assert_allclose(loss, [0.0, 100.0, 100.0, 0.0, np.log(2)], rtol=1e-6, atol=1e-30)
    np.testing.assert_allclose(g_logits, scipy.special.expit(logits) - labels, atol=1e-7)
    np.testing.assert_allclose(g_labels, -logits)
    with pytest.raises(ValueError, match="same shape"):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=np.ones(2), logits=np.ones(3))


def test_softmax_cross_entropy_at_large_logits_gives_labels_a_gradient():
    logits = np.array([[100.0, -100.0, 0.0], [0.0, 0.0, 0.0]])
    labels = np.array([[0.0, 1.0, 0.0], [0.2, 0.3, 0.5]])
    loss, (g_labels, g_logits) = value_and_grad(
        lambda p, x: tf.nn.softmax_cross_entropy_with_logits(labels=p, logits=x), labels, logits)
    log_probs = logits - scipy.special.logsumexp(logits, axis=-1, keepdims=True)
    np.testing.assert_allclose(loss, [200.0, np.log(3)], rtol=1e-12)
    np.testing.assert_allclose(g_logits, scipy.special.softmax(logits, axis=-1) - labels,
                               atol=1e-12)
    np.testing.assert_allclose(g_labels, -log_probs, rtol=1e-12)
    # TF's fused kernel: the logits gradient is softmax - labels even when labels do not sum
    # to 1 (the exact derivative would scale the softmax by their sum).
    _, (_, g_unnormalized) = value_and_grad(
        lambda p, x: tf.nn.softmax_cross_entropy_with_logits(labels=p, logits=x), 3 * labels,
        logits)
    np.testing.assert_allclose(g_unnormalized, scipy.special.softmax(logits, axis=-1) -
                               3 * labels, atol=1e-12)
    on_axis0 = tf.nn.softmax_cross_entropy_with_logits(labels.T, logits.T, axis=0)
    np.testing.assert_allclose(on_axis0.numpy(), loss, rtol=1e-12)
    integer_labels = tf.nn.softmax_cross_entropy_with_logits(tf.constant([[0, 1]]),
                                                             tf.constant([[0.0, 0.0]]))
    assert integer_labels.dtype == tf.float32
    np.testing.assert_allclose(integer_labels.numpy(), [np.log(2)], rtol=1e-6)
    with pytest.raises(errors.InvalidArgumentError):
        tf.nn.softmax_cross_entropy_with_logits(np.ones((2, 3)), np.ones((2, 4)))


def test_sparse_softmax_cross_entropy_labels_get_no_gradient():
    logits = np.array([[100.0, -100.0, 0.0]])
    loss, (g_logits,) = value_and_grad(
        lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([1]), x), logits)
    np.testing.assert_allclose(loss, [200.0])
    assert np.all(np.isfinite(g_logits))


def test_bias_add_formats_gradients_and_errors():
    value, bias = rng.standard_normal((2, 3, 4, 5)), rng.standard_normal(3)
    out, (g_value, g_bias) = value_and_grad(
        lambda v, b: tf.nn.bias_add(v, b, data_format="NCHW"), value, bias)
    np.testing.assert_allclose(out, value + bias[:, None, None])
    np.testing.assert_array_equal(g_value, np.ones_like(value))
    np.testing.assert_array_equal(g_bias, np.full(3, 40.0))
    last = rng.standard_normal(5)
    np.testing.assert_allclose(tf.nn.bias_add(value, last).numpy(), value + last)
    with pytest.raises(errors.InvalidArgumentError, match=r"BiasAdd.*\[4\].*\[2, 3, 4, 5\]"):
        tf.nn.bias_add(value, np.ones(4))
    with pytest.raises(errors.InvalidArgumentError, match="1-D"):
        tf.nn.bias_add(value, np.ones((1, 5)))
    with pytest.raises(ValueError, match="data_format"):
        tf.nn.bias_add(value, last, data_format="HWCN")


def test_batch_normalization_and_moments():
    x = rng.standard_normal((6, 3))
    mean, variance = tf.nn.moments(x, axes=[0])
    np.testing.assert_allclose(mean.numpy(), x.mean(0))
    np.testing.assert_allclose(variance.numpy(), x.var(0))
    kept = tf.nn.moments(x, axes=[0, 1], keepdims=True)
    assert kept[0].shape == [1, 1] and kept[1].numpy()[0, 0] == pytest.approx(x.var())
    offset, scale = rng.standard_normal(3), rng.standard_normal(3)
    out = tf.nn.batch_normalization(x, mean, variance, offset, scale, 1e-3)
    np.testing.assert_allclose(out.numpy(), (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-3) * scale +
                               offset, rtol=1e-12)
    plain = tf.nn.batch_normalization(x.astype(np.float32), 1.0, 4.0, None, None, 0.0)
    assert plain.dtype == tf.float32
    np.testing.assert_allclose(plain.numpy(), (x - 1) / 2, rtol=1e-6)


def test_moments_variance_gradient_includes_the_mean_path():
    x = rng.standard_normal(5)
    _, (g,) = value_and_grad(lambda t: tf.nn.moments(t, axes=[0])[1], x)
    np.testing.assert_allclose(g, 2 * (x - x.mean()) / 5, rtol=1e-12)
    v = rng.standard_normal(5)
    hv = hessian_times(lambda t: tf.nn.moments(t, axes=[0])[1], x, v)
    np.testing.assert_allclose(hv, 2 / 5 * (v - v.mean()), rtol=1e-12)


def test_l2_loss():
    x = rng.standard_normal((3, 2))
    loss, (g,) = value_and_grad(tf.nn.l2_loss, x)
    assert loss == pytest.approx(np.sum(x ** 2) / 2)
    np.testing.assert_allclose(g, x)


@pytest.mark.parametrize("fn", [tf.nn.elu, tf.nn.selu, tf.nn.softplus, tf.nn.softsign,
                                tf.nn.silu, tf.nn.log_softmax, tf.nn.l2_loss])
def test_integer_features_are_rejected(fn):
    with pytest.raises(errors.InvalidArgumentError, match="int32"):
        fn(tf.constant([1, 2]))


def test_integer_features_where_tf_takes_them():
    assert tf.nn.relu6(tf.constant([-3, 9])).numpy().tolist() == [0, 6]
    assert tf.nn.relu6(tf.constant([-3, 9])).dtype == tf.int32
    leaky = tf.nn.leaky_relu(tf.constant([-5, 2]))
    assert leaky.dtype == tf.float32 and leaky.numpy().tolist() == [-1.0, 2.0]
    mean, variance = tf.nn.moments(tf.constant([1, 7]), axes=[0])
    assert (int(mean), int(variance)) == (4, 9)
    with pytest.raises(ValueError, match="floating"):
        tf.nn.gelu(tf.constant([1, 2]))
    with pytest.raises(errors.InvalidArgumentError, match="Relu6"):
        tf.nn.relu6(tf.constant([True]))


def test_log_sigmoid_is_stable_and_its_gradient_is_sigmoid_of_minus_x():
    x = np.array([-1000.0, -2.0, 0.0, 3.0, 1000.0])
    out = tf.math.log_sigmoid(tf.constant(x))
    np.testing.assert_allclose(out.numpy(), -np.logaddexp(0.0, -x), rtol=1e-12)
    assert tf.math.log_sigmoid(tf.constant([0.0])).dtype == tf.float32
    from .test_math_ops import grad
    np.testing.assert_allclose(grad(tf.math.log_sigmoid, x).numpy(), scipy.special.expit(-x))
    with pytest.raises(errors.InvalidArgumentError, match="int32"):
        tf.math.log_sigmoid(tf.constant([1]))
