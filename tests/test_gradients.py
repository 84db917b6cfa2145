"""tf.gradients and tf.hessians in graph mode, and the whole op table in graph mode."""
import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1
from tapeflow.framework import registry
from tapeflow.testing.op_cases import CASES, NO_SECOND_DERIVATIVE


def run(fetches, feed=None):
    return tf1.Session().run(fetches, feed)


def test_eager_call_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="GradientTape"):
        tf.gradients(tf.constant(1.0), tf.constant(1.0))
    with pytest.raises(RuntimeError):
        tf.hessians(tf.constant(1.0), tf.constant(1.0))


def test_sum_over_ys_and_several_xs():
    with tf.Graph().as_default():
        x = tf.constant(2.0)
        y = tf.constant(3.0)
        grads = tf.gradients([x * y, x * x], [x, y])
        assert run(grads) == [7.0, 2.0]
        (single,) = tf.gradients(x * y, x)
        assert run(single) == 3.0
        assert all(g.name.startswith("gradients") for g in grads)


def test_grad_ys():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        y = x * x
        (g,) = tf.gradients(y, x, grad_ys=[np.array([10.0, 100.0], np.float32)])
        np.testing.assert_array_equal(run(g), [20.0, 400.0])
        (g,) = tf.gradients([y, x], x, grad_ys=[None, tf.constant([1.0, 1.0])])
        np.testing.assert_array_equal(run(g), [3.0, 5.0])
        with pytest.raises(ValueError, match="2 grad_ys for 1 ys"):
            tf.gradients(y, x, grad_ys=[None, None])


def test_stop_gradients_documented_example():
    with tf.Graph().as_default():
        a = tf.constant(0.0)
        b = 2 * a
        assert run(tf.gradients(a + b, [a, b], stop_gradients=[a, b])) == [1.0, 1.0]
        assert run(tf.gradients(a + b, [a, b])) == [3.0, 1.0]
        assert run(tf.gradients(a + b, [a], stop_gradients=[b])) == [1.0]


@pytest.mark.parametrize("method", [None, tf.AggregationMethod.ADD_N,
                                    tf.AggregationMethod.DEFAULT,
                                    tf.AggregationMethod.EXPERIMENTAL_TREE,
                                    tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N])
def test_aggregation_methods_agree(method):
    with tf.Graph().as_default() as g:
        x = tf.constant(1.5)
        y = x * x + tf.tanh(x) + x * 3.0 + tf.exp(x)
        (grad,) = tf.gradients(y, x, aggregation_method=method)
        expected = 2 * 1.5 + (1 - np.tanh(1.5) ** 2) + 3.0 + np.exp(1.5)
        assert run(grad) == pytest.approx(expected, rel=1e-6)
        adds = [op for op in g.get_operations() if op.name.startswith("gradients")
                and op.type in ("AddV2", "AddN")]
        assert adds  # four paths meet at x


def test_tree_aggregation_sums_pairwise():
    with tf.Graph().as_default() as g:
        x = tf.constant(1.0)
        y = x * 1.0 + x * 2.0 + x * 3.0 + x * 4.0
        tf.gradients(y, x, aggregation_method=tf.AggregationMethod.EXPERIMENTAL_TREE)
        sums = [op for op in g.get_operations() if op.name.startswith("gradients")
                and op.type == "AddV2"]
        # ((g1 + g2) + (g3 + g4)): the last sum adds two partial sums
        assert all(x.op.type == "AddV2" for x in sums[-1].inputs)


def test_invalid_aggregation_method():
    with tf.Graph().as_default():
        x = tf.constant(1.0)
        with pytest.raises(ValueError, match="aggregation_method"):
            tf.gradients(x * x, x, aggregation_method="sum")


def test_unconnected_gradients():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        z = tf.constant(3.0)
        assert tf.gradients(x * 2.0, [x, z])[1] is None
        grads = tf.gradients(x * 2.0, [x, z], unconnected_gradients="zero")
        assert run(grads[1]) == 0.0
        grads = tf.gradients(x * 2.0, z,
                             unconnected_gradients=tf.UnconnectedGradients.ZERO)
        assert run(grads) == [0.0]
        with pytest.raises(ValueError, match="unconnected_gradients"):
            tf.gradients(x, x, unconnected_gradients="ones")


