"""The op history diagnostics keep: what it notes, its bound, and that it leaves no trace."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.eager import op_history
from tapeflow.framework.context import state
from tapeflow.framework.tensor import Tensor
from tapeflow.framework.variables import Variable


@pytest.fixture
def history():
    op_history.enable()
    try:
        yield op_history.current()
    finally:
        op_history.disable()


def test_off_by_default_and_nothing_installed():
    assert op_history.current() is None
    assert type(state.recorders) is list and state.recorders == []
    assert Tensor.numpy.__module__ == "tapeflow.framework.tensor"
    assert Variable.__float__.__module__ == "tapeflow.framework.variables"


def test_notes_every_op_with_ids_dtypes_shapes_and_user_site(history):
    x = tf.constant([1.0, 2.0])
    y = tf.cast(x * 2.0, tf.int32)
    mul, cast = list(history.events)[-2:]
    assert (mul.op.name, cast.op.name) == ("Mul", "Cast")
    assert mul.inputs[0] == x._id and cast.outputs == (y._id,)
    assert [d.name for d in cast.input_dtypes] == ["float32"]
    assert [d.name for d in cast.output_dtypes] == ["int32"]
    assert cast.output_shapes == ((2,),) and mul.input_shapes == ((2,), ())
    assert cast.site[0].endswith("test_op_history.py") and cast.site == mul.site
    assert history.producers[y._id] is cast
    assert mul.seq < cast.seq


def test_notes_variable_reads_and_tape_spans(history):
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        v * 2.0
        with tape.stop_recording():
            pass
    assert v._id in history.variable_ids
    spans = history.spans_of(tape._tape)
    assert len(spans) == 2 and all(start < stop for start, stop in spans)
    assert spans[0][1] < spans[1][0]


def test_notes_values_leaving_the_library_from_user_code_only(history):
    x, y, z = tf.constant([1.0, 2.0]), tf.constant([3.0]), tf.constant(3.0)
    x.numpy()
    np.sum(y)
    float(z)
    escapes = history.escapes
    assert [escapes[t._id].how for t in (x, y, z)] == [
        "Tensor.numpy()", "a NumPy conversion (np.asarray or a NumPy function)", "float()"]
    assert escapes[x._id].site[0].endswith("test_op_history.py")
    assert escapes[x._id].mark < escapes[y._id].mark < tf.constant(0.0)._id
    before = len(history.escapes)
    repr(x)
    tf.reduce_sum(x)
    assert len(history.escapes) == before


def test_keeps_only_the_last_operations():
    op_history.enable(size=5)
    history = op_history.current()
    try:
        x = tf.constant(1.0)
        ys = [x * float(i) for i in range(8)]
    finally:
        op_history.disable()
    assert len(history.events) == 5
    assert ys[2]._id not in history.producers and ys[3]._id in history.producers
    assert len(history.producers) == 5


def test_disable_restores_the_engine_and_keeps_active_tapes():
    with tf.GradientTape() as tape:
        op_history.enable()
        assert op_history.current() in state.recorders and tape._tape in state.recorders
        op_history.disable()
        assert state.recorders == [tape._tape] and type(state.recorders) is list
    assert Tensor.numpy.__module__ == "tapeflow.framework.tensor"
    assert Tensor.__array__.__name__ == "__array__"


def test_values_are_unchanged_through_the_wrappers(history):
    x = tf.constant([1.5, 2.5])
    assert x.numpy().tolist() == [1.5, 2.5]
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    assert int(tf.constant(3)) == 3 and float(tf.Variable(2.0)) == 2.0
