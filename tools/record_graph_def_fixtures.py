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


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(0)
    arrays = {}
    for name, build, feeds, output in [
            ("mlp", mlp, {"x": rng.rand(2, 4).astype(np.float32)}, "probs"),
            ("conv", conv, {"image": rng.rand(2, 6, 6, 1).astype(np.float32)}, "score")]:
        graph_def, want = frozen(build, feeds, output)
        (OUT / f"{name}_frozen.pb").write_bytes(graph_def.SerializeToString(deterministic=True))
        for key, value in feeds.items():
            arrays[f"{name}/{key}"] = value
        arrays[f"{name}/{output}"] = want
    np.savez(OUT / "values.npz", **arrays)
    print(sorted(arrays))


if __name__ == "__main__":
    main()
