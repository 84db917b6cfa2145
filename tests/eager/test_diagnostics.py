"""GradientTape.explain names why a gradient is None; to_dot draws the tape; the warning mode."""
import sys
import threading
import warnings

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.eager.diagnostics import Explanation


@pytest.fixture
def diagnostics():
    tf.config.set_diagnostics(True)
    try:
        yield
    finally:
        tf.config.set_diagnostics(False)


@pytest.fixture(autouse=True)
def diagnostics_left_off():
    yield
    tf.config.set_explain_none_gradients(False)
    tf.config.set_diagnostics(False)


def here() -> int:
    """The line number of the caller's next line."""
    return sys._getframe(1).f_lineno + 1


def assert_reason(why: Explanation, reason: str, op, line=None) -> None:
    assert isinstance(why, Explanation)
    assert why.reason == reason, str(why)
    assert why.op == op, str(why)
    assert why.connected is (reason == "connected")
    if line is None:
        assert why.location is None
    else:
        assert why.location.endswith(f"test_diagnostics.py:{line}"), why.location


# -- connected -----------------------------------------------------------------------------
def test_connected_source_says_it_reaches_the_target():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(x) * 3.0
    why = tape.explain(y, x)
    assert_reason(why, "connected", None)
    assert str(why).splitlines()[0] == ("source (Tensor, float32 []) reaches target (Tensor, "
                                        "float32 []) on this tape.")
    assert float(tape.gradient(y, x)) == pytest.approx(3.0 * (1 - np.tanh(2.0) ** 2))


def test_target_that_is_the_source_is_connected():
    v = tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape:
        pass
    assert_reason(tape.explain(v, v), "connected", None)


def test_one_connected_target_in_a_structure_is_enough():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a, b = x * 2.0, tf.constant(1.0) * 3.0
    assert tape.explain([a, b], x).connected
    assert "the 2 targets" in str(tape.explain([b, b], x))


# -- source never watched -----------------------------------------------------------------
def test_unwatched_constant(diagnostics):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        line = here()
        y = x * x
    why = tape.explain(y, x)
    assert_reason(why, "not_watched", "Mul", line)
    assert "tape.watch" in why.fix
    assert tape.gradient(y, x) is None


def test_unwatched_constant_without_diagnostics_names_no_place():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
    why = tape.explain(y, x)
    assert_reason(why, "not_watched", None)
    assert "never watched" in why.message


def test_variable_not_trainable(diagnostics):
    v = tf.Variable(2.0, trainable=False, name="frozen")
    with tf.GradientTape(persistent=True) as tape:
        line = here()
        y = v * 3.0
    why = tape.explain(y, v)
    assert_reason(why, "variable_not_trainable", "Mul", line)
    assert "trainable=False" in why.message
    assert "Variable 'frozen:0'" in str(why)


def test_variable_with_watch_accessed_variables_false():
    v = tf.Variable(2.0)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        y = v * 3.0
    why = tape.explain(y, v)
    assert_reason(why, "watch_accessed_variables", None)
    assert "watch_accessed_variables=False" in why.message


def test_variable_read_only_before_the_tape(diagnostics):
    v = tf.Variable(2.0)
    line = here()
    y = v * 3.0
    with tf.GradientTape(persistent=True) as tape:
        z = y + 1.0
    assert_reason(tape.explain(z, v), "used_before_tape", "Mul", line)


def test_variable_read_only_before_the_tape_without_diagnostics():
    v = tf.Variable(2.0)
    y = v * 3.0
    with tf.GradientTape(persistent=True) as tape:
        z = y + 1.0
    assert_reason(tape.explain(z, v), "variable_not_read", None)


# -- used before the tape started, inside stop_recording, after the block ------------------
def test_used_before_the_tape_started(diagnostics):
    x = tf.constant(2.0)
    line = here()
    y = x * 3.0
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        z = y + 1.0
    why = tape.explain(z, x)
    assert_reason(why, "used_before_tape", "Mul", line)
    assert "before the tape started" in why.message


