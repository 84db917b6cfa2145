"""Convolution and pooling: values against direct loops, shapes, TF's tie and padding rules."""
import itertools

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import errors

rng = np.random.default_rng(3)


def same_pads(size, k, s, d):
    total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def loop_conv2d(x, w, strides, pads, dilations=(1, 1)):
    """Direct definition: out[n,i,j,o] = sum x_padded[n, i*s + a*d, j*s + b*d, c] w[a,b,c,o]."""
    (sh, sw), (dh, dw) = strides, dilations
    xp = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    kh, kw, _, o = w.shape
    oh = (xp.shape[1] - (kh - 1) * dh - 1) // sh + 1
    ow = (xp.shape[2] - (kw - 1) * dw - 1) // sw + 1
    out = np.zeros((x.shape[0], oh, ow, o))
    for n, i, j in itertools.product(range(x.shape[0]), range(oh), range(ow)):
        for a, b in itertools.product(range(kh), range(kw)):
            out[n, i, j] += xp[n, i * sh + a * dh, j * sw + b * dw] @ w[a, b]
    return out


def loop_pool(x, k, s, pads, reduce):
    """Pooling over the windows, ignoring padded positions."""
    n, h, w, c = x.shape
    oh = (h + sum(pads[0]) - k[0]) // s[0] + 1
    ow = (w + sum(pads[1]) - k[1]) // s[1] + 1
    out = np.zeros((n, oh, ow, c))
    for i, j in itertools.product(range(oh), range(ow)):
        r0, c0 = i * s[0] - pads[0][0], j * s[1] - pads[1][0]
        window = x[:, max(r0, 0):r0 + k[0], max(c0, 0):c0 + k[1]]
        out[:, i, j] = reduce(window.reshape(n, -1, c), axis=1)
    return out


CONV_CASES = [  # (input shape, filter shape, strides, padding, dilations)
    ((2, 7, 6, 3), (3, 3, 3, 4), (1, 1), "SAME", (1, 1)),
    ((2, 7, 6, 3), (3, 2, 3, 2), (2, 2), "SAME", (1, 1)),
    ((1, 8, 8, 2), (3, 3, 2, 2), (2, 3), "VALID", (1, 1)),
    ((1, 9, 9, 1), (3, 3, 1, 2), (1, 1), "SAME", (2, 2)),
    ((1, 9, 7, 2), (2, 3, 2, 1), (1, 1), "VALID", (3, 2)),
    ((2, 5, 5, 1), (4, 4, 1, 3), (3, 3), "SAME", (1, 1)),
    ((1, 5, 6, 2), (3, 3, 2, 2), (2, 1), [[0, 0], [2, 0], [1, 3], [0, 0]], (1, 1)),
]


def resolve(padding, x_shape, w_shape, strides, dilations):
    if padding == "VALID":
        return (0, 0), (0, 0)
    if padding == "SAME":
        return tuple(same_pads(x_shape[i + 1], w_shape[i], strides[i], dilations[i])
                     for i in range(2))
    return tuple(tuple(p) for p in padding[1:3])


@pytest.mark.parametrize("x_shape,w_shape,strides,padding,dilations", CONV_CASES)
def test_conv2d_matches_direct_loop(x_shape, w_shape, strides, padding, dilations):
    x, w = rng.standard_normal(x_shape), rng.standard_normal(w_shape)
    pads = resolve(padding, x_shape, w_shape, strides, dilations)
    got = tf.nn.conv2d(x, w, strides=list(strides), padding=padding, dilations=list(dilations))
    np.testing.assert_allclose(got.numpy(), loop_conv2d(x, w, strides, pads, dilations),
                               atol=1e-12)


@pytest.mark.parametrize("x_shape,w_shape,strides,padding,dilations", CONV_CASES)
def test_conv2d_gradients_are_the_adjoints_of_the_loop(x_shape, w_shape, strides, padding,
                                                       dilations):
    x, w = tf.constant(rng.standard_normal(x_shape)), tf.constant(rng.standard_normal(w_shape))
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.conv2d(x, w, strides=list(strides), padding=padding,
                         dilations=list(dilations))
    upstream = rng.standard_normal(y.shape.as_list())
    gx, gw = tape.gradient(y, [x, w], output_gradients=tf.constant(upstream))
    pads = resolve(padding, x_shape, w_shape, strides, dilations)
    dx, dw = rng.standard_normal(x_shape), rng.standard_normal(w_shape)
    # The loop is bilinear: <upstream, conv(dx, w)> = <gx, dx> and likewise for w.
    assert np.sum(gx.numpy() * dx) == pytest.approx(
        np.sum(upstream * loop_conv2d(dx, w.numpy(), strides, pads, dilations)), rel=1e-10)
    assert np.sum(gw.numpy() * dw) == pytest.approx(
        np.sum(upstream * loop_conv2d(x.numpy(), dw, strides, pads, dilations)), rel=1e-10)


