"""Compiled plans: freeing intermediates, skipped work, and variable updates in place."""
import re
import tracemalloc

import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1
from tapeflow.framework import errors
from tapeflow.framework.plan import Plan

N = 4096  # float64 elements: 32 KiB, above the size under which plans do not free


def _run_types(plan) -> list:
    """The op types the plan's code calls a kernel for, in order."""
    return [op.type for _, op in sorted(plan._lines.items())]


def _address(array) -> int:
    return array.__array_interface__["data"][0]


def test_each_intermediate_is_freed_after_its_last_read():
    with tf.Graph().as_default() as g:
        x = tf1.placeholder(tf.float64, [N])
        y = tf.tanh(x)
        z = y * 2.0 + 1.0
        w = z * y
        out = tf.exp(w)
    plan = Plan(g.get_operations(), [x], [out, z])
    lines = plan.source().splitlines()
    freed = {}
    for i, line in enumerate(lines):
        if line.strip().startswith("del "):
            for name in line.strip()[4:].split(", "):
                freed[name] = i
    assert freed, plan.source()
    for name, at in freed.items():
        uses = [i for i, line in enumerate(lines) if re.search(rf"\b{name}\b", line) and i != at]
        assert max(uses) == at - 1  # freed right after its last read, never read again
    kept = re.findall(r"\w+", lines[-1])
    assert not set(freed) & set(kept)  # fetched values are not freed
    value = np.linspace(-1.0, 1.0, N)
    got_out, got_z = plan(value)
    t = np.tanh(value)
    np.testing.assert_array_equal(got_z, t * 2.0 + 1.0)
    np.testing.assert_array_equal(got_out, np.exp((t * 2.0 + 1.0) * t))


def test_small_intermediates_are_left_to_the_end():
    with tf.Graph().as_default() as g:
        x = tf1.placeholder(tf.float32, [4])
        y = tf.tanh(tf.tanh(x))
    assert "del" not in Plan(g.get_operations(), [x], [y]).source()


def test_a_run_holds_only_the_arrays_still_needed():
    steps = 20
    with tf.Graph().as_default() as g:
        x = tf1.placeholder(tf.float64, [N * 32])  # 1 MiB
        y = x
        for _ in range(steps):
            y = tf.tanh(y) * 0.5
    plan = Plan(g.get_operations(), [x], [y])
    value = np.full(N * 32, 0.25)
    plan(value)
    tracemalloc.start()
    try:
        plan(value)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * value.nbytes  # not one array per op (2 * steps of them)


def test_reshape_to_the_same_shape_and_identity_run_no_kernel():
    with tf.Graph().as_default() as g:
        x = tf1.placeholder(tf.float32, [2, 3])
        y = tf.identity(tf.reshape(tf.square(x), [2, 3]))
        z = tf.reshape(y, [3, 2])
    plan = Plan(g.get_operations(), [x], [y, z])
    assert _run_types(plan) == ["Square", "Reshape"]
    value = np.arange(6, dtype=np.float32).reshape(2, 3)
    got_y, got_z = plan(value)
    np.testing.assert_array_equal(got_y, value ** 2)
    np.testing.assert_array_equal(got_z, (value ** 2).reshape(3, 2))


def test_gradients_nobody_asked_for_are_not_computed():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((8, 5)))
    w = tf.Variable(rng.standard_normal((5, 3)))

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.tanh(tf.matmul(x, w)))
        grad = tape.gradient(loss, w)
        w.assign_sub(0.1 * grad)
        return grad

    step()
    plan = step.get_concrete_function()._plan
    # The forward product and the weights' gradient; not the input's (x^T is never needed).
    assert _run_types(plan).count("BatchMatMulV2") == 2
    with tf.Graph().as_default() as g:
        a = tf1.placeholder(tf.float64, [8, 5])
        b = tf1.placeholder(tf.float64, [5, 3])
        grad_b = tf.gradients(tf.reduce_sum(tf.matmul(a, b)), b)[0]
    assert _run_types(Plan(g.get_operations(), [a, b], [grad_b])).count("BatchMatMulV2") == 1


def test_sparse_cross_entropy_gradient_is_graph_ops_equal_to_eager():
    rng = np.random.default_rng(1)
    logits = tf.constant(rng.standard_normal((6, 4)).astype(np.float32))
    labels = tf.constant(np.array([0, 3, 1, 1, 2, 0], np.int32))

    def grad():
        with tf.GradientTape() as tape:
            tape.watch(logits)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits))
        return tape.gradient(loss, logits)

    compiled = tf.function(grad)
    np.testing.assert_array_equal(compiled().numpy(), grad().numpy())
    assert "EagerPyFunc" not in _run_types(compiled.get_concrete_function()._plan)


def test_a_training_step_matches_eager_bit_for_bit():
    rng = np.random.default_rng(2)
    x = tf.constant(rng.standard_normal((16, 8)).astype(np.float32))
    y = tf.constant(rng.integers(0, 3, 16).astype(np.int32))
    init = [rng.standard_normal(s).astype(np.float32) for s in [(8, 12), (12,), (12, 3), (3,)]]

    def make_step(variables):
        def step():
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(x, variables[0]) + variables[1])
                logits = tf.matmul(h, variables[2]) + variables[3]
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=y, logits=logits))
            grads = tape.gradient(loss, variables)
            for v, g in zip(variables, grads):
                v.assign_sub(0.1 * g)
            return grads
        return step

    eager = [tf.Variable(a) for a in init]
    compiled = [tf.Variable(a) for a in init]
    eager_step, compiled_step = make_step(eager), tf.function(make_step(compiled))
    for _ in range(3):
        for e, c in zip(eager_step(), compiled_step()):
            np.testing.assert_array_equal(c.numpy(), e.numpy())
    for e, c in zip(eager, compiled):
        np.testing.assert_array_equal(c.numpy(), e.numpy())


