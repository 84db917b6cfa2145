"""Loops, TensorArrays, branches and static shapes, written once against a module `tf` and
run with tapeflow and with TensorFlow: values, first and second derivatives, eagerly and
under tf.function, and the exception classes of build-time shape errors."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

X = np.linspace(-1.0, 1.0, 12).reshape(4, 3)


def _derivatives(tf, model, traced: bool):
    """model(x), its gradient, and the gradient of the gradient's squared norm."""
    def run(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = model(tf, x)
            g = inner.gradient(y, x)
            s = tf.reduce_sum(g * g)
        return y, g, outer.gradient(s, x)
    return (tf.function(run) if traced else run)(tf.constant(X))


def _rnn(tf, x):
    w = tf.constant(np.linspace(-0.5, 0.5, 9).reshape(3, 3))

    def body(t, h):
        return t + 1, tf.tanh(tf.matmul(x[t][None], w) + h)
    return tf.reduce_sum(tf.while_loop(lambda t, h: t < 4, body,
                                       (tf.constant(0), tf.zeros([1, 3], tf.float64)))[1] ** 2)


def _tensor_array(tf, x):
    ta = tf.TensorArray(tf.float64, size=0, dynamic_size=True).unstack(x)
    out = tf.TensorArray(tf.float64, size=4)

    def body(t, out):
        return t + 1, out.write(t, tf.sin(ta.read(t)) * tf.cast(t + 1, tf.float64))
    _, out = tf.while_loop(lambda t, out: t < ta.size(), body, (tf.constant(0), out))
    return tf.reduce_sum(out.stack() ** 2) + tf.reduce_sum(out.gather([0, 2]))


MODELS = {
    "while_loop xs[t]": _rnn,
    "TensorArray": _tensor_array,
    "map_fn": lambda tf, x: tf.reduce_sum(tf.map_fn(lambda r: tf.sin(r) * r, x) ** 2),
    "map_fn signature": lambda tf, x: tf.reduce_sum(tf.map_fn(
        lambda r: tf.reduce_sum(r * r), x, fn_output_signature=tf.float64) ** 2),
    "scan": lambda tf, x: tf.reduce_sum(tf.scan(lambda a, r: tf.tanh(a * r + r), x) ** 2),
    "scan reverse": lambda tf, x: tf.reduce_sum(tf.scan(
        lambda a, r: a * r + 1.0, x, initializer=tf.ones([3], tf.float64), reverse=True) ** 2),
    "foldl": lambda tf, x: tf.reduce_sum(tf.foldl(lambda a, r: tf.sin(a) + r, x) ** 2),
    "foldr": lambda tf, x: tf.reduce_sum(tf.foldr(
        lambda a, r: tf.sin(a) * r, x, initializer=tf.ones([3], tf.float64)) ** 2),
    "vectorized_map": lambda tf, x: tf.reduce_sum(tf.vectorized_map(
        lambda r: tf.reduce_sum(tf.exp(r)), x) ** 2),
    "switch_case": lambda tf, x: tf.switch_case(
        tf.constant(1), [lambda: tf.reduce_sum(x), lambda: tf.reduce_sum(x ** 3)]),
    "switch_case default": lambda tf, x: tf.switch_case(
        tf.constant(5), {0: lambda: tf.reduce_sum(x), 1: lambda: tf.reduce_sum(x ** 2)},
        default=lambda: tf.reduce_sum(tf.sin(x) ** 2)),
    "case": lambda tf, x: tf.case(
        [(tf.reduce_sum(x) > 1.0, lambda: tf.reduce_sum(x)),
         (tf.reduce_sum(x) > -1.0, lambda: tf.reduce_sum(x ** 4))],
        default=lambda: tf.reduce_sum(x)),
    "ensure_shape": lambda tf, x: tf.reduce_sum(tf.ensure_shape(x * x, [None, 3]) ** 2),
}


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
@pytest.mark.parametrize("label", list(MODELS))
def test_loop_derivatives_match_tensorflow(label, traced, tensorflow):
    theirs = _derivatives(tensorflow, MODELS[label], traced)
    ours = _derivatives(tapeflow, MODELS[label], traced)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)


def _graph_error(tf, build):
    with tf.Graph().as_default():
        a = tf.compat.v1.placeholder(tf.float32, [None, 3])
        try:
            build(tf, a)
        except Exception as e:  # noqa: BLE001  (the class is what is compared)
            return type(e).__name__, str(e).split(" for ")[0]
    return None


@pytest.mark.parametrize("build", [
    lambda tf, a: tf.matmul(a, tf.zeros([4, 5])),
    lambda tf, a: a + tf.zeros([4]),
    lambda tf, a: tf.concat([a, tf.zeros([2, 2, 2])], 0),
    lambda tf, a: tf.reshape(tf.zeros([2, 3]), [4, 2]),
    lambda tf, a: tf.reshape(a, [4, 2]),
    lambda tf, a: tf.matmul(a, tf.zeros([3, 5])) + tf.zeros([5]),
], ids=["matmul", "add", "concat rank", "reshape count", "reshape divisible", "valid"])
def test_build_time_shape_errors_match_tensorflow(build, tensorflow):
    assert _graph_error(tapeflow, build) == _graph_error(tensorflow, build)


@pytest.mark.parametrize("build", [
    lambda tf, p: tf.reduce_sum(p), lambda tf, p: tf.reduce_mean(p, axis=1),
    lambda tf, p: tf.transpose(p), lambda tf, p: tf.nn.softmax(p),
    lambda tf, p: tf.reduce_sum(p, keepdims=True), lambda tf, p: tf.matmul(p, p),
], ids=["reduce_sum", "reduce_mean", "transpose", "softmax", "keepdims", "matmul"])
def test_unknown_rank_static_shapes_and_values_match_tensorflow(build, tensorflow):
    value = np.arange(9.0, dtype=np.float32).reshape(3, 3) / 9

    def run(tf):
        with tf.Graph().as_default():
            p = tf.compat.v1.placeholder(tf.float32)
            y = build(tf, p)
            g = tf.gradients(tf.reduce_sum(y * y), p)[0]
            with tf.compat.v1.Session() as session:
                return y.shape.rank, session.run([y, g], {p: value})
    (rank, values), (their_rank, theirs) = run(tapeflow), run(tensorflow)
    assert rank == their_rank
    for a, b in zip(values, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
