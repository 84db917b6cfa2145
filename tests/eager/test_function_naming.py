"""Names in a tf.function's graph, as TF gives them: placeholders after their arguments,
operator nodes after the operator, and the str/repr of graph tensors."""
import tapeflow as tf


def test_placeholders_take_argument_names():
    seen = []

    @tf.function
    def f(x, num_steps, *args, **kwargs):
        seen.append((x, num_steps, args, kwargs))
        return x

    f(tf.constant([1.0, 2.0]), tf.constant(3), tf.constant(1.0), tf.constant(2.0),
      k=tf.constant(4.0))
    (x, num_steps, args, kwargs), = seen
    assert (x.name, num_steps.name) == ("x:0", "num_steps:0")
    assert [a.name for a in args] == ["args_0:0", "args_1:0"] and kwargs["k"].name == "k:0"


def test_nested_arguments_are_numbered_and_specs_keep_their_names():
    seen = []

    @tf.function
    def f(d, t):
        seen.append((d, t))
        return d["a"]

    f({"a": tf.constant(1.0), "b": tf.constant(2.0)}, (tf.constant(1.0), [tf.constant(2.0)]))
    (d, t), = seen
    assert [d["a"].name, d["b"].name, t[0].name, t[1][0].name] == \
        ["d:0", "d_1:0", "t:0", "t_1:0"]
    cf = tf.function(lambda x: x * 2.0).get_concrete_function(
        tf.TensorSpec([None, 3], tf.float32, name="inp"))
    assert [t.name for t in cf.inputs] == ["inp:0"]


def test_operator_nodes_and_tensor_text():
    seen = []

    @tf.function
    def f(a, b):
        out = [a + b, a + b, a * 2.0, a - b, a / b, -a, a < b]
        seen.extend(out)
        return out[0]

    f(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]))
    assert [t.name for t in seen] == ["add:0", "add_1:0", "mul:0", "sub:0", "truediv:0",
                                      "Neg:0", "Less:0"]
    assert str(seen[0]) == 'Tensor("add:0", shape=(2,), dtype=float32)'
    assert repr(seen[0]) == "<tf.Tensor 'add:0' shape=(2,) dtype=float32>"
    cf = tf.function(lambda x: x).get_concrete_function(tf.TensorSpec([None, 3], tf.int32))
    assert str(cf.inputs[0]) == 'Tensor("x:0", shape=(None, 3), dtype=int32)'


def test_graph_names_are_unique_regardless_of_case():
    g = tf.Graph()
    assert [g.unique_name(n) for n in ["add", "Add", "add", "add_1", "ADD"]] == \
        ["add", "Add_1", "add_2", "add_1_1", "ADD_3"]