def test_used_inside_stop_recording(diagnostics):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            line = here()
            y = tf.exp(x)
        z = y + 1.0
    why = tape.explain(z, x)
    assert_reason(why, "stop_recording", "Exp", line)
    assert "stop_recording" in why.message


def test_used_after_the_tape_block(diagnostics):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * 3.0
    line = here()
    loss = tf.square(y)
    assert_reason(tape.explain(loss, x), "used_after_tape", "Square", line)


def test_watched_after_it_was_used(diagnostics):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        line = here()
        y = x * 3.0
        tape.watch(x)
    assert_reason(tape.explain(y, x), "watched_after_use", "Mul", line)


def test_unrecorded_path_without_diagnostics_says_it_cannot_tell():
    x = tf.constant(2.0)
    y = x * 3.0
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        z = y + 1.0
    why = tape.explain(z, x)
    assert_reason(why, "not_recorded", None)
    assert "set_diagnostics(True)" in why.fix


# -- integer or bool dtype, stop_gradient, non-differentiable ops -------------------------
def test_path_through_an_integer_cast(diagnostics):
    x = tf.constant([1.5, 2.5])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        line = here()
        n = tf.cast(x, tf.int32)
        y = tf.cast(n, tf.float32) * x
        z = tf.reduce_sum(tf.cast(n, tf.float32))
    assert tape.explain(y, x).connected
    why = tape.explain(z, x)
    assert_reason(why, "integer_path", "Cast", line)
    assert "float32 -> int32" in why.message


def test_path_through_an_integer_cast_without_diagnostics_is_a_likely_guess():
    x = tf.constant([1.5, 2.5])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        z = tf.cast(tf.cast(x, tf.int64), tf.float32) * 2.0
    why = tape.explain(z, x)
    assert_reason(why, "integer_path", "Cast", None)
    assert why.message.startswith("most likely")
    assert "int64" in why.message


def test_integer_target(diagnostics):
    x = tf.constant(1.5)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        line = here()
        n = tf.cast(x * 2.0, tf.int32)
    assert_reason(tape.explain(n, x), "integer_path", "Cast", line)


def test_integer_source():
    n = tf.constant([1, 2])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(n)
        y = tf.cast(n, tf.float32) * 2.0
    why = tape.explain(y, n)
    assert_reason(why, "integer_path", None)
    assert why.message.startswith("the source is int32")


def test_path_through_stop_gradient(diagnostics):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        line = here()
        y = tf.stop_gradient(x * x) + 1.0
    why = tape.explain(y, x)
    assert_reason(why, "stop_gradient", "StopGradient", line)
    assert "tf.stop_gradient" in why.message


def test_path_through_stop_gradient_without_diagnostics():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.stop_gradient(x) * 2.0
    why = tape.explain(y, x)
    assert_reason(why, "stop_gradient", "StopGradient", None)
    assert "set_diagnostics(True)" in str(why)


def test_path_through_a_non_differentiable_op(diagnostics):
    x = tf.constant([0.4, 1.6])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        line = here()
        y = tf.reduce_sum(tf.round(x) * 2.0)
    why = tape.explain(y, x)
    assert_reason(why, "non_differentiable", "Round", line)
    assert "no_gradient" in why.message


def test_several_blocking_places_are_counted(diagnostics):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        line = here()
        y = tf.stop_gradient(x) + tf.round(x)
    why = tape.explain(y, x)
    assert_reason(why, "stop_gradient", "StopGradient", line)
    assert "1 more such place" in why.message


