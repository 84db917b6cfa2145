"""The run-time operators: Python values keep Python semantics (short circuits, one branch
run), tensors in graphs build graph control flow, and undefined values raise when read."""
import pytest

import tapeflow as tf
from tapeflow.autograph import operators as ag


def test_python_if_runs_one_branch():
    ran = []
    ag.if_stmt(False, lambda: ran.append("main"), lambda: ran.append("else"),
               lambda: (), lambda values: None, ())
    assert ran == ["else"]


def test_python_and_or_short_circuit():
    assert ag.and_(lambda: 0, lambda: 1 / 0) == 0
    assert ag.or_(lambda: "a", lambda: 1 / 0) == "a"
    assert ag.not_(0) is True


def test_eager_tensors_take_the_python_path():
    x = tf.constant(2.0)
    assert float(ag.and_(lambda: x > 1.0, lambda: x)) == 2.0
    assert bool(ag.not_(x > 1.0)) is False


@pytest.mark.parametrize("expression, expected", [
    (lambda x: ag.and_(lambda: x > 0.0, lambda: x < 5.0), [True, False, False]),
    (lambda x: ag.or_(lambda: x < 0.0, lambda: x > 5.0), [False, True, True]),
    (lambda x: ag.not_(x > 0.0), [False, False, True]),
])
def test_logical_operators_on_graph_tensors(expression, expected):
    f = tf.function(expression)
    assert [bool(f(tf.constant(v))) for v in (1.0, 9.0, -1.0)] == expected


def test_undefined_values_raise_their_error_when_read():
    with pytest.raises(ValueError, match="boom"):
        ag.ld(ag.Undefined("x", ValueError("boom")))
    with pytest.raises(UnboundLocalError, match="'x'"):
        ag.ld(ag.Undefined("x"))
    assert ag.retval(ag.UndefinedReturnValue()) is None
    assert ag.ld(3) == 3


def test_python_for_stops_on_the_extra_test():
    seen = []
    ag.for_stmt([1, 2, 3, 4], lambda: len(seen) < 2, seen.append, lambda: (),
                lambda values: None, ())
    assert seen == [1, 2]


def test_python_object_on_both_branches_is_fine_until_read():
    @tf.function
    def unused(x):
        if x > 0:
            label = "positive"
        else:
            label = "other"
        return x

    @tf.function
    def used(x):
        if x > 0:
            label = "positive"
        else:
            label = "other"
        return label

    assert float(unused(tf.constant(1.0))) == 1.0
    with pytest.raises(TypeError, match="'label' must be a tensor"):
        used(tf.constant(1.0))


def test_tensor_break_cannot_stop_a_python_loop():
    @tf.function
    def f(x):
        for k in range(3):
            if x > k:
                break
        return x

    with pytest.raises(NotImplementedError, match="Make it a tensor loop"):
        f(tf.constant(1.0))


def test_loop_variable_of_a_python_string_becomes_a_string_tensor():
    @tf.function
    def f(n):
        name = "a"
        for _ in tf.range(n):
            name = name + "a"
        return name

    assert f(tf.constant(2)).numpy() == b"aaa"   # TF: tf.Tensor(b'aaa', dtype=string)


def test_loop_variable_that_is_not_a_tensor():
    @tf.function
    def f(n):
        name = object()
        for _ in tf.range(n):
            name = name
        return name

    with pytest.raises(TypeError, match="'name' is a variable of a tensor loop"):
        f(tf.constant(2))


def test_len_and_range_of_graph_tensors():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        assert len(x.shape) == 1 and ag.len_([1, 2]) == 2
        total = 0.0
        for i in range(len(x)):
            total += tf.cast(i, tf.float32)
        return total

    assert float(f(tf.constant([5.0, 5.0, 5.0, 5.0]))) == 6.0
    assert list(ag.range_(3)) == [0, 1, 2]
    with pytest.raises(ValueError, match="non-scalar"):
        tf.function(lambda x: ag.len_(x))(tf.constant(1.0))
