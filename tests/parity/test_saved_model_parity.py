"""SavedModels tapeflow writes, loaded by TensorFlow 2.21 (in a subprocess): its restored
functions and signatures give tapeflow's outputs, and `saved_model_cli show --all`
describes the directory; TF1's loader (TF Serving's) restores it through the SaverDef."""
import numpy as np
import pytest

import tapeflow as tf

pytestmark = pytest.mark.parity
pytest.importorskip("tensorboard")

X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], np.float32)


class Dense(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, -6.0]], name="w")
        self.b = tf.Variable([0.5, -1.0], name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        return tf.nn.relu(tf.nn.bias_add(tf.matmul(x, self.w), self.b))


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.dense = Dense()
        self.scales = [tf.Variable(2.0), tf.Variable(-1.0)]
        self.offset = tf.constant([10.0, 20.0])

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def predict(self, x):
        return {"y": self.dense(x) * self.scales[0] + self.offset,
                "s": tf.reduce_sum(tf.tanh(x), axis=1) * self.scales[1]}

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([], tf.int32)])
    def looped(self, x, n):
        total = tf.zeros([2])
        for _ in tf.range(n):
            total += tf.reduce_sum(x, axis=1)
        return total


def test_tf_loads_a_tapeflow_module_and_computes_its_values(tf_subprocess, tmp_path):
    dense = Dense()
    tf.saved_model.save(dense, tmp_path / "dense")
    result = tf_subprocess("""
import subprocess
m = tf.saved_model.load(ARGS["dir"])
x = np.array(ARGS["x"], np.float32)
shown = subprocess.run([sys.executable, "-m", "tensorflow.python.tools.saved_model_cli",
                        "show", "--all", "--dir", ARGS["dir"]], capture_output=True, text=True)
# TF1's loader (what TF Serving runs): the SaverDef restores the variables into a Session.
with tf.compat.v1.Session(graph=tf.Graph()) as sess:
    meta = tf.compat.v1.saved_model.load(sess, ["serve"], ARGS["dir"])
    signature = meta.signature_def["serving_default"]
    session_out = sess.run(signature.outputs["output_0"].name,
                           {signature.inputs["x"].name: x}).tolist()
RESULT = [m(x).numpy().tolist(), m.signatures["serving_default"](x=x)["output_0"].numpy().tolist(),
          [v.numpy().tolist() for v in (m.w, m.b)], shown.stdout, session_out]
""", dir=str(tmp_path / "dense"), x=X.tolist())
    call, serving, variables, shown, session_out = result
    want = dense(X).numpy().tolist()
    assert call == want and serving == want and session_out == want
    assert variables == [dense.w.numpy().tolist(), dense.b.numpy().tolist()]
    assert "signature_def['serving_default']" in shown
    assert "inputs['x'] tensor_info:" in shown and "shape: (-1, 3)" in shown
    assert "outputs['output_0'] tensor_info:" in shown and "shape: (-1, 2)" in shown
    assert "Method name is: tensorflow/serving/predict" in shown
    assert "Function Name: '__call__'" in shown


def test_tf_loads_several_signatures_a_loop_and_a_nested_module(tf_subprocess, tmp_path):
    net = Net()
    tf.saved_model.save(net, tmp_path / "net",
                        signatures={"predict": net.predict, "looped": net.looped})
    result = tf_subprocess("""
m = tf.saved_model.load(ARGS["dir"])
x = np.array(ARGS["x"], np.float32)
p = m.signatures["predict"](x=x)
RESULT = [sorted(m.signatures), p["y"].numpy().tolist(), p["s"].numpy().tolist(),
          m.signatures["looped"](x=x, n=tf.constant(3))["output_0"].numpy().tolist(),
          m.predict(x)["y"].numpy().tolist(), m.dense(x).numpy().tolist(),
          [float(v) for v in m.scales]]
""", dir=str(tmp_path / "net"), x=X.tolist())
    keys, y, s, looped, predicted, dense, scales = result
    want = net.predict(X)
    assert keys == ["looped", "predict"]
    assert y == want["y"].numpy().tolist() and predicted == y
    np.testing.assert_allclose(s, want["s"].numpy(), rtol=1e-6)
    assert looped == net.looped(X, tf.constant(3)).numpy().tolist()
    assert dense == net.dense(X).numpy().tolist() and scales == [2.0, -1.0]
