"""tf.compat.v1 variable scopes, get_variable, the v1 initializers and op aliases."""
import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1


def test_variable_scope_names_and_reuse(graph_mode):
    with tf1.variable_scope("model"):
        w = tf1.get_variable("w", [2, 3])
        with tf1.variable_scope("inner"):
            b = tf1.get_variable("b", [3], initializer=tf1.zeros_initializer())
            y = tf1.identity(w, name="y")
        assert tf1.get_variable_scope().name == "model"
    assert (w.name, b.name, y.name) == ("model/w:0", "model/inner/b:0", "model/inner/y:0")
    with tf1.variable_scope("model", reuse=True):
        assert tf1.get_variable("w") is w
        with tf1.variable_scope("inner"):  # reuse is inherited
            assert tf1.get_variable("b") is b
        with pytest.raises(ValueError, match="does not exist"):
            tf1.get_variable("missing", [1])
        with pytest.raises(ValueError, match="shape"):
            tf1.get_variable("w", [4])
    with tf1.variable_scope("model", reuse=tf1.AUTO_REUSE):
        assert tf1.get_variable("w") is w
        assert tf1.get_variable("new", [1]).name == "model/new:0"
    with pytest.raises(ValueError, match="already exists"):
        with tf1.variable_scope("model"):
            tf1.get_variable("w", [2, 3])
    with tf1.variable_scope("model") as scope:
        scope.reuse_variables()
        assert tf1.get_variable("w") is w
    with tf1.variable_scope(scope, reuse=True):
        assert tf1.get_variable("w") is w
    with pytest.raises(ValueError, match="fully defined"):
        tf1.get_variable("no_shape")
    assert [v.name for v in tf1.trainable_variables()] == ["model/w:0", "model/inner/b:0",
                                                           "model/new:0"]


def test_default_names_and_scope_defaults(graph_mode, initialized_session):
    names = []
    for _ in range(2):
        with tf1.variable_scope(None, default_name="layer"):
            names.append(tf1.get_variable("k", [1]).name)
    assert names == ["layer/k:0", "layer_1/k:0"]
    with tf1.variable_scope("s", initializer=tf1.constant_initializer(7.0), dtype=tf.float64,
                            partitioner=lambda shape, dtype: [1]):
        v = tf1.get_variable("v", [2])
        n = tf1.get_variable("n", [2], dtype=tf.int32)  # ints default to zeros
    with tf1.variable_scope("r", regularizer=lambda w: tf.reduce_sum(w * w)):
        r = tf1.get_variable("r", [2], initializer=tf1.ones_initializer())
    sess = initialized_session()
    assert v.dtype == tf.float64 and sess.run(v).tolist() == [7.0, 7.0]
    assert sess.run(n).tolist() == [7, 7]
    (loss,) = tf1.losses.get_regularization_losses()
    assert sess.run(loss) == 2.0 and r.name == "r/r:0"
    with pytest.raises(ValueError, match="name_or_scope"):
        with tf1.variable_scope(None):
            pass


INITIALIZERS = [  # (initializer, check on a [40, 60] sample)
    (tf1.zeros_initializer(), lambda a: (a == 0).all()),
    (tf1.ones_initializer(), lambda a: (a == 1).all()),
    (tf1.constant_initializer(0.5), lambda a: (a == 0.5).all()),
    (tf1.random_normal_initializer(1.0, 0.1, seed=1),
     lambda a: abs(a.mean() - 1.0) < 0.01 and abs(a.std() - 0.1) < 0.01),
    (tf1.truncated_normal_initializer(stddev=0.1, seed=1), lambda a: abs(a).max() <= 0.2),
    (tf1.random_uniform_initializer(-2.0, 2.0, seed=1),
     lambda a: a.min() >= -2.0 and a.max() < 2.0 and a.std() > 1.0),
    (tf1.glorot_uniform_initializer(seed=1), lambda a: abs(a).max() <= (6 / 100) ** 0.5),
    (tf1.glorot_normal_initializer(seed=1),
     lambda a: abs(a).max() <= 2 * (2 / 100) ** 0.5 / 0.87962566),
    (tf1.variance_scaling_initializer(2.0, "fan_in", "untruncated_normal", seed=1),
     lambda a: abs(a.std() - (2 / 40) ** 0.5) < 0.02),
]


@pytest.mark.parametrize("initializer, check", INITIALIZERS)
def test_initializers(initializer, check):
    value = initializer([40, 60]).numpy()
    assert value.shape == (40, 60) and value.dtype == np.float32 and check(value)


