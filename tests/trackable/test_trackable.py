"""The one Trackable mechanism: TF's protocol on the base, attribute tracking, the list /
dict / tuple wrappers, restore on create, the views, and TF's module names for them.
Expected values and messages are TF 2.21's for the same programs."""
import collections
import os
import subprocess
import sys

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.trackable import autotrackable, base, data_structures, tracking

pytest.importorskip("tensorboard")


def test_track_lookup_and_overwrite_as_tf():
    t = base.Trackable()
    v = tf.Variable(1.0)
    assert t._track_trackable(v, "v") is v and list(t._trackable_children()) == ["v"]
    with pytest.raises(ValueError, match=r"Called Trackable._track_trackable\(\) with name='v', "
                                         r"but a Trackable with this name is already declared as "
                                         r"a dependency. Names must be unique \(or "
                                         r"overwrite=True\)."):
        t._track_trackable(tf.Variable(2.0), "v")
    with pytest.raises(TypeError, match=r"can only be used to track objects of type Trackable. "
                                        r"Got type <class 'int'>."):
        t._track_trackable(3, "x")
    w = tf.Variable(3.0)
    t._track_trackable(w, "v", overwrite=True)
    assert t._lookup_dependency("v") is w and t._lookup_dependency("nothing") is None
    assert [r.name for r in t._checkpoint_dependencies] == ["v"]


@pytest.mark.parametrize("base_class", [autotrackable.AutoTrackable, tf.Module])
def test_a_mixin_new_after_trackable_gets_the_constructor_arguments(base_class):
    # TF's Trackable has no __new__ of its own: a cooperative __new__ later in the MRO (a
    # Keras Operation records its config there) sees the arguments, TF 2.21 gives (1,), {b: 2}.
    class Recorder:
        def __new__(cls, *args, **kwargs):
            obj = super().__new__(cls)
            obj.__dict__["seen"] = (args, dict(kwargs))
            return obj

    class Both(base_class, Recorder):
        def __init__(self, *args, **kwargs):
            super().__init__()

    assert Both(1, b=2).seen == ((1,), {"b": 2})


def test_attribute_assignment_wraps_and_tracks_as_tf():
    m = tf.Module()
    m.l = [tf.Variable(1.0), 2, [tf.Variable(3.0)]]
    m.d = {"k": tf.Variable(1.0), "z": tf.Variable(2.0)}
    m.t = (tf.Variable(1.0), 5)
    assert [type(m.l).__name__, type(m.d).__name__, type(m.t).__name__] == [
        "ListWrapper", "_DictWrapper", "_TupleWrapper"]
    assert list(m._trackable_children()) == ["l", "d", "t"]
    assert list(m.l._trackable_children()) == ["0", "2"]
    assert list(m.d._trackable_children()) == ["k", "z"]
    assert list(m.t._trackable_children()) == ["0"]
    assert type(m.l[2]).__name__ == "ListWrapper" and isinstance(m.l, list)
    assert isinstance(m.d, dict) and m.l == [m.l[0], 2, m.l[2]]
    assert m.t[1] == 5 and len(m.t) == 2 and tuple(m.t)[1] == 5
    m.n = data_structures.NoDependency([tf.Variable(1.0)])
    assert type(m.n).__name__ == "list" and "n" not in m._trackable_children()
    del m.d
    assert list(m._trackable_children()) == ["l", "t"]
    assert repr(m.l).startswith("ListWrapper([<tf.Variable")
    a = autotrackable.AutoTrackable()
    a.x = tf.Variable(1.0)
    a.y = [tf.Variable(2.0)]
    assert list(a._trackable_children()) == ["x", "y"]


def test_a_wrapped_tuple_is_the_tuple_it_wraps_to_nest_and_modules():
    # TF: a (named) tuple of variables on a Module is a _TupleWrapper that is a tuple (and
    # its namedtuple class), flattens to its items, and its variables are the module's
    pair = collections.namedtuple("Pair", "a b")
    m = tf.Module()
    m.t = pair(tf.Variable(1.0), tf.Variable(2.0))
    m.u = (tf.Variable(3.0), [tf.Variable(4.0)])
    assert type(m.t).__name__ == "_TupleWrapper" and isinstance(m.t, tuple)
    assert isinstance(m.t, pair) and m.t._fields == ("a", "b") and m.t == (m.t.a, m.t.b)
    assert type(m.u[1]).__name__ == "ListWrapper" and m.u + (1,) == (m.u[0], m.u[1], 1)
    assert len(m.trainable_variables) == 4
    assert tf.nest.flatten(m.t) == [m.t.a, m.t.b]
    mapped = tf.nest.map_structure(lambda x: x + 1.0, m.t)
    assert isinstance(mapped, pair) and float(mapped.b) == 3.0
    assert isinstance(tf.nest.map_structure(lambda x: x, m.u), tuple)