def test_integer_paths_give_none():
    with tf.Graph().as_default():
        i = tf.constant(3)
        x = tf.constant(2.0)
        y = tf.cast(i, tf.float32) * x
        assert tf.gradients(y, [i, x])[0] is None
        assert tf.gradients(tf.cast(tf.cast(x, tf.int32), tf.float32), x) == [None]


def test_missing_rule_is_a_lookup_error(temporary_op):
    op = temporary_op("GraphTestNoRule", lambda x: x * 1)
    with tf.Graph().as_default():
        x = tf.constant(1.0)
        y = tf.square(op(x))
        with pytest.raises(LookupError, match="GraphTestNoRule"):
            tf.gradients(y, x)


def test_rule_returning_the_wrong_count_is_an_error(temporary_op):
    op = temporary_op("GraphTestBadCount", np.add)
    registry.RegisterGradient("GraphTestBadCount")(lambda op, g: g)
    with tf.Graph().as_default():
        x = tf.constant(1.0)
        with pytest.raises(ValueError, match="GraphTestBadCount"):
            tf.gradients(op(x, x), x)


def test_xs_must_belong_to_the_graph():
    with tf.Graph().as_default():
        other = tf.constant(1.0)
    eager = tf.constant(1.0)
    with tf.Graph().as_default():
        y = tf.constant(2.0) * 3.0
        with pytest.raises(ValueError, match="Const:0.*not an element"):
            tf.gradients(y, other)
        with pytest.raises(ValueError, match="eager tensor"):
            tf.gradients(y, eager)
        with pytest.raises(ValueError, match="not an element"):
            tf.gradients(other, y)


def test_gradients_with_respect_to_variables_and_placeholders():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 3])
        w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2))
        b = tf.Variable([1.0, -1.0])
        y = tf.reduce_sum(tf.square(tf.matmul(x, w) + b))
        gx, gw, gb = tf.gradients(y, [x, w, b])
        assert gx.shape.as_list() == [None, 3] and gb.shape.as_list() == [2]
        sess = tf1.Session()
        sess.run(tf1.global_variables_initializer())
        xs = np.array([[1.0, 0.0, 2.0], [0.5, 1.0, -1.0]], np.float32)
        vx, vw, vb = sess.run([gx, gw, gb], {x: xs})
    ww = np.arange(6, dtype=np.float32).reshape(3, 2)
    r = 2 * (xs @ ww + np.array([1.0, -1.0]))
    np.testing.assert_allclose(vx, r @ ww.T, rtol=1e-6)
    np.testing.assert_allclose(vw, xs.T @ r, rtol=1e-6)
    np.testing.assert_allclose(vb, r.sum(axis=0), rtol=1e-6)


def test_broadcasting_with_unknown_batch_reduces_at_run_time():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 2])
        bias = tf1.placeholder(tf.float32, [None, 2])
        (g,) = tf.gradients(tf.reduce_sum(x * bias), bias)
        out = run(g, {x: np.ones((4, 2)), bias: np.array([[1.0, 2.0]])})
    np.testing.assert_array_equal(out, [[4.0, 4.0]])


def test_gradients_of_gradients():
    with tf.Graph().as_default():
        x = tf.constant(0.7)
        (g,) = tf.gradients(tf.tanh(x), x)
        (gg,) = tf.gradients(g, x)
        (ggg,) = tf.gradients(gg, x)
        values = run([g, gg, ggg])
    t = np.tanh(0.7)
    np.testing.assert_allclose(values, [1 - t ** 2, -2 * t * (1 - t ** 2),
                                        -2 * (1 - t ** 2) ** 2 + 4 * t ** 2 * (1 - t ** 2)],
                               rtol=1e-5)


def test_hessians():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0, 3.0])
        y = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        f = tf.reduce_sum(x * x * x) * tf.reduce_sum(y * y)
        hx, hy = tf.hessians(f, [x, y])
        assert hx.shape.as_list() == [3, 3] and hy.shape.as_list() == [2, 2, 2, 2]
        vx, vy = run([hx, hy])
    np.testing.assert_allclose(vx, np.diag([6.0, 12.0, 18.0]) * 30.0)
    np.testing.assert_allclose(vy, np.eye(4).reshape(2, 2, 2, 2) * 2.0 * 36.0)
    with tf.Graph().as_default():
        p = tf1.placeholder(tf.float32, [None])
        with pytest.raises(ValueError, match="full shape"):
            tf.hessians(tf.reduce_sum(p * p), p)


