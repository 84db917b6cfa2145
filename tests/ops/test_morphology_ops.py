"""max_pool_with_argmax, dilation2d and erosion2d: values, argmax layout, tie routing,
gradients (to second order, beyond TF) and errors."""
import numpy as np
import pytest

import tapeflow as tf

TIES = np.array([[1, 3, 3, 0], [2, 3, 1, 1], [0, 0, 5, 5]], np.float32).reshape(1, 3, 4, 1)


def test_argmax_layout_and_batch_index():
    x = tf.constant(np.concatenate([TIES, TIES * 2]))
    output, argmax = tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")
    assert output.numpy()[1, :, :, 0].tolist() == [[6.0, 6.0], [0.0, 10.0]]
    assert argmax.dtype == tf.int64 and argmax.numpy()[:, :, :, 0].tolist() == \
        [[[1, 2], [8, 10]]] * 2
    _, with_batch = tf.nn.max_pool_with_argmax(x, 2, 2, "SAME", output_dtype=tf.int32,
                                               include_batch_in_index=True)
    assert with_batch.dtype == tf.int32 and with_batch.numpy()[1, :, :, 0].tolist() == \
        [[13, 14], [20, 22]]


def test_padding_is_never_the_maximum():
    output, argmax = tf.nn.max_pool_with_argmax(tf.constant(-TIES - 10), 3, 2, "SAME")
    assert output.numpy().ravel().tolist() == [-11.0, -10.0, -10.0, -11.0]
    assert argmax.numpy().ravel().tolist() == [0, 3, 8, 6]


def test_the_gradient_goes_to_the_first_tied_maximum(derivatives):
    x = tf.constant(TIES)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool_with_argmax(x, 2, 1, "VALID")[0]
    assert tape.gradient(y, x).numpy()[0, :, :, 0].tolist() == \
        [[0, 2, 1, 0], [0, 1, 0, 0], [0, 0, 2, 0]]
    f = lambda t: tf.reduce_sum(tf.nn.max_pool_with_argmax(  # noqa: E731
        tf.reshape(t * tf.constant(TIES), [1, 3, 4, 1]), 2, 2, "VALID")[0] ** 2)
    assert derivatives(f, tf.constant(2.0), 2) == [72.0, 72.0, 36.0]  # 18 t ** 2


def _dilation(x, w, rate):
    """dilation2d, VALID, stride 1, by brute force over the taps."""
    kh, kw = w.shape[:2]
    rows, cols = x.shape[1] - (kh - 1) * rate[0], x.shape[2] - (kw - 1) * rate[1]
    return np.max([x[:, i * rate[0]:i * rate[0] + rows, j * rate[1]:j * rate[1] + cols] + w[i, j]
                   for i in range(kh) for j in range(kw)], axis=0)


@pytest.mark.parametrize("rate", [(1, 1), (2, 1)])
def test_dilation_values_and_gradients(rate, derivatives):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 5, 4, 3)).astype(np.float32)
    w = rng.standard_normal((2, 2, 3)).astype(np.float32)
    tx, tw = tf.constant(x), tf.constant(w)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([tx, tw])
        y = tf.nn.dilation2d(tx, tw, [1, 1, 1, 1], "VALID", "NHWC", [1, *rate, 1])
    np.testing.assert_allclose(y.numpy(), _dilation(x, w, rate), rtol=1e-6)
    # Each output sends its gradient to one input element and one filter tap.
    assert tape.gradient(y, tx).numpy().sum() == y.numpy().size
    assert tape.gradient(y, tw).numpy().sum() == y.numpy().size
    f = lambda t: tf.reduce_sum(tf.nn.dilation2d(  # noqa: E731
        tx * t, tw, [1, 1, 1, 1], "VALID", "NHWC", [1, *rate, 1]) ** 2)
    values = derivatives(f, tf.constant(1.0), 2)
    assert values[2] > 0   # a piecewise quadratic in t


def test_erosion_is_the_dual_of_dilation():
    x = tf.constant(np.random.default_rng(0).standard_normal((1, 4, 5, 2)).astype(np.float32))
    w = tf.constant(np.random.default_rng(1).standard_normal((2, 3, 2)).astype(np.float32))
    eroded = tf.nn.erosion2d(x, w, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])
    dilated = tf.nn.dilation2d(-x, tf.reverse(w, [0, 1]), [1, 1, 1, 1], "SAME", "NHWC",
                               [1, 1, 1, 1])
    np.testing.assert_allclose(eroded.numpy(), -dilated.numpy())


@pytest.mark.parametrize("call,error", [
    (lambda: tf.nn.max_pool_with_argmax(tf.ones([1, 2, 2, 1]), 2, 2, "VALID",
                                        data_format="NCHW"), ValueError),
    (lambda: tf.nn.max_pool_with_argmax(tf.ones([2, 2, 1]), 2, 2, "VALID"),
     tf.errors.InvalidArgumentError),
    (lambda: tf.nn.max_pool_with_argmax(tf.ones([1, 2, 2, 1]), 2, 2, "VALID",
                                        output_dtype=tf.float32), tf.errors.InvalidArgumentError),
    (lambda: tf.nn.dilation2d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 1]), [1, 1, 1, 1], "VALID",
                              "NHWC", [1, 1, 1, 1]), tf.errors.InvalidArgumentError),
    (lambda: tf.nn.erosion2d(tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1]), [1, 1, 1, 1], "VALID",
                             "NCHW", [1, 1, 1, 1]), ValueError)])
def test_errors(call, error):
    with pytest.raises(error):
        call()