def test_no_automatic_dependency_tracking_and_the_kinds_that_are_trackable():
    class Holder(tf.Module):
        @base.no_automatic_dependency_tracking
        def keep(self, v):
            self.untracked = v

    h = Holder()
    h.keep(tf.Variable(1.0))
    assert list(h._trackable_children()) == [] and h._setattr_tracking
    assert isinstance(tf.Variable(1.0), base.Trackable)
    assert issubclass(tf.Module, autotrackable.AutoTrackable)
    assert isinstance(iter(tf.data.Dataset.range(3)), base.Trackable)
    assert isinstance(tf.random.Generator.from_seed(1), base.Trackable)
    assert isinstance(tf.keras.optimizers.Adam(), base.Trackable)
    assert tracking.wrap([1]).__class__.__name__ == "ListWrapper"


def test_a_dict_with_a_non_string_key_to_a_trackable_cannot_be_saved(tmp_path):
    m = tf.Module()
    m.d = {3: tf.Variable(2.0)}
    with pytest.raises(ValueError, match="contains a non-string key which maps to a trackable"):
        tf.train.Checkpoint(m=m).write(tmp_path / "c")


def test_containers_restore_what_they_get_later(tmp_path):
    m = tf.Module()
    m.stack = [tf.Variable(1.0), {"w": tf.Variable([2.0, 3.0])}]
    path = tf.train.Checkpoint(m=m).write(tmp_path / "c")
    fresh = tf.Module()
    status = tf.train.Checkpoint(m=fresh).read(path)
    fresh.stack = []
    fresh.stack.append(tf.Variable(0.0))
    fresh.stack.append({})
    fresh.stack[1]["w"] = tf.Variable([0.0, 0.0])
    assert float(fresh.stack[0]) == 1.0 and fresh.stack[1]["w"].numpy().tolist() == [2.0, 3.0]
    status.assert_consumed()


def test_a_variable_made_through_the_custom_getter_starts_from_the_held_value(tmp_path):
    m = tf.Module()
    m.v = tf.Variable([4.0, 5.0])
    path = tf.train.Checkpoint(m=m).write(tmp_path / "c")
    holder = base.Trackable()
    tf.train.Checkpoint(m=holder).restore(path)
    seen = {}

    def getter(name, shape, dtype, initializer, **kwargs):
        seen["initializer"] = type(initializer).__name__
        return tf.Variable(initializer(shape=shape, dtype=dtype), name=name)

    made = holder._add_variable_with_custom_getter("v", shape=[2], dtype=tf.float32,
                                                   initializer=lambda **kw: np.zeros(2),
                                                   getter=getter)
    assert seen["initializer"] == "CheckpointInitialValueCallable"
    assert made.numpy().tolist() == [4.0, 5.0] and holder._lookup_dependency("v") is made
    with pytest.raises(ValueError, match="already exists"):
        holder._add_variable_with_custom_getter("v", getter=getter)


