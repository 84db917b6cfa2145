"""GraphDefs tapeflow writes, imported and run by TensorFlow 2.21 (in its own interpreter,
a subprocess) with tapeflow's outputs."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tapeflow as tf

pytestmark = pytest.mark.parity
pytest.importorskip("tensorboard.compat.proto.graph_pb2")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "io"))
from test_graph_def import MODELS, build, training  # noqa: E402  (the TF-free tests' models)

TF_PYTHON = os.environ.get("TAPEFLOW_TF_PYTHON", "/work/tfvenv/bin/python")

RUN_IN_TF = """
import json, sys
import numpy as np
import tensorflow as tf
tf1 = tf.compat.v1
spec = json.loads(sys.argv[1])
graph_def = tf1.GraphDef.FromString(open(spec["graph"], "rb").read())
feeds = np.load(spec["feeds"])
with tf.Graph().as_default() as g:
    tf.graph_util.import_graph_def(graph_def, name="")
    with tf1.Session(graph=g) as sess:
        fed = {k + ":0": feeds[k] for k in feeds.files}
        for op in spec["run"]:
            sess.run(op, fed)
        out = sess.run(spec["fetch"], fed)
np.save(spec["out"], out)
"""


def run_in_tf(tmp_path, graph_def, feeds: dict, fetch: str, run=()):
    if not os.path.exists(TF_PYTHON):
        pytest.skip(f"no TensorFlow interpreter at {TF_PYTHON} (set TAPEFLOW_TF_PYTHON)")
    (tmp_path / "graph.pb").write_bytes(graph_def.SerializeToString())
    np.savez(tmp_path / "feeds.npz", **feeds)
    spec = {"graph": str(tmp_path / "graph.pb"), "feeds": str(tmp_path / "feeds.npz"),
            "fetch": fetch, "run": list(run), "out": str(tmp_path / "out.npy")}
    done = subprocess.run([TF_PYTHON, "-c", RUN_IN_TF, json.dumps(spec)], capture_output=True,
                          text=True, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return np.load(tmp_path / "out.npy")


@pytest.mark.parametrize("model", sorted(MODELS))
def test_tf_runs_tapeflows_graph_defs_equal(tmp_path, model):
    g, feeds, out, init = build(MODELS[model])
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run(init)
        want = sess.run(out, {k + ":0": v for k, v in feeds.items()})
    got = run_in_tf(tmp_path, g.as_graph_def(), feeds, out.name, run=[init.name])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_tf_runs_a_frozen_graph_def(tmp_path):
    g, feeds, out, init = build(MODELS["conv"])
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run(init)
        want = sess.run(out, {k + ":0": v for k, v in feeds.items()})
        frozen = tf.compat.v1.graph_util.convert_variables_to_constants(
            sess, g.as_graph_def(), [out.op.name])
    np.testing.assert_allclose(run_in_tf(tmp_path, frozen, feeds, out.name), want,
                               rtol=1e-5, atol=1e-6)


def test_tf_runs_a_tf_function_graph(tmp_path):
    @tf.function
    def f(x):
        s = tf.reduce_sum(tf.square(x), axis=0)
        return tf.nn.relu(s - 1.0) * 3.0 + tf.cond(s[0] > 1.0, lambda: s, lambda: -s)
    x = np.arange(6, dtype=np.float32).reshape(3, 2) / 3.0
    concrete = f.get_concrete_function(tf.TensorSpec([3, 2], tf.float32, name="x"))
    got = run_in_tf(tmp_path, concrete.graph.as_graph_def(), {"x": x},
                    concrete.outputs[0].name)
    np.testing.assert_allclose(got, f(x).numpy(), rtol=1e-6)


def test_tf_trains_with_tapeflows_training_graph(tmp_path):
    g = tf.Graph()
    with g.as_default():
        feeds, loss, train = training()
        init = tf.compat.v1.global_variables_initializer()
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run(init)
        for _ in range(3):
            sess.run(train, {k + ":0": v for k, v in feeds.items()})
        want = sess.run(loss, {k + ":0": v for k, v in feeds.items()})
    got = run_in_tf(tmp_path, g.as_graph_def(), feeds, loss.name,
                    run=[init.name] + [train.name] * 3)
    np.testing.assert_allclose(got, want, rtol=1e-5)


RUN_TABLE_IN_TF = """
import json, sys
import numpy as np
import tensorflow as tf
tf1 = tf.compat.v1
spec = json.loads(open(sys.argv[1]).read())
results = {}
for key, item in spec.items():
    graph_def = tf1.GraphDef.FromString(open(item["graph"], "rb").read())
    feeds = np.load(item["feeds"])
    try:
        with tf.Graph().as_default() as g:
            tf.graph_util.import_graph_def(graph_def, name="")
            with tf1.Session(graph=g) as sess:
                out = sess.run(item["fetch"], {k + ":0": feeds[k] for k in feeds.files})
        np.savez(item["out"], *out)
        results[key] = "ok"
    except Exception as error:
        results[key] = type(error).__name__ + ": " + str(error)[:300]
