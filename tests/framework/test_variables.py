import numpy as np
import pytest

import tapeflow as tf


def test_creation_and_properties():
    v = tf.Variable([1.0, 2.0])
    assert v.name == "Variable:0" and v.trainable and v.dtype is tf.float32
    assert v.shape == [2] and v.ndim == 1
    w = tf.Variable(lambda: np.zeros((2, 2)), name="w", trainable=False, dtype=tf.float32)
    assert w.name == "w:0" and not w.trainable and w.dtype is tf.float32
    assert repr(tf.Variable(2.0)) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>"
    assert repr(tf.Variable([[1], [2]])).endswith("numpy=\narray([[1],\n       [2]], dtype=int32)>")
    with pytest.raises(ValueError):
        tf.Variable(None)


def test_variable_holds_its_own_copy():
    a = np.ones(2, np.float32)
    v = tf.Variable(a)
    a[0] = 7
    assert v.numpy()[0] == 1.0


def test_assign_family_and_read_value():
    v = tf.Variable([1.0, 2.0])
    before = v.read_value()
    assert v.assign([3.0, 4.0]) is v
    np.testing.assert_array_equal(v.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(before.numpy(), [1.0, 2.0])  # reads are snapshots
    v.assign_add([1.0, 1.0])
    v.assign_sub(tf.constant([0.5, 0.5]))
    np.testing.assert_array_equal(v.value().numpy(), [3.5, 4.5])
    assert v.assign([0.0, 0.0], read_value=False) is None


@pytest.mark.parametrize("method, error", [("assign", ValueError),
                                           ("assign_add", tf.errors.InvalidArgumentError),
                                           ("assign_sub", tf.errors.InvalidArgumentError)])
def test_wrong_shape_leaves_value_unchanged(method, error):
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(error, match="shape"):
        getattr(v, method)([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


def test_wrong_dtype_leaves_value_unchanged():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises((ValueError, TypeError)):
        v.assign(tf.constant([1, 2]))
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


def test_operators_on_variables():
    v = tf.Variable(3.0)
    assert float(v * 2) == 6.0 and float(2 - v) == -1.0 and float(v ** 2) == 9.0
    assert float(-v) == -3.0 and isinstance(v + 1, tf.Tensor)


def test_unhashable_with_ref():
    v = tf.Variable(1.0)
    with pytest.raises(TypeError):
        hash(v)
    assert {v.ref(): 1}[v.ref()] == 1


def test_reading_inside_tape_watches_only_trainable():
    trainable, frozen = tf.Variable(2.0), tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as tape:
        y = trainable * frozen
    assert tape.watched_variables() == (trainable,)
    g_t, g_f = tape.gradient(y, [trainable, frozen])
    assert float(g_t) == 3.0 and g_f is None


def test_gradient_through_read_value_and_convert():
    v = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        r = v.read_value()
        y = r * r + tf.convert_to_tensor(v)
    assert float(tape.gradient(y, v)) == 5.0
    assert float(tape.gradient(y, r)) == 4.0


def test_gradient_sees_value_at_read_time():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v
        v.assign(10.0)
    assert float(tape.gradient(y, v)) == 4.0


@pytest.mark.parametrize("initial", [[1.0, 2.0], 3.0], ids=["vector", "scalar"])
def test_mutable_array_updates_in_place_and_copies_on_write(initial):
    v = tf.Variable(initial)
    v.mutable_array()[...] += 1.0
    np.testing.assert_array_equal(v.numpy(), np.add(initial, 1.0))
    read = v.read_value()                 # a reader shares the array, so the variable
    array = v.mutable_array()             # copies it before handing it out
    array *= 2.0
    np.testing.assert_array_equal(read.numpy(), np.add(initial, 1.0))
    np.testing.assert_array_equal(v.numpy(), 2.0 * np.add(initial, 1.0))
    assert array.dtype == np.float32 and array.shape == np.shape(initial)


@pytest.mark.parametrize("kind", ["view", "read-only"])
def test_mutable_array_copies_memory_the_variable_does_not_own(kind):
    # A graph's assignment can leave a variable holding a view of another buffer (an
    # all-reduce's shared-memory sum, say) or a read-only array: writing into it would
    # change what others hold, so the variable takes its own copy first.
    owner = np.arange(6, dtype=np.float32)
    v = tf.Variable(np.zeros(3, np.float32))
    held = owner[3:] if kind == "view" else np.array([3.0, 4.0, 5.0], np.float32)
    held.flags.writeable = kind == "view"
    v._value = held
    del held
    v.mutable_array()[...] += 1.0
    np.testing.assert_array_equal(v.numpy(), [4.0, 5.0, 6.0])
    np.testing.assert_array_equal(owner, np.arange(6))
    assert v.mutable_array().base is None and v.mutable_array().flags.writeable


def test_adopt_array_takes_the_array_without_a_copy_and_checks_it():
    v = tf.Variable(np.zeros((2, 2), np.float32), name="w")
    shared = np.arange(4, dtype=np.float32).reshape(2, 2)
    shared.flags.writeable = False
    v.adopt_array(shared)
    assert np.shares_memory(np.asarray(v), shared)
    v.assign_add(np.ones((2, 2), np.float32))       # a private copy, the array untouched
    np.testing.assert_array_equal(v.numpy(), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(shared, [[0, 1], [2, 3]])
    for wrong in (np.zeros((4,), np.float32), np.zeros((2, 2), np.float64), [[0.0] * 2] * 2):
        with pytest.raises(ValueError, match="adopt_array of variable 'w"):
            v.adopt_array(wrong)
    np.testing.assert_array_equal(v.numpy(), [[1, 2], [3, 4]])


@pytest.mark.parametrize("method, op", [("assign_add", np.add), ("assign_sub", np.subtract)])
def test_assign_add_and_sub_leave_earlier_reads_and_the_delta_alone(method, op):
    # The update is written into the variable's array only when nothing else holds it.
    v = tf.Variable([1.0, 2.0])
    delta = tf.constant([0.5, 4.0])
    getattr(v, method)(delta)                      # nothing holds the array: in place
    first = op([1.0, 2.0], [0.5, 4.0])
    np.testing.assert_array_equal(v.numpy(), first)
    read = v.read_value()                          # a reader holds it: a new array
    getattr(v, method)(delta)
    np.testing.assert_array_equal(read.numpy(), first)
    np.testing.assert_array_equal(v.numpy(), op(first, [0.5, 4.0]))
    np.testing.assert_array_equal(delta.numpy(), [0.5, 4.0])
    getattr(v, method)(v)                          # the variable's own value as delta
    np.testing.assert_array_equal(v.numpy(), op(op(first, [0.5, 4.0]), op(first, [0.5, 4.0])))


def test_variable_creator_scopes_nest_innermost_first():
    calls = []

    def outer(next_creator, **kwargs):
        calls.append(("outer", kwargs["name"]))
        return next_creator(**kwargs)

    def inner(next_creator, **kwargs):
        calls.append(("inner", kwargs["name"]))
        kwargs["trainable"] = False
        return next_creator(**kwargs)

    with tf.variable_creator_scope(outer), tf.variable_creator_scope(inner):
        v = tf.Variable([1.0, 2.0], name="v")
    w = tf.Variable(1.0, name="w")
    assert calls == [("inner", "v"), ("outer", "v")]
    assert not v.trainable and v.numpy().tolist() == [1.0, 2.0] and w.trainable


def test_a_failing_creator_leaves_no_scope_behind():
    def broken(next_creator, **kwargs):
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        with tf.variable_creator_scope(broken):
            tf.Variable(1.0)
    assert tf.Variable(2.0).numpy() == 2.0