def test_views_of_objects_and_of_checkpoints(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.parts = [tf.Variable(2.0)]
    view = tf.train.TrackableView(m)
    assert list(view.children(m)) == ["v", "parts"] and len(view.descendants()) == 4
    path = tf.train.Checkpoint(m=m).write(tmp_path / "c")
    saved = tf.train.CheckpointView(path)
    assert saved.children(0) == {"m": 1}               # write: no save_counter, as TF
    assert saved.descendants() == [0, 1, 2, 3, 4]
    other = tf.Module()
    other.v = tf.Variable(0.0)
    matched, missing_nodes, missing_objects = saved.diff(tf.train.Checkpoint(m=other))
    assert sorted(matched) == [0, 1, 2] and missing_nodes == [3, 4]
    assert len(missing_objects) == 0


def test_a_dataset_iterator_and_a_generator_continue_after_restore(tmp_path):
    dataset = tf.data.Dataset.range(10).shuffle(10, seed=3, reshuffle_each_iteration=False)
    dataset = dataset.batch(2)
    it = iter(dataset)
    gen = tf.random.Generator.from_seed(7)
    next(it)
    gen.normal([2])
    path = tf.train.Checkpoint(it=it, gen=gen).write(tmp_path / "c")
    expected = [next(it).numpy().tolist(), gen.normal([2]).numpy().tolist()]
    assert ("it/.ATTRIBUTES/ITERATOR_STATE", [1]) in tf.train.list_variables(path)
    it2, gen2 = iter(dataset), tf.random.Generator.from_seed(0)
    tf.train.Checkpoint(it=it2, gen=gen2).read(path).assert_consumed()
    assert [next(it2).numpy().tolist(), gen2.normal([2]).numpy().tolist()] == expected


def test_tensorflow_python_trackable_names_the_same_classes(tmp_path):
    from tapeflow.python.trackable import autotrackable as tf_auto
    from tapeflow.python.trackable import base as tf_base
    from tapeflow.python.trackable import data_structures as tf_ds
    assert tf_base.Trackable is base.Trackable and tf_auto.AutoTrackable is tracking.AutoTrackable
    assert tf_ds.ListWrapper is data_structures.ListWrapper
    assert tf_ds._DictWrapper is data_structures._DictWrapper
    script = ("from tensorflow.python.trackable.data_structures import ListWrapper, _DictWrapper\n"
              "import tensorflow as tf\n"
              "m = tf.Module(); m.x = [tf.Variable(1.0)]\n"
              "print(isinstance(m.x, ListWrapper))\n")
    src = os.path.join(os.path.dirname(__file__), "..", "..", "src")
    (tmp_path / "uses_tf.py").write_text(script)
    done = subprocess.run([sys.executable, "-m", "tapeflow", "as-tensorflow",
                           str(tmp_path / "uses_tf.py")],
                          capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.path.abspath(src)))
    assert done.stdout.strip() == "True", done.stderr[-2000:]


def test_tf1_optimizer_slots_are_saved_beside_their_variables(tmp_path):
    v = tf.Variable([1.0, 2.0])
    opt = tf.compat.v1.train.AdamOptimizer(0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), v)])
    path = tf.train.Checkpoint(v=v, opt=opt).write(tmp_path / "b")
    assert tf.train.list_variables(path) == [          # TF 2.21's keys for the same program
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
        ("opt/beta1_power/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("opt/beta2_power/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("v/.ATTRIBUTES/VARIABLE_VALUE", [2]),
        ("v/.OPTIMIZER_SLOT/opt/m/.ATTRIBUTES/VARIABLE_VALUE", [2]),
        ("v/.OPTIMIZER_SLOT/opt/v/.ATTRIBUTES/VARIABLE_VALUE", [2])]
    graph = tf.train.CheckpointView(path)
    assert graph.children(0) == {"opt": 1, "v": 2}
    v2, opt2 = tf.Variable([0.0, 0.0]), tf.compat.v1.train.AdamOptimizer(0.1)
    tf.train.Checkpoint(v=v2, opt=opt2).read(path).assert_consumed()   # slots made, restored
    assert opt2.get_slot(v2, "m").numpy().tolist() == opt.get_slot(v, "m").numpy().tolist()
    assert float(opt2._get_beta_accumulators()[0]) == pytest.approx(0.81)


def test_legacy_saveables_save_and_restore_their_specs(tmp_path):
    class Spec:
        def __init__(self, tensor, name):
            self.tensor, self.name = tensor, name

    class Saveable:
        def __init__(self, owner, name):
            self.name = name
            self.specs = [Spec(owner.value, name)]
            self.owner = owner

        def restore(self, restored_tensors, restored_shapes):
            self.owner.value = np.asarray(restored_tensors[0])

    class Counter(base.Trackable):
        def __init__(self, value):
            self.value = np.array(value, np.int64)

        def _gather_saveables_for_checkpoint(self):
            return {"COUNT": lambda name: Saveable(self, name)}

    path = tf.train.Checkpoint(c=Counter(7)).write(tmp_path / "c")
    assert ("c/.ATTRIBUTES/COUNT", []) in tf.train.list_variables(path)
    fresh = Counter(0)
    tf.train.Checkpoint(c=fresh).read(path).assert_consumed()
    assert int(fresh.value) == 7
