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
