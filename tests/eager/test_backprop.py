"""GradientTape semantics, one behaviour per test, values asserted."""
import threading

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import registry


def test_watch_constant():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    assert float(g.gradient(y, x)) == 6.0


def test_unwatched_constant_gives_none():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        y = x * x
    assert g.gradient(y, x) is None


def test_enter_returns_tape_and_nested_higher_order():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        with tf.GradientTape() as gg:
            gg.watch(x)
            y = x * x * x
        dy = gg.gradient(y, x)
    assert float(dy) == 27.0 and float(g.gradient(dy, x)) == 18.0


def test_third_order_by_persistence():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x ** 4
        d1 = t.gradient(y, x)
        d2 = t.gradient(d1, x)
        d3 = t.gradient(d2, x)
    assert [float(d) for d in (d1, d2, d3)] == [32.0, 48.0, 48.0]


def test_persistent_tape_many_gradients_and_non_persistent_once():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * x
        z = y * y
    assert float(g.gradient(z, x)) == 108.0 and float(g.gradient(y, x)) == 6.0
    with tf.GradientTape() as h:
        h.watch(x)
        y = x * x
    h.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent"):
        h.gradient(y, x)


def test_non_persistent_tape_releases_records():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.reduce_sum(tf.exp(x) * 2.0)
    records = g._tape.entries
    assert len(records) == 3
    g.gradient(y, x)
    assert records == [] and g._tape is None


def test_reenter_active_tape_is_value_error_and_finished_tape_appends():
    x = tf.constant(2.0)
    tape = tf.GradientTape(persistent=True)
    with tape:
        tape.watch(x)
        y = x * x
        with pytest.raises(ValueError, match="still recording"):
            tape.__enter__()
    with tape:
        z = y * x
    assert float(tape.gradient(z, x)) == 12.0


def test_watch_rejects_non_tensors_and_warns_for_integers(caplog):
    with tf.GradientTape() as g:
        for bad in (np.ones(2), 1.0, [1.0], "x"):
            with pytest.raises(ValueError):
                g.watch(bad)
        g.watch(tf.constant(1))
    assert "floating" in caplog.text


def test_watch_nested_structure():
    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch({"a": a, "rest": [b]})
        y = a * b
    ga, gb = g.gradient(y, [a, b])
    assert (float(ga), float(gb)) == (2.0, 1.0)


def test_nested_sources_and_targets_keep_structure():
    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch([a, b])
        y1, y2 = a * b, a + b
    grads = g.gradient({"first": y1, "second": [y2]}, {"x": a, "y": (b,)})
    assert set(grads) == {"x", "y"} and isinstance(grads["y"], tuple)
    assert float(grads["x"]) == 3.0 and float(grads["y"][0]) == 2.0


def test_repeated_sources_and_target_that_is_a_source():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * 2.0
    gx1, gx2 = g.gradient(y, [x, x])
    assert float(gx1) == float(gx2) == 2.0
    with tf.GradientTape() as g:
        g.watch(x)
    assert float(g.gradient(x, x)) == 1.0


def test_intermediate_source():
    x = tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch(x)
        h = x * x
        y = h * 3.0 + x
    gh, gx = g.gradient(y, [h, x])
    assert float(gh) == 3.0 and float(gx) == 13.0


