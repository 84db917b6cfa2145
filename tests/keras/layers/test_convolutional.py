"""Conv2D, MaxPooling2D and AveragePooling2D against hand-written NumPy."""
import itertools

import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers
rng = np.random.default_rng(1)


def conv_valid(x, k):
    """out[n, i, j, f] = sum over a, b, c of x[n, i + a, j + b, c] * k[a, b, c, f]."""
    kh, kw = k.shape[:2]
    oh, ow = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    out = np.zeros((x.shape[0], oh, ow, k.shape[3]))
    for a in range(kh):
        for b in range(kw):
            out += x[:, a:a + oh, b:b + ow, :] @ k[a, b]
    return out


def test_conv2d_valid_output_and_gradients_match_numpy():
    x = rng.standard_normal((2, 6, 5, 3)).astype(np.float32)
    conv = layers.Conv2D(4, (3, 2), activation="relu", bias_initializer="random_normal")
    r = rng.standard_normal((2, 4, 4, 4)).astype(np.float32)
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        loss = tf.reduce_sum(conv(xt) * r)
    gx, gk, gb = tape.gradient(loss, [xt, conv.kernel, conv.bias])
    k, b = conv.kernel.numpy().astype(np.float64), conv.bias.numpy()
    z = conv_valid(x.astype(np.float64), k) + b
    upstream = r * (z > 0)
    np.testing.assert_allclose(float(loss), np.sum(np.maximum(z, 0) * r), rtol=1e-4)
    want_gk = np.zeros_like(k)
    want_gx = np.zeros(x.shape)
    for a in range(3):
        for c in range(2):
            patch = x[:, a:a + 4, c:c + 4, :]
            want_gk[a, c] = np.einsum("nijc,nijf->cf", patch, upstream)
            want_gx[:, a:a + 4, c:c + 4, :] += upstream @ k[a, c].T
    np.testing.assert_allclose(gk.numpy(), want_gk, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gb.numpy(), upstream.sum((0, 1, 2)), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gx.numpy(), want_gx, rtol=1e-4, atol=1e-4)


def test_conv2d_same_padding_and_strides_shapes():
    x = tf.constant(rng.standard_normal((1, 7, 7, 2)).astype(np.float32))
    assert layers.Conv2D(3, 3, padding="same")(x).shape == [1, 7, 7, 3]
    assert layers.Conv2D(3, 3, strides=2)(x).shape == [1, 3, 3, 3]
    ones = layers.Conv2D(1, 3, padding="same", kernel_initializer="ones", use_bias=False)
    out = ones(tf.constant(1.0, shape=[1, 3, 3, 1])).numpy()[0, :, :, 0]
    np.testing.assert_array_equal(out, [[4, 6, 4], [6, 9, 6], [4, 6, 4]])


def test_conv2d_bad_arguments_and_inputs():
    with pytest.raises(ValueError, match="filters"):
        layers.Conv2D(0, 3)
    with pytest.raises(ValueError, match="padding"):
        layers.Conv2D(1, 3, padding="full")
    with pytest.raises(ValueError, match="dilation_rate"):
        layers.Conv2D(1, 3, strides=2, dilation_rate=2)
    with pytest.raises(ValueError, match="channels_last"):
        layers.Conv2D(1, 3, data_format="NCHW")
    conv = layers.Conv2D(2, 3, name="conv")
    with pytest.raises(ValueError, match=r'"conv".*expected ndim=4, found ndim=3'):
        conv(tf.constant(0.0, shape=[8, 8, 1]))
    conv(tf.constant(0.0, shape=[1, 8, 8, 1]))
    with pytest.raises(ValueError, match=r"axis -1 of input shape to have value 1"):
        conv(tf.constant(0.0, shape=[1, 8, 8, 3]))


