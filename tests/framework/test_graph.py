"""Graphs, operations, symbolic tensors, static shapes, graph variables and plans."""
import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1
from tapeflow.framework import errors
from tapeflow.framework.graph_tensor import SymbolicTensor
from tapeflow.framework.plan import Plan
from tapeflow.ops import math_ops


def test_as_default_switches_modes_and_restores():
    g = tf.Graph()
    assert tf.executing_eagerly()
    with g.as_default() as inside:
        assert inside is g and not tf.executing_eagerly()
        assert tf1.get_default_graph() is g
        y = tf.square(tf.constant(2.0))
    assert tf.executing_eagerly() and isinstance(y, SymbolicTensor)
    assert y.graph is g and y.op.type == "Square" and y.dtype is tf.float32 and y.shape == []
    assert float(tf.square(tf.constant(2.0))) == 4.0  # eager again


def test_static_shapes_with_unknown_dimensions():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        h = tf.matmul(x, tf.constant(np.ones((3, 4), np.float32)))
        assert h.shape.as_list() == [None, 4]
        assert (h + tf.constant(np.zeros(4, np.float32))).shape.as_list() == [None, 4]
        assert tf.reduce_sum(h, axis=1).shape.as_list() == [None]
        assert tf.reduce_sum(h, axis=0).shape.as_list() == [4]
        assert tf.reshape(x, [-1]).shape.as_list() == [None]
        assert tf.transpose(h).shape.as_list() == [4, None]
        unknown = tf1.placeholder(tf.float32)
        assert unknown.shape.rank is None and tf.square(unknown).shape.rank is None
        assert tf.cast(h, tf.float64).dtype is tf.float64
        x.set_shape([5, 3])
        assert x.shape.as_list() == [5, 3]
        with pytest.raises(ValueError):
            x.set_shape([4, 3])


def test_construction_errors_are_value_errors():
    with tf.Graph().as_default():
        a = tf.constant(np.ones((2, 3), np.float32))
        with pytest.raises(ValueError, match="MatMul"):
            tf.matmul(a, a)
        b = tf1.placeholder(tf.float32, [2, 3])
        with pytest.raises(ValueError):
            tf.matmul(b, b)
        with pytest.raises(errors.InvalidArgumentError):
            tf.add(a, tf.constant(1, tf.int32))


def test_constant_folding_of_deterministic_ops():
    with tf.Graph().as_default():
        folded = tf.constant(2.0) * 3.0
        assert float(folded._const) == 6.0
        x = tf1.placeholder(tf.float32, [])
        assert (x * 3.0)._const is None


def test_names_scopes_and_lookup():
    g = tf.Graph()
    with g.as_default():
        a = tf.square(tf.constant(1.0))
        b = tf.square(tf.constant(2.0))
        with g.name_scope("block"):
            c = tf.square(a)
        x = tf1.placeholder(tf.float32, name="x")
    assert (a.name, b.name, c.name, x.name) == ("Square:0", "Square_1:0", "block/Square:0",
                                                "x:0")
    assert g.get_tensor_by_name("Square_1:0") is b
    assert g.get_operation_by_name("block/Square") is c.op
    assert c.op.inputs == (a,) and c.op.outputs == (c,) and a.consumers() == [c.op]
    with pytest.raises(KeyError):
        g.get_operation_by_name("nope")
    with pytest.raises(ValueError):
        g.get_tensor_by_name("Square")
    assert repr(x) == "<tf.Tensor 'x:0' shape=<unknown> dtype=float32>"
    assert str(a) == 'Tensor("Square:0", shape=(), dtype=float32)'
    assert repr(a.op) == "<tf.Operation 'Square' type=Square>"
    with pytest.raises(ValueError, match="attr"):
        a.op.get_attr("axis")


def test_symbolic_tensors_refuse_python_values():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [2])
        with pytest.raises(errors.OperatorNotAllowedInGraphError, match="tf.cond"):
            bool(x)
        with pytest.raises(TypeError):
            iter(x)
        with pytest.raises(TypeError, match="shape"):
            len(x)
        with pytest.raises(NotImplementedError, match="NumPy"):
            np.asarray(x)
        with pytest.raises(TypeError):
            float(x)
        assert not hasattr(x, "numpy")
        assert hash(x) == id(x) and x == x and x != tf1.placeholder(tf.float32, [2])


def test_graph_tensor_used_eagerly_is_a_type_error():
    with tf.Graph().as_default():
        leaked = tf.square(tf1.placeholder(tf.float32, [2], name="leak"))
    with pytest.raises(TypeError, match="Square:0.*outside its graph"):
        tf.tanh(leaked)


def test_tensors_of_another_graph_are_rejected():
    with tf.Graph().as_default():
        other = tf.constant(1.0)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="another graph"):
            tf.square(other)


def test_eager_tensors_become_constants():
    c = tf.constant([1.0, 2.0])
    g = tf.Graph()
    with g.as_default():
        y = c * 2.0
        assert y.op.inputs[0].op.type == "Const"
        np.testing.assert_array_equal(tf1.Session().run(y), [2.0, 4.0])


