"""context.switched: the one place the thread's graph and recorders are swapped."""
import pytest

import tapeflow as tf
from tapeflow.framework import context
from tapeflow.framework.context import state


def test_switched_sets_what_is_given_and_keeps_the_rest():
    g = tf.Graph()
    with tf.GradientTape():
        recorders = state.recorders
        with context.switched(graph=g):
            assert state.graph is g and state.recorders is recorders
        with context.switched(recorders=[]):
            assert state.graph is None and state.recorders == []
        assert state.recorders is recorders


def test_switched_restores_after_an_error_and_when_nested():
    outer, inner = tf.Graph(), tf.Graph()
    with pytest.raises(ZeroDivisionError):
        with context.switched(graph=outer, recorders=[]):
            with context.switched(graph=inner):
                assert state.graph is inner
            assert state.graph is outer
            1 / 0
    assert state.graph is None and state.recorders == []


def test_switched_to_eager_inside_a_graph():
    with tf.Graph().as_default():
        with context.switched(graph=None):
            assert tf.executing_eagerly()
            assert float(tf.constant(2.0) * 3.0) == 6.0
        assert not tf.executing_eagerly()


def test_default_sessions_stack_per_thread():
    assert tf.compat.v1.get_default_session() is None
    with pytest.raises(ValueError, match="Cannot eval"):
        context.default_session("eval()")
    with tf.Graph().as_default():
        a, b = tf.compat.v1.Session(), tf.compat.v1.Session()
        with a.as_default():
            with b.as_default():
                assert context.default_session("run()") is b
            assert tf.compat.v1.get_default_session() is a
    assert tf.compat.v1.get_default_session() is None
