"""Fixtures of the tf.compat.v1 tests."""
import pytest

import tapeflow.compat.v1 as tf1


@pytest.fixture
def graph_mode():
    """TF1 mode for one test: eager execution disabled, a fresh default graph."""
    tf1.disable_eager_execution()
    tf1.reset_default_graph()
    try:
        yield tf1.get_default_graph()
    finally:
        tf1.enable_eager_execution()


@pytest.fixture
def initialized_session():
    """A function returning a Session of the default graph with its global and local
    variables initialized."""
    def make():
        sess = tf1.Session()
        sess.run([tf1.global_variables_initializer(), tf1.local_variables_initializer()])
        return sess
    return make
