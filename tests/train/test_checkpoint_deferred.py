"""tf.train.Checkpoint's delayed restoration: values saved for variables that do not
exist at `restore` are assigned when the variables appear (restore before create), in a
tf.Module, on the Checkpoint itself, inside tf.function and under MirroredStrategy.
Expected values are what TF 2.21 gives for the same programs."""
import numpy as np
import pytest

import tapeflow as tf


class Lazy(tf.Module):
    """Makes its variables on demand, like a Sonnet module on its first call."""

    def __init__(self, n=2, name=None):
        super().__init__(name=name)
        self.n = n

    def build(self):
        self.w = tf.Variable(tf.zeros([self.n]), name="w")
        self.sub = tf.Module()
        self.sub.v = tf.Variable(0.0)


def saved(tmp_path):
    m = Lazy()
    m.build()
    m.w.assign([1.0, 2.0])
    m.sub.v.assign(5.0)
    return tf.train.Checkpoint(module=m).save(tmp_path / "c")


def test_restore_before_create_assigns_on_creation(tmp_path):
    path = saved(tmp_path)
    fresh = Lazy()
    status = tf.train.Checkpoint(module=fresh).restore(path)
    with pytest.raises(AssertionError, match="module/w"):
        status.assert_consumed()
    status.assert_existing_objects_matched()      # the objects there now all matched
    status.assert_nontrivial_match()              # save_counter did
    fresh.build()
    assert fresh.w.numpy().tolist() == [1.0, 2.0] and float(fresh.sub.v) == 5.0
    status.assert_consumed()


def test_a_list_of_modules_made_after_restore(tmp_path):
    class Stack(tf.Module):
        def __call__(self, x):
            if not hasattr(self, "layers"):
                self.layers = [Lazy(name="a"), Lazy(name="b")]
                for layer in self.layers:
                    layer.build()
            return x

    first = Stack()
    first(0)
    for i, layer in enumerate(first.layers):
        layer.w.assign([i + 1.0, i + 2.0])
    path = tf.train.Checkpoint(net=first).save(tmp_path / "s")
    second = Stack()
    status = tf.train.Checkpoint(net=second).restore(path)
    second(0)
    status.assert_consumed()
    assert [layer.w.numpy().tolist() for layer in second.layers] == [[1.0, 2.0], [2.0, 3.0]]


def test_an_object_attached_to_the_checkpoint_later(tmp_path):
    path = saved(tmp_path)
    ckpt = tf.train.Checkpoint()
    status = ckpt.restore(path)
    ckpt.module = Lazy()
    ckpt.module.build()
    assert ckpt.module.w.numpy().tolist() == [1.0, 2.0]
    status.assert_consumed()
    # and the attribute is saved like a keyword argument
    names = [n for n, _ in tf.train.list_variables(ckpt.write(tmp_path / "again"))]
    assert "module/w/.ATTRIBUTES/VARIABLE_VALUE" in names


def test_a_variable_of_another_shape_made_later_is_a_value_error(tmp_path):
    path = saved(tmp_path)
    wider = Lazy(n=3)
    status = tf.train.Checkpoint(module=wider).restore(path)
    with pytest.raises(ValueError, match=r"shape \(2,\).*shape \(3,\).*module/w/.ATTRIBUTES"):
        wider.build()
    with pytest.raises(AssertionError, match="module/w"):
        status.assert_consumed()


def test_restore_before_create_inside_tf_function(tmp_path):
    class Dense(tf.Module):
        def __call__(self, x):
            if not hasattr(self, "w"):
                self.w = tf.Variable(tf.zeros([2, 2]), name="w")
            return tf.matmul(x, self.w)

    m = Dense()
    m(tf.ones([1, 2]))
    m.w.assign([[1.0, 2.0], [3.0, 4.0]])
    path = tf.train.Checkpoint(module=m).save(tmp_path / "d")
    fresh = Dense()
    status = tf.train.Checkpoint(module=fresh).restore(path)
    y = tf.function(fresh)(tf.constant([[1.0, 1.0]]))
    status.assert_consumed()
    assert y.numpy().tolist() == [[4.0, 6.0]]
    assert fresh.w.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]


class Dense(tf.Module):
    def __call__(self, x):
        if not hasattr(self, "w"):
            self.w = tf.Variable(tf.zeros([2, 2]), name="w")
        return tf.matmul(x, self.w)


@pytest.fixture
def strategy():
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def components(variable):
    return [v.numpy().tolist() for v in variable.values]


def test_a_mirrored_variable_saves_and_restores_every_component(tmp_path, strategy):
    with strategy.scope():
        m = Dense()
        m(tf.ones([1, 2]))
    assert type(m.w).__name__ == "MirroredVariable" and len(m.w.values) == 2
    m.w.assign([[1.0, 2.0], [3.0, 4.0]])
    path = tf.train.Checkpoint(module=m).save(tmp_path / "m")
    assert [n for n, _ in tf.train.list_variables(path)] == [   # TF lists the graph too
        "_CHECKPOINTABLE_OBJECT_GRAPH", "module/w/.ATTRIBUTES/VARIABLE_VALUE",
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
    m.w.assign(tf.zeros([2, 2]))
    tf.train.Checkpoint(module=m).restore(path).assert_consumed()
    assert components(m.w) == [[[1.0, 2.0], [3.0, 4.0]]] * 2

    plain = Dense()                       # the same checkpoint restores without a strategy
    status = tf.train.Checkpoint(module=plain).restore(path)
    plain(tf.ones([1, 2]))
    status.assert_consumed()
    assert plain.w.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]


@pytest.mark.parametrize("use_function", [False, True])
def test_restore_before_create_in_a_replica(tmp_path, strategy, use_function):
    m = Dense()
    m(tf.ones([1, 2]))
    m.w.assign([[1.0, 2.0], [3.0, 4.0]])
    path = tf.train.Checkpoint(module=m).save(tmp_path / "r")
    with strategy.scope():
        fresh = Dense()
    status = tf.train.Checkpoint(module=fresh).restore(path)

    def step():
        per_replica = strategy.run(fresh, args=(tf.constant([[1.0, 1.0]]),))
        return tf.stack(strategy.experimental_local_results(per_replica))

    result = (tf.function(step) if use_function else step)()
    status.assert_consumed()
    assert type(fresh.w).__name__ == "MirroredVariable" and len(fresh.w.values) == 2
    assert components(fresh.w) == [[[1.0, 2.0], [3.0, 4.0]]] * 2
    assert result.numpy().tolist() == [[[4.0, 6.0]]] * 2
