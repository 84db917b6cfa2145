"""tf.function on methods: each instance gets its own Function (own traces, own
variables); on the class it is the unbound Function; with tf.Module.with_name_scope."""
import pytest

import tapeflow as tf


class Scaler(tf.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale
        self.v = None

    @tf.function
    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(self.scale)
        return self.v * x

    @tf.Module.with_name_scope
    @tf.function
    def shifted(self, x):
        return x + self.scale


def test_each_instance_has_its_own_function_and_variables():
    a, b = Scaler(2.0), Scaler(3.0)
    assert float(a(tf.constant(2.0))) == 4.0 and float(b(tf.constant(3.0))) == 9.0
    assert a.__call__ is a.__call__ and a.__call__ is not b.__call__
    assert type(Scaler.__call__).__name__ == "Function"
    assert Scaler.__call__.experimental_get_tracing_count() == 0
    # a first call that creates variables traces twice, as TF's (the second creates none)
    assert a.__call__.experimental_get_tracing_count() == 2
    assert a.v is not b.v and float(a.v) == 2.0 and float(b.v) == 3.0


def test_with_name_scope_over_a_function():
    assert float(Scaler(1.0).shifted(tf.constant(1.0))) == 2.0


def test_decorate_wraps_the_python_function_in_place_until_the_first_trace():
    calls = []

    def logged(fn):
        def wrapper(*args):
            calls.append(len(args))
            return fn(*args)
        return wrapper

    f = tf.function(lambda x: x + 1.0)
    f._decorate(logged)
    assert float(f(tf.constant(1.0))) == 2.0 and calls == [1]
    with pytest.raises(ValueError, match="decorated after they have been traced"):
        f._decorate(logged)
