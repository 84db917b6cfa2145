"""cond and while_loop, eagerly and in graphs, with their gradients."""
import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1


def test_cond_eager_is_python():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cond(x > 0.0, lambda: x * x, lambda: -x)
    assert float(y) == 9.0 and float(tape.gradient(y, x)) == 6.0
    assert float(tf.cond(False, lambda: x, lambda: -x)) == -3.0
    with pytest.raises(TypeError, match="callable"):
        tf.cond(True, x, lambda: x)


def _cond_graph():
    p = tf1.placeholder(tf.bool, [])
    x = tf1.placeholder(tf.float32, [])
    v = tf.Variable(3.0)
    y = tf.cond(p, lambda: x * x * v, lambda: tf.tanh(x))
    return p, x, v, y


def test_cond_in_a_graph_runs_one_branch():
    with tf.Graph().as_default():
        p, x, v, y = _cond_graph()
        assert y.op.type == "If" and y.shape == [] and y.dtype is tf.float32
        sess = tf1.Session()
        sess.run(tf1.global_variables_initializer())
        assert sess.run(y, {p: True, x: 2.0}) == 12.0
        assert sess.run(y, {p: False, x: 2.0}) == pytest.approx(np.tanh(2.0))


def test_cond_gradients_in_a_graph():
    with tf.Graph().as_default():
        p, x, v, y = _cond_graph()
        gx, gv = tf.gradients(y, [x, v])
        (gxx,) = tf.gradients(gx, x)
        sess = tf1.Session()
        sess.run(tf1.global_variables_initializer())
        assert sess.run([gx, gv, gxx], {p: True, x: 2.0}) == [12.0, 4.0, 6.0]
        t = np.tanh(2.0)
        np.testing.assert_allclose(sess.run([gx, gv, gxx], {p: False, x: 2.0}),
                                   [1 - t ** 2, 0.0, -2 * t * (1 - t ** 2)], rtol=1e-5)


def test_cond_structures_and_errors():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        out = tf.cond(tf.constant(False), lambda: {"a": x, "b": (x * 2.0, 1.0)},
                      lambda: {"a": -x, "b": (x * 3.0, 2.0)})
        got = tf1.Session().run(out)
        np.testing.assert_array_equal(got["a"], [-1.0, -2.0])
        assert got["b"][1] == 2.0
        with pytest.raises(ValueError, match="same nested structure"):
            tf.cond(True, lambda: (x, x), lambda: x)
        with pytest.raises(TypeError, match="dtypes"):
            tf.cond(True, lambda: x, lambda: tf.constant([1, 2]))
        with pytest.raises(TypeError, match="bool"):
            tf.cond(x, lambda: x, lambda: x)
        merged = tf.cond(tf1.placeholder(tf.bool, []), lambda: x, lambda: tf.constant([1.0]))
        assert merged.shape.as_list() == [None]


def test_cond_inside_a_function_differentiated_from_outside(derivatives):
    @tf.function
    def f(x):
        return tf.cond(x > 0.0, lambda: x * x * x, lambda: x * 2.0)

    assert derivatives(f, tf.constant(2.0), 2) == [8.0, 12.0, 12.0]
    assert derivatives(f, tf.constant(-2.0), 2) == [-4.0, 2.0, 0.0]
    assert f.experimental_get_tracing_count() == 1


def test_while_loop_eager():
    i, x = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2.0),
                         (tf.constant(0), tf.constant(1.0)))
    assert (int(i), float(x)) == (3, 8.0)
    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.while_loop(lambda v: v < 10.0, lambda v: v * x, [x])[0]
    assert float(y) == 1.5 ** 6 and float(tape.gradient(y, x)) == pytest.approx(6 * 1.5 ** 5)
    single = tf.while_loop(lambda v: tf.constant(True), lambda v: v * 3.0, tf.constant(1.0),
                           maximum_iterations=2)
    assert float(single) == 9.0
    with pytest.raises(TypeError, match="callable"):
        tf.while_loop(None, lambda v: v, [1.0])


def test_while_loop_in_a_graph_and_its_gradients():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [])
        n = tf1.placeholder(tf.int32, [])
        w = tf.Variable(0.5)

        def body(i, acc):
            return i + 1, acc * x + w

        i, acc = tf.while_loop(lambda i, acc: i < n, body, (tf.constant(0), tf.constant(1.0)))
        assert acc.op.type == "While" and i.dtype is tf.int32
        gx, gw = tf.gradients(acc, [x, w])
        sess = tf1.Session()
        sess.run(tf1.global_variables_initializer())
        feed = {x: 2.0, n: 3}
        # acc = ((1*x + w)*x + w)*x + w = x^3 + w x^2 + w x + w
        assert sess.run([i, acc], feed) == [3, 8.0 + 2.0 + 1.0 + 0.5]
        assert sess.run([gx, gw], feed) == [12.0 + 2.0 + 0.5, 4.0 + 2.0 + 1.0]


