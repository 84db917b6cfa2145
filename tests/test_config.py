"""tapeflow.config: the diagnostics switches are off by default and cost nothing then."""
import pytest

import tapeflow as tf
from tapeflow.eager import op_history, tape
from tapeflow.framework.context import state


@pytest.fixture(autouse=True)
def switches_left_off():
    yield
    tf.config.set_explain_none_gradients(False)
    tf.config.set_diagnostics(False)


def test_everything_is_off_by_default():
    assert not tf.config.diagnostics_enabled()
    assert not tf.config.explain_none_gradients_enabled()
    assert tape.warn_none_gradients() is False
    assert state.recorders == [] and type(state.recorders) is list


def test_set_diagnostics_installs_and_removes_the_history():
    tf.config.set_diagnostics(True)
    tf.config.set_diagnostics(True)
    history = op_history.current()
    assert state.recorders == [history]
    tf.config.set_diagnostics(False)
    assert op_history.current() is None and state.recorders == []


def test_switches_take_anything_truthy():
    tf.config.set_explain_none_gradients(1)
    assert tf.config.explain_none_gradients_enabled() is True
    tf.config.set_explain_none_gradients(0)
    assert tf.config.explain_none_gradients_enabled() is False


def test_warning_class_is_a_user_warning():
    assert issubclass(tf.config.NoneGradientWarning, UserWarning)