def test_pooling_outputs_and_gradients_match_numpy():
    x = rng.standard_normal((2, 4, 6, 3)).astype(np.float32)
    blocks = x.reshape(2, 2, 2, 3, 2, 3)                   # [n, i, a, j, b, c]
    xt = tf.constant(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xt)
        peak = layers.MaxPooling2D()(xt)
        mean = layers.AveragePooling2D()(xt)
        peak_sum, mean_sum = tf.reduce_sum(peak), tf.reduce_sum(mean)
    np.testing.assert_allclose(peak.numpy(), blocks.max((2, 4)), rtol=1e-6)
    np.testing.assert_allclose(mean.numpy(), blocks.mean((2, 4)), rtol=1e-6)
    is_max = (blocks == blocks.max((2, 4), keepdims=True)).reshape(x.shape)
    np.testing.assert_array_equal(tape.gradient(peak_sum, xt).numpy(), is_max.astype(np.float32))
    np.testing.assert_allclose(tape.gradient(mean_sum, xt).numpy(), np.full(x.shape, 0.25))


def test_pooling_strides_padding_and_input_rank():
    x = tf.constant(rng.standard_normal((1, 5, 5, 1)).astype(np.float32))
    assert layers.MaxPooling2D(pool_size=3, strides=1)(x).shape == [1, 3, 3, 1]
    assert layers.AveragePooling2D(padding="same")(x).shape == [1, 3, 3, 1]
    with pytest.raises(ValueError, match="pool_size"):
        layers.MaxPooling2D(pool_size=0)
    with pytest.raises(ValueError, match="expected ndim=4"):
        layers.MaxPooling2D()(tf.constant(0.0, shape=[5, 5]))