def test_gradients_with_unknown_dimensions_are_graph_ops():
    # Mean's rule divides by the number of entries averaged, and Pow's gradient is summed to
    # its input's shape, both unknown while the graph is built for a [None] input: shape ops
    # and SumToShape compute them when the graph runs, differentiable again, with no Python.
    with tf.Graph().as_default() as graph:
        x = tf1.placeholder(tf.float32, [None])
        (gx,) = tf.gradients(tf.reduce_mean(x ** 3), x)
        (gxx,) = tf.gradients(gx, x)
        types = {op.type for op in graph.get_operations()}
        assert "SumToShape" in types and "EagerPyFunc" not in types
        vals = run([gx, gxx], {x: [2.0, -1.0]})
    np.testing.assert_allclose(vals[0], [6.0, 1.5])
    np.testing.assert_allclose(vals[1], [6.0, -3.0])


def test_pow_rule_masks_the_base_with_graph_ops():
    with tf.Graph().as_default() as graph:
        x = tf1.placeholder(tf.float32, [2])
        e = tf1.placeholder(tf.float32, [2])
        gx, ge = tf.gradients(tf.reduce_sum(x ** e), [x, e])
        (gxx,) = tf.gradients(gx, x)
        assert "EagerPyFunc" not in [op.type for op in graph.get_operations()]
        vals = run([gx, ge, gxx], {x: [2.0, -1.0], e: [3.0, 2.0]})
    np.testing.assert_allclose(vals[0], [12.0, -2.0])
    np.testing.assert_allclose(vals[1], [8.0 * np.log(2.0), 0.0])  # 0 where the base <= 0
    np.testing.assert_allclose(vals[2], [12.0, 2.0])


def _eager_gradients(case, upstream):
    args = [tf.constant(a) for a in case.args]
    floats = [a for a in args if a.dtype.is_floating]
    with tf.GradientTape() as tape:
        tape.watch(floats)
        out = case.fn(*args)
    grads = tape.gradient(out, floats, output_gradients=upstream)
    return out.numpy(), [None if g is None else tf.convert_to_tensor(g).numpy() for g in grads]


def _graph_gradients(case, upstream):
    with tf.Graph().as_default():
        inputs = [tf1.placeholder(tf.as_dtype(a.dtype), a.shape) for a in case.args]
        out = case.fn(*inputs)
        grads = tf.gradients(out, [x for x in inputs if x.dtype.is_floating], grad_ys=upstream)
        grads = [None if g is None else tf.convert_to_tensor(g) for g in grads]  # IndexedSlices
        values = run([out] + [g for g in grads if g is not None], dict(zip(inputs, case.args)))
    computed = iter(values[1:])
    return values[0], [None if g is None else next(computed) for g in grads]


# Rows whose public function cannot be built into a graph yet, with why.
_PYTHON_MASK = "builds its mask in Python from tensor values ({}), not with ops"
GRAPH_MODE_EXCEPTIONS = {
    "Mul[dropout]": _PYTHON_MASK.format("nn.dropout, ops/random_ops.py"),
    "Mul[dropout noise_shape]": _PYTHON_MASK.format("nn.dropout, ops/random_ops.py"),
}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_op_table_in_graph_mode_matches_eager(case):
    if case.id in GRAPH_MODE_EXCEPTIONS:
        pytest.skip(GRAPH_MODE_EXCEPTIONS[case.id])
    rng = np.random.default_rng(0)
    shape = np.shape(_eager_gradients(case, None)[0])
    upstream = rng.standard_normal(shape)
    eager_out, eager_grads = _eager_gradients(case, upstream)
    graph_out, graph_grads = _graph_gradients(case, upstream)
    if np.array_equal(eager_out, _eager_gradients(case, upstream)[0]):  # not an unseeded draw
        np.testing.assert_allclose(graph_out, eager_out, rtol=1e-10)
    assert [g is None for g in graph_grads] == [g is None for g in eager_grads]
    for g, e in zip(graph_grads, eager_grads):
        if e is not None:
            np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-12)


