"""tf.conv, the backprop functions, atrous and generic transposed convolutions, and
extract_volume_patches: each equals the convolution it is built from; gradients flow."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.testing.gradient_checker import check_grads

RNG = np.random.default_rng(5)
X = RNG.standard_normal((2, 5, 6, 3)).astype(np.float32)
W = RNG.standard_normal((3, 2, 3, 4)).astype(np.float32)


def test_conv_equals_conv2d_and_conv3d():
    np.testing.assert_allclose(tf.conv(X, W, [1, 1, 2, 1], "SAME").numpy(),
                               tf.nn.conv2d(X, W, [1, 1, 2, 1], "SAME").numpy())
    stacked = tf.conv(np.stack([X, X]), W, [1, 1, 1, 1], "VALID", batch_dims=2)
    assert stacked.shape == (2, 2, 3, 5, 4)
    explicit = tf.conv(X, W, [1, 1, 1, 1], "EXPLICIT",
                       explicit_paddings=[0, 0, 1, 1, 0, 1, 0, 0])
    np.testing.assert_allclose(explicit.numpy(), tf.nn.conv2d(
        X, W, 1, [[0, 0], [1, 1], [0, 1], [0, 0]]).numpy(), rtol=1e-6)
    volume = tf.conv(X[:, None], W[None], [1, 1, 1, 1, 1], "VALID")
    assert volume.shape == (2, 1, 3, 5, 4)


def test_conv_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="2 or 3 spatial"):
        tf.conv(X[0], W[0], [1, 1, 1], "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="CHANNELS_LAST"):
        tf.conv(X, W, [1, 1, 1, 1], "VALID", data_format="NHWC")
    with pytest.raises(tf.errors.InvalidArgumentError, match="explicit_paddings"):
        tf.conv(X, W, [1, 1, 1, 1], "EXPLICIT", explicit_paddings=[1, 1])


def test_backprop_functions_are_the_conv2d_gradients():
    x, w = tf.constant(X), tf.constant(W)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.conv2d(x, w, [1, 2, 1, 1], "SAME")
    dy = tf.constant(RNG.standard_normal(y.shape).astype(np.float32))
    dx, dw = tape.gradient(y, [x, w], output_gradients=dy)
    np.testing.assert_allclose(tf.conv2d_backprop_input_v2(
        x, w, dy, [1, 2, 1, 1], "SAME").numpy(), dx.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tf.conv2d_backprop_filter_v2(
        x, w, dy, [1, 2, 1, 1], "SAME").numpy(), dw.numpy(), rtol=1e-5, atol=1e-5)


def test_depthwise_backprop_functions_are_the_depthwise_gradients():
    dwf = RNG.standard_normal((2, 2, 3, 2)).astype(np.float32)
    x, w = tf.constant(X), tf.constant(dwf)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID")
    dy = tf.constant(RNG.standard_normal(y.shape).astype(np.float32))
    dx, dw = tape.gradient(y, [x, w], output_gradients=dy)
    np.testing.assert_allclose(tf.nn.depthwise_conv2d_backprop_input(
        [2, 5, 6, 3], w, dy, [1, 1, 1, 1], "VALID").numpy(), dx.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tf.nn.depthwise_conv2d_backprop_filter(
        x, [2, 2, 3, 2], dy, [1, 1, 1, 1], "VALID").numpy(), dw.numpy(), rtol=1e-5, atol=1e-5)


def test_atrous_and_transposed():
    np.testing.assert_allclose(tf.nn.atrous_conv2d(X, W, 2, "SAME").numpy(), tf.nn.conv2d(
        X, W, 1, "SAME", dilations=2).numpy())
    w_t = RNG.standard_normal((2, 2, 4, 3)).astype(np.float32)
    np.testing.assert_allclose(
        tf.nn.atrous_conv2d_transpose(X, w_t, [2, 7, 8, 4], 2, "VALID").numpy(),
        tf.nn.conv2d_transpose(X, w_t, [2, 7, 8, 4], 1, "VALID", dilations=2).numpy())
    assert tf.nn.conv_transpose(X, w_t, [2, 10, 12, 4], 2).shape == (2, 10, 12, 4)
    with pytest.raises(ValueError, match="rate"):
        tf.nn.atrous_conv2d(X, W, 0, "SAME")
    with pytest.raises(ValueError, match="length 3, 4 or 5"):
        tf.nn.conv_transpose(X, w_t, [2, 10], 2)


def test_conv_gradients_to_second_order():
    check_grads(lambda x, w: tf.conv(x, w, [1, 1, 1, 1], "SAME"),
                (RNG.standard_normal((1, 3, 3, 2)), RNG.standard_normal((2, 2, 2, 2))), order=2)
    check_grads(lambda x, w: tf.nn.atrous_conv2d(x, w, 2, "SAME"),
                (RNG.standard_normal((1, 4, 4, 1)), RNG.standard_normal((2, 2, 1, 2))), order=2)


def _volume_patches(x, k, s):
    """VALID volume patches by loops."""
    out = [(n - kk) // ss + 1 for n, kk, ss in zip(x.shape[1:4], k, s)]
    return np.array([[[[x[b, d * s[0]:d * s[0] + k[0], r * s[1]:r * s[1] + k[1],
                          c * s[2]:c * s[2] + k[2]].ravel() for c in range(out[2])]
                        for r in range(out[1])] for d in range(out[0])]
                     for b in range(x.shape[0])])


def test_extract_volume_patches():
    x = RNG.standard_normal((2, 5, 4, 3, 2))
    got = tf.extract_volume_patches(x, [1, 2, 2, 2, 1], [1, 2, 1, 1, 1], "VALID").numpy()
    np.testing.assert_array_equal(got, _volume_patches(x, (2, 2, 2), (2, 1, 1)))
    same = tf.extract_volume_patches(x, [1, 3, 2, 2, 1], [1, 2, 2, 2, 1], "SAME")
    assert same.shape == (2, 3, 2, 2, 24)
    check_grads(lambda v: tf.extract_volume_patches(v, [1, 2, 2, 1, 1], [1, 1, 1, 1, 1],
                                                    "SAME"),
                (RNG.standard_normal((1, 3, 2, 2, 1)),), order=2)


@pytest.mark.parametrize("ksizes,padding", [([2, 2, 2], "VALID"), ([1, 2, 2, 2, 2], "VALID"),
                                            ([1, 2, 2, 2, 1], "FULL")])
def test_extract_volume_patches_errors(ksizes, padding):
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.extract_volume_patches(tf.ones([1, 3, 3, 3, 1]), ksizes, [1, 1, 1, 1, 1], padding)


@pytest.mark.parametrize("rate,padding", [([2, 2], "SAME"), ([2, 3], "VALID")])
def test_with_space_to_batch_is_a_dilated_convolution(rate, padding):
    op = lambda x, n, p: tf.nn.conv2d(x, W, 1, p)  # noqa: E731
    got = tf.nn.with_space_to_batch(X, rate, padding, op, filter_shape=W.shape[:2])
    np.testing.assert_allclose(got.numpy(), tf.nn.conv2d(X, W, 1, padding,
                                                         dilations=rate).numpy(), rtol=1e-5)


def test_with_space_to_batch_channels_first_and_errors():
    doubled = tf.nn.with_space_to_batch(X.transpose(0, 3, 1, 2), [2, 2], "VALID",
                                        lambda x, n, p: x * 2, data_format="NCHW")
    np.testing.assert_allclose(doubled.numpy(), X.transpose(0, 3, 1, 2) * 2)
    assert tf.nn.with_space_to_batch(X, [1, 1], "SAME", lambda x, n, p: (n, p)) == (2, "SAME")
    with pytest.raises(ValueError, match="filter_shape"):
        tf.nn.with_space_to_batch(X, [2, 2], "SAME", lambda x, n, p: x)


def test_conv_transpose_output_shape_list_holding_a_graph_batch_size():
    @tf.function(input_signature=[tf.TensorSpec([None, 3, 3, 2])])
    def f(x):
        return tf.nn.conv_transpose(x, tf.ones([3, 3, 4, 2]), [tf.shape(x)[0], 6, 6, 4], 2)

    out = f(tf.ones([2, 3, 3, 2]))
    assert out.shape == (2, 6, 6, 4)
    eager = tf.nn.conv_transpose(tf.ones([2, 3, 3, 2]), tf.ones([3, 3, 4, 2]), [2, 6, 6, 4], 2)
    assert tf.reduce_all(out == eager)