@pytest.mark.parametrize("size,k,s,d", [(7, 3, 1, 1), (7, 3, 2, 1), (8, 3, 3, 1), (9, 3, 1, 2),
                                        (5, 1, 2, 1), (4, 5, 1, 1)])
def test_output_sizes_follow_tf(size, k, s, d):
    x, w = np.zeros((1, size, size, 1)), np.zeros((k, k, 1, 1))
    same = tf.nn.conv2d(x, w, s, "SAME", dilations=d).shape[1]
    assert same == -(-size // s)
    effective = (k - 1) * d + 1
    if size >= effective:
        valid = tf.nn.conv2d(x, w, s, "VALID", dilations=d)
        assert valid.shape[1] == -(-(size - effective + 1) // s)


def test_nchw_is_nhwc_transposed():
    x, w = rng.standard_normal((2, 6, 5, 3)), rng.standard_normal((3, 3, 3, 2))
    nhwc = tf.nn.conv2d(x, w, [1, 2, 1, 1], "SAME").numpy()
    nchw = tf.nn.conv2d(x.transpose(0, 3, 1, 2), w, [1, 1, 2, 1], "SAME", data_format="NCHW")
    np.testing.assert_allclose(nchw.numpy(), nhwc.transpose(0, 3, 1, 2), atol=1e-12)
    pooled = tf.nn.max_pool2d(x.transpose(0, 3, 1, 2), 2, 2, "VALID", data_format="NCHW")
    np.testing.assert_array_equal(pooled.numpy(),
                                  tf.nn.max_pool2d(x, 2, 2, "VALID").numpy().transpose(0, 3, 1, 2))


def test_conv1d_matches_direct_loop():
    x, w = rng.standard_normal((2, 9, 3)), rng.standard_normal((3, 3, 4))
    got = tf.nn.conv1d(x, w, stride=2, padding="SAME")
    expected = loop_conv2d(x[:, None], w[None], (1, 2), ((0, 0), same_pads(9, 3, 2, 1)))[:, 0]
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-12)
    ncw = tf.nn.conv1d(x.transpose(0, 2, 1), w, stride=2, padding="SAME", data_format="NCW")
    np.testing.assert_allclose(ncw.numpy(), expected.transpose(0, 2, 1), atol=1e-12)


def test_conv2d_transpose_is_the_input_gradient_of_conv2d():
    w = rng.standard_normal((3, 3, 2, 4))
    y = rng.standard_normal((2, 3, 4, 4))
    x = tf.constant(np.zeros((2, 5, 7, 2)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.nn.conv2d(x, w, 2, "SAME")
    expected = tape.gradient(out, x, output_gradients=tf.constant(y)).numpy()
    got = tf.nn.conv2d_transpose(y, w, output_shape=[2, 5, 7, 2], strides=2, padding="SAME")
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-12)


def test_integer_inputs_where_tf_takes_them():
    x = np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1)
    y = tf.nn.conv2d(x, np.ones((2, 2, 1, 1), np.int32), 1, "VALID")
    assert y.dtype == tf.int32 and y.numpy()[0, 0, 0, 0] == 0 + 1 + 4 + 5
    pooled = tf.nn.max_pool2d(x, 2, 2, "SAME")
    assert pooled.dtype == tf.int32 and pooled.numpy().ravel().tolist() == [5, 7, 13, 15]


def test_float32_stays_float32():
    x = rng.standard_normal((1, 4, 4, 2)).astype(np.float32)
    w = rng.standard_normal((2, 2, 2, 3)).astype(np.float32)
    assert tf.nn.conv2d(x, w, 1, "SAME").dtype == tf.float32
    assert tf.nn.max_pool2d(x, 2, 2, "SAME").dtype == tf.float32
    assert tf.nn.avg_pool2d(x, 2, 2, "SAME").dtype == tf.float32
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.avg_pool2d(xt, 2, 1, "SAME") + tf.nn.max_pool2d(xt, 2, 1, "SAME")
    assert tape.gradient(y, xt).dtype == tf.float32


@pytest.mark.parametrize("k,s,padding", [((2, 2), (2, 2), "VALID"), ((3, 3), (2, 2), "SAME"),
                                         ((2, 3), (1, 2), "SAME"), ((3, 2), (1, 1), "VALID")])
def test_pools_match_direct_loops(k, s, padding):
    x = rng.standard_normal((2, 7, 6, 3))
    pads = ((0, 0), (0, 0)) if padding == "VALID" else tuple(
        same_pads(x.shape[i + 1], k[i], s[i], 1) for i in range(2))
    np.testing.assert_array_equal(tf.nn.max_pool2d(x, list(k), list(s), padding).numpy(),
                                  loop_pool(x, k, s, pads, np.max))
    np.testing.assert_allclose(tf.nn.avg_pool2d(x, list(k), list(s), padding).numpy(),
                               loop_pool(x, k, s, pads, np.mean), atol=1e-12)


def max_pool_gradient(image):
    x = tf.constant(np.array(image)[None, :, :, None])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 1, "VALID")
    return tape.gradient(y, x).numpy()[0, :, :, 0]