def _second_order(case, direction, graph: bool):
    """d/dx <grad f(x) . upstream, direction>, in graph mode or with nested tapes."""
    rng = np.random.default_rng(1)
    upstream = rng.standard_normal(np.shape(_eager_gradients(case, None)[0]))

    def dot(grads):
        total = tf.constant(0.0, tf.float64)
        for g, d in zip(grads, direction):
            if g is not None:
                total = total + tf.reduce_sum(tf.convert_to_tensor(g) * d)
        return total

    if graph:
        with tf.Graph().as_default():
            inputs = [tf1.placeholder(tf.as_dtype(a.dtype), a.shape) for a in case.args]
            floats = [x for x in inputs if x.dtype.is_floating]
            grads = tf.gradients(dot(tf.gradients(case.fn(*inputs), floats, grad_ys=upstream)),
                                 floats)
            values = run([tf.convert_to_tensor(g) for g in grads if g is not None],
                         dict(zip(inputs, case.args)))
        computed = iter(values)
        return [None if g is None else next(computed) for g in grads]
    args = [tf.constant(a) for a in case.args]
    floats = [a for a in args if a.dtype.is_floating]
    with tf.GradientTape() as outer:
        outer.watch(floats)
        with tf.GradientTape() as inner:
            inner.watch(floats)
            out = case.fn(*args)
        total = dot(inner.gradient(out, floats, output_gradients=upstream))
    return [None if g is None else tf.convert_to_tensor(g).numpy()
            for g in outer.gradient(total, floats)]


@pytest.mark.parametrize("case", [c for c in CASES if c.differentiable],
                         ids=[c.id for c in CASES if c.differentiable])
def test_op_table_second_order_in_graph_mode_matches_eager(case):
    if case.id in GRAPH_MODE_EXCEPTIONS:
        pytest.skip(GRAPH_MODE_EXCEPTIONS[case.id])
    if case.op in NO_SECOND_DERIVATIVE:
        pytest.skip(NO_SECOND_DERIVATIVE[case.op])
    rng = np.random.default_rng(2)
    direction = [rng.standard_normal(a.shape) for a in case.args if a.dtype.kind == "f"]
    eager = _second_order(case, direction, graph=False)
    graph = _second_order(case, direction, graph=True)
    for g, e in zip(graph, eager):
        if e is None:
            assert g is None or not np.any(g)
        else:
            np.testing.assert_allclose(g, e, rtol=1e-8, atol=1e-10)


def test_custom_gradients_in_graphs_and_functions():
    @tf.custom_gradient
    def halve_grad(x):
        return tf.identity(x), lambda dy: dy * 0.5

    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [])
        y = halve_grad(x) * 3.0
        assert y.op.inputs[0].op.type == "CustomGradient"
        assert run([y, tf.gradients(y, x)[0]], {x: 2.0}) == [6.0, 1.5]
        z = tf.grad_pass_through(tf.round)(x * 2.0)
        assert run([z, tf.gradients(z, x)[0]], {x: 1.3}) == [3.0, 2.0]

    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.recompute_grad(lambda a: tf.tanh(a) * v)(x)
        return tape.gradient(y, [x, v])

    gx, gv = f(tf.constant(0.3))
    t = np.tanh(0.3)
    assert float(gx) == pytest.approx(2.0 * (1 - t ** 2), rel=1e-6)
    assert float(gv) == pytest.approx(t, rel=1e-6)


def test_sparse_and_several_dense_gradients_of_one_tensor_add_up():
    # One IndexedSlices and two dense gradients reach `params`: the aggregation keeps
    # adding once the sum has become dense.
    with tf.Graph().as_default():
        params = tf.constant(np.arange(6.0).reshape(3, 2))
        y = tf.reduce_sum(tf.gather(params, [0, 2])) + tf.reduce_sum(params * 2.0) \
            + tf.reduce_sum(params * params)
        (g,) = tf.gradients(y, params)
        value = run(g)
    expected = 2.0 + 2.0 * np.arange(6.0).reshape(3, 2)
    expected[[0, 2]] += 1.0
    np.testing.assert_allclose(value, expected)


def test_gather_gradient_for_indices_of_unknown_size_stays_sparse():
    with tf.Graph().as_default() as graph:
        ids = tf1.placeholder(tf.int32, [None])
        table = tf.constant(np.ones((5, 2), np.float32))
        (g,) = tf.gradients(tf.reduce_sum(tf.gather(table, ids)), table)
        assert isinstance(g, tf.IndexedSlices)
        assert "EagerPyFunc" not in {op.type for op in graph.get_operations()}
        dense = run(tf.convert_to_tensor(g), {ids: [1, 1, 3]})
    np.testing.assert_array_equal(dense, [[0, 0], [2, 2], [0, 0], [1, 1], [0, 0]])