def test_output_gradients():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    np.testing.assert_allclose(g.gradient(y, x, output_gradients=tf.constant([1.0, 10.0])).numpy(),
                               [2.0, 40.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y1, y2 = x * 2.0, x * 3.0
    got = g.gradient([y1, y2], x, output_gradients=[None, tf.constant([1.0, 0.0])])
    np.testing.assert_allclose(got.numpy(), [5.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * 2.0
    with pytest.raises(ValueError):
        g.gradient([y], x, output_gradients=[None, None])


def test_unconnected_gradients():
    x, z = tf.constant([1.0, 2.0]), tf.constant(5.0)
    for mode, expected in [(tf.UnconnectedGradients.NONE, None), ("none", None)]:
        with tf.GradientTape() as g:
            g.watch([x, z])
            y = x * 2.0
        assert g.gradient(y, z, unconnected_gradients=mode) is expected
    for mode in (tf.UnconnectedGradients.ZERO, "zero"):
        with tf.GradientTape() as g:
            g.watch([x, z])
            y = x * 2.0
        got = g.gradient(y, [x, z], unconnected_gradients=mode)
        np.testing.assert_array_equal(got[1].numpy(), 0.0)
        assert got[1].dtype is tf.float32
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * 2.0
    with pytest.raises(ValueError, match="unconnected"):
        g.gradient(y, x, unconnected_gradients="sometimes")


def test_integer_paths_are_not_recorded():
    x = tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch(x)
        i = tf.cast(x, tf.int32)
        y = tf.cast(i * 3, tf.float32) + x
    assert float(g.gradient(y, x)) == 1.0
    n = tf.constant(3)
    with tf.GradientTape() as g:
        g.watch(n)
        m = n * n
    assert g.gradient(m, n) is None and len(g._tape.entries if g._tape else []) == 0


def test_stop_recording():
    x = tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch(x)
        with g.stop_recording():
            hidden = x * x
        y = x * hidden
    assert float(g.gradient(y, x)) == 4.0
    with pytest.raises(RuntimeError):
        with g.stop_recording():
            pass


def test_reset_discards_records_and_watches():
    x, v = tf.constant(2.0), tf.Variable(1.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x + v
        g.reset()
        assert g.watched_variables() == ()
        z = x * 5.0 + y
    assert g.gradient(z, x) is None
    with tf.GradientTape() as g:
        g.watch(x)
        g.reset()
        g.watch(x)
        z = x * 5.0
    assert float(g.gradient(z, x)) == 5.0


def test_watched_variables_in_creation_order_and_after_gradient():
    b, a = tf.Variable(1.0, name="b"), tf.Variable(2.0, name="a")
    with tf.GradientTape() as g:
        y = a * b
    assert g.watched_variables() == (b, a)
    g.gradient(y, [a, b])


def test_watch_accessed_variables_false():
    v, w = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as g:
        g.watch(w)
        y = v * w
    assert g.watched_variables() == (w,)
    gv, gw = g.gradient(y, [v, w])
    assert gv is None and float(gw) == 2.0


def test_untrainable_variable_watched_explicitly():
    v = tf.Variable(2.0, trainable=False)
    with tf.GradientTape() as g:
        g.watch(v)
        y = v * v
    assert float(g.gradient(y, v)) == 4.0


def test_gradient_inside_non_persistent_context_stops_recording():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
        dy = g.gradient(y, x)
        z = y * 2.0  # not recorded any more
    assert float(dy) == 6.0 and g._tape is None


def test_gradient_inside_persistent_context_warns_and_records(caplog):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * x
        dy = g.gradient(y, x)
    assert "persistent" in caplog.text
    assert float(g.gradient(dy, x)) == 2.0


def test_several_targets_are_summed():
    x = tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y1, y2 = x * x, x * 3.0
    assert float(g.gradient([y1, y2], x)) == 7.0


def test_broadcast_gradients_reduce_to_input_shape():
    a = tf.constant(np.ones((2, 3), np.float32))
    b = tf.constant(np.ones((3,), np.float32))
    c = tf.constant(np.ones((2, 1), np.float32))
    s = tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch([a, b, c, s])
        y = a * b * c * s
    ga, gb, gc, gs = g.gradient(y, [a, b, c, s])
    assert ga.shape == [2, 3] and gb.shape == [3] and gc.shape == [2, 1] and gs.shape == []
    np.testing.assert_allclose(gb.numpy(), [4.0, 4.0, 4.0])
    np.testing.assert_allclose(gc.numpy(), [[6.0], [6.0]])
    assert float(gs) == 6.0


def test_gradient_dtype_matches_source():
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.reduce_sum(x * x)
    assert g.gradient(y, x).dtype is tf.float64


def test_missing_rule_is_lookup_error_naming_op(temporary_op):
    op = temporary_op("TestNoRule", lambda x: x * 2)
    x = tf.constant(1.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.framework.execute.execute(op, (x,), {})
    with pytest.raises(LookupError, match="TestNoRule"):
        g.gradient(y, x)


def test_rule_returning_wrong_count_is_error_naming_op(temporary_op):
    op = temporary_op("TestBadCount", np.add)
    registry.RegisterGradient("TestBadCount")(lambda op, g: g)
    x = tf.constant(1.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.framework.execute.execute(op, (x, x), {})
    with pytest.raises(ValueError, match="TestBadCount"):
        g.gradient(y, x)


def test_no_gradient_is_declared_and_gives_none():
    x = tf.constant([0.4, 1.6])
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.round(x) * x
    np.testing.assert_allclose(g.gradient(y, x).numpy(), [0.0, 2.0])
    assert registry.get_op("Round").grad is registry.NO_GRADIENT


def test_register_gradient_twice_is_error():
    with pytest.raises(KeyError):
        tf.RegisterGradient("Tanh")(lambda op, g: g)


def test_tapes_are_thread_local():
    x = tf.constant(2.0)
    seen = {}
    with tf.GradientTape() as g:
        g.watch(x)

        def other_thread():
            seen["y"] = x * x  # not on this thread's tape
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
    assert g.gradient(seen["y"], x) is None


def test_raw_and_recorded_backward_agree():
    x = tf.constant([0.3, -0.7, 1.1], dtype=tf.float64)

    def f(x):
        return tf.reduce_sum(tf.nn.softmax(tf.tanh(x) * x) * tf.sigmoid(x))

    with tf.GradientTape() as g:
        g.watch(x)
        y = f(x)
    raw = g.gradient(y, x)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as g:
            g.watch(x)
            y = f(x)
        recorded = g.gradient(y, x)
    np.testing.assert_allclose(raw.numpy(), recorded.numpy(), rtol=1e-12)


def test_indexed_slices_pass_only_through_rules_that_declare_it():
    assert registry.get_op("Neg").grad_takes_indexed_slices
    assert not registry.get_op("Tanh").grad_takes_indexed_slices
    params = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as g:
        g.watch(params)
        rows = tf.gather(params, [2, 0])
        sparse = tf.reduce_sum(-rows)           # Neg passes the slices on
        dense = tf.reduce_sum(tf.tanh(rows))    # Tanh is handed them dense
    got = g.gradient(sparse, params)
    assert isinstance(got, tf.IndexedSlices)
    np.testing.assert_array_equal(tf.convert_to_tensor(got).numpy(), [-1.0, 0.0, -1.0])
    expected = [1 - np.tanh(1.0) ** 2, 0.0, 1 - np.tanh(3.0) ** 2]
    np.testing.assert_allclose(tf.convert_to_tensor(g.gradient(dense, params)).numpy(),
                               expected, rtol=1e-5)


def test_sparse_gradient_under_an_outer_tape_is_made_of_tensors():
    params = tf.constant(np.arange(6.0).reshape(3, 2))
    with tf.GradientTape() as outer:
        outer.watch(params)
        with tf.GradientTape() as inner:
            inner.watch(params)
            picked = tf.gather(params, 1)
        g = inner.gradient(picked, params)
    assert all(isinstance(part, tf.Tensor) for part in (g.values, g.indices, g.dense_shape))
    assert g.dense_shape.numpy().tolist() == [3, 2] and g.indices.numpy().tolist() == [1]
