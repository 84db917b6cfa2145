"""tf.compat.v1: placeholders, Session, graph variables, optimizers, the seed example."""
import collections
import contextlib
import io
import re
from pathlib import Path

import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1
from tapeflow.framework import errors

SEED = Path("/work/shared/seeds/000_8915fe75b0efc645.txt")


def run_printing(code: str) -> str:
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "seed", "exec"), {"__name__": "__main__"})
    finally:
        tf1.enable_eager_execution()
    return out.getvalue()


@pytest.mark.skipif(not SEED.exists(), reason="the seed documents are not in this checkout")
def test_seed_example_runs_with_only_the_import_changed():
    text = SEED.read_text()
    code = text[text.index("import tensorflow as tf"):text.index("The above code")]
    code = code.replace("import tensorflow as tf",
                        "import tapeflow.compat.v1 as tf\ntf.disable_eager_execution()")
    assert run_printing(code) == "[4.0]\n"


def test_disable_and_enable_eager_execution(graph_mode):
    assert not tf1.executing_eagerly() and not tf.executing_eagerly()
    c = tf1.constant(2.0)
    assert c.graph is graph_mode
    assert tf1.Session().run(c) == 2.0
    tf1.enable_eager_execution()
    assert tf.executing_eagerly() and float(tf.constant(2.0)) == 2.0


def test_placeholder_feeding_checks_shape_and_dtype(graph_mode):
    x = tf1.placeholder(tf.float32, shape=[None, 2], name="x")
    n = tf1.placeholder(tf.int32, shape=[], name="n")
    y = tf.reduce_sum(x, axis=1) * 2.0
    with tf1.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [[1, 2], [3, 4], [5, 6]]}), [6, 14, 22])
        assert sess.run(y, {x: np.ones((1, 2))}).dtype == np.float32
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\)"):
            sess.run(y, {x: [1.0, 2.0, 3.0]})
        with pytest.raises(TypeError, match="dtype int32"):
            sess.run(n, {n: 1.5})
        with pytest.raises(errors.InvalidArgumentError, match=r"must feed a value for "
                           r"placeholder tensor 'x' with dtype float32 and shape \[\?,2\]"):
            sess.run(y)
        assert sess.run(n, {"n:0": 3}) == 3  # fed by name
        assert sess.run(y, {x: [[1.0, 1.0]], n: 5}).shape == (1,)  # extra feeds are fine


def test_placeholder_is_graph_only():
    with pytest.raises(RuntimeError, match="eager"):
        tf1.placeholder(tf.float32)


def test_run_nested_fetches(graph_mode):
    a = tf1.constant(1.0)
    b = tf1.constant([2, 3])
    pair = collections.namedtuple("pair", "first second")
    op = tf1.no_op()
    sess = tf1.Session()
    result = sess.run({"a": a, "rest": [b, (a, op)], "p": pair(a, b)})
    assert result["a"] == 1.0 and result["rest"][1] == (1.0, None)
    np.testing.assert_array_equal(result["rest"][0], [2, 3])
    assert isinstance(result["p"], pair) and result["p"].first == 1.0
    assert sess.run("Const:0") == 1.0 and sess.run(a.op) is None
    assert sess.run([]) == []
    scalar = sess.run(a)
    assert isinstance(scalar, np.float32) and repr([scalar]) == "[1.0]"


def test_fetch_errors(graph_mode):
    sess = tf1.Session()
    with pytest.raises(TypeError, match="None"):
        sess.run(None)
    with pytest.raises(TypeError, match="eager"):
        tf1.enable_eager_execution()
        eager = tf.constant(1.0)
        tf1.disable_eager_execution()
        sess.run(eager)
    with tf.Graph().as_default():
        foreign = tf.constant(1.0)
    with pytest.raises(ValueError, match="cannot be interpreted"):
        sess.run(foreign)
    with pytest.raises(ValueError, match="cannot be interpreted"):
        sess.run(tf1.constant(1.0), {foreign: 2.0})


def test_closed_session_and_context_manager(graph_mode):
    c = tf1.constant(3.0)
    with tf1.Session() as sess:
        assert c.eval() == 3.0  # the default session inside `with`
        assert c.eval(session=sess) == 3.0
    with pytest.raises(RuntimeError, match="closed"):
        sess.run(c)
    with pytest.raises(ValueError, match="default session"):
        c.eval()
    interactive = tf1.InteractiveSession()
    assert c.eval() == 3.0
    interactive.close()


def test_session_on_an_explicit_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(2.0) ** 3.0
    with tf1.Session(graph=g) as sess:
        assert sess.graph is g and sess.run(x) == 8.0
        assert tf1.get_default_graph() is g  # `with` makes the graph the default too
    assert tf.executing_eagerly()