# -- the value left the library ------------------------------------------------------------
def test_value_went_through_numpy(diagnostics):
    x = tf.constant([0.5, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        out_line = here()
        a = np.sin(x.numpy())
        line = here()
        z = tf.reduce_sum(tf.constant(a))
        y = tf.reduce_sum(tf.constant(a) * x)
    assert tape.explain(y, x).connected
    why = tape.explain(z, x)
    assert_reason(why, "left_library", "Sum", line)
    assert "Tensor.numpy() at " in why.message
    assert f"test_diagnostics.py:{out_line}" in why.message


def test_numpy_value_brought_back_later_is_only_mentioned(diagnostics):
    x = tf.constant([0.5, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        out_line = here()
        a = np.sin(x.numpy())
        tf.exp(x)
        z = tf.reduce_sum(tf.constant(a))
    why = tape.explain(z, x)
    assert_reason(why, "unrelated", None)
    assert f"Tensor.numpy() at " in why.message
    assert f"test_diagnostics.py:{out_line}: if the target was computed from it" in why.message


def test_value_went_through_a_numpy_function(diagnostics):
    x = tf.constant([0.5, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = x * 2.0
        line = here()
        y = tf.constant(np.tanh(h)) * 3.0
    why = tape.explain(y, x)
    assert_reason(why, "left_library", "Mul", line)
    assert "NumPy conversion" in why.message


def test_value_went_through_a_python_float(diagnostics):
    v = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        out_line = here()
        f = float(v * 2.0)
        y = tf.constant(f) ** 2
    why = tape.explain(y, v)
    assert_reason(why, "left_library", "Pow", out_line + 1)
    assert f"float() at " in why.message and f":{out_line}" in why.message


def test_value_printed_in_an_earlier_tape_is_not_blamed(diagnostics):
    x = tf.constant(2.0)
    with tf.GradientTape() as first:
        first.watch(x)
        float(x * 2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.constant(1.0) * 2.0
    assert_reason(tape.explain(y, x), "unrelated", None)


# -- the target does not depend on the source ---------------------------------------------
def test_target_does_not_depend_on_source(diagnostics):
    x = tf.constant(2.0)
    w = tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = w * 2.0 + x
    why = tape.explain(y, w * 1.0)
    assert_reason(why, "unrelated", None)
    assert "does not depend" in why.message
    assert_reason(tape.explain(w * 3.0, x), "unrelated", None)


# -- the tape itself and the arguments -----------------------------------------------------
def test_explain_leaves_the_tape_usable():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.explain(y, x).connected
    assert float(tape.gradient(y, x)) == 4.0


def test_explain_after_a_non_persistent_gradient_raises():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="before gradient"):
        tape.explain(y, x)
    with pytest.raises(RuntimeError, match="persistent=True"):
        tape.to_dot(y)


def test_explain_rejects_what_is_not_a_tensor():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    for target, source in [(1.0, x), (y, 1.0), (y, [x, x]), ([], x)]:
        with pytest.raises(ValueError, match="explain"):
            tape.explain(target, source)


def test_str_reads_as_verdict_reason_place_and_fix(diagnostics):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        line = here()
        y = tf.cast(x, tf.int32)
    lines = str(tape.explain(y, x)).splitlines()
    assert lines[0] == ("source (Tensor, float32 []) does not reach target (Tensor, int32 []) "
                        "on this tape.")
    assert lines[1].startswith("Why: the path from the source to the target goes through Cast")
    assert lines[2].startswith("Where: Cast at ") and lines[2].endswith(f":{line}")
    assert lines[3].startswith("Fix: keep the path in floating point")
    assert repr(tape.explain(y, x)).startswith("<Explanation reason='integer_path' op='Cast'")


def test_another_thread_reasons_from_its_tape_alone(diagnostics):
    results = []

    def work():
        x = tf.constant(2.0)
        y = x * 3.0
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            z = y + 1.0
        results.append(tape.explain(z, x))

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert_reason(results[0], "not_recorded", None)
    assert results[0].diagnostics is False


def test_gradients_are_unchanged_while_diagnostics_are_on(diagnostics):
    x = tf.constant(0.7)
    v = tf.Variable([[1.0, 2.0]])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.tanh(x) * tf.reduce_sum(v)
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    t = np.tanh(0.7)
    assert float(dy) == pytest.approx(3.0 * (1 - t * t), rel=1e-6)
    assert float(d2y) == pytest.approx(3.0 * -2 * t * (1 - t * t), rel=1e-5)


# -- the warning mode ----------------------------------------------------------------------
def test_no_warning_by_default():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        y = x * 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tape.gradient(y, x) is None
    assert not tf.config.explain_none_gradients_enabled()
    assert not tf.config.diagnostics_enabled()


def test_warning_per_none_gradient_with_the_explanation():
    tf.config.set_explain_none_gradients(True)
    x = tf.constant(1.0)
    w = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        line = here()
        y = tf.round(x) * w + 1.0
        z = y * 1.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call_line = here()
        dx, dw, dz = tape.gradient(z, [x, w, tf.constant(3.0)])
    assert dx is None and float(dw) == 1.0 and dz is None
    assert len(caught) == 2
    assert all(c.category is tf.config.NoneGradientWarning for c in caught)
    first, second = (str(c.message) for c in caught)
    assert first.startswith("gradient() returned None for source #0.")
    assert "Round" in first and f"test_diagnostics.py:{line}" in first
    assert "source #2" in second and "does not depend" in second
    assert caught[0].filename.endswith("test_diagnostics.py")
    assert caught[0].lineno == call_line


def test_no_warning_for_zero_unconnected_gradients():
    tf.config.set_explain_none_gradients(True)
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        y = x * 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(tape.gradient(y, x, unconnected_gradients="zero")) == 0.0


def test_warning_mode_turns_diagnostics_on_and_off():
    assert not tf.config.diagnostics_enabled()
    tf.config.set_explain_none_gradients(True)
    assert tf.config.explain_none_gradients_enabled() and tf.config.diagnostics_enabled()
    tf.config.set_explain_none_gradients(False)
    assert not tf.config.diagnostics_enabled()
    tf.config.set_diagnostics(True)
    tf.config.set_explain_none_gradients(True)
    tf.config.set_explain_none_gradients(False)
    assert tf.config.diagnostics_enabled()


# -- to_dot ----------------------------------------------------------------------------------
def test_to_dot_shows_ops_shapes_dtypes_and_watched_inputs():
    w = tf.Variable([1.0, 2.0], name="w")
    x = tf.constant([[3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        loss = tf.reduce_sum(tf.tanh(x * w) ** 2)
        unrelated = x - 1.0
    dot = tape.to_dot(loss)
    assert dot.startswith("digraph tape {\n") and dot.endswith("}\n")
    for text in ('label="Mul", shape=box', 'label="Tanh"', 'label="Pow"', 'label="Sum"',
                 'label="w:0\\nfloat32 [2]\\nwatched"', 'label="float32 [2, 2]\\nnot watched"',
                 'label="float32 [2, 2]", shape=ellipse',
                 'label="target\\nfloat32 []", shape=doubleoctagon'):
        assert text in dot, text
    assert "Sub" not in dot
    assert dot.count(" -> ") == 10
    assert 'label="target\\nfloat32 [2, 2]\\nnot recorded on this tape"' in tape.to_dot(unrelated)


def test_to_dot_names_places_when_diagnostics_are_on(diagnostics):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        line = here()
        y = tf.exp(x)
    dot = tape.to_dot(y)
    assert 'label="Exp\\n' in dot and f'test_diagnostics.py:{line}", shape=box' in dot


def test_names_with_braces_are_printed_as_they_are():
    v = tf.Variable(1.0, name="w{0}", trainable=False)
    with tf.GradientTape(persistent=True) as tape:
        y = v * 2.0
    assert str(tape.explain(y, v)).startswith("source (Variable 'w{0}:0', float32 []) does not")


def test_to_dot_escapes_quotes_in_names():
    v = tf.Variable(1.0, name='say "hi"')
    with tf.GradientTape(persistent=True) as tape:
        y = v * 2.0
    assert 'label="say \\"hi\\":0\\nfloat32 []\\nwatched"' in tape.to_dot(y)
