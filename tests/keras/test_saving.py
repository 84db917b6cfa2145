"""`.keras` and `.weights.h5` files: round trips of every kind of model with its compile
state, Keras 3's layout inside the files, safe mode, atomic writes and clear errors."""
import json
import os
import sys
import zipfile

import numpy as np
import pytest

import tapeflow as tf

h5py = pytest.importorskip("h5py")
layers = tf.keras.layers


@tf.keras.saving.register_keras_serializable(package="tests")
class Residual(tf.keras.Model):
    def __init__(self, units=4, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.inner = layers.Dense(units, activation="relu")
        self.blocks = [layers.Dense(units), layers.Dense(2)]

    def call(self, x):
        h = self.inner(x)
        return self.blocks[1](self.blocks[0](h) + h)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def sequential():
    return tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(4, activation="relu"),
                                layers.BatchNormalization(), layers.Dense(2)])


def functional():
    a = tf.keras.Input((3,), name="a")
    b = tf.keras.Input((2,), name="b")
    merged = layers.Concatenate()([layers.Dense(4, activation="tanh")(a), b])
    return tf.keras.Model([a, b], layers.Dense(2, name="head")(merged))


def subclassed():
    model = Residual(units=4)
    model.build((None, 3))
    return model


RNG = np.random.default_rng(0)
X3 = RNG.normal(size=(8, 3)).astype("float32")
INPUTS = {"sequential": X3, "functional": [X3, RNG.normal(size=(8, 2)).astype("float32")],
          "subclassed": X3}
BUILDERS = {"sequential": sequential, "functional": functional, "subclassed": subclassed}


def trained(kind):
    tf.keras.utils.set_random_seed(0)
    model = BUILDERS[kind]()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), metrics=["accuracy"],
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(INPUTS[kind], np.arange(8) % 2, epochs=2, batch_size=4, verbose=0)
    return model


