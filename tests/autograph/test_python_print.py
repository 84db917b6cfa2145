"""Python's `print` inside a tf.function stays Python's: it runs while the function is
traced (once per trace) and shows the symbolic tensors, as TF's do."""
import tapeflow as tf


def test_print_runs_once_per_trace_and_shows_the_placeholder(capsys):
    @tf.function
    def f(a):
        print("Tracing with", a)
        return a + 1

    assert int(f(tf.constant(1))) == 2
    assert int(f(tf.constant(2))) == 3
    assert capsys.readouterr().out == 'Tracing with Tensor("a:0", shape=(), dtype=int32)\n'
    f(tf.constant([1, 2]))  # a new signature traces again
    assert capsys.readouterr().out == 'Tracing with Tensor("a:0", shape=(2,), dtype=int32)\n'


def test_print_keeps_its_keywords_and_python_values(capsys):
    @tf.function
    def f(x):
        print("x is", x, 3, sep="|", end="!\n")
        return x

    f(tf.constant([1.0, 2.0]))
    f(tf.constant([3.0, 4.0]))
    assert capsys.readouterr().out == 'x is|Tensor("x:0", shape=(2,), dtype=float32)|3!\n'


def test_tf_print_prints_each_run(capsys):
    @tf.function
    def f(x):
        tf.print("value:", x)
        return x

    f(tf.constant(1))
    f(tf.constant(2))
    assert capsys.readouterr().err.splitlines() == ["value: 1", "value: 2"]