def test_initializer_errors():
    with pytest.raises(TypeError, match="cannot fill"):
        tf1.constant_initializer([1.0, 2.0])([3])
    with pytest.raises(ValueError, match="scale"):
        tf1.variance_scaling_initializer(0.0)
    with pytest.raises(ValueError, match="mode"):
        tf1.variance_scaling_initializer(mode="fan")


def test_random_seed_makes_graph_initializers_repeat(graph_mode, initialized_session):
    def draw():
        tf1.reset_default_graph()
        tf1.set_random_seed(3)
        v = tf1.get_variable("v", [4])
        r = tf1.random_normal([2])
        return initialized_session().run([v, r])
    first, second = draw(), draw()
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])


def test_op_aliases(graph_mode):
    x = tf1.constant([[1.0, 0.0], [3.0, 4.0]])
    sess = tf1.Session()
    assert sess.run(tf1.reduce_sum(x, 1, keep_dims=True)).tolist() == [[1.0], [7.0]]
    assert sess.run(tf1.reduce_mean(x, reduction_indices=[0])).tolist() == [2.0, 2.0]
    assert sess.run(tf1.reduce_max(x)) == 4.0
    with pytest.raises(ValueError, match="keep_dims"):
        tf1.reduce_sum(x, keepdims=True, keep_dims=True)
    assert sess.run(tf1.count_nonzero(x)) == 3 and tf1.count_nonzero(x).dtype == tf.int64
    assert sess.run(tf1.arg_max(x, 1)).tolist() == [0, 1]
    assert sess.run(tf1.to_int32(x)).dtype == np.int32
    assert sess.run(tf1.to_float(tf1.constant(1))).dtype == np.float32
    assert sess.run([tf1.div(7, 2), tf1.div(-7, 2), tf1.div(7.0, 2.0)]) == [3, -4, 3.5]
    assert sess.run(tf1.log(tf1.constant(1.0))) == 0.0


def test_placeholder_with_default_and_py_func(graph_mode):
    x = tf1.placeholder_with_default(tf1.constant([1.0, 2.0]), [None])
    doubled = tf1.py_func(lambda a: (a * 2).astype(np.float32), [x], tf.float32)
    pair = tf1.py_func(lambda a: (a, a.sum()), [x], [tf.float32, tf.float32])
    sess = tf1.Session()
    assert sess.run(doubled).tolist() == [2.0, 4.0]
    assert sess.run(doubled, {x: [5.0]}).tolist() == [10.0]
    assert sess.run(pair[1]) == 3.0


def test_variable_updates_and_collections(graph_mode, initialized_session):
    v = tf1.get_variable("v", initializer=tf1.constant([1.0, 2.0, 3.0]))
    local = tf1.get_variable("local", [], collections=[tf1.GraphKeys.LOCAL_VARIABLES],
                             trainable=False)
    sess = initialized_session()
    assert sess.run(tf1.scatter_update(v, [0, 2], [9.0, 8.0])).tolist() == [9.0, 2.0, 8.0]
    assert sess.run(tf1.scatter_add(v, [1, 1], [1.0, 1.0])).tolist() == [9.0, 4.0, 8.0]
    assert sess.run(tf1.assign_add(v, [1.0, 1.0, 1.0])).tolist() == [10.0, 5.0, 9.0]
    assert tf1.local_variables() == [local] and local not in tf1.global_variables()
    assert sess.run(tf1.tables_initializer()) is None
    assert tf1.get_default_session() is None
    with sess.as_default():
        assert tf1.get_default_session() is sess


def test_get_variable_eagerly():
    with tf1.variable_scope("eager_scope"):
        v = tf1.get_variable("v", [2], initializer=tf1.ones_initializer())
    assert v.numpy().tolist() == [1.0, 1.0] and v.name.startswith("v")


def test_reuse_is_inherited_and_initializer_classes(graph_mode, initialized_session):
    with tf1.variable_scope("a", reuse=tf1.AUTO_REUSE):
        with tf1.variable_scope("b", reuse=False):
            first = tf1.get_variable("v", [2], initializer=tf1.ones_initializer)
            assert tf1.get_variable("v", [2]) is first
    assert initialized_session().run(first).tolist() == [1.0, 1.0]


def test_variables_made_inside_name_scopes_keep_their_absolute_names(graph_mode):
    with tf1.name_scope("outer"):
        with tf1.variable_scope("vs"):
            v = tf1.get_variable("v", [1])
            c = tf1.constant(1.0, name="c")
        step = tf1.train.get_or_create_global_step()
        with graph_mode.name_scope(""):  # "" returns to the top level
            top = tf1.constant(2.0, name="top")
    assert (v.name, c.name, step.name, top.name) == ("vs/v:0", "outer/vs/c:0",
                                                     "global_step:0", "top:0")