def test_graph_variables_assign_ops(graph_mode):
    v = tf1.Variable(1.0, name="counter")
    add = tf1.assign_add(v, 2.0)
    sub = tf1.assign_sub(v, 0.5)
    set_ = tf1.assign(v, 10.0)
    assert isinstance(add, tf.Tensor) and add.op.type == "AssignAddVariableOp"
    sess = tf1.Session()
    sess.run(tf1.variables_initializer([v]))
    assert sess.run(add) == 3.0 and sess.run(sub) == 2.5 and sess.run(set_) == 10.0
    assert v.eval(session=sess) == 10.0
    v.load(4.0, sess)
    assert sess.run(v) == 4.0
    assert tf1.global_variables() == [v] and tf1.trainable_variables() == [v]
    assert sess.run(tf1.local_variables_initializer()) is None
    assert v.assign(1.0, read_value=False).type == "AssignVariableOp"


def _linear_regression(optimizer_step):
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(64, 2)).astype(np.float32)
    ys = xs @ np.array([[2.0], [-3.0]], np.float32) + 1.0
    x = tf1.placeholder(tf.float32, [None, 2])
    y = tf1.placeholder(tf.float32, [None, 1])
    w = tf1.Variable(np.zeros((2, 1), np.float32))
    b = tf1.Variable(0.0)
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    step = optimizer_step(loss)
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    first = sess.run(loss, {x: xs, y: ys})
    for _ in range(200):
        sess.run(step, {x: xs, y: ys})
    return first, sess.run([loss, w, b], {x: xs, y: ys})


def test_gradient_descent_minimize_fits_a_line(graph_mode):
    first, (last, w, b) = _linear_regression(
        lambda loss: tf1.train.GradientDescentOptimizer(0.1).minimize(loss))
    assert first > 10.0 and last < 1e-6
    np.testing.assert_allclose(w.ravel(), [2.0, -3.0], atol=1e-3)
    assert b == pytest.approx(1.0, abs=1e-3)


def test_compute_and_apply_gradients(graph_mode):
    w = tf1.Variable(3.0)
    unused = tf1.Variable(1.0)
    step = tf1.Variable(0, trainable=False)
    optimizer = tf1.train.GradientDescentOptimizer(learning_rate=0.25)
    pairs = optimizer.compute_gradients(w * w)
    assert [v for _, v in pairs] == [w, unused] and pairs[1][0] is None
    train = optimizer.apply_gradients(pairs, global_step=step)
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    assert sess.run(pairs[0][0]) == 6.0
    sess.run(train)
    assert sess.run([w, unused, step]) == [1.5, 1.0, 1]
    with pytest.raises(ValueError, match="No gradients"):
        optimizer.apply_gradients([(None, w)])
    with pytest.raises(ValueError, match="No variables"):
        optimizer.compute_gradients(w * w, var_list=[])


def test_gradient_descent_eagerly():
    w = tf.Variable(3.0)
    optimizer = tf1.train.GradientDescentOptimizer(0.25)
    assert optimizer.minimize(lambda: w * w) is None
    assert float(w) == 1.5
    with pytest.raises(RuntimeError, match="function"):
        optimizer.minimize(w * w)


def test_gradients_v1_signature(graph_mode):
    x = tf1.constant(3.0)
    (g,) = tf1.gradients(x * x, x, colocate_gradients_with_ops=True)
    (h,) = tf1.hessians(x * x * x, x)
    assert tf1.Session().run([g, h]) == [6.0, 18.0]


def test_v1_namespace_reaches_every_top_level_name():
    assert tf1.square is tf.square and tf1.float32 is tf.float32 and tf1.Variable is tf.Variable
    with pytest.raises(AttributeError):
        tf1.no_such_name
    assert tf.compat.v1 is tf1 and tf.compat.v2 is tf
    assert re.match(r"\d", tf.__version__)


def test_feeding_an_intermediate_tensor_cuts_the_graph(graph_mode):
    x = tf1.placeholder(tf.float32, [])
    hidden = x * 2.0
    y = hidden + 1.0
    assert tf1.Session().run(y, {hidden: 10.0}) == 11.0  # x need not be fed


def test_initial_values_from_other_variables(graph_mode):
    v = tf1.Variable(2.0)
    w = tf1.Variable(v * 3.0)
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    assert sess.run([v, w]) == [2.0, 6.0]


def test_functions_in_tf1_graphs(graph_mode):
    made = []

    @tf.function
    def scaled(x):
        if not made:  # made once, in the TF1 graph: initialized with the others
            made.append(tf.Variable(3.0))
        return x * made[0]

    x = tf1.placeholder(tf.float32, [])
    y = scaled(x)
    (g,) = tf1.gradients(y, x)
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    assert sess.run([y, g], {x: 2.0}) == [6.0, 3.0]
