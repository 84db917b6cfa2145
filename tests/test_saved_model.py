"""tf.saved_model: SavedModels TF 2.21 wrote (tests/data/saved_model, recorded by
tools/record_saved_model_fixtures.py) load and compute TF's values; tapeflow's own
SavedModels round-trip; bad directories raise TF's errors."""
import json
import pathlib
import shutil

import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("tensorboard")
DATA = pathlib.Path(__file__).parent / "data" / "saved_model"
EXPECTED = json.loads((DATA / "expected.json").read_text())
X = np.array(EXPECTED["x"], np.float32)


class Dense(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, -6.0]], name="w")
        self.b = tf.Variable([0.5, -1.0], name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        return tf.nn.relu(tf.nn.bias_add(tf.matmul(x, self.w), self.b))


class Tree(tf.Module):
    """A submodule, a list of Variables, a captured constant and an untyped function."""

    def __init__(self):
        super().__init__()
        self.dense = Dense()
        self.scales = [tf.Variable(2.0), tf.Variable(-1.0)]
        self.offset = tf.constant([10.0, 20.0])

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def predict(self, x):
        return {"y": self.dense(x) * self.scales[0] + self.offset, "s": self.scales[1] * 1.0}

    @tf.function
    def shift(self, x, by=1.0):
        return x + by


def test_a_tf_written_module_loads_and_computes_tfs_values():
    loaded = tf.saved_model.load(DATA / "dense")
    assert loaded(X).numpy().tolist() == EXPECTED["dense"]
    assert loaded(x=X).numpy().tolist() == EXPECTED["dense"]
    assert loaded.w.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0], [5.0, -6.0]]
    assert loaded.b.trainable and loaded.b.name == "b:0"
    out = loaded.signatures[tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY](x=X)
    assert list(out) == ["output_0"] and out["output_0"].numpy().tolist() == EXPECTED["dense"]


def test_a_tf_written_module_with_a_loop_and_two_signatures():
    loaded = tf.saved_model.load(DATA / "two_signatures")
    want = EXPECTED["two_signatures"]
    assert sorted(loaded.signatures) == ["predict", "summed"]
    assert loaded.predict(X).numpy().tolist() == want["predict"]
    summed = loaded.signatures["summed"](x=X, n=tf.constant(3))
    assert summed["total"].numpy().tolist() == want["total"]
    assert float(summed["mean"]) == want["mean"]
    assert float(loaded.scale) == 2.0
    assert loaded.dense(X).numpy().tolist() == EXPECTED["dense"]


def test_loaded_variables_are_trainable_through_the_restored_function():
    loaded = tf.saved_model.load(DATA / "dense")
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(loaded(X))
    grad_w, grad_b = tape.gradient(loss, [loaded.w, loaded.b])
    # Only the first output column is positive (Relu): d/dw[:, 0] = sum of x's rows.
    assert grad_w.numpy().tolist() == [[0.0, 0.0], [2.5, 0.0], [5.0, 0.0]]
    assert grad_b.numpy().tolist() == [2.0, 0.0]
    loaded.w.assign_add(tf.ones([3, 2]))
    assert loaded(X).numpy().tolist() == [[28.5, 0.0], [12.5, 0.0]]


def test_a_tapeflow_module_round_trips(tmp_path):
    tree = Tree()
    tree.shift(tf.constant([1.0, 2.0]))
    tf.saved_model.save(tree, tmp_path / "tree")
    assert sorted(p.name for p in (tmp_path / "tree").iterdir()) == [
        "assets", "saved_model.pb", "variables"]
    assert tf.saved_model.contains_saved_model(tmp_path / "tree")
    tree.scales[0].assign(100.0)        # the file holds the values at save time
    loaded = tf.saved_model.load(str(tmp_path / "tree"))
    y = loaded.predict(X)
    assert y["y"].numpy().tolist() == [[55.0, 20.0], [32.0, 20.0]] and float(y["s"]) == -1.0
    assert [float(v) for v in loaded.scales] == [2.0, -1.0]
    assert loaded.shift(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 3.0]
    # A single function with an input_signature on the root: the default signature.
    out = loaded.signatures["serving_default"](x=X)
    assert sorted(out) == ["s", "y"] and out["y"].numpy().tolist() == y["y"].numpy().tolist()
    with pytest.raises(ValueError, match="matching concrete function"):
        loaded.shift(tf.constant([[1.0]]))


def test_explicit_signatures_of_functions_and_concrete_functions(tmp_path):
    dense = Dense()
    doubled = tf.function(lambda x: 2.0 * x).get_concrete_function(
        tf.TensorSpec([2], tf.float32, name="x"))
    dense.doubled = doubled
    tf.saved_model.save(dense, tmp_path, signatures={"call": dense.__call__,
                                                     "twice": doubled})
    loaded = tf.saved_model.load(tmp_path)
    assert sorted(loaded.signatures) == ["call", "twice"]
    assert loaded.signatures["call"](x=X)["output_0"].numpy().tolist() == EXPECTED["dense"]
    assert loaded.signatures["twice"](x=tf.constant([1.0, 3.0]))["output_0"].numpy(
    ).tolist() == [2.0, 6.0]