def test_while_loop_shape_and_dtype_checks():
    def doubled(v):
        return tf.reshape(v * tf.constant([[1.0], [1.0]]), [-1])

    with tf.Graph().as_default():
        x = tf.constant([1.0])
        with pytest.raises(ValueError, match="shape_invariants"):
            tf.while_loop(lambda v: tf.constant(True), doubled, [x], maximum_iterations=2)
        with pytest.raises(ValueError, match="dtype"):
            tf.while_loop(lambda v: tf.constant(True), lambda v: tf.cast(v, tf.float64), [x],
                          maximum_iterations=2)
        grown = tf.while_loop(lambda v: tf.constant(True), doubled, [x],
                              shape_invariants=[tf.TensorShape([None])], maximum_iterations=2)
        assert grown[0].shape.as_list() == [None]
        np.testing.assert_array_equal(tf1.Session().run(grown[0]), [1.0, 1.0, 1.0, 1.0])


def test_while_loop_in_a_function_to_second_order(derivatives):
    @tf.function
    def power(x, n):
        return tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x),
                             (tf.constant(0), tf.constant(1.0)))[1]

    assert derivatives(lambda x: power(x, 4), tf.constant(2.0), 2) == [16.0, 32.0, 48.0]


def test_while_loop_body_assignments_and_captured_tensors():
    v = tf.Variable(0.0)

    @tf.function
    def accumulate(x):
        def body(i):
            v.assign_add(x)
            return i + 1
        return tf.while_loop(lambda i: i < 4, body, [tf.constant(0)])

    assert int(accumulate(tf.constant(1.5))[0]) == 4 and float(v) == 6.0


def test_if_and_while_gradients_match_eager():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(2, 3))
    b = rng.normal(size=(3, 3))

    def model(x, w, flag):
        h = tf.cond(flag, lambda: tf.tanh(tf.matmul(x, w)), lambda: tf.matmul(x, w) * 0.5)
        return tf.while_loop(lambda k, h: tf.constant(True),
                             lambda k, h: (k + 1, tf.tanh(tf.matmul(h, w))),
                             (tf.constant(0), h), maximum_iterations=2)[1]

    for flag in (True, False):
        x, w = tf.constant(a), tf.constant(b)
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.reduce_sum(model(x, w, flag))
        eager = [g.numpy() for g in tape.gradient(y, [x, w])]
        with tf.Graph().as_default():
            px = tf1.placeholder(tf.float64, [2, 3])
            pw = tf1.placeholder(tf.float64, [3, 3])
            pf = tf1.placeholder(tf.bool, [])
            grads = tf.gradients(tf.reduce_sum(model(px, pw, pf)), [px, pw])
            graph = tf1.Session().run(grads, {px: a, pw: b, pf: flag})
        for g, e in zip(graph, eager):
            np.testing.assert_allclose(g, e, rtol=1e-10)


# -- second order inside tf.function, against eager and finite differences --------------------

W_SCALE = tf.Variable(1.5, dtype=tf.float64)


def _cond_model(x):
    return tf.cond(tf.reduce_sum(x) > 0.0,
                   lambda: tf.reduce_sum(x ** 3) * tf.sin(x[0]) * W_SCALE,
                   lambda: tf.reduce_sum(-x * x) * W_SCALE * W_SCALE)


def _while_model(x):
    # x is captured by the body; y is a loop variable starting from x.
    _, y = tf.while_loop(lambda i, y: i < 3,
                         lambda i, y: (i + 1, tf.tanh(y) * x + tf.sin(y) * W_SCALE),
                         (tf.constant(0), x))
    return tf.reduce_sum(y)


def _nested_model(x):
    return tf.cond(x[0] > 0.0, lambda: _while_model(x), lambda: _cond_model(x))


def _hessian(model, x):
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = model(x)
        (g, gw) = inner.gradient(y, [x, W_SCALE])
    h, hw = outer.jacobian(g, x), outer.gradient(gw, x)
    return y, g, gw, h, hw


def _numeric_hessian(model, xa, eps=1e-6):
    def grad(values):
        x = tf.constant(values)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = model(x)
        return tape.gradient(y, x).numpy()
    return np.stack([(grad(xa + eps * e) - grad(xa - eps * e)) / (2 * eps)
                     for e in np.eye(len(xa))], axis=1)


