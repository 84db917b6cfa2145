"""map_fn, scan, foldl, foldr, vectorized_map, switch_case and case: values against NumPy,
and first and second derivatives traced against eager and central differences."""
import numpy as np
import pytest

import tapeflow as tf

X = np.linspace(-1.0, 1.0, 12).reshape(4, 3)


def _scan_reference(x):
    acc, out = x[0], [x[0]]
    for row in x[1:]:
        acc = np.tanh(acc * row + row)
        out.append(acc)
    return np.stack(out)


# (label, model of a float64 [4, 3] tensor returning a scalar, NumPy reference)
MODELS = [
    ("map_fn", lambda x: tf.reduce_sum(tf.map_fn(lambda r: tf.sin(r) * r, x) ** 2),
     lambda x: np.sum((np.sin(x) * x) ** 2)),
    ("map_fn signature", lambda x: tf.reduce_sum(tf.map_fn(
        lambda r: tf.reduce_sum(r * r), x, fn_output_signature=tf.float64) ** 2),
     lambda x: np.sum(np.sum(x * x, axis=1) ** 2)),
    ("map_fn structure", lambda x: tf.reduce_sum(tf.map_fn(
        lambda p: (p[0] * p[1], p[0]), (x, x * 2.0))[0]),
     lambda x: np.sum(2 * x * x)),
    ("scan", lambda x: tf.reduce_sum(tf.scan(lambda a, r: tf.tanh(a * r + r), x) ** 2),
     lambda x: np.sum(_scan_reference(x) ** 2)),
    ("scan reverse", lambda x: tf.reduce_sum(tf.scan(
        lambda a, r: a * r + 1.0, x, initializer=tf.ones([3], tf.float64), reverse=True)),
     lambda x: np.sum([np.prod(x[t:], axis=0) + sum(np.prod(x[t:s], axis=0)
                                                    for s in range(t, 4)) for t in range(4)])),
    ("foldl", lambda x: tf.reduce_sum(tf.foldl(lambda a, r: tf.sin(a) + r, x) ** 2),
     lambda x: np.sum((np.sin(np.sin(np.sin(x[0]) + x[1]) + x[2]) + x[3]) ** 2)),
    ("foldr", lambda x: tf.reduce_sum(tf.foldr(lambda a, r: a * r + 1.0, x,
                                               initializer=tf.zeros([3], tf.float64))),
     lambda x: np.sum(((x[2] + 1) * x[1] + 1) * x[0] + 1)),
    ("vectorized_map", lambda x: tf.reduce_sum(tf.vectorized_map(
        lambda r: tf.reduce_sum(tf.exp(r)), x) ** 2),
     lambda x: np.sum(np.sum(np.exp(x), axis=1) ** 2)),
    ("switch_case", lambda x: tf.switch_case(
        tf.constant(1), [lambda: tf.reduce_sum(x), lambda: tf.reduce_sum(x ** 3)]),
     lambda x: np.sum(x ** 3)),
    ("switch_case default", lambda x: tf.switch_case(
        tf.constant(7), {0: lambda: tf.reduce_sum(x), 3: lambda: tf.reduce_sum(x * x)},
        default=lambda: tf.reduce_sum(tf.sin(x) ** 2)),
     lambda x: np.sum(np.sin(x) ** 2)),
    ("case", lambda x: tf.case(
        [(tf.reduce_sum(x) > 1.0, lambda: tf.reduce_sum(x)),
         (tf.reduce_sum(x) > -1.0, lambda: tf.reduce_sum(x ** 4))],
        default=lambda: tf.reduce_sum(x)),
     lambda x: np.sum(x ** 4)),
]


@pytest.mark.parametrize("label,model,reference", MODELS, ids=[m[0] for m in MODELS])
def test_values_and_derivatives(label, model, reference, second_order):
    x = tf.constant(X)
    eager = second_order(model, x)
    traced = tf.function(lambda x: second_order(model, x))(x)
    for e, t in zip(eager, traced):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-12, atol=1e-14)
    assert float(eager[0]) == pytest.approx(reference(X), rel=1e-12)
    eps, basis = 1e-6, np.eye(12).reshape(12, 4, 3)
    numeric = [(reference(X + eps * e) - reference(X - eps * e)) / (2 * eps) for e in basis]
    np.testing.assert_allclose(eager[1].numpy().ravel(), numeric, rtol=1e-6, atol=1e-8)


