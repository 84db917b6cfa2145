"""tf.print: TF's formatting, streams, separators, and printing at run time in graphs."""
import sys

import numpy as np
import pytest

import tapeflow as tf


@pytest.mark.parametrize("value,expected", [
    (tf.constant([1.0, 2.5, 3.0]), "[1 2.5 3]"),
    (tf.constant(3.0), "3"),
    (tf.constant(True), "1"),
    (tf.range(20), "[0 1 2 ... 17 18 19]"),
    (tf.constant([1e-8, 1e10, 0.1, 1 / 3]), "[1e-08 1e+10 0.1 0.333333343]"),
    (tf.constant([1.0, 2.0], tf.float64) / 3, "[0.33333333333333331 0.66666666666666663]"),
    (tf.constant([1.0, 2.0], tf.float16) / 3, "[0.333251953 0.666503906]"),
    (tf.constant([123456789.0]), "[123456792]"),
    (tf.constant([np.nan, np.inf, -np.inf, -0.0]), "[nan inf -inf -0]"),
    (tf.reshape(tf.range(12), [2, 3, 2]),
     "[[[0 1]\n  [2 3]\n  [4 5]]\n\n [[6 7]\n  [8 9]\n  [10 11]]]"),
    (tf.reshape(tf.range(14), [7, 2]),
     "[[0 1]\n [2 3]\n [4 5]\n ...\n [8 9]\n [10 11]\n [12 13]]"),
    (tf.Variable([1.0, 2.0]), "[1 2]"),
    ({"a": tf.constant([1, 2]), "b": 3}, "{'a': [1 2], 'b': 3}"),
    ([tf.constant([1, 2]), "s"], "[[1 2], 's']"),
    (np.array([1.5, 2.0]), "array([1.5, 2. ])"),
    (None, "None"),
    ("text", "text"),
], ids=lambda v: None)
def test_formatting(value, expected, capsys):
    tf.print(value)
    assert capsys.readouterr().err == expected + "\n"


def test_summarize_sep_end_and_streams(capsys, tmp_path):
    tf.print(tf.range(7), summarize=2, output_stream=sys.stdout)
    tf.print(tf.range(8), summarize=-1, output_stream=sys.stdout)
    tf.print("a", tf.constant(1), sep="-", end="!", output_stream=sys.stdout)
    assert capsys.readouterr().out == "[0 1 ... 5 6]\n[0 1 2 3 4 5 6 7]\na-1!"
    target = tmp_path / "log.txt"
    tf.print("x:", tf.constant(2), output_stream=f"file://{target}")
    tf.print("y", output_stream=f"file://{target}")
    assert target.read_text() == "x: 2\ny\n"
    lines = []
    tf.print("to", tf.constant([1, 2]), output_stream=lines.append)
    assert lines == ["to [1 2]"]
    with pytest.raises(ValueError, match="output_stream"):
        tf.print("x", output_stream="stdout")


def test_inside_a_function_it_prints_on_every_call_in_program_order(capsys):
    v = tf.Variable(1.0)

    @tf.function
    def step(x):
        tf.print("in", x, v)
        v.assign_add(1.0)
        tf.print("after", v)
        return x * 2

    assert tf.print("eager") is None
    step(tf.constant(1.0))
    step(tf.constant(5.0))
    assert capsys.readouterr().err == "eager\nin 1 1\nafter 2\nin 5 2\nafter 3\n"


def test_in_a_tf1_graph_it_is_an_operation_run_by_the_session(capsys):
    with tf.Graph().as_default():
        op = tf.print("graph", tf.constant(2))
        assert op.type == "PrintV2" and capsys.readouterr().err == ""
        tf.compat.v1.Session().run(op)
    assert capsys.readouterr().err == "graph 2\n"