@pytest.mark.parametrize("model", [_cond_model, _while_model, _nested_model])
@pytest.mark.parametrize("xa", [[0.5, 1.5], [-0.5, -1.0]])
def test_control_flow_second_order_in_function_matches_eager(model, xa):
    xa = np.array(xa)
    x = tf.constant(xa)
    eager = _hessian(model, x)
    traced = tf.function(lambda x: _hessian(model, x))(x)
    for e, t in zip(eager, traced):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(eager[3].numpy(), _numeric_hessian(model, xa), rtol=1e-6,
                               atol=1e-8)
    # The same from outside: tapes around a call of the function.
    outside = _hessian(tf.function(model), x)
    for e, t in zip(eager, outside):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-12, atol=1e-14)


def test_control_flow_hessian_vector_product_in_function():
    def hvp(x, v):
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = _nested_model(x)
            g = tape.gradient(y, x)
        return acc.jvp(g)

    for xa in ([0.5, 1.5], [-0.5, 1.0]):
        x = tf.constant(xa, tf.float64)
        full = _hessian(_nested_model, x)[3].numpy()
        for column in range(2):
            v = tf.constant(np.eye(2)[column])
            np.testing.assert_allclose(tf.function(hvp)(x, v).numpy(), full[:, column],
                                       rtol=1e-12, atol=1e-14)


def test_cond_gradient_is_a_traced_if():
    @tf.function
    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 0.0, lambda: x ** 3, lambda: tf.sin(x))
        return tape.gradient(y, x)

    types = [op.type for op in grads.get_concrete_function(tf.constant(1.0)).graph
             .get_operations()]
    assert types.count("If") == 2 and "EagerPyFunc" not in types
    assert float(grads(tf.constant(2.0))) == 12.0
    np.testing.assert_allclose(float(grads(tf.constant(-1.0))), np.cos(-1.0), rtol=1e-6)


def test_while_loop_gradient_is_traced_loops():
    v = tf.Variable(0.7, dtype=tf.float64)

    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            _, y = tf.while_loop(lambda i, y: i < 4,
                                 lambda i, y: (i + 1, tf.sin(y) * x + v * y),
                                 (tf.constant(0), x), maximum_iterations=3)
            total = tf.reduce_sum(y)
        return tape.gradient(total, [x, v])

    x = tf.constant([0.3, 1.2], tf.float64)
    traced = tf.function(grads)
    types = [op.type for op in traced.get_concrete_function(x).graph.get_operations()]
    # The forward loop, keeping each iteration's values, and the reverse loop.
    assert types.count("While") == 2 and "EagerPyFunc" not in types
    for got, want in zip(traced(x), grads(x)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)
    h = 1e-6
    numeric = [(float(tf.reduce_sum(tf.while_loop(
        lambda i, y: i < 3, lambda i, y: (i + 1, tf.sin(y) * xs + v * y),
        (tf.constant(0), xs))[1])) for xs in (x + h * e, x - h * e)) for e in np.eye(2)]
    np.testing.assert_allclose(traced(x)[0].numpy(), [(a - b) / (2 * h) for a, b in numeric],
                               rtol=1e-6)


def _rnn_loss(xs, w, steps: int):
    def body(t, h):
        return t + 1, tf.tanh(tf.matmul(xs[t], w) + h)
    _, h = tf.while_loop(lambda t, h: t < steps, body,
                         (tf.constant(0), tf.zeros([2, 3], tf.float64)))
    return tf.reduce_sum(h ** 2)


def test_while_loop_indexes_a_tensor_with_its_counter(second_order):
    rng = np.random.default_rng(0)
    xs, w = tf.constant(rng.standard_normal((5, 2, 3))), tf.constant(rng.standard_normal((3, 3)))

    def derivatives(w):
        return second_order(lambda w: _rnn_loss(xs, w, 5), w)

    eager, traced = derivatives(w), tf.function(derivatives)(w)
    for e, t in zip(eager, traced):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-12, atol=1e-14)
    h = np.zeros((2, 3))
    for x in xs.numpy():
        h = np.tanh(x @ w.numpy() + h)
    assert float(eager[0]) == pytest.approx(np.sum(h ** 2), rel=1e-12)