def test_control_dependencies_and_group():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(1.0)
        bump = v.assign_add(1.0)
        with tf.control_dependencies([bump]):
            read = tf.identity(v.read_value())
        step = tf.group(v.assign_add(10.0), name="step")
        assert step.type == "NoOp" and step.name == "step"
        with tf.control_dependencies(None):
            assert tf.identity(v.read_value()).op.control_inputs == ()
        sess = tf1.Session()
        sess.run(tf1.global_variables_initializer())
        assert sess.run(read) == 2.0  # the assignment ran first
        assert sess.run(step) is None and sess.run(v) == 12.0
    assert tf.group(tf.constant(1.0)) is None and tf.no_op() is None  # eager


def test_graph_variables_live_in_sessions():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        w = tf.Variable(lambda: tf.constant(3.0), trainable=False)
        doubled = v.assign(v * 2.0)
        init = tf1.global_variables_initializer()
    assert repr(v) == "<tf.Variable 'v:0' shape=(2,) dtype=float32>"
    assert v.graph is g and v.initializer.type == "AssignVariableOp" and v.trainable
    assert g.get_collection(tf1.GraphKeys.TRAINABLE_VARIABLES) == [v]
    assert g.get_collection(tf1.GraphKeys.GLOBAL_VARIABLES) == [v, w]
    first, second = tf1.Session(graph=g), tf1.Session(graph=g)
    with pytest.raises(errors.FailedPreconditionError, match="v:0"):
        first.run(v)
    first.run(init)
    np.testing.assert_array_equal(first.run(doubled), [2.0, 4.0])
    np.testing.assert_array_equal(first.run(v), [2.0, 4.0])
    with pytest.raises(errors.FailedPreconditionError):
        second.run(v)  # each session has its own values
    second.run(init)
    np.testing.assert_array_equal(second.run(v), [1.0, 2.0])
    assert first.run(w) == 3.0
    with pytest.raises(NotImplementedError):
        v.numpy()


def test_graph_variable_errors():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable([1.0, 2.0])
        with pytest.raises(ValueError, match="shape"):
            v.assign([1.0, 2.0, 3.0])
        with pytest.raises(ValueError):
            tf.Variable(None)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="another graph"):
            tf.square(v)


def test_failed_run_changes_no_variable():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(1.0)
        x = tf1.placeholder(tf.int32, [])
        labels = tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=tf.reshape(x, [1]), logits=tf.constant([[0.0, 0.0]]))
        with tf.control_dependencies([v.assign_add(5.0)]):
            loss = tf.reduce_sum(labels) + v.read_value()
        sess = tf1.Session()
        sess.run(tf1.global_variables_initializer())
    with pytest.raises(errors.InvalidArgumentError, match="label"):
        sess.run(loss, {x: 7})
    assert sess.run(v) == 1.0
    assert sess.run(loss, {x: 0}) == pytest.approx(np.log(2.0) + 6.0)
    assert sess.run(v) == 6.0


def test_runtime_errors_name_the_node():
    g = tf.Graph()
    with g.as_default():
        a = tf1.placeholder(tf.float32, [None, 3])
        b = tf1.placeholder(tf.float32, [None, 2])
        product = tf.matmul(a, b)
    with pytest.raises(errors.InvalidArgumentError, match=r"size-incompatible(.|\n)*node "
                       "MatMul") as info:
        tf1.Session(graph=g).run(product, {a: np.ones((2, 3)), b: np.ones((2, 2))})
    assert info.value.op is product.op


def test_plans_run_only_what_the_fetches_need():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [])
        unused = tf1.placeholder(tf.float32, [])
        y = tf.square(x) + 1.0
        _ = tf.sqrt(unused)
    plan = Plan(g.get_operations(), [x], [y])
    assert [op.type for op in plan.ops] == ["Square", "Const", "AddV2"]  # x is fed
    assert "k" in plan.source() and plan.source().count("\n") == 3
    assert float(plan(np.float32(3.0))[0]) == 10.0


def test_plans_do_not_dispatch_per_op(monkeypatch):
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [2])
        y = tf.exp(tf.square(x))
    plan = Plan(g.get_operations(), [x], [y])

    def no_dispatch(*args, **kwargs):
        raise AssertionError("a compiled plan called execute")
    monkeypatch.setattr(math_ops, "execute", no_dispatch)
    np.testing.assert_allclose(plan(np.array([1.0, 2.0], np.float32))[0], np.exp([1.0, 4.0]),
                               rtol=1e-6)


def test_reset_default_graph():
    tf1.reset_default_graph()
    first = tf1.get_default_graph()
    tf1.reset_default_graph()
    assert tf1.get_default_graph() is not first
    with tf.Graph().as_default():
        with pytest.raises(AssertionError):
            tf1.reset_default_graph()


