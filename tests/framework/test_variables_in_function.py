"""Variables created while a tf.function is traced: lifted out of the function, first
trace only; variable creators inside functions; init_scope. Expected values and error
classes are TF 2.21's."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.lifting import UnliftableError, lift


def test_a_graph_computed_initial_value_is_lifted_and_the_first_call_traces_twice():
    made, traces = [], []

    @tf.function
    def f(x):
        traces.append(1)
        if not made:
            made.append(tf.Variable(tf.random.normal([2]) * 0.0 + 1.0))
        return made[0] + x

    assert f(tf.constant(1.0)).numpy().tolist() == [2.0, 2.0]
    assert f.experimental_get_tracing_count() == 2 and len(traces) == 2
    assert f(tf.constant(2.0)).numpy().tolist() == [3.0, 3.0]
    assert f.experimental_get_tracing_count() == 2
    v = made[0]
    assert isinstance(v, tf.Variable) and v.name == "Variable:0"
    assert v.numpy().tolist() == [1.0, 1.0]  # an ordinary eager variable
    v.assign([5.0, 6.0])
    assert f(tf.constant(0.0)).numpy().tolist() == [5.0, 6.0]  # captured by reference


def test_initial_values_from_shapes_python_numbers_and_initializers():
    class Lazy(tf.Module):
        def __init__(self):
            super().__init__(name="lazy")
            self.w = None

        @tf.function
        def __call__(self, x):
            if self.w is None:
                init = tf.keras.initializers.Constant(0.5)
                self.w = tf.Variable(init([x.shape[-1], 3]), name="w")
                self.b = tf.Variable(tf.zeros([3]), name="b")
            return tf.matmul(x, self.w) + self.b

    m = Lazy()
    out = m(tf.ones([2, 4]))
    assert out.numpy().tolist() == [[2.0, 2.0, 2.0]] * 2
    assert m.w.shape == (4, 3) and m.b.shape == (3,)
    assert [v.name for v in m.trainable_variables] == ["b:0", "w:0"]


def test_an_initial_value_from_an_argument_takes_the_first_calls_value():
    made = []

    @tf.function
    def h(x):
        if not made:
            made.append(tf.Variable(x * 2))
        return made[0].read_value()

    assert float(h(tf.constant(1.0))) == 2.0
    assert float(h(tf.constant(5.0))) == 2.0
    assert h.experimental_get_tracing_count() == 2


def test_an_initial_value_from_a_tensorspec_input_cannot_be_lifted():
    made = []

    @tf.function
    def k(x):
        if not made:
            made.append(tf.Variable(x * 2))
        return made[0].read_value()

    with pytest.raises(UnliftableError, match=r"depends on the function input.*mul \(Mul\) <- "):
        k.get_concrete_function(tf.TensorSpec([], tf.float32))


def test_creating_variables_again_on_a_retrace_is_a_value_error():
    @tf.function
    def every_call():
        return tf.Variable(tf.random.normal([2])).read_value()

    for _ in range(2):  # the error stays (TF: the same ValueError on each call)
        with pytest.raises(ValueError, match="singleton tf.Variables created on the first call"):
            every_call()

    per_size = {}

    @tf.function
    def g(n):
        if n not in per_size:
            per_size[n] = tf.Variable(tf.zeros([n]))
        return per_size[n] + 1.0

    assert g(3).numpy().tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="singleton"):
        g(4)


def test_creating_variables_after_a_first_call_that_made_none_is_a_value_error():
    later = {}

    @tf.function
    def g2(n):
        if n > 3 and n not in later:
            later[n] = tf.Variable(tf.zeros([n]))
        return tf.constant(1.0)

    assert float(g2(3)) == 1.0
    with pytest.raises(ValueError, match="non-first call"):
        g2(4)


def test_callable_initial_values_are_called_in_the_graph():
    seen, made = [], []

    @tf.function
    def c():
        if not made:
            def init():
                seen.append(tf.executing_eagerly())
                return tf.ones([2])
            made.append(tf.Variable(init))
        return made[0].read_value()

    assert c().numpy().tolist() == [1.0, 1.0] and seen == [False]


def test_init_scope_runs_eagerly_inside_a_function_and_keeps_the_name_scope():
    @tf.function
    def m(x):
        with tf.name_scope("block"), tf.init_scope():
            eager = tf.executing_eagerly()
            c = tf.constant(3.0) * 2
            scope = tf.get_current_name_scope()
        return c * x, eager, scope

    y, eager, scope = m(tf.constant(2.0))
    assert float(y) == 12.0 and bool(eager) is True and scope == "block"


def test_variables_made_in_init_scope_inside_a_function_follow_its_rules():
    @tf.function
    def m2():
        with tf.init_scope():
            v = tf.Variable(1.0)
        return v.read_value()

    with pytest.raises(ValueError, match="singleton"):
        m2()


def test_creators_see_the_graph_initial_value_innermost_first_then_the_function():
    calls = []

    def creator(tag):
        def create(next_creator, **kwargs):
            calls.append((tag, tf.executing_eagerly(), tf.is_symbolic_tensor(
                kwargs["initial_value"])))
            return next_creator(**kwargs)
        return create

    @tf.function
    def f():
        with tf.variable_creator_scope(creator("inner")):
            if not hasattr(f, "v"):
                f.v = tf.Variable(tf.ones([2]))
        return f.v.read_value()

    with tf.variable_creator_scope(creator("outer")):
        assert f().numpy().tolist() == [1.0, 1.0]
    assert calls == [("inner", False, True), ("outer", False, True)]
    assert f.v.numpy().tolist() == [1.0, 1.0]


def test_creators_get_tfs_keyword_set():
    got = []

    def creator(next_creator, **kwargs):
        got.append(dict(kwargs))
        return next_creator(**kwargs)

    with tf.variable_creator_scope(creator):
        tf.Variable(1.0)
        tf.Variable(lambda: 2.0, name="w", trainable=False, dtype=tf.float64, shape=[])
    assert sorted(got[0]) == [
        "aggregation", "caching_device", "constraint", "dtype",
        "experimental_enable_variable_lifting", "import_scope", "initial_value", "name",
        "shape", "synchronization", "trainable", "validate_shape", "variable_def"]
    assert got[0]["synchronization"] is tf.VariableSynchronization.AUTO
    assert got[0]["aggregation"] is tf.VariableAggregation.NONE
    assert got[0]["validate_shape"] is True and got[0]["initial_value"] == 1.0
    assert got[0]["experimental_enable_variable_lifting"] is None and got[0]["trainable"] is None
    assert got[1]["name"] == "w" and got[1]["dtype"] is tf.float64 and got[1]["shape"] == []


def test_a_tape_outside_sees_the_variable_not_its_initializer():
    @tf.function
    def g(x):
        if not hasattr(g, "v"):
            g.v = tf.Variable(x * 3)
        return g.v * x

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = g(x)
    dx, dv = tape.gradient(y, [x, g.v])
    assert float(y) == 12.0 and float(dx) == 6.0 and float(dv) == 2.0


def test_unlifted_graph_initial_values_are_a_value_error():
    @tf.function
    def f(x):
        return tf.Variable(x, experimental_enable_variable_lifting=False).read_value()

    with pytest.raises(ValueError, match="could not be lifted"):
        f(tf.constant(1.0))


def test_variables_are_named_under_the_name_scope():
    with tf.name_scope("a"):
        assert tf.Variable(1.0, name="w").name == "a/w:0"
        assert tf.Variable(1.0).name == "a/Variable:0"
        with tf.name_scope("b"):
            assert tf.Variable(1.0, name="w").name == "a/b/w:0"

    @tf.function
    def f():
        with tf.name_scope("s"):
            if not hasattr(f, "v"):
                f.v = tf.Variable(lambda: tf.ones([]), name="v")
                f.u = tf.Variable(tf.ones([]), name="v")
        return f.v + 0

    f()
    assert f.v.name == "s/v:0" and f.u.name == "s/v:0"  # eager names are not made unique


def test_module_variables_made_in_a_function_take_the_modules_scope():
    class M(tf.Module):
        def __init__(self):
            super().__init__(name="mod")

        @tf.Module.with_name_scope
        def __call__(self, x):
            if not hasattr(self, "w"):
                self.w = tf.Variable(tf.ones([2]), name="w")
            return self.w * x

    m = M()
    tf.function(m)(tf.constant(1.0))
    assert m.w.name == "mod/w:0"
    with tf.name_scope("outer"):
        inner = tf.Module(name="mod")
    assert inner.name_scope.name == "outer/mod/" and tf.Module(name="mod").name_scope.name == \
        "mod/"


def test_lift_returns_non_graph_values_unchanged_and_computes_graph_ones():
    eager = tf.constant([1.0])
    assert lift(eager) is eager and lift(3) == 3
    seen = []

    @tf.function
    def f(x):
        a = tf.fill([2], 3.0) * 2.0
        b = tf.reduce_sum(x)
        with tf.init_scope():
            seen.append(lift(a).numpy().tolist())
            with pytest.raises(UnliftableError, match="Sum"):
                lift(b)
        return b

    f.get_concrete_function(tf.TensorSpec([2], tf.float32))
    assert seen == [[6.0, 6.0]]


def test_variables_in_tf1_graph_functions_are_graph_variables():
    made = []
    with tf.Graph().as_default():
        @tf.function
        def scaled(x):
            if not made:
                made.append(tf.Variable(tf.fill([], 3.0)))
            return x * made[0]

        x = tf.compat.v1.placeholder(tf.float32, [])
        y = scaled(x)
        sess = tf.compat.v1.Session()
        sess.run(tf.compat.v1.global_variables_initializer())
        assert sess.run(y, {x: 2.0}) == 6.0
        assert np.isclose(sess.run(made[0]), 3.0)


def test_an_initial_value_from_an_inputs_known_shape_lifts_from_a_tensorspec_trace():
    # TF: zeros_like of a tensor of fully known shape is a constant in the graph, so a
    # variable initialised with it lifts even when the trace is for a TensorSpec.
    made = []

    @tf.function
    def k(x):
        if not made:
            made.append(tf.Variable(tf.zeros_like(tf.reduce_mean(x, 0))))
        return made[0] + 1.0

    k.get_concrete_function(tf.TensorSpec([2, 3], tf.float32))
    np.testing.assert_array_equal(made[0].numpy(), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(k(tf.ones([2, 3])).numpy(), [1.0, 1.0, 1.0])