@pytest.mark.parametrize("bad", [
    pytest.param(lambda m: m.f, id="no input_signature"),
    pytest.param(lambda m: 3, id="not a function"),
])
def test_a_signature_must_be_a_traced_function(tmp_path, bad):
    module = tf.Module()
    module.f = tf.function(lambda x: x)
    with pytest.raises(ValueError, match="signature"):
        tf.saved_model.save(module, tmp_path, signatures=bad(module))


def test_a_function_reading_an_untracked_variable_is_refused(tmp_path):
    hidden = tf.Variable(1.0)
    module = tf.Module()
    module.f = tf.function(lambda x: x * hidden, input_signature=[tf.TensorSpec([])])
    with pytest.raises(ValueError, match="untracked"):
        tf.saved_model.save(module, tmp_path)


def test_a_truncated_saved_model_is_data_loss(tmp_path):
    shutil.copytree(DATA / "dense", tmp_path / "m")
    path = tmp_path / "m" / "saved_model.pb"
    path.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(tf.errors.DataLossError, match="saved_model.pb"):
        tf.saved_model.load(tmp_path / "m")


def test_a_missing_saved_model_is_an_os_error(tmp_path):
    assert not tf.saved_model.contains_saved_model(tmp_path)
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.saved_model.load(tmp_path)


def test_an_op_type_tapeflow_lacks_names_it_and_its_function(tmp_path):
    from tapeflow.protos.saved_model import messages
    shutil.copytree(DATA / "dense", tmp_path / "m")
    path = tmp_path / "m" / "saved_model.pb"
    model = messages()["SavedModel"].FromString(path.read_bytes())
    for fdef in model.meta_graphs[0].graph_def.library.function:
        for node in fdef.node_def:
            if node.op == "Relu":
                node.op = "NoSuchRelu"
                name = fdef.signature.name
    path.write_bytes(model.SerializeToString())
    with pytest.raises(tf.errors.NotFoundError, match=f"NoSuchRelu.*{name}"):
        tf.saved_model.load(tmp_path / "m")


def test_tags_choose_the_meta_graph():
    assert tf.saved_model.load(DATA / "dense", tags=["serve"]) is not None
    with pytest.raises(RuntimeError, match="could not be found"):
        tf.saved_model.load(DATA / "dense", tags="train")


@pytest.mark.parametrize("name,value", [
    ("SERVING", "serve"), ("TRAINING", "train"), ("GPU", "gpu"), ("TPU", "tpu"),
    ("DEFAULT_SERVING_SIGNATURE_DEF_KEY", "serving_default"),
    ("PREDICT_METHOD_NAME", "tensorflow/serving/predict"),
    ("CLASSIFY_METHOD_NAME", "tensorflow/serving/classify"),
    ("REGRESS_METHOD_NAME", "tensorflow/serving/regress"),
    ("SAVED_MODEL_FILENAME_PB", "saved_model.pb"), ("VARIABLES_FILENAME", "variables"),
    ("ASSETS_KEY", "saved_model_assets"), ("SAVED_MODEL_SCHEMA_VERSION", 1),
])
def test_constants_are_tfs(name, value):
    assert getattr(tf.saved_model, name) == value


def test_options_keep_tfs_keywords():
    save = tf.saved_model.SaveOptions()
    assert save.namespace_whitelist == [] and save.function_aliases == {}
    assert save.experimental_custom_gradients is True
    load = tf.saved_model.LoadOptions()
    assert load.allow_partial_checkpoint is False and load.experimental_skip_checkpoint is False


def test_skip_checkpoint_leaves_variables_unrestored():
    loaded = tf.saved_model.load(DATA / "dense",
                                 options=tf.saved_model.LoadOptions(
                                     experimental_skip_checkpoint=True))
    assert loaded.b.numpy().tolist() == [0.0, 0.0]


def test_an_asset_is_copied_and_its_loaded_path_points_into_assets(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("a\nb\n")
    module = tf.Module()
    module.vocab = tf.saved_model.Asset(str(vocab))
    tf.saved_model.save(module, tmp_path / "m")
    assert (tmp_path / "m" / "assets" / "vocab.txt").read_text() == "a\nb\n"
    loaded = tf.saved_model.load(tmp_path / "m")
    where = str(tmp_path / "m" / "assets" / "vocab.txt").encode()
    assert loaded.vocab.asset_path.numpy() == where


def test_a_keras_model_tf_exported_serves_its_predictions():
    loaded = tf.saved_model.load(DATA / "keras_mlp")
    want = np.array(EXPECTED["keras_mlp"], np.float32)
    np.testing.assert_allclose(loaded.serve(X).numpy(), want, rtol=1e-6)
    (key, spec), = loaded.signatures["serving_default"].structured_input_signature[1].items()
    assert spec.shape.as_list() == [None, 3]
    out = loaded.signatures["serving_default"](**{key: X})
    (output,) = out.values()
    np.testing.assert_allclose(output.numpy(), want, rtol=1e-6)


def test_python_arguments_choose_the_saved_trace(tmp_path):
    module = tf.Module()
    module.v = tf.Variable(2.0)

    @tf.function
    def f(x, training=False):
        return x * module.v if training else x + module.v
    module.f = f
    f(tf.constant(1.0), training=True)
    f(tf.constant(1.0))
    tf.saved_model.save(module, tmp_path)
    loaded = tf.saved_model.load(tmp_path)
    x = tf.constant(3.0)
    assert [float(loaded.f(x, training=True)), float(loaded.f(x)),
            float(loaded.f(x, False))] == [6.0, 5.0, 5.0]