@pytest.mark.parametrize("kind", sorted(BUILDERS))
def test_round_trip_keeps_predictions_and_compile_state(tmp_path, kind):
    model = trained(kind)
    path = str(tmp_path / "model.keras")
    model.save(path)
    restored = tf.keras.models.load_model(path)
    assert type(restored).__name__ == type(model).__name__
    np.testing.assert_array_equal(restored.predict(INPUTS[kind], verbose=0),
                                  model.predict(INPUTS[kind], verbose=0))
    assert isinstance(restored.optimizer, tf.keras.optimizers.Adam)
    assert int(restored.optimizer.iterations) == int(model.optimizer.iterations) == 4
    for a, b in zip(restored.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    config = restored.get_compile_config()
    assert config["metrics"] == ["accuracy"]
    assert config["loss"].get_config()["from_logits"] is True
    # Training continues from the restored state exactly as it would have.
    restored.fit(INPUTS[kind], np.arange(8) % 2, epochs=1, batch_size=8, shuffle=False,
                 verbose=0)
    model.fit(INPUTS[kind], np.arange(8) % 2, epochs=1, batch_size=8, shuffle=False, verbose=0)
    np.testing.assert_allclose(restored.predict(INPUTS[kind], verbose=0),
                               model.predict(INPUTS[kind], verbose=0), rtol=1e-6)


def test_uncompiled_model_loads_uncompiled(tmp_path):
    model = functional()
    model.save(tmp_path / "model.keras")
    restored = tf.keras.saving.load_model(tmp_path / "model.keras")
    assert restored.optimizer is None and restored.input_names == ["a", "b"]
    np.testing.assert_array_equal(restored.predict(INPUTS["functional"], verbose=0),
                                  model.predict(INPUTS["functional"], verbose=0))
    compiled = trained("sequential")
    compiled.save(tmp_path / "compiled.keras")
    assert tf.keras.models.load_model(tmp_path / "compiled.keras", compile=False).optimizer is None


def test_keras_file_layout(tmp_path):
    model = trained("sequential")
    path = tmp_path / "model.keras"
    model.save(path)
    with zipfile.ZipFile(path) as archive:
        assert sorted(archive.namelist()) == ["config.json", "metadata.json",
                                              "model.weights.h5"]
        config = json.loads(archive.read("config.json"))
        metadata = json.loads(archive.read("metadata.json"))
        (tmp_path / "weights.h5").write_bytes(archive.read("model.weights.h5"))
    assert metadata["keras_version"].startswith("3.")
    assert (config["module"], config["class_name"]) == ("keras", "Sequential")
    entries = config["config"]["layers"]
    assert [e["class_name"] for e in entries] == ["InputLayer", "Dense", "BatchNormalization",
                                                  "Dense"]
    assert entries[0]["config"]["batch_shape"] == [None, 3]
    assert entries[1]["build_config"]["input_shape"][1:] == [3]
    assert config["compile_config"]["optimizer"]["class_name"] == "Adam"
    assert config["compile_config"]["loss"]["config"]["reduction"] == "sum_over_batch_size"
    found = {}
    with h5py.File(tmp_path / "weights.h5") as f:
        f.visititems(lambda name, obj: found.__setitem__(name, getattr(obj, "shape", None)))
        assert f["layers/dense/vars"].attrs["name"] == model.layers[0].name
        np.testing.assert_array_equal(f["layers/dense/vars/0"][()],
                                      model.layers[0].kernel.numpy())
    datasets = {name: shape for name, shape in found.items() if shape is not None}
    assert datasets == {
        "layers/dense/vars/0": (3, 4), "layers/dense/vars/1": (4,),
        **{f"layers/batch_normalization/vars/{i}": (4,) for i in range(4)},
        "layers/dense_1/vars/0": (4, 2), "layers/dense_1/vars/1": (2,),
        "optimizer/vars/0": (), "optimizer/vars/1": (),
        **{f"optimizer/vars/{i + 2}": shape
           for i, shape in enumerate([(3, 4)] * 2 + [(4,)] * 6 + [(4, 2)] * 2 + [(2,)] * 2)}}


def test_subclassed_weights_are_stored_under_attribute_names(tmp_path):
    model = subclassed()
    model.save_weights(tmp_path / "w.weights.h5")
    with h5py.File(tmp_path / "w.weights.h5") as f:
        names = []
        f.visit(names.append)
    assert {"inner/vars/0", "blocks/dense/vars/0", "blocks/dense_1/vars/1"} <= set(names)


def test_save_weights_writes_the_named_h5_file(tmp_path):
    model = trained("functional")
    path = tmp_path / "model.weights.h5"
    model.save_weights(path)
    assert os.listdir(tmp_path) == ["model.weights.h5"]
    other = functional()
    other.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
    other.load_weights(path)
    for a, b in zip(other.weights + other.optimizer.variables,
                    model.weights + model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    keras_path = tmp_path / "model.keras"
    model.save(keras_path)
    third = functional()
    third.load_weights(keras_path)
    np.testing.assert_array_equal(third.predict(INPUTS["functional"], verbose=0),
                                  model.predict(INPUTS["functional"], verbose=0))


def test_mismatched_weights_change_nothing(tmp_path):
    sequential().save_weights(tmp_path / "small.weights.h5")
    wider = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(5),
                                 layers.BatchNormalization(), layers.Dense(2)])
    before = [w.numpy() for w in wider.weights]
    with pytest.raises(ValueError, match="shape"):
        wider.load_weights(tmp_path / "small.weights.h5")
    for value, w in zip(before, wider.weights):
        np.testing.assert_array_equal(value, w.numpy())


@pytest.mark.parametrize("path, method", [("m.h5", "save"), ("m", "save"),
                                          ("m.keras", "save_weights")])
def test_wrong_extensions_are_refused(tmp_path, path, method):
    with pytest.raises(ValueError, match="keras"):
        getattr(sequential(), method)(str(tmp_path / path))
    assert os.listdir(tmp_path) == []


def test_lambda_code_needs_safe_mode_off(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((2,)), layers.Lambda(lambda t: t * 3.0)])
    model.save(tmp_path / "lambda.keras")
    with pytest.raises(ValueError, match="safe_mode=False"):
        tf.keras.models.load_model(tmp_path / "lambda.keras")
    restored = tf.keras.models.load_model(tmp_path / "lambda.keras", safe_mode=False)
    np.testing.assert_array_equal(restored(np.ones((1, 2), "float32")).numpy(), [[3.0, 3.0]])