print(json.dumps(results))
"""


def test_tf_runs_the_op_tables_graph_defs_equal(tmp_path):
    """Every op-table row tapeflow writes as a GraphDef, imported and run by TF: equal
    outputs (random ops aside: TF's streams are its own)."""
    from tapeflow.testing.op_cases import CASES
    if not os.path.exists(TF_PYTHON):
        pytest.skip(f"no TensorFlow interpreter at {TF_PYTHON}")
    tf1 = tf.compat.v1
    spec, wanted = {}, {}
    for n, case in enumerate(CASES):
        g = tf.Graph()
        with g.as_default():
            feeds = [tf1.placeholder(tf.as_dtype(np.asarray(a).dtype), np.shape(a),
                                     name=f"in{i}") for i, a in enumerate(case.args)]
            outs = [o for o in tf.nest.flatten(case.fn(*feeds)) if hasattr(o, "op")]
        if not outs or any(op.op_def.family.stateful for op in g.get_operations()):
            continue
        try:
            graph_def = g.as_graph_def()
        except (tf.errors.UnimplementedError, tf.errors.NotFoundError):
            continue
        fed = {f"in{i}": a for i, a in enumerate(case.args)}
        wanted[str(n)] = (case.id, tf1.Session(graph=g).run(outs, {k + ":0": v for k, v in
                                                                   fed.items()}))
        (tmp_path / f"{n}.pb").write_bytes(graph_def.SerializeToString())
        np.savez(tmp_path / f"{n}_feeds.npz", **fed)
        spec[str(n)] = {"graph": str(tmp_path / f"{n}.pb"),
                        "feeds": str(tmp_path / f"{n}_feeds.npz"),
                        "fetch": [o.name for o in outs], "out": str(tmp_path / f"{n}_out.npz")}
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    done = subprocess.run([TF_PYTHON, "-c", RUN_TABLE_IN_TF, str(tmp_path / "spec.json")],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
    refused = {wanted[k][0]: r for k, r in results.items() if r != "ok"}
    mismatched = []
    for key, result in results.items():
        if result != "ok":
            continue
        got = np.load(spec[key]["out"])
        for i, want in enumerate(wanted[key][1]):
            value = got[f"arr_{i}"]
            if value.shape != np.shape(want) or not np.allclose(value, want, rtol=1e-4,
                                                                atol=1e-5, equal_nan=True):
                mismatched.append(wanted[key][0])
    assert not mismatched, mismatched
    assert {key.split("[")[0] for key in refused} <= TF_REFUSES, refused
    assert len(results) - len(refused) > 700


# Nodes tapeflow writes that TF 2.21 refuses (measured): float64 3-D pooling (TF's kernels
# are float32 and below), an einsum broadcasting `...` against 1, N-D real FFTs'
# fft_length, a stateless sampler's uint64 key, searchsorted of rank-1 inputs, a
# transposed convolution with dilations (TF's CPU kernel: "Current CPU implementations do
# not yet support dilation rates larger than 1").
TF_REFUSES = {"AvgPool3D", "MaxPool3D", "Einsum", "RFFTND", "IRFFTND", "UpperBound",
              "Conv2DBackpropInput",
              "StatelessParameterizedTruncatedNormal", "StatelessRandomBinomial",
              "StatelessRandomPoisson"}