def test_examples_with_ints_and_structures():
    assert tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3])).numpy().tolist() == [1, 3, 6]
    assert int(tf.foldl(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]))) == 123
    assert int(tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]))) == 321
    out = tf.function(lambda x: tf.map_fn(lambda r: (r, tf.reduce_sum(r)), x,
                                           fn_output_signature=(tf.float32, tf.float32)))(
        tf.ones([2, 3]))
    assert out[0].shape == [2, 3] and out[1].numpy().tolist() == [3.0, 3.0]


def test_errors():
    with pytest.raises(ValueError, match="first dimension"):
        tf.map_fn(lambda p: p[0], (tf.ones([2]), tf.ones([3])))
    with pytest.raises(ValueError, match="rank"):
        tf.map_fn(lambda p: p, tf.constant(1.0))
    with pytest.raises(TypeError, match="callable"):
        tf.switch_case(0, [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="exclusive"):
        tf.case([(tf.constant(True), lambda: 1), (tf.constant(True), lambda: 2)],
                exclusive=True)


def test_vectorized_map_runs_each_op_once_on_the_batch(second_order):
    rng = np.random.default_rng(0)
    w = tf.Variable(rng.standard_normal((3, 2)))

    def f(r):  # elementwise ops, reductions and a stack batch; the matmul runs per element
        h = tf.tanh(tf.matmul(r[None], w)[0] + 1.0) * 2.0
        return {"s": tf.reduce_sum(h ** 2), "h": tf.nn.softmax(h), "one": tf.constant(1.0),
                "t": tf.transpose(tf.stack([r, r * r]))}

    x = tf.constant(rng.standard_normal((4, 3)))
    got = tf.vectorized_map(f, x)
    want = tf.map_fn(f, x, fn_output_signature={
        "s": tf.float64, "h": tf.TensorSpec([2], tf.float64), "one": tf.float32,
        "t": tf.TensorSpec([3, 2], tf.float64)})
    for key in want:
        np.testing.assert_allclose(got[key].numpy(), want[key].numpy(), rtol=1e-12)

    def loss(x):
        out = tf.vectorized_map(f, x)
        return tf.reduce_sum(out["s"]) + tf.reduce_sum(out["h"] ** 2) + \
            tf.reduce_sum(out["t"] ** 3)

    def looped(x):
        return sum(tf.reduce_sum(f(x[i])["s"]) + tf.reduce_sum(f(x[i])["h"] ** 2) +
                   tf.reduce_sum(f(x[i])["t"] ** 3) for i in range(4))

    reference = second_order(looped, x)
    for got in (second_order(loss, x), tf.function(lambda x: second_order(loss, x))(x)):
        for g, r in zip(got, reference):
            np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=1e-10)
    elementwise = tf.function(lambda x: tf.vectorized_map(lambda r: tf.sin(r) * r + 1.0, x))
    types = [op.type for op in elementwise.get_concrete_function(x).graph.get_operations()]
    assert "While" not in types and types.count("Sin") == 1


def test_vectorized_map_of_a_function_writing_a_variable_is_a_loop():
    v = tf.Variable(0.0, dtype=tf.float64)

    def f(r):
        v.assign_add(tf.reduce_sum(r))
        return r * 2.0

    np.testing.assert_array_equal(tf.vectorized_map(f, tf.constant(X)).numpy(), X * 2)
    assert float(v) == pytest.approx(X.sum())


def test_map_fn_over_elements_of_unknown_shape(second_order):
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64)])
    def traced(x):
        return second_order(lambda x: tf.reduce_sum(tf.map_fn(lambda r: tf.sin(r) * r, x) ** 2),
                            x)

    def reference(x):
        return second_order(lambda x: tf.reduce_sum((tf.sin(x) * x) ** 2), x)

    x = tf.constant(X)
    for got, want in zip(traced(x), reference(x)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)