def test_custom_classes_need_registration_or_custom_objects(tmp_path):
    class Scale(layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", shape=[input_shape[-1]], initializer="ones")

        def call(self, x):
            return x * self.w

    model = tf.keras.Sequential([tf.keras.Input((2,)), Scale(name="scale")])
    model.layers[0].w.assign([2.0, 5.0])
    model.save(tmp_path / "custom.keras")
    with pytest.raises(TypeError, match="custom_objects"):
        tf.keras.models.load_model(tmp_path / "custom.keras")
    restored = tf.keras.models.load_model(tmp_path / "custom.keras",
                                          custom_objects={"Scale": Scale})
    np.testing.assert_array_equal(restored(np.ones((1, 2), "float32")).numpy(), [[2.0, 5.0]])


def test_subclass_without_get_config_is_refused():
    class Needs(tf.keras.Model):
        def __init__(self, units):
            super().__init__()
            self.dense = layers.Dense(units)

        def call(self, x):
            return self.dense(x)

    with pytest.raises(NotImplementedError, match="get_config"):
        tf.keras.saving.serialize_keras_object(Needs(2))


def test_keras_only_options_load_when_off_and_are_refused_when_on():
    config = {"module": "keras.layers", "class_name": "Dense",
              "config": {"units": 2, "quantization_config": None,
                         "dtype": {"module": "keras", "class_name": "DTypePolicy",
                                   "config": {"name": "float64"}, "registered_name": None}},
              "registered_name": None}
    layer = tf.keras.saving.deserialize_keras_object(config)
    assert (layer.units, layer.dtype) == (2, "float64")
    config["config"]["quantization_config"] = {"mode": "int8"}
    with pytest.raises(ValueError, match="quantization_config"):
        tf.keras.saving.deserialize_keras_object(config)


def test_interrupted_save_keeps_the_previous_file(tmp_path, monkeypatch):
    path = tmp_path / "model.keras"
    model = sequential()
    model.save(path)
    before = path.read_bytes()

    def fail(*args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr(zipfile.ZipFile, "writestr", fail)
    with pytest.raises(OSError, match="disk full"):
        trained("sequential").save(path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["model.keras"]


def test_missing_h5py_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "h5py", None)
    with pytest.raises(ImportError, match=r"tapeflow\[keras-io\]"):
        sequential().save(tmp_path / "model.keras")


def test_registration_needs_get_config_and_a_new_registration_wins():
    with pytest.raises(ValueError, match="get_config"):
        tf.keras.saving.register_keras_serializable()(type("Plain", (), {}))
    again = tf.keras.saving.register_keras_serializable(package="tests", name="Again")
    first, second = again(type("First", (layers.Layer,), {})), again(type("Second",
                                                                          (layers.Layer,), {}))
    assert tf.keras.saving.get_registered_object("tests>Again") is second is not first


def test_json_round_trip_and_utils_aliases():
    model = functional()
    rebuilt = tf.keras.models.model_from_json(model.to_json())
    assert [type(layer) for layer in rebuilt.layers] == [type(layer) for layer in model.layers]
    assert [w.shape for w in rebuilt.weights] == [w.shape for w in model.weights]
    assert tf.keras.utils.register_keras_serializable is \
        tf.keras.saving.register_keras_serializable
    assert tf.keras.utils.get_custom_objects()["tests>Residual"] is Residual


def test_saved_files_get_the_usual_permissions(tmp_path):
    umask = os.umask(0o022)
    try:
        sequential().save(tmp_path / "model.keras")
    finally:
        os.umask(umask)
    assert os.stat(tmp_path / "model.keras").st_mode & 0o777 == 0o644
    os.chmod(tmp_path / "model.keras", 0o600)
    sequential().save(tmp_path / "model.keras")          # a replaced file keeps its mode
    assert os.stat(tmp_path / "model.keras").st_mode & 0o777 == 0o600


def test_unknown_compile_arguments_load_uncompiled_with_a_warning(tmp_path):
    model = sequential()
    model.save(tmp_path / "model.keras")
    with zipfile.ZipFile(tmp_path / "model.keras") as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    config = json.loads(files["config.json"])
    config["compile_config"] = {"optimizer": "adam", "loss": {
        "module": "keras.losses", "class_name": "Circle", "config": {},
        "registered_name": None}}
    files["config.json"] = json.dumps(config)
    with zipfile.ZipFile(tmp_path / "edited.keras", "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    with pytest.warns(UserWarning, match="loaded uncompiled"):
        restored = tf.keras.models.load_model(tmp_path / "edited.keras")
    assert restored.optimizer is None
    np.testing.assert_array_equal(restored.predict(X3, verbose=0), model.predict(X3, verbose=0))
