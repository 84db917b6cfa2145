"""Writes tests/data/graph_def/: GraphDefs TensorFlow writes for small models, with the
inputs fed and the outputs TF computes, for tapeflow's import tests.

Run with a TensorFlow installation (the files are TF's):

    python tools/record_graph_def_fixtures.py   # python: one with tensorflow
"""
import pathlib

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1
OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "graph_def"


def frozen(build, feeds: dict, output: str):
    """The frozen GraphDef of the TF 1 graph `build()` makes, and its output for feeds."""
    g = tf.Graph()
    with g.as_default():
        build()
        with tf1.Session(graph=g) as sess:
            sess.run(tf1.global_variables_initializer())
            want = sess.run(output + ":0", {k + ":0": v for k, v in feeds.items()})
            graph_def = tf1.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), [output])
    return graph_def, want


def mlp():
    rng = np.random.RandomState(1)
    x = tf1.placeholder(tf.float32, [None, 4], name="x")
    w1 = tf.Variable(rng.randn(4, 5).astype(np.float32), name="w1")
    b1 = tf.Variable(rng.randn(5).astype(np.float32), name="b1")
    w2 = tf.Variable(rng.randn(5, 3).astype(np.float32), name="w2")
    b2 = tf.Variable(rng.randn(3).astype(np.float32), name="b2")
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
    tf.nn.softmax(tf.nn.bias_add(tf.matmul(h, w2), b2), name="probs")


def conv():
    rng = np.random.RandomState(2)
    x = tf1.placeholder(tf.float32, [None, 6, 6, 1], name="image")
    k = tf.Variable(rng.randn(3, 3, 1, 2).astype(np.float32), name="kernel")
    c = tf.nn.relu(tf.nn.conv2d(x, k, strides=1, padding="SAME"))
    p = tf.nn.max_pool2d(c, 2, 2, "VALID")
    flat = tf.reshape(p, [-1, 18])
    w = tf.Variable(rng.randn(18, 3).astype(np.float32), name="dense")
    tf.reduce_mean(tf.matmul(flat, w), axis=1, keepdims=True, name="score")


def control():
    x = tf1.placeholder(tf.float32, [], name="x")
    y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
    _, a = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x + 1.0),
                         [tf.constant(0), x])
    tf.add(y, a, name="out")


def function_graph():
    """A tf.function's graph (as TF writes it: Identity outputs, a nested function call)."""
    inner = tf.function(lambda v: tf.nn.relu(v) * 3.0)

    @tf.function
    def f(x):
        s = tf.reduce_sum(tf.square(x), axis=0)
        return inner(s - 1.0) + tf.cond(s[0] > 1.0, lambda: s, lambda: -s)
    x = np.arange(6, dtype=np.float32).reshape(3, 2) / 3.0
    concrete = f.get_concrete_function(tf.TensorSpec([3, 2], tf.float32, name="x"))
    return concrete.graph.as_graph_def(), {"x": x}, concrete.outputs[0].name, f(x).numpy()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(0)
    arrays = {}
    for name, build, feeds, output in [
            ("mlp", mlp, {"x": rng.rand(2, 4).astype(np.float32)}, "probs"),
            ("conv", conv, {"image": rng.rand(2, 6, 6, 1).astype(np.float32)}, "score"),
            ("control", control, {"x": np.float32(1.5)}, "out")]:
        graph_def, want = frozen(build, feeds, output)
        (OUT / f"{name}_frozen.pb").write_bytes(graph_def.SerializeToString(deterministic=True))
        for key, value in feeds.items():
            arrays[f"{name}/{key}"] = value
        arrays[f"{name}/{output}"] = want
    g = tf.Graph()  # a TF 1 graph with its variables (VarHandleOp, Assign, IsInitialized)
    with g.as_default():
        mlp()
        tf1.global_variables_initializer()
        with tf1.Session(graph=g) as sess:
            sess.run("init")
            arrays["mlp_variables/probs"] = sess.run("probs:0", {"x:0": arrays["mlp/x"]})
    (OUT / "mlp_variables.pb").write_bytes(g.as_graph_def().SerializeToString(
        deterministic=True))
    graph_def, feeds, output, want = function_graph()
    (OUT / "function.pb").write_bytes(graph_def.SerializeToString(deterministic=True))
    arrays["function/x"], arrays["function/output"] = feeds["x"], want
    arrays["function/output_name"] = np.array(output)
    np.savez(OUT / "values.npz", **arrays)
    print(sorted(arrays))


if __name__ == "__main__":
    main()
