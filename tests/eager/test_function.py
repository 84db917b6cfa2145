"""tf.function: tracing, the cache, compiled plans, variables, and gradients through it."""
import logging

import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1
from tapeflow.framework import errors
from tapeflow.ops import math_ops


def test_traces_once_per_signature():
    traces = []

    @tf.function
    def f(x, scale):
        traces.append(1)
        return x * scale

    a = tf.constant([1.0, 2.0])
    np.testing.assert_array_equal(f(a, 2.0).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(f(tf.constant([3.0, 4.0]), 2.0).numpy(), [6.0, 8.0])
    assert f.experimental_get_tracing_count() == 1 and len(traces) == 1
    f(a, 3.0)  # a new Python value
    f(tf.constant([1.0, 2.0, 3.0]), 2.0)  # a new shape
    f(tf.constant([1, 2]), 2)  # a new dtype
    f(np.array([1.0, 2.0], np.float32), 2.0)  # NumPy arrays are traced like tensors
    assert f.experimental_get_tracing_count() == 4 and len(traces) == 4
    assert f(x=a, scale=2.0).numpy().tolist() == [2.0, 4.0]  # keywords are a signature too


def test_outputs_keep_their_structure():
    @tf.function
    def f(x):
        return {"double": x * 2.0, "pair": (x, None), "label": "text", "n": 3}

    out = f(tf.constant(1.0))
    assert float(out["double"]) == 2.0 and float(out["pair"][0]) == 1.0
    assert out["pair"][1] is None and out["label"] == "text" and out["n"] == 3
    assert isinstance(tf.function(lambda: tf.constant([1, 2]))(), tf.Tensor)


def test_runs_a_compiled_plan_without_dispatch(monkeypatch):
    @tf.function
    def f(x):
        return tf.exp(tf.square(x)) + 1.0

    x = tf.constant([0.5, 1.0])
    expected = f(x).numpy()

    def no_dispatch(*args, **kwargs):
        raise AssertionError("an op was dispatched")
    monkeypatch.setattr(math_ops, "execute", no_dispatch)
    np.testing.assert_array_equal(f(x).numpy(), expected)
    plan = f.get_concrete_function(x)._plan
    assert [op.type for op in plan.ops] == ["Square", "Exp", "Const", "AddV2"]


def test_variables_are_captured_by_reference():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        return x * v

    assert float(f(tf.constant(3.0))) == 6.0
    v.assign(5.0)
    assert float(f(tf.constant(3.0))) == 15.0 and f.experimental_get_tracing_count() == 1


def test_assignments_inside_persist_and_run_in_order():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        before = v.read_value()
        v.assign_add(x)
        v.assign(v * 10.0)
        return before, v.read_value()

    before, after = f(tf.constant(2.0))
    assert float(before) == 1.0 and float(after) == 30.0 and float(v) == 30.0
    f(tf.constant(1.0))
    assert float(v) == 310.0

    @tf.function
    def only_side_effect():
        v.assign(0.0)

    assert only_side_effect() is None and float(v) == 0.0


def test_variables_may_be_created_on_the_first_trace_only():
    class Counter:
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(0.0)
            self.v.assign_add(x)
            return self.v.read_value()

    c, other = Counter(), Counter()
    assert float(c(tf.constant(1.0))) == 1.0 and float(c(tf.constant(2.0))) == 3.0
    assert isinstance(c.v, tf.Variable) and float(c.v) == 3.0
    assert float(other(tf.constant(5.0))) == 5.0  # each instance makes its own variable

    @tf.function
    def leaky(x):
        return x * tf.Variable(1.0)

    # As TF: a first call that creates variables traces twice; the second trace creating
    # one again is a ValueError, on the first call already.
    with pytest.raises(ValueError, match="singleton tf.Variables created on the first call"):
        leaky(tf.constant(1.0))
    with pytest.raises(ValueError, match="singleton"):
        leaky(tf.constant(1.0))


def test_methods_trace_per_instance():
    class Scale:
        def __init__(self, k):
            self.k = k

        @tf.function
        def apply(self, x):
            return x * self.k

    a, b = Scale(2.0), Scale(3.0)
    assert float(a.apply(tf.constant(1.0))) == 2.0 and float(b.apply(tf.constant(1.0))) == 3.0
    assert a.apply.experimental_get_tracing_count() == 1 and a.apply is a.apply
    assert a.apply.get_concrete_function(tf.constant(1.0)).outputs[0].shape == []


def test_python_numbers_trace_by_value_as_tf():
    traces = []

    @tf.function
    def f(x, n):
        traces.append(n)
        return x * n

    x = tf.constant(1.0)
    for n in (2, 2, 2.0, 3, 1, True, 1.0):
        f(x, n)
    # 2 and 2.0 are one signature, as are 1, True and 1.0 (TF compares numbers by value).
    assert traces == [2, 3, 1] and f.experimental_get_tracing_count() == 3
    f(tf.constant([1.0, 2.0]), 2)  # a new input signature
    assert f.experimental_get_tracing_count() == 4


def test_retracing_warns(caplog):
    @tf.function
    def f(x):
        return x + 1

    with caplog.at_level(logging.WARNING, logger="tapeflow"):
        for i in range(4):
            f(i)
        assert "retracing" not in caplog.text
        f(4)
    assert "5 out of the last 5 calls" in caplog.text and "retracing" in caplog.text


def test_reduce_retracing_relaxes_shapes():
    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.reduce_sum(x)

    for n in range(1, 6):
        assert float(f(tf.constant(np.ones(n, np.float32)))) == n
    assert f.experimental_get_tracing_count() == 2
    assert f.get_concrete_function(tf.constant([1.0, 2.0, 3.0])).inputs[0].shape == [None]
    f(tf.constant(np.ones((2, 2), np.float32)))  # another rank: one more trace
    assert f.experimental_get_tracing_count() == 3


def test_input_signature():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(x * x)

    assert float(f(tf.constant([1.0, 2.0]))) == 5.0
    assert float(f([1.0, 2.0, 3.0])) == 14.0
    assert f.experimental_get_tracing_count() == 1
    cf = f.get_concrete_function()
    assert cf.inputs[0].shape.as_list() == [None] and f.input_signature[0].shape == [None]
    with pytest.raises(TypeError, match="input_signature"):
        f(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="input_signature"):
        f(tf.constant([[1.0]]))
    with pytest.raises(TypeError, match="input_signature"):
        f(tf.constant([1.0]), tf.constant([1.0]))


def test_get_concrete_function():
    @tf.function
    def f(x, y):
        return tf.matmul(x, y)

    cf = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32),
                                 tf.TensorSpec([2, 3], tf.float32))
    assert cf.outputs[0].shape.as_list() == [None, 3] and len(cf.inputs) == 2
    out = cf(tf.constant(np.ones((4, 2), np.float32)), tf.constant(np.ones((2, 3), np.float32)))
    np.testing.assert_array_equal(out.numpy(), np.full((4, 3), 2.0))
    f(tf.constant(np.ones((5, 2), np.float32)), tf.constant(np.ones((2, 3), np.float32)))
    assert f.experimental_get_tracing_count() == 1  # the spec'd trace serves other batches
    with pytest.raises(TypeError, match="2 tensor arguments"):
        cf(tf.constant(1.0))