def test_shapes_known_statically_are_constants():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [3, 2])
        n = tf.shape(x)[0]
        assert int(n._const) == 3
        ones = tf.ones([n, 2])  # a constant dimension serves where ints are expected
        assert ones.shape.as_list() == [3, 2]
        batch = tf1.placeholder(tf.float32, [None, 2])
        flat = tf.reshape(batch, [tf.shape(batch)[0], -1])  # a list with a tensor is packed
        np.testing.assert_array_equal(tf1.Session().run(flat, {batch: np.ones((4, 2))}),
                                      np.ones((4, 2)))


def test_dtype_of_a_graph_tensor_needs_no_value():
    with tf.Graph().as_default() as g:
        x = tf1.placeholder(tf.float32, [3])
        tf.gradients(tf.reduce_sum(tf.cast(x, tf.float64)), x)
    assert "EagerPyFunc" not in [op.type for op in g.get_operations()]


# -- name= of public ops names the graph node (execute's graph hook) --------------------------

def test_name_argument_names_the_node_of_common_ops():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant([[1.0, 2.0]], name="a")
        p = tf1.placeholder(tf.float32, [None, 2], name="p")
        w = tf.Variable([[1.0], [2.0]], name="w")
        made = {
            "add": tf.add(a, p, name="add"), "matmul": tf.matmul(p, w, name="matmul"),
            "ident": tf.identity(p, name="ident"), "rsum": tf.reduce_sum(p, name="rsum"),
            "rmean": tf.reduce_mean(p, axis=1, name="rmean"), "rmax": tf.reduce_max(p, name="rmax"),
            "mul": tf.multiply(p, 2.0, name="mul"), "sq": tf.square(p, name="sq"),
            "relu": tf.nn.relu(p, name="relu"), "softmax": tf.nn.softmax(p, name="softmax"),
            "reshape": tf.reshape(p, [-1], name="reshape"), "cast": tf.cast(p, tf.float64, name="cast"),
            "concat": tf.concat([p, p], 0, name="concat"), "addn": tf.add_n([p, p], name="addn"),
            "zeros": tf.zeros([2], name="zeros"), "ones_like": tf.ones_like(p, name="ones_like"),
            "argmax": tf.argmax(p, axis=1, name="argmax"), "clip": tf.clip_by_value(p, 0.0, 1.0,
                                                                                    name="clip"),
        }
    assert a.name == "a:0" and p.name == "p:0" and w.name == "w:0"
    for name, tensor in made.items():
        assert tensor.name == f"{name}:0"
        assert g.get_tensor_by_name(f"{name}:0") is tensor
        assert g.get_operation_by_name(name) is tensor.op
    assert made["rmean"].op.type == "Mean" and made["clip"].op.type == "Maximum"
    # Ops the public function reached through others keep their default names.
    assert made["clip"].op.inputs[0].name == "Minimum:0"


def test_named_nodes_are_unique_and_scoped_and_fetched_by_name():
    tf1.disable_eager_execution()
    try:
        tf1.reset_default_graph()
        x = tf1.placeholder(tf.float32, [None, 2], name="x")
        w = tf.Variable([[1.0], [2.0]], name="w")
        y = tf.matmul(x, w, name="y")
        again = tf.matmul(x, w, name="y")
        with tf1.name_scope("block"):
            scoped = tf.square(y, name="sq")
        loss = tf.reduce_mean(tf.square(y), name="loss")
        (grad,) = tf.gradients(loss, [w])
        assert (y.name, again.name, scoped.name) == ("y:0", "y_1:0", "block/sq:0")
        assert grad.name.startswith("gradients/")
        graph = tf1.get_default_graph()
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            np.testing.assert_array_equal(sess.run("w:0"), [[1.0], [2.0]])
            value, fetched_y = sess.run(["loss:0", "y:0"], feed_dict={"x:0": [[1.0, 1.0]]})
            assert float(value) == 9.0 and fetched_y.tolist() == [[3.0]]
            np.testing.assert_array_equal(
                sess.run(graph.get_tensor_by_name("block/sq:0"), {x: [[1.0, 0.0]]}), [[1.0]])
    finally:
        tf1.enable_eager_execution()
        tf1.reset_default_graph()


def test_name_argument_in_function_graphs_and_eagerly():
    @tf.function
    def f(x):
        return tf.add(x, 1.0, name="plus_one")

    concrete = f.get_concrete_function(tf.constant(1.0))
    assert concrete.graph.get_operation_by_name("plus_one").type == "AddV2"
    assert float(f(tf.constant(1.0))) == 2.0
    assert float(tf.add(tf.constant(1.0), 1.0, name="ignored_eagerly")) == 2.0


def test_tf2_name_scope():
    with tf.name_scope("outer") as outer:
        with tf.name_scope("inner") as inner:
            pass
    assert (outer, inner) == ("outer/", "outer/inner/")
    names = []

    @tf.function
    def f(x):
        with tf.name_scope("layer") as scope:
            names.append((scope, tf.identity(x, name="y").name))
        return x

    f(tf.constant(1.0))
    assert names == [("layer/", "layer/y:0")]
    with pytest.raises(ValueError, match="string"):
        tf.name_scope(3)
