"""tf.Module: naming, and finding variables and submodules through attributes."""
import pytest

import tapeflow as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.constant(1.0, shape=[n_in, n_out]), name="w")
        self.b = tf.Variable(tf.constant(0.0, shape=[n_out]), name="b", trainable=False)

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(3, 2, name="first"), Dense(2, 1, name="second")]
        self.extra = {"scale": tf.Variable(2.0, name="scale")}
        self.head = Dense(1, 1, name="head")


def test_default_name_is_snake_case_and_names_are_checked():
    class MyFancyModule(tf.Module):
        pass
    assert MyFancyModule().name == "my_fancy_module"
    assert tf.Module(name="ok_name").name == "ok_name"
    with pytest.raises(ValueError, match="not a valid module name"):
        tf.Module(name="not valid")


def test_variables_own_attributes_first_then_submodules():
    net = Net()
    names = [v.name for v in net.variables]
    # Own attributes sorted ('extra' < 'head' < 'layers'), then submodules depth first.
    assert names == ["scale:0", "b:0", "w:0", "b:0", "w:0", "b:0", "w:0"]
    assert [m.name for m in net.submodules] == ["head", "first", "second"]
    assert len(net.trainable_variables) == 4
    assert all(not v.trainable for v in net.non_trainable_variables)
    assert len(net.non_trainable_variables) == 3


def test_shared_variable_counted_once_and_cycles_terminate():
    a = tf.Module(name="a")
    b = tf.Module(name="b")
    shared = tf.Variable(1.0)
    a.v, b.v = shared, shared
    a.child, b.parent = b, a
    assert a.variables == (shared,)
    assert a.submodules == (b,)


def test_trainable_variables_feed_a_gradient_tape():
    net = Net()
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(net.head(net.layers[1](net.layers[0](x))))
    grads = tape.gradient(y, net.trainable_variables)
    # [scale (unused), head.w, first.w, second.w]
    assert [g is None for g in grads] == [True, False, False, False]
    assert grads[1].numpy().tolist() == [[12.0]]
    assert grads[2].numpy().tolist() == [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    assert grads[3].numpy().tolist() == [[6.0], [6.0]]


def test_name_scope_and_with_name_scope():
    class Scaled(tf.Module):
        @tf.Module.with_name_scope
        def __call__(self, x):
            return 3.0 * x

    m = Scaled(name="scaled")
    assert m.name_scope.name == "scaled/"
    with m.name_scope as scope:
        assert scope == "scaled/"
    assert float(m(tf.constant(2.0))) == 6.0


class Scoped(tf.Module):
    @tf.Module.with_name_scope
    def scope(self, depth=0):
        return self.scope(depth - 1) if depth else tf.get_current_name_scope()


def test_module_name_scope_is_a_real_reenterable_scope_under_the_outer_one():
    assert Scoped().scope(depth=2) == "scoped"  # entered three times, nested
    with tf.name_scope("outer"):
        inner = Scoped(name="inner")
    assert inner.name_scope.name == "outer/inner/" and inner.scope() == "outer/inner"
    assert tf.get_current_name_scope() == ""


def test_module_scopes_are_made_unique_in_a_graph_and_name_its_ops():
    graph = tf.Graph()
    with graph.as_default():
        a, b = Scoped(name="m"), Scoped(name="m")
        with a.name_scope:
            c = tf.constant(1.0, name="c")
        with b.name_scope:
            d = tf.constant(1.0, name="c")
    assert (a.name_scope.name, b.name_scope.name, c.name, d.name) == ("m/", "m_1/", "m/c:0",
                                                                      "m_1/c:0")


def test_module_ignores_tfs_bookkeeping_properties():
    assert tf.Module._TF_MODULE_IGNORED_PROPERTIES == frozenset((
        "_self_unconditional_checkpoint_dependencies", "_self_unconditional_dependency_names"))
    assert isinstance(tf.Module()._name_scope, tf.name_scope)