def test_max_pool_gradient_goes_to_the_first_maximum_and_accumulates():
    # Two windows of equal values: each tie goes to its first element in row-major order.
    np.testing.assert_array_equal(max_pool_gradient([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]),
                                  [[1, 1, 0], [0, 0, 0]])
    # Both windows hold the 5: its gradient is the sum of theirs.
    np.testing.assert_array_equal(max_pool_gradient([[0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]),
                                  [[0, 2, 0], [0, 0, 0]])


def test_avg_pool_same_padding_counts_only_inputs_and_gradient_splits_evenly():
    x = tf.constant(np.arange(9.0).reshape(1, 3, 3, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.avg_pool2d(x, 2, 2, "SAME")
    np.testing.assert_allclose(y.numpy()[0, :, :, 0], [[2.0, 3.5], [6.5, 8.0]])
    np.testing.assert_allclose(tape.gradient(y, x).numpy()[0, :, :, 0],
                               [[0.25, 0.25, 0.5], [0.25, 0.25, 0.5], [0.5, 0.5, 1.0]])


def test_second_order_through_max_pool_and_conv():
    x = tf.constant(rng.standard_normal((1, 4, 4, 1)))
    w = tf.constant(rng.standard_normal((2, 2, 1, 1)))
    with tf.GradientTape() as outer:
        outer.watch(w)
        with tf.GradientTape() as inner:
            inner.watch(w)
            y = tf.nn.conv2d(x, w, 1, "VALID")
            loss = tf.reduce_sum(tf.nn.max_pool2d(y * y, 2, 1, "VALID"))
        total = tf.reduce_sum(inner.gradient(loss, w))
    h = outer.gradient(total, w)
    assert h.shape == [2, 2, 1, 1] and np.all(np.isfinite(h.numpy())) and np.any(h.numpy())


# -- errors ---------------------------------------------------------------------------------
def test_invalid_padding_strings_and_lists():
    x, w = np.zeros((1, 4, 4, 1)), np.zeros((2, 2, 1, 1))
    with pytest.raises(errors.InvalidArgumentError, match="Conv2D.*'same'.*allowed"):
        tf.nn.conv2d(x, w, 1, "same")
    with pytest.raises(errors.InvalidArgumentError, match="MaxPool.*'FULL'"):
        tf.nn.max_pool2d(x, 2, 1, "FULL")
    with pytest.raises(TypeError, match="AvgPool"):
        tf.nn.avg_pool2d(x, 2, 1, [[0, 0], [1, 1], [1, 1], [0, 0]])
    with pytest.raises(ValueError, match="EXPLICIT"):
        tf.nn.conv2d(x, w, 1, "EXPLICIT")
    with pytest.raises(ValueError, match="4"):
        tf.nn.conv2d(x, w, 1, [[1, 1], [1, 1]])
    with pytest.raises(errors.InvalidArgumentError, match="batch and depth"):
        tf.nn.conv2d(x, w, 1, [[1, 0], [1, 1], [1, 1], [0, 0]])


def test_shape_and_rank_errors_name_op_and_shapes():
    x = np.zeros((1, 4, 4, 3))
    with pytest.raises(errors.InvalidArgumentError, match=r"Conv2D.*3 vs 2.*\[1, 4, 4, 3\]"):
        tf.nn.conv2d(x, np.zeros((2, 2, 2, 1)), 1, "SAME")
    with pytest.raises(errors.InvalidArgumentError, match=r"4-dimensional.*\[4, 4, 3\]"):
        tf.nn.conv2d(x[0], np.zeros((2, 2, 3, 1)), 1, "SAME")
    with pytest.raises(errors.InvalidArgumentError, match="MaxPool.*4-dimensional"):
        tf.nn.max_pool2d(x[0], 2, 2, "VALID")
    with pytest.raises(errors.InvalidArgumentError, match="output size"):
        tf.nn.conv2d(x, np.zeros((6, 6, 3, 1)), 1, "VALID")
    # An output size of 0 is an empty result, as in TF (C++ division truncates toward 0).
    assert tf.nn.conv2d(x, np.zeros((5, 5, 3, 1)), 1, "VALID").shape == [1, 0, 0, 1]
    assert tf.nn.conv2d(x, np.zeros((7, 7, 3, 1)), 2, "VALID").shape == [1, 0, 0, 1]
    assert tf.nn.max_pool2d(x, 5, 1, "VALID").shape == [1, 0, 0, 3]
    with pytest.raises(ValueError, match="length 1, 2 or 4"):
        tf.nn.conv2d(x, np.zeros((2, 2, 3, 1)), [1, 1, 1], "SAME")
    with pytest.raises(errors.UnimplementedError, match="batch and depth"):
        tf.nn.max_pool2d(x, [2, 2, 2, 2], 1, "VALID")
    with pytest.raises(errors.UnimplementedError, match="strides in the batch"):
        tf.nn.conv2d(x, np.zeros((2, 2, 3, 1)), [2, 1, 1, 1], "SAME")
    with pytest.raises(errors.InvalidArgumentError, match="data_format"):
        tf.nn.conv2d(x, np.zeros((2, 2, 3, 1)), 1, "SAME", data_format="NHCW")
    with pytest.raises(errors.InvalidArgumentError, match="int64"):
        tf.nn.conv2d(tf.constant(np.zeros((1, 4, 4, 3), np.int64)),
                     tf.constant(np.zeros((2, 2, 3, 1), np.int64)), 1, "SAME")
    with pytest.raises(errors.InvalidArgumentError, match="AvgPool.*int32"):
        tf.nn.avg_pool2d(tf.constant(np.zeros((1, 4, 4, 3), np.int32)), 2, 1, "SAME")
    with pytest.raises(errors.InvalidArgumentError, match="Conv2DBackpropInput.*output_shape"):
        tf.nn.conv2d_transpose(np.zeros((1, 2, 2, 1)), np.zeros((3, 3, 1, 1)), [1, 9, 9, 1], 2)
    with pytest.raises(errors.InvalidArgumentError, match="groups.*4 vs 2"):
        tf.nn.conv2d(np.zeros((1, 4, 4, 4)), np.zeros((2, 2, 2, 3)), 1, "SAME")


def _np_pool1d(x, k, s, reduce):
    """VALID 1-D pooling of NWC `x` in NumPy."""
    starts = range(0, x.shape[1] - k + 1, s)
    return np.stack([reduce(x[:, i:i + k], axis=1) for i in starts], axis=1)


@pytest.mark.parametrize("k,s", [(2, 1), (3, 2), (1, 1)])
def test_pool1d_matches_numpy(k, s):
    x = np.random.default_rng(0).normal(size=(2, 7, 3))
    np.testing.assert_allclose(tf.nn.max_pool1d(tf.constant(x), k, s, "VALID").numpy(),
                               _np_pool1d(x, k, s, np.max))
    np.testing.assert_allclose(tf.nn.avg_pool1d(tf.constant(x), [k], [1, s, 1], "VALID").numpy(),
                               _np_pool1d(x, k, s, np.mean))
    np.testing.assert_allclose(tf.nn.max_pool(tf.constant(x), k, s, "VALID").numpy(),
                               _np_pool1d(x, k, s, np.max))
    first = tf.nn.avg_pool1d(tf.constant(x.transpose(0, 2, 1)), k, s, "VALID",
                             data_format="NCW")
    np.testing.assert_allclose(first.numpy().transpose(0, 2, 1), _np_pool1d(x, k, s, np.mean))


def test_pool1d_same_and_explicit_padding():
    x = tf.reshape(tf.constant([1.0, 2.0, 3.0, 5.0]), [1, 4, 1])
    np.testing.assert_allclose(tf.nn.avg_pool1d(x, 2, 1, "SAME").numpy().ravel(),
                               [1.5, 2.5, 4.0, 5.0])  # TF's values
    out = tf.nn.max_pool1d(-x, 2, 1, [[0, 0], [1, 0], [0, 0]])
    np.testing.assert_array_equal(out.numpy().ravel(), [-1.0, -1.0, -2.0, -3.0])


def test_nd_pool_dispatches_on_rank():
    x = np.random.default_rng(1).normal(size=(1, 4, 4, 2))
    np.testing.assert_array_equal(tf.nn.max_pool(tf.constant(x), 2, 2, "VALID").numpy(),
                                  tf.nn.max_pool2d(tf.constant(x), 2, 2, "VALID").numpy())
    np.testing.assert_array_equal(tf.nn.avg_pool(tf.constant(x), 2, 1, "SAME").numpy(),
                                  tf.nn.avg_pool2d(tf.constant(x), 2, 1, "SAME").numpy())
    assert tf.nn.avg_pool(tf.ones([1, 4, 2]), 2, 2, "VALID").shape == (1, 2, 2)
    with pytest.raises(ValueError, match="rank"):
        tf.nn.max_pool(tf.ones([4, 1]), 2, 2, "VALID")
    assert tf.nn.avg_pool(tf.ones([1, 4, 4, 4, 1]), 2, 2, "VALID").shape == (1, 2, 2, 2, 1)
    with pytest.raises(errors.InvalidArgumentError, match="3-D"):
        tf.nn.max_pool1d(tf.ones([1, 4, 4, 1]), 2, 2, "VALID")


def loop_conv_nd(x, w, strides, pads, dilations):
    """Direct N-d grouped convolution: out[n, *o, f] = sum over taps and the channels of f's
    group of x_padded[n, *(o * s + k * d), c] w[*k, c, f]."""
    nd = x.ndim - 2
    xp = np.pad(x, ((0, 0), *pads, (0, 0)))
    kernel, per_group, filters = w.shape[:nd], w.shape[-2], w.shape[-1]
    groups = x.shape[-1] // per_group
    out_sizes = [(xp.shape[1 + i] - (kernel[i] - 1) * dilations[i] - 1) // strides[i] + 1
                 for i in range(nd)]
    out = np.zeros((x.shape[0], *out_sizes, filters))
    per_out = filters // groups
    for o in itertools.product(*map(range, out_sizes)):
        for k in itertools.product(*map(range, kernel)):
            at = tuple(o[i] * strides[i] + k[i] * dilations[i] for i in range(nd))
            for g in range(groups):
                patch = xp[(slice(None), *at, slice(g * per_group, (g + 1) * per_group))]
                out[(slice(None), *o, slice(g * per_out, (g + 1) * per_out))] += \
                    patch @ w[k][:, g * per_out:(g + 1) * per_out]
    return out


ND_CASES = [  # (input shape, filter shape, strides, padding, dilations)
    ((2, 5, 4, 6, 2), (2, 3, 2, 2, 3), (1, 1, 1), "VALID", (1, 1, 1)),
    ((1, 5, 5, 4, 1), (3, 3, 2, 1, 2), (2, 1, 2), "SAME", (1, 1, 1)),
    ((1, 6, 5, 5, 2), (2, 2, 2, 2, 2), (1, 1, 1), "VALID", (2, 1, 2)),
    ((1, 4, 4, 4, 4), (3, 3, 3, 2, 4), (1, 2, 1), "SAME", (1, 1, 1)),  # 2 groups
]


@pytest.mark.parametrize("x_shape,w_shape,strides,padding,dilations", ND_CASES)
def test_conv3d_and_its_gradients_match_the_direct_loop(x_shape, w_shape, strides, padding,
                                                        dilations):
    x, w = rng.standard_normal(x_shape), rng.standard_normal(w_shape)
    pads = [(0, 0)] * 3 if padding == "VALID" else [
        same_pads(x_shape[i + 1], w_shape[i], strides[i], dilations[i]) for i in range(3)]
    want = loop_conv_nd(x, w, strides, pads, dilations)
    xt, wt = tf.constant(x), tf.constant(w)
    with tf.GradientTape() as tape:
        tape.watch([xt, wt])
        y = tf.nn.conv3d(xt, wt, [1, *strides, 1], padding, dilations=[1, *dilations, 1])
    np.testing.assert_allclose(y.numpy(), want, atol=1e-12)
    g = rng.standard_normal(want.shape)
    gx, gw = tape.gradient(y, [xt, wt], output_gradients=tf.constant(g))
    # The adjoint identity <g, conv(x, w)> = <gx, x> = <gw, w> (conv is bilinear).
    np.testing.assert_allclose(np.sum(gx.numpy() * x), np.sum(g * want), rtol=1e-10)
    np.testing.assert_allclose(np.sum(gw.numpy() * w), np.sum(g * want), rtol=1e-10)


@pytest.mark.parametrize("groups", [2, 3])
def test_grouped_conv2d_is_one_convolution_per_group(groups):
    x = rng.standard_normal((2, 5, 6, 2 * groups))
    w = rng.standard_normal((3, 2, 2, 2 * groups))
    got = tf.nn.conv2d(x, w, [1, 2], "SAME").numpy()
    per_group = [tf.nn.conv2d(x[..., 2 * g:2 * g + 2], w[..., 2 * g:2 * g + 2], [1, 2],
                              "SAME").numpy() for g in range(groups)]
    np.testing.assert_allclose(got, np.concatenate(per_group, axis=-1), atol=1e-12)


def test_depthwise_and_separable_conv2d_match_per_channel_convolutions():
    x, w = rng.standard_normal((2, 6, 5, 3)), rng.standard_normal((3, 3, 3, 2))
    got = tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME", dilations=[2, 1]).numpy()
    for c in range(3):
        want = tf.nn.conv2d(x[..., c:c + 1], w[:, :, c:c + 1, :], 1, "SAME",
                            dilations=[2, 1]).numpy()
        np.testing.assert_allclose(got[..., 2 * c:2 * c + 2], want, atol=1e-12)
    pointwise = rng.standard_normal((1, 1, 6, 4))
    separable = tf.nn.separable_conv2d(x, w, pointwise, [1, 1, 1, 1], "SAME", dilations=[2, 1])
    np.testing.assert_allclose(separable.numpy(), got @ pointwise[0, 0], atol=1e-12)
    nchw = tf.nn.depthwise_conv2d(x.transpose(0, 3, 1, 2), w, [1, 1, 1, 1], "SAME",
                                  data_format="NCHW", dilations=[2, 1])
    np.testing.assert_allclose(nchw.numpy().transpose(0, 2, 3, 1), got, atol=1e-12)
    with pytest.raises(errors.InvalidArgumentError, match="DepthwiseConv2dNative.*same depth"):
        tf.nn.depthwise_conv2d(x, w[:, :, :2], [1, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="pointwise"):
        tf.nn.separable_conv2d(x, w, pointwise[0], [1, 1, 1, 1], "SAME")


@pytest.mark.parametrize("rank", [3, 4, 5])
def test_transposed_convolutions_are_the_adjoints_of_the_convolutions(rank):
    nd = rank - 2
    x = rng.standard_normal((2,) + (5,) * nd + (3,))
    w = rng.standard_normal((3,) * nd + (3, 4))
    conv = {1: tf.nn.conv1d, 2: tf.nn.conv2d, 3: tf.nn.conv3d}[nd]
    transpose = {1: tf.nn.conv1d_transpose, 2: tf.nn.conv2d_transpose,
                 3: tf.nn.conv3d_transpose}[nd]
    y = conv(x, w, [1] + [2] * nd + [1], "SAME")
    g = rng.standard_normal(y.shape.as_list())
    back = transpose(g, w, list(x.shape), [2] * nd, "SAME")
    np.testing.assert_allclose(np.sum(back.numpy() * x), np.sum(g * y.numpy()), rtol=1e-10)
    with pytest.raises(errors.InvalidArgumentError, match="doesn't match"):
        transpose(g, w, [2] + [9] * nd + [3], [2] * nd, "SAME")


def loop_pool_nd(x, k, s, pads, reduce):
    """Pooling over windows, ignoring padded positions, in any number of dimensions."""
    nd = x.ndim - 2
    out_sizes = [(x.shape[1 + i] + sum(pads[i]) - k[i]) // s[i] + 1 for i in range(nd)]
    out = np.zeros((x.shape[0], *out_sizes, x.shape[-1]))
    for o in itertools.product(*map(range, out_sizes)):
        starts = [o[i] * s[i] - pads[i][0] for i in range(nd)]
        window = x[(slice(None), *(slice(max(a, 0), a + k[i]) for i, a in enumerate(starts)))]
        out[(slice(None), *o)] = reduce(window.reshape(x.shape[0], -1, x.shape[-1]), axis=1)
    return out


@pytest.mark.parametrize("k,s,padding", [((2, 2, 2), (2, 2, 2), "VALID"),
                                         ((3, 2, 2), (1, 2, 1), "SAME"),
                                         ((1, 3, 2), (2, 1, 1), "SAME")])
def test_pool3d_matches_the_direct_loop(k, s, padding):
    x = rng.standard_normal((2, 4, 5, 3, 2))
    pads = [(0, 0)] * 3 if padding == "VALID" else [
        same_pads(x.shape[i + 1], k[i], s[i], 1) for i in range(3)]
    np.testing.assert_allclose(tf.nn.max_pool3d(x, k, s, padding).numpy(),
                               loop_pool_nd(x, k, s, pads, np.max))
    np.testing.assert_allclose(tf.nn.avg_pool3d(x, k, s, padding).numpy(),
                               loop_pool_nd(x, k, s, pads, np.mean), atol=1e-12)
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        total = tf.reduce_sum(tf.nn.max_pool3d(xt, 2, 2, "VALID"))
    blocks = x[:, :4, :4, :2].reshape(2, 2, 2, 2, 2, 1, 2, 2)
    is_max = blocks == blocks.max(axis=(2, 4, 6), keepdims=True)
    want = np.zeros(x.shape)
    want[:, :4, :4, :2] = is_max.reshape(2, 4, 4, 2, 2)
    np.testing.assert_array_equal(tape.gradient(total, xt).numpy(), want)


def test_convolution_and_pool_dispatch_on_rank_and_reject_what_tf_rejects():
    x3, x5 = rng.standard_normal((1, 6, 2)), rng.standard_normal((1, 4, 4, 4, 2))
    np.testing.assert_allclose(tf.nn.convolution(x3, np.ones((2, 2, 3))).numpy(),
                               tf.nn.conv1d(x3, np.ones((2, 2, 3)), 1, "VALID").numpy())
    np.testing.assert_allclose(
        tf.nn.convolution(x5, np.ones((2, 2, 2, 2, 1)), strides=2).numpy(),
        tf.nn.conv3d(x5, np.ones((2, 2, 2, 2, 1)), [1, 2, 2, 2, 1], "VALID").numpy())
    np.testing.assert_allclose(tf.nn.pool(x5, [2, 2, 2], "MAX", strides=[2, 2, 2]).numpy(),
                               tf.nn.max_pool3d(x5, 2, 2, "VALID").numpy())
    np.testing.assert_allclose(tf.nn.pool(x3, [3], "AVG", padding="SAME").numpy(),
                               tf.nn.avg_pool1d(x3, 3, 1, "SAME").numpy())
    with pytest.raises(ValueError, match="rank"):
        tf.nn.convolution(np.ones((2, 2)), np.ones((1, 1)))
    with pytest.raises(ValueError, match="pooling_type"):
        tf.nn.pool(x3, [2], "MIN")
    with pytest.raises(ValueError, match="SAME"):
        tf.nn.pool(x3, [2], "MAX", padding="SAME", dilations=[2])
    with pytest.raises(errors.UnimplementedError, match="dilated"):
        tf.nn.pool(x3, [2], "MAX", dilations=[2])
    with pytest.raises(TypeError, match="string"):
        tf.nn.conv3d(x5, np.ones((2, 2, 2, 2, 1)), 1, [[0, 0]] * 5)
    with pytest.raises(TypeError, match="string"):
        tf.nn.max_pool3d(x5, 2, 2, [[0, 0]] * 5)
    with pytest.raises(errors.InvalidArgumentError, match="NDHWC"):
        tf.nn.conv3d(x5, np.ones((2, 2, 2, 2, 1)), 1, "SAME", data_format="NHWC")


@pytest.mark.parametrize("nd, size, channels, out_channels, k, s, d, pads, groups", [
    (1, 7, 4, 6, 3, 1, 1, "valid", 1), (2, 6, 4, 5, 3, 2, 1, "pad", 1),
    (2, 7, 4, 4, 2, 3, 2, "pad", 1), (3, 5, 2, 3, 3, 2, 1, "valid", 1),
    (2, 6, 4, 6, 3, 2, 1, "pad", 2), (2, 5, 3, 6, 3, 1, 1, "valid", 3),
    (1, 5, 2, 2, 4, 3, 1, "pad", 1), (2, 4, 1, 8, 3, 2, 1, "pad", 1)])
def test_input_gradient_by_scatter_equals_the_windowed_one(nd, size, channels, out_channels,
                                                           k, s, d, pads, groups):
    """The two ways the input gradient (and conv_transpose) is computed: windows of the
    spread gradient against the flipped kernel, or one matmul then each tap's block added
    at its offset (taken when the input has fewer channels). They agree to rounding."""
    from tapeflow.ops import conv_kernels
    rng = np.random.default_rng(nd * 100 + size)
    kernel, strides, dilations = (k,) * nd, (s,) * nd, (d,) * nd
    pads = ((0, 0),) * nd if pads == "valid" else ((1, 2),) * nd
    filters = rng.standard_normal(kernel + (channels // groups, out_channels))
    input_sizes = (2,) + (size,) * nd + (channels,)
    out = conv_kernels.output_sizes(input_sizes[1:-1], kernel, strides, dilations, pads)
    g = rng.standard_normal((2,) + out + (out_channels,))
    scattered = conv_kernels._scatter_backprop_input(filters, g, input_sizes, strides,
                                                     dilations, pads)
    per_group = channels // groups
    spread = conv_kernels._spread(g, input_sizes[1:-1], kernel, strides, dilations, pads)
    adjoint = filters[(slice(None, None, -1),) * nd] \
        .reshape(kernel + (per_group, groups, out_channels // groups)).swapaxes(-3, -1) \
        .reshape(kernel + (out_channels // groups, channels))
    windowed = conv_kernels._correlate(
        conv_kernels._windows(spread, kernel, (1,) * nd, dilations), adjoint)
    assert scattered.shape == windowed.shape == input_sizes
    np.testing.assert_allclose(scattered, windowed, rtol=1e-12, atol=1e-12)


def _windowed_ops(x, w):
    with tf.GradientTape() as tape:
        tape.watch(x)
        outputs = (tf.nn.conv2d(x, w, 2, "SAME"), tf.nn.max_pool2d(x, 3, 2, "SAME"),
                   tf.nn.avg_pool2d(x, 2, 2, "SAME"), tf.nn.conv2d(x, w, 1, "VALID"))
        loss = sum(tf.reduce_sum(y * y) for y in outputs)
    return outputs + (tape.gradient(loss, x),)


def test_same_padding_of_sizes_unknown_while_the_graph_is_built_resolves_when_it_runs():
    # TF: with input_signature [3, None, None, 3] the outputs are [3, None, None, C] and one
    # graph gives eager's values for each spatial size it is run with
    w = tf.constant(np.linspace(-1, 1, 2 * 3 * 3 * 4, dtype=np.float32).reshape(2, 3, 3, 4))
    f = tf.function(lambda x: _windowed_ops(x, w),
                    input_signature=[tf.TensorSpec([3, None, None, 3], tf.float32)])
    shapes = [y.shape.as_list() for y in f.get_concrete_function().structured_outputs]
    assert shapes == [[3, None, None, 4], [3, None, None, 3], [3, None, None, 3],
                      [3, None, None, 4], [3, None, None, 3]]
    for size in [(5, 7), (4, 4)]:
        x = tf.constant(rng.standard_normal((3, *size, 3)).astype(np.float32))
        for got, want in zip(f(x), _windowed_ops(x, w)):
            assert got.shape == want.shape
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)
    assert [y.shape[1:3] for y in f(tf.zeros([3, 5, 7, 3]))[:3]] == [[3, 4]] * 3


def test_conv_transpose_to_an_output_shape_known_only_when_it_runs():
    # TF: output_shape computed from tf.shape of a [3, None, None, 4] input gives
    # [3, None, None, 2]; sums of the output and of the input gradient recorded from TF
    w = tf.constant(np.linspace(-1, 1, 3 * 3 * 2 * 4, dtype=np.float32).reshape(3, 3, 2, 4))

    def body(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            s = tf.shape(x)
            y = tf.nn.conv2d_transpose(x, w, tf.stack([s[0], s[1] * 2, s[2] * 2, 2]), 2, "SAME")
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, x)

    f = tf.function(body, input_signature=[tf.TensorSpec([3, None, None, 4], tf.float32)])
    assert [y.shape.as_list() for y in f.get_concrete_function().structured_outputs] == [
        [3, None, None, 2], [3, None, None, 4]]
    x = tf.constant(np.arange(3 * 2 * 3 * 4, dtype=np.float32).reshape(3, 2, 3, 4) / 30)
    (y, g), (y_eager, g_eager) = f(x), body(x)
    assert y.shape == [3, 4, 6, 2] and g.shape == [3, 2, 3, 4]
    np.testing.assert_allclose([float(tf.reduce_sum(y)), float(tf.reduce_sum(g))],
                               [-210.79437, 1238.6013], rtol=1e-5)
    np.testing.assert_allclose(y.numpy(), y_eager.numpy(), rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), g_eager.numpy(), rtol=1e-6)