def test_while_gradient_keeps_each_iteration_once():
    # Backward through the loop keeps the iterations' values stacked once (linear memory):
    # the forward loop collects only the intermediate values the body's backward reads
    # (xs[t] and the tanh), keeps no loop variable, and no loop copies a growing history.
    xs, w = tf.constant(np.ones((4, 2, 3))), tf.constant(np.eye(3))

    def grads(w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = _rnn_loss(xs, w, 4)
        return tape.gradient(loss, w)

    graph = tf.function(grads).get_concrete_function(w).graph
    loops = [op for op in graph.get_operations() if op.type == "While"]
    assert [(op.attrs.get("keep", ()), op.attrs.get("collect")) for op in loops] == \
        [((), 2), ((), 0)]
    assert [o.shape.as_list() for o in loops[0].outputs[2:]] == [[], [None, 2, 3], [None, 2, 3]]
    bodies = [op.get_attr("body_fn").graph for op in loops]
    assert not any(op.type == "ConcatV2" for g in bodies for op in g.get_operations())
    assert not any(op.type == "EagerPyFunc" for op in graph.get_operations())


def test_while_gradient_with_an_unknown_batch_dimension_is_traced(second_order):
    rng = np.random.default_rng(1)
    xs, w = rng.standard_normal((5, 2, 3)), tf.constant(rng.standard_normal((3, 3)))

    @tf.function(input_signature=[tf.TensorSpec([5, None, 3], tf.float64)])
    def derivatives(xs):
        return second_order(lambda w: _rnn_loss_like(xs, w), w)

    def _rnn_loss_like(xs, w):
        _, h = tf.while_loop(lambda t, h: t < 5,
                             lambda t, h: (t + 1, tf.tanh(tf.matmul(xs[t], w) + h)),
                             (tf.constant(0), tf.zeros_like(xs[0])))
        return tf.reduce_sum(h ** 2)

    traced = derivatives(tf.constant(xs))
    eager = second_order(lambda w: _rnn_loss_like(tf.constant(xs), w), w)
    for e, t in zip(eager, traced):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-12, atol=1e-14)
    graph = derivatives.get_concrete_function().graph
    kept = [op for op in graph.get_operations() if op.type == "While" and op.attrs.get("keep")]
    assert kept  # the traced gradient, not the run-time fallback


def test_while_gradient_for_trip_counts_that_change_between_runs():
    # The kept values are written into arrays sized by the previous run's iterations: a
    # longer, shorter or empty run next still gives every iteration's gradient.
    w = tf.constant([[0.5, -0.3], [0.2, 0.4]])

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def grads(xs):
        with tf.GradientTape() as tape:
            tape.watch(w)
            steps = tf.shape(xs)[0]
            _, h = tf.while_loop(lambda t, h: t < steps,
                                 lambda t, h: (t + 1, tf.tanh(xs[t] + tf.matmul(h, w))),
                                 (tf.constant(0), tf.ones([1, 2])))
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, w, unconnected_gradients="zero")

    def eager(xs):
        with tf.GradientTape() as tape:
            tape.watch(w)
            h = tf.ones([1, 2])
            for x in xs:
                h = tf.tanh(x + tf.matmul(h, w))
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, w, unconnected_gradients="zero").numpy()

    rng = np.random.default_rng(0)
    for steps in (3, 5, 2, 0, 4):
        xs = rng.standard_normal((steps, 2)).astype(np.float32)
        np.testing.assert_allclose(grads(tf.constant(xs)).numpy(), eager(tf.constant(xs)),
                                   rtol=1e-5, atol=1e-6)


def test_while_body_error_names_the_node_in_the_body():
    @tf.function
    def f(x, i):
        return tf.while_loop(lambda t, s: t < 3, lambda t, s: (t + 1, s + tf.gather(x, i + t)),
                             (0, 0.0))[1]

    with pytest.raises(tf.errors.InvalidArgumentError, match=r"node GatherV2"):
        f(tf.constant([1.0, 2.0, 3.0]), tf.constant(1))


def test_while_loop_maximum_iterations_known_only_when_the_graph_runs():
    # TF: (i, x, dx/dx0) for maximum_iterations = n - 1 with n fed at run time
    def run(n, x0):
        with tf.GradientTape() as tape:
            tape.watch(x0)
            i, x = tf.while_loop(lambda i, x: i < 10, lambda i, x: (i + 1, x * 1.5),
                                 (tf.constant(0), x0), maximum_iterations=n - 1)
        return i, x, tape.gradient(x, x0)

    f = tf.function(run, input_signature=[tf.TensorSpec([], tf.int32),
                                          tf.TensorSpec([2], tf.float32)])
    for n, (i, x, dx) in [(3, (2, [2.25, 4.5], [2.25, 2.25])),
                          (20, (10, [57.6650390625, 115.330078125], [57.6650390625] * 2))]:
        got = f(tf.constant(n), tf.constant([1.0, 2.0]))
        assert int(got[0]) == i
        np.testing.assert_allclose(got[1].numpy(), x, rtol=1e-6)
        np.testing.assert_allclose(got[2].numpy(), dx, rtol=1e-6)
