"""Writes tests/data/saved_model/: small SavedModels TensorFlow writes, with inputs and the
outputs TF computes (expected.json), for tapeflow's load tests.

Run with a TensorFlow installation (the files are TF's):

    python tools/record_saved_model_fixtures.py   # python: one with tensorflow
"""
import json
import pathlib
import shutil

import numpy as np
import tensorflow as tf

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "saved_model"
X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], np.float32)


class Dense(tf.Module):
    """MatMul + BiasAdd + Relu over two Variables."""

    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, -6.0]], name="w")
        self.b = tf.Variable([0.5, -1.0], name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        return tf.nn.relu(tf.nn.bias_add(tf.matmul(x, self.w), self.b))


class TwoSignatures(tf.Module):
    """A submodule, a scale Variable, a loop and two signatures (one returning a dict)."""

    def __init__(self):
        super().__init__()
        self.dense = Dense()
        self.scale = tf.Variable(2.0, name="scale")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def predict(self, x):
        return self.dense(x) * self.scale

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([], tf.int32)])
    def summed(self, x, n):
        total = tf.zeros([2])
        for _ in tf.range(n):
            total += tf.reduce_sum(x, axis=1)
        return {"total": total, "mean": tf.reduce_mean(x)}


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    expected = {}
    dense = Dense()
    tf.saved_model.save(dense, str(OUT / "dense"))
    expected["dense"] = dense(X).numpy().tolist()
    two = TwoSignatures()
    tf.saved_model.save(two, str(OUT / "two_signatures"),
                        signatures={"predict": two.predict, "summed": two.summed})
    summed = two.summed(X, tf.constant(3))
    expected["two_signatures"] = {"predict": two.predict(X).numpy().tolist(),
                                  "total": summed["total"].numpy().tolist(),
                                  "mean": float(summed["mean"])}
    import keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                              keras.layers.Dense(2)])
    model.set_weights([np.linspace(-1.0, 1.0, w.size, dtype=np.float32).reshape(w.shape)
                       for w in model.get_weights()])
    model.export(str(OUT / "keras_mlp"))
    expected["keras_mlp"] = model(X).numpy().tolist()
    (OUT / "expected.json").write_text(json.dumps({"x": X.tolist(), **expected}, indent=1))


if __name__ == "__main__":
    main()
