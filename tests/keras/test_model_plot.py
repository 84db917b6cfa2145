"""keras.utils.model_to_dot and plot_model: the DOT text of Sequential, functional and
subclassed models, and rendering through Graphviz (or a clear error without it)."""
import re
import shutil
import subprocess

import pytest

import tapeflow as tf
from tapeflow import utils as tf_utils


def _functional():
    tf.keras.backend.clear_session()
    image = tf.keras.Input(shape=(4,), name="image")
    meta = tf.keras.Input(shape=(2,), name="meta")
    hidden = tf.keras.layers.Dense(3, activation="relu", name="hidden")(image)
    merged = tf.keras.layers.Concatenate(name="merge")([hidden, meta])
    frozen = tf.keras.layers.Dense(1, name="head")
    out = frozen(merged)
    frozen.trainable = False
    return tf.keras.Model([image, meta], out)


def _edges(dot: str, names: dict) -> set:
    return {(names[a], names[b]) for a, b in re.findall(r"(\d+) -> (\d+);", dot)}


def test_functional_model_boxes_arrows_and_facts():
    model = _functional()
    names = {str(id(layer)): layer.name for layer in model.layers}
    dot = tf.keras.utils.model_to_dot(model, show_shapes=True, show_dtype=True,
                                      show_layer_activations=True, show_trainable=True,
                                      rankdir="LR", dpi=96)
    assert _edges(dot, names) == {("image", "hidden"), ("hidden", "merge"), ("meta", "merge"),
                                  ("merge", "head")}
    assert 'rankdir="LR"' in dot and "dpi=96" in dot
    assert "<b>hidden</b> (Dense)" in dot and "Activation: <b>relu</b>" in dot
    assert "Input shape: <b>[(None, 3), (None, 2)]</b>" in dot
    assert "Output shape: <b>(None, 5)</b>" in dot and "Output dtype: <b>float32</b>" in dot
    assert "<b>Non-trainable</b>" in dot and "<b>Trainable</b>" in dot
    bare = tf.keras.utils.model_to_dot(model, show_layer_names=False)
    assert "<b>Dense</b>" in bare and "hidden" not in bare and "Output shape" not in bare


def test_sequential_and_subclassed_models():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, name="a"),
                                 tf.keras.layers.Dense(2, name="b")])
    with pytest.raises(ValueError, match="not yet been built"):
        tf.keras.utils.model_to_dot(model)
    model.build((None, 3))
    names = {str(id(layer)): layer.name for layer in model.layers}
    dot = tf.keras.utils.model_to_dot(model, show_shapes=True)
    assert _edges(dot, names) == {("a", "b")}
    assert "Input shape: <b>(None, 3)</b>" in dot and "Output shape: <b>(None, 2)</b>" in dot

    class Custom(tf.keras.Model):
        def __init__(self):
            super().__init__(name="custom")
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    custom = Custom()
    custom(tf.ones((1, 2)))
    dot = tf.keras.utils.model_to_dot(custom)
    assert "<b>custom</b> (Custom)" in dot and "->" not in dot
    with pytest.raises(ValueError, match="Invalid kwargs"):
        tf.keras.utils.model_to_dot(custom, colour="red")


def test_plot_model_without_dot_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setattr(tf_utils.shutil, "which", lambda name: None)
    path = tmp_path / "model.png"
    with pytest.raises(FileNotFoundError, match=r"plot_model needs Graphviz's `dot`.*apt-get "
                                                r"install graphviz.*model_to_dot"):
        tf.keras.utils.plot_model(_functional(), to_file=path)
    assert not path.exists()


@pytest.mark.parametrize("name, fmt", [("model.svg", "svg"), ("model", "png"),
                                       ("model.pdf", "pdf")])
def test_plot_model_renders_in_the_format_of_the_extension(tmp_path, monkeypatch, name, fmt):
    calls = []

    def fake_run(args, input, capture_output, text, check):
        calls.append((args, input))
        open(args[-1], "w").write("drawn")
        return subprocess.CompletedProcess(args, 0, "", "")

    monkeypatch.setattr(tf_utils.shutil, "which", lambda name: "/usr/bin/dot")
    monkeypatch.setattr(tf_utils.subprocess, "run", fake_run)
    model = _functional()
    path = tmp_path / name
    tf.keras.utils.plot_model(model, to_file=path, show_shapes=True)
    (args, source), = calls
    assert args == ["/usr/bin/dot", f"-T{fmt}", "-o", str(path)]
    assert source == tf.keras.utils.model_to_dot(model, show_shapes=True,
                                                 show_layer_names=False)
    assert path.read_text() == "drawn"
    with pytest.raises(ValueError, match="Unrecognized keyword arguments"):
        tf.keras.utils.plot_model(model, to_file=path, colour="red")


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_real_dot_draws_the_model(tmp_path):
    path = tmp_path / "model.svg"
    tf.keras.utils.plot_model(_functional(), to_file=path, show_layer_names=True)
    text = path.read_text()
    assert "<svg" in text and "hidden" in text and "merge" in text