def test_python_control_flow_on_tensors_points_to_cond():
    @tf.function(autograph=False)
    def f(x):
        if tf.reduce_sum(x):
            return x
        return -x

    with pytest.raises(errors.OperatorNotAllowedInGraphError, match="tf.cond"):
        f(tf.constant([1.0]))

    @tf.function
    def g(x):
        return [y for y in x]

    with pytest.raises(TypeError, match="while_loop"):
        g(tf.constant([1.0]))


def test_gradient_tape_inside_a_function():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(tf.matmul(x, w)))
        grad = tape.gradient(loss, w)
        w.assign_sub(0.01 * grad)
        return loss, grad

    x = tf.constant([[1.0, 1.0]])
    loss, grad = step(x)
    assert float(loss) == 52.0
    np.testing.assert_allclose(grad.numpy(), [[8.0, 12.0], [8.0, 12.0]])
    np.testing.assert_allclose(w.numpy(), [[0.92, 1.88], [2.92, 3.88]], rtol=1e-6)

    @tf.function
    def nested(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = x * x * x
            dy = inner.gradient(y, x)
        return dy, outer.gradient(dy, x)

    dy, d2y = nested(tf.constant(2.0))
    assert (float(dy), float(d2y)) == (12.0, 12.0)


def test_tf_gradients_inside_a_function():
    @tf.function
    def f(x):
        y = tf.tanh(x) * x
        return tf.gradients(y, x)[0]

    t = np.tanh(0.3)
    assert float(f(tf.constant(0.3))) == pytest.approx(t + 0.3 * (1 - t ** 2), rel=1e-6)


def test_outer_tape_differentiates_through_a_call():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        return tf.tanh(x) * v + x * x

    x = tf.constant(0.5)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    gx, gv = tape.gradient(y, [x, v])
    t = np.tanh(0.5)
    assert float(gx) == pytest.approx(2 * (1 - t ** 2) + 1.0, rel=1e-6)
    assert float(gv) == pytest.approx(t, rel=1e-6)
    assert [op.name for op, *_ in tape._tape.entries] == ["PartitionedCall"]
    assert f.experimental_get_tracing_count() == 1  # the backward is a graph, not a retrace


def test_higher_order_through_a_call_and_python_not_rerun(derivatives):
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x * x * x

    assert derivatives(f, tf.constant(2.0), 3) == [8.0, 12.0, 12.0, 6.0]
    assert len(calls) == 1


def test_backward_uses_the_saved_forward_values():
    @tf.function
    def f(x):
        return tf.exp(x) * 2.0

    cf = f.get_concrete_function(tf.constant([1.0]))
    info = cf._gradient_info()
    assert [t.op.type for t in info.saved] == ["Exp"]
    assert "Exp" not in [op.type for op in info.backward_plan.ops]


def test_function_called_while_building_a_graph():
    @tf.function
    def f(x):
        return x * x

    with tf.Graph().as_default():
        p = tf1.placeholder(tf.float32, [None])
        y = f(p)
        (g,) = tf.gradients(tf.reduce_sum(y), p)
        assert y.op.type == "PartitionedCall"
        out, grad = tf1.Session().run([y, g], {p: [1.0, 3.0]})
    np.testing.assert_array_equal(out, [1.0, 9.0])
    np.testing.assert_array_equal(grad, [2.0, 6.0])


def test_nested_functions():
    @tf.function
    def inner(x):
        return x * 3.0

    @tf.function
    def outer(x):
        return inner(x) + inner(x * 2.0)

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = outer(x)
    assert float(y) == 9.0 and float(tape.gradient(y, x)) == 9.0


def test_errors_at_run_time_name_the_node():
    @tf.function
    def f(x, y):
        return tf.matmul(x, y)

    f(tf.constant(np.ones((2, 2), np.float32)), tf.constant(np.ones((2, 2), np.float32)))
    cf = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32),
                                 tf.TensorSpec([None, 2], tf.float32))
    with pytest.raises(errors.InvalidArgumentError, match="node MatMul"):
        cf(tf.constant(np.ones((3, 2), np.float32)), tf.constant(np.ones((3, 2), np.float32)))


def test_tape_inside_watches_a_captured_tensor():
    x = tf.constant([0.5, -1.0])

    @tf.function
    def grad():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.tanh(x * 2.0))
        return tape.gradient(y, x)

    np.testing.assert_allclose(grad().numpy(), 2.0 * (1 - np.tanh([1.0, -2.0]) ** 2), rtol=1e-6)


def test_captured_eager_tensors_are_inputs_not_folded_constants():
    x = tf.constant([0.5, 2.0])

    @tf.function
    def f():
        return tf.exp(x) * 2.0

    cf = f.get_concrete_function()
    assert cf.captured_inputs == [x] and [op.type for op in cf._plan.ops] == ["Exp", "Const", "Mul"]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f()
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 2.0 * np.exp([0.5, 2.0]), rtol=1e-6)