def _conv_same_numpy(x, kernel, stride):
    """TF's 'SAME' convolution: output ceil(n / stride); the extra padding goes after."""
    n, h, w, c = x.shape
    kh, kw, _, f = kernel.shape
    out_h, out_w = -(-h // stride), -(-w // stride)
    pad_h = max((out_h - 1) * stride + kh - h, 0)
    pad_w = max((out_w - 1) * stride + kw - w, 0)
    padded = np.pad(x, [(0, 0), (pad_h // 2, pad_h - pad_h // 2),
                        (pad_w // 2, pad_w - pad_w // 2), (0, 0)])
    out = np.zeros((n, out_h, out_w, f))
    for i in range(out_h):
        for j in range(out_w):
            window = padded[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            out[:, i, j, :] = np.tensordot(window, kernel, axes=([1, 2, 3], [0, 1, 2]))
    return out


@pytest.mark.parametrize("size", [6, 7])
def test_conv2d_same_padding_with_strides_matches_numpy(size):
    rng = np.random.default_rng(size)
    x = rng.standard_normal((2, size, size, 3)).astype(np.float32)
    conv = layers.Conv2D(4, 3, strides=2, padding="same", bias_initializer="ones")
    out = conv(x).numpy()
    expected = _conv_same_numpy(x.astype(np.float64), conv.kernel.numpy(), 2) + 1.0
    assert out.shape == (2, (size + 1) // 2, (size + 1) // 2, 4)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_channels_first_layers_match_channels_last_on_transposed_inputs():
    rng = np.random.default_rng(0)
    nhwc = rng.standard_normal((2, 6, 5, 3)).astype(np.float32)
    nchw = np.transpose(nhwc, [0, 3, 1, 2])
    last = layers.Conv2D(4, 3, strides=(2, 1), padding="same")
    first = layers.Conv2D(4, 3, strides=(2, 1), padding="same", data_format="channels_first")
    last(nhwc)
    first(nchw)
    assert first.kernel.shape == [3, 3, 3, 4]
    first.set_weights(last.get_weights())
    x = tf.constant(nchw)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = first(x)
    assert out.shape == [2, 4, 3, 5]
    np.testing.assert_allclose(out.numpy(), np.transpose(last(nhwc).numpy(), [0, 3, 1, 2]),
                               rtol=1e-5, atol=1e-6)
    x_last = tf.constant(nhwc)
    with tf.GradientTape() as tape_last:
        tape_last.watch(x_last)
        out_last = last(x_last)
    np.testing.assert_allclose(tape.gradient(out, x).numpy(),
                               np.transpose(tape_last.gradient(out_last, x_last).numpy(),
                                            [0, 3, 1, 2]), rtol=1e-5)
    pooled = layers.MaxPooling2D(data_format="channels_first")(nchw)
    np.testing.assert_array_equal(
        pooled.numpy(), np.transpose(layers.MaxPooling2D()(nhwc).numpy(), [0, 3, 1, 2]))
    flat = layers.Flatten(data_format="channels_first")(nchw)
    np.testing.assert_array_equal(flat.numpy(), nhwc.reshape(2, -1))
    with pytest.raises(ValueError, match=r"axis 1 of input shape to have value 3"):
        first(nhwc)


def _np_conv1d(x, k, dilation=1):
    """VALID 1-D convolution of [n, steps, c] with [taps, c, f]."""
    taps = k.shape[0]
    steps = x.shape[1] - (taps - 1) * dilation
    return sum(x[:, t * dilation:t * dilation + steps] @ k[t] for t in range(taps))


def test_conv1d_causal_dilated_grouped_matches_numpy_and_gradients_flow():
    x = rng.standard_normal((2, 7, 4)).astype(np.float32)
    conv = layers.Conv1D(6, 3, padding="causal", dilation_rate=2, groups=2,
                         bias_initializer="random_normal")
    y = conv(x).numpy()
    assert [w.name.split("/")[-1].split(":")[0] for w in conv.weights] == ["kernel", "bias"]
    assert conv.kernel.shape == [3, 2, 6] and conv.count_params() == 3 * 2 * 6 + 6
    k, b = conv.kernel.numpy(), conv.bias.numpy()
    padded = np.pad(x, ((0, 0), (4, 0), (0, 0)))
    want = np.concatenate([_np_conv1d(padded[..., :2], k[..., :3], 2),
                           _np_conv1d(padded[..., 2:], k[..., 3:], 2)], axis=-1) + b
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        out = conv(xt)[:, 3]                       # step 3 sees inputs 3, 1 and none after
    gx, gk, gb = tape.gradient(out, [xt, conv.kernel, conv.bias])
    assert np.abs(gx.numpy()[:, 4:]).sum() == 0 and np.abs(gx.numpy()[:, [1, 3]]).sum() > 0
    assert gk is not None and gb.numpy().tolist() == [2.0] * 6
    with pytest.raises(ValueError, match="groups"):
        layers.Conv1D(3, 2, groups=2)
    with pytest.raises(ValueError, match="groups"):
        layers.Conv1D(4, 2, groups=2)(np.zeros((1, 4, 3), np.float32))
    with pytest.raises(ValueError, match="causal"):
        layers.Conv2D(4, 2, padding="causal")


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_conv3d_matches_a_numpy_loop_in_both_layouts(data_format):
    x = rng.standard_normal((1, 4, 3, 5, 2)).astype(np.float32)
    conv = layers.Conv3D(3, (2, 2, 3), strides=(1, 1, 2), data_format=data_format,
                         bias_initializer="random_normal")
    inputs = x if data_format == "channels_last" else x.transpose(0, 4, 1, 2, 3)
    y = conv(inputs).numpy()
    if data_format == "channels_first":
        y = y.transpose(0, 2, 3, 4, 1)
    k = conv.kernel.numpy()
    want = np.zeros((1, 3, 2, 2, 3))
    for i, j, m in itertools.product(range(3), range(2), range(2)):
        window = x[:, i:i + 2, j:j + 2, 2 * m:2 * m + 3]
        want[:, i, j, m] = np.tensordot(window, k, axes=([1, 2, 3, 4], [0, 1, 2, 3])) \
            + conv.bias.numpy()
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
    assert conv.get_config()["kernel_size"] == (2, 2, 3)


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_conv_transpose_is_the_adjoint_of_conv_and_sizes_follow_keras(rank):
    cls = {1: layers.Conv1DTranspose, 2: layers.Conv2DTranspose, 3: layers.Conv3DTranspose}[rank]
    x = rng.standard_normal((2,) + (3,) * rank + (4,)).astype(np.float32)
    up = cls(2, 3, strides=2, padding="same", use_bias=False)
    y = up(x)
    assert y.shape == [2] + [6] * rank + [2]
    assert up.kernel.shape == [3] * rank + [2, 4]
    # <up(x), z> = <x, conv(z)> for the same kernel.
    z = rng.standard_normal(y.shape.as_list()).astype(np.float32)
    lhs = float(np.sum(y.numpy() * z))
    rhs = float(np.sum(x * tf.nn.convolution(z, up.kernel, strides=2, padding="SAME").numpy()))
    np.testing.assert_allclose(lhs, rhs, rtol=1e-4)
    assert cls(2, 3, strides=2)(x).shape == [2] + [7] * rank + [2]
    assert cls(2, 3, strides=2, padding="same", output_padding=1)(x).shape == \
        [2] + [6] * rank + [2]
    with pytest.raises(ValueError, match="output padding"):
        cls(2, 3, strides=2, output_padding=2)


def test_depthwise_and_separable_layers_match_per_channel_numpy():
    x = rng.standard_normal((2, 5, 5, 3)).astype(np.float32)
    depthwise = layers.DepthwiseConv2D(3, depth_multiplier=2, bias_initializer="ones")
    y = depthwise(x).numpy()
    assert [w.shape for w in depthwise.weights] == [[3, 3, 3, 2], [6]]
    k = depthwise.kernel.numpy()
    for c, m in itertools.product(range(3), range(2)):
        want = conv_valid(x[..., c:c + 1].astype(np.float64), k[:, :, c:c + 1, m:m + 1]) + 1
        np.testing.assert_allclose(y[..., 2 * c + m:2 * c + m + 1], want, rtol=1e-4, atol=1e-5)
    separable = layers.SeparableConv2D(4, 3, depth_multiplier=2)
    out = separable(x).numpy()
    assert [w.name.split("/")[-1].split(":")[0] for w in separable.weights] == \
        ["depthwise_kernel", "pointwise_kernel", "bias"]
    depth = tf.nn.depthwise_conv2d(x, separable.depthwise_kernel, [1, 1, 1, 1], "VALID")
    np.testing.assert_allclose(out, depth.numpy() @ separable.pointwise_kernel.numpy()[0, 0],
                               rtol=1e-4, atol=1e-5)
    seq = layers.SeparableConv1D(2, 2)
    assert seq(x[:, 0]).shape == [2, 4, 2]
    assert layers.DepthwiseConv1D(2)(x[:, 0]).shape == [2, 4, 3]
    config = separable.get_config()
    assert config["depth_multiplier"] == 2 and "depthwise_initializer" in config
    assert "kernel_initializer" not in config
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        total = tf.reduce_sum(separable(xt))
    grads = tape.gradient(total, [xt] + separable.trainable_weights)
    assert all(g is not None and np.abs(g.numpy()).sum() > 0 for g in grads)


def test_convolutions_trace_with_an_unknown_batch_size():
    for layer, shape in [(layers.Conv1D(2, 2, padding="causal"), [None, 5, 3]),
                         (layers.SeparableConv1D(2, 2), [None, 5, 3]),
                         (layers.Conv2DTranspose(2, 3, strides=2), [None, 4, 4, 3])]:
        traced = tf.function(layer, input_signature=[tf.TensorSpec(shape)])
        x = rng.standard_normal([2] + shape[1:]).astype(np.float32)
        np.testing.assert_allclose(traced(x).numpy(), layer(x).numpy(), rtol=1e-6)