def test_an_unread_update_is_made_in_the_variables_own_array():
    v = tf.Variable(np.ones(N))

    @tf.function
    def step(d):
        v.assign_sub(d * 2.0)

    address = _address(v._value)
    step(tf.constant(np.full(N, 0.25)))
    assert _address(v._value) == address
    np.testing.assert_array_equal(v.numpy(), np.full(N, 0.5))


def test_an_update_in_place_never_changes_an_array_someone_holds():
    v = tf.Variable(np.ones(N))

    @tf.function
    def step():
        v.assign_sub(tf.ones([N], tf.float64))

    snapshot = v.read_value()  # shares the variable's array
    step()
    np.testing.assert_array_equal(snapshot.numpy(), np.ones(N))
    np.testing.assert_array_equal(v.numpy(), np.zeros(N))
    # A captured tensor a function assigned to the variable is not overwritten either.
    captured = tf.constant(np.full(N, 3.0))

    @tf.function
    def assign():
        v.assign(captured)

    assign()
    step()
    np.testing.assert_array_equal(captured.numpy(), np.full(N, 3.0))
    np.testing.assert_array_equal(v.numpy(), np.full(N, 2.0))


def test_reads_after_a_staged_update_see_it():
    v = tf.Variable(np.zeros(N))

    @tf.function
    def f():
        v.assign_add(tf.ones([N], tf.float64))
        v.assign_add(tf.ones([N], tf.float64))
        return v.read_value() * 10.0

    np.testing.assert_array_equal(f().numpy(), np.full(N, 20.0))
    np.testing.assert_array_equal(v.numpy(), np.full(N, 2.0))


def test_a_failed_run_makes_no_staged_update():
    v = tf.Variable(np.zeros(N))

    @tf.function
    def f(label):
        v.assign_add(tf.ones([N], tf.float64))
        return tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=tf.reshape(label, [1]), logits=tf.constant([[0.0, 0.0]]))

    with pytest.raises(errors.InvalidArgumentError, match="label"):
        f(tf.constant(5))
    np.testing.assert_array_equal(v.numpy(), np.zeros(N))
    f(tf.constant(1))
    np.testing.assert_array_equal(v.numpy(), np.ones(N))


def test_session_variables_are_updated_in_place_too():
    with tf.Graph().as_default() as g:
        v = tf.Variable(np.ones(N))
        update = v.assign_sub(tf.fill([N], np.float64(0.5)), read_value=False)
        sess = tf1.Session(graph=g)
        sess.run(tf1.global_variables_initializer())
    sess.run(update)  # the first update leaves the initial value, a graph constant, alone
    address = _address(sess._values[v._id])
    sess.run(update)
    assert _address(sess._values[v._id]) == address
    np.testing.assert_array_equal(sess.run(v), np.zeros(N))


def _placing_reader(inputs: list, buffers: dict, asked: list):
    """A Python node reading `inputs` that asks for input i to be computed into
    `buffers[i]` (None when absent); it returns the sum of each input and notes `asked`."""
    from tapeflow.framework.execute import execute
    from tapeflow.ops.script_ops import EagerPyFunc

    def into(index):
        asked.append(index)
        return buffers.get(index)

    def fn(*arrays):
        return [np.array(sum(float(a.sum()) for a in arrays))]

    return execute(EagerPyFunc, tuple(inputs), {"fn": fn, "Tout": [(np.dtype("float64"), ())],
                                                "into": into})[0]


def test_a_reader_may_have_its_inputs_computed_into_its_own_memory():
    a_value, b_value = np.arange(12.0).reshape(3, 4), np.arange(8.0).reshape(4, 2)
    with tf.Graph().as_default() as g:
        a = tf1.placeholder(tf.float64, [3, 4])
        b = tf1.placeholder(tf.float64, [4, 2])
        product = tf.matmul(a, b)        # placed: a kernel with `out`, read by the node only
        difference = a - 1.0             # placed: a ufunc
        shared = tf.tanh(b)              # read twice: computed as usual
        fetched = b * 2.0                # fetched too: computed as usual
        total = _placing_reader([product, difference, shared, shared * 1.0, fetched],
                                buffers := {0: np.zeros((3, 2)), 1: np.zeros((3, 4))},
                                asked := [])
    plan = Plan(g.get_operations(), [a, b], [total, fetched])
    assert len(re.findall(r"\bout=", plan.source())) == 3  # MatMul, Sub, Mul(shared, 1.0)
    got_total, got_fetched = plan(a_value, b_value)
    np.testing.assert_array_equal(buffers[0], a_value @ b_value)
    np.testing.assert_array_equal(buffers[1], a_value - 1.0)
    expected = (a_value @ b_value).sum() + (a_value - 1.0).sum() + 2 * np.tanh(b_value).sum() \
        + (b_value * 2.0).sum()
    assert float(got_total) == pytest.approx(expected)
    np.testing.assert_array_equal(got_fetched, b_value * 2.0)
    assert sorted(asked) == [0, 1, 3]  # input 3, given no buffer, was computed as usual
    asked.clear()
    plan(a_value + 1.0, b_value)  # each run asks again
    np.testing.assert_array_equal(buffers[1], a_value)
    assert sorted(asked) == [0, 1, 3]
