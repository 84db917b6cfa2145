"""Model files both ways: a `.keras` or `.weights.h5` file tapeflow writes loads in TF's Keras
with the same predictions, and one Keras writes loads in tapeflow."""
import importlib.util

import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity


def sequential(tf):
    layers = tf.keras.layers
    return tf.keras.Sequential([tf.keras.Input((6, 6, 1)),
                                layers.Conv2D(3, 3, activation="relu"),
                                layers.MaxPooling2D(), layers.Flatten(),
                                layers.Dense(8, activation="tanh",
                                             kernel_regularizer=tf.keras.regularizers.l2(0.01)),
                                layers.BatchNormalization(), layers.Dropout(0.25),
                                layers.Dense(3)], name="seq")


def functional(tf):
    layers = tf.keras.layers
    image = tf.keras.Input((6, 6, 1), name="image")
    meta = tf.keras.Input((3,), name="meta")
    features = layers.GlobalAveragePooling2D()(layers.Conv2D(4, 3, padding="same")(image))
    inner = tf.keras.Sequential([layers.Dense(4, activation="relu"),
                                 layers.LayerNormalization()], name="inner")
    merged = layers.Concatenate()([features, inner(meta)])
    shared = layers.Dense(4, activation="sigmoid", name="shared")
    total = layers.Add()([shared(merged), shared(layers.Dense(8)(meta))])
    return tf.keras.Model([image, meta], layers.Dense(2, name="head")(total), name="fun")


MODELS = {"sequential": (sequential, lambda rng: rng.normal(size=(16, 6, 6, 1))),
          "functional": (functional, lambda rng: [rng.normal(size=(16, 6, 6, 1)),
                                                  rng.normal(size=(16, 3))])}
OPTIMIZERS = {"adam": lambda tf: tf.keras.optimizers.Adam(0.01, amsgrad=True),
              "sgd": lambda tf: tf.keras.optimizers.SGD(0.05, momentum=0.9),
              "rmsprop": lambda tf: tf.keras.optimizers.RMSprop(0.01, momentum=0.5,
                                                                centered=True)}


def trained(tf, kind: str, optimizer: str):
    """A model of `kind`, compiled and fitted for two epochs, and data to predict on."""
    build, data = MODELS[kind]
    rng = np.random.default_rng(0)
    x = data(rng)
    x = [a.astype("float32") for a in x] if isinstance(x, list) else x.astype("float32")
    y = rng.integers(0, 2 if kind == "functional" else 3, size=16)
    tf.keras.utils.set_random_seed(0)
    model = build(tf)
    model.compile(optimizer=OPTIMIZERS[optimizer](tf), metrics=["accuracy"],
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x, y, epochs=2, batch_size=8, verbose=0)
    return model, x, y


def optimizer_state(model) -> list:
    return [np.asarray(v.numpy()) for v in model.optimizer.variables]


def assert_same_model(ours, theirs, x) -> None:
    np.testing.assert_allclose(ours.predict(x, verbose=0), theirs.predict(x, verbose=0),
                               rtol=1e-5, atol=1e-5)
    assert [type(a).__name__ for a in ours.layers] == [type(b).__name__ for b in theirs.layers]
    for a, b in zip(ours.layers, theirs.layers):
        for x, y in zip(a.get_weights(), b.get_weights()):
            np.testing.assert_allclose(x, y, rtol=1e-6, err_msg=a.name)
    for a, b in zip(optimizer_state(ours), optimizer_state(theirs)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    assert type(ours.optimizer).__name__ == type(theirs.optimizer).__name__
    assert len(optimizer_state(ours)) == len(optimizer_state(theirs))


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
@pytest.mark.parametrize("kind", sorted(MODELS))
def test_tapeflow_model_loads_in_keras(tensorflow, tmp_path, kind, optimizer):
    ours, x, y = trained(tapeflow, kind, optimizer)
    path = str(tmp_path / "model.keras")
    ours.save(path)
    theirs = tensorflow.keras.models.load_model(path)
    assert_same_model(ours, theirs, x)
    if kind == "sequential":
        return                                   # its Dropout draws different masks
    # Both continue training the same way from the restored optimizer state.
    ours.fit(x, y, epochs=1, batch_size=16, shuffle=False, verbose=0)
    theirs.fit(x, y, epochs=1, batch_size=16, shuffle=False, verbose=0)
    np.testing.assert_allclose(ours.predict(x, verbose=0), theirs.predict(x, verbose=0),
                               rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
@pytest.mark.parametrize("kind", sorted(MODELS))
def test_keras_model_loads_in_tapeflow(tensorflow, tmp_path, kind, optimizer):
    theirs, x, _ = trained(tensorflow, kind, optimizer)
    path = str(tmp_path / "model.keras")
    theirs.save(path)
    ours = tapeflow.keras.models.load_model(path)
    assert_same_model(ours, theirs, x)
    assert ours.get_compile_config()["metrics"] == ["accuracy"]


@pytest.mark.parametrize("kind", sorted(MODELS))
def test_weights_files_both_ways(tensorflow, tmp_path, kind):
    ours, x, _ = trained(tapeflow, kind, "adam")
    theirs, _, _ = trained(tensorflow, kind, "adam")
    ours.save_weights(str(tmp_path / "ours.weights.h5"))
    theirs.load_weights(str(tmp_path / "ours.weights.h5"))
    assert_same_model(ours, theirs, x)
    fresh, _, _ = trained(tapeflow, kind, "adam")
    theirs.save_weights(str(tmp_path / "theirs.weights.h5"))
    fresh.load_weights(str(tmp_path / "theirs.weights.h5"))
    assert_same_model(fresh, theirs, x)


def test_same_layout_as_keras(tensorflow, tmp_path):
    """The group and dataset names (and shapes) of the two files agree."""
    import h5py
    names = {}
    for module, tag in ((tapeflow, "ours"), (tensorflow, "theirs")):
        model, _, _ = trained(module, "functional", "adam")
        path = str(tmp_path / f"{tag}.weights.h5")
        model.save_weights(path)
        found = {}
        with h5py.File(path) as f:
            f.visititems(lambda name, obj, found=found: found.__setitem__(
                name, getattr(obj, "shape", None)))
        names[tag] = found
    assert names["ours"] == names["theirs"]


OBJECTS = {
    "Dense": lambda tf: tf.keras.layers.Dense(3, activation="relu", use_bias=False,
                                              kernel_regularizer=tf.keras.regularizers.l2(0.01),
                                              kernel_initializer="he_normal"),
    "Conv2D": lambda tf: tf.keras.layers.Conv2D(4, 3, strides=2, padding="same"),
    "MaxPooling2D": lambda tf: tf.keras.layers.MaxPooling2D(3, strides=1),
    "AveragePooling2D": lambda tf: tf.keras.layers.AveragePooling2D(2, padding="same"),
    "GlobalAveragePooling2D": lambda tf: tf.keras.layers.GlobalAveragePooling2D(keepdims=True),
    "GlobalMaxPooling1D": lambda tf: tf.keras.layers.GlobalMaxPooling1D(),
    "Flatten": lambda tf: tf.keras.layers.Flatten(),
    "Dropout": lambda tf: tf.keras.layers.Dropout(0.3, seed=1),
    "BatchNormalization": lambda tf: tf.keras.layers.BatchNormalization(momentum=0.9,
                                                                        epsilon=0.01),
    "LayerNormalization": lambda tf: tf.keras.layers.LayerNormalization(center=False),
    "Embedding": lambda tf: tf.keras.layers.Embedding(10, 4),
    "Activation": lambda tf: tf.keras.layers.Activation("tanh"),
    "Reshape": lambda tf: tf.keras.layers.Reshape((2, -1)),
    "Concatenate": lambda tf: tf.keras.layers.Concatenate(axis=1),
    **{name: (lambda name: lambda tf: getattr(tf.keras.layers, name)())(name)
       for name in ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum")},
    "SGD": lambda tf: tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
    "Adam": lambda tf: tf.keras.optimizers.Adam(tf.keras.optimizers.schedules.ExponentialDecay(
        0.1, 10, 0.5, staircase=True), clipnorm=1.0),
    "AdamW": lambda tf: tf.keras.optimizers.AdamW(weight_decay=0.01),
    "RMSprop": lambda tf: tf.keras.optimizers.RMSprop(rho=0.8, centered=True),
    "Adagrad": lambda tf: tf.keras.optimizers.Adagrad(initial_accumulator_value=0.2),
    "MeanSquaredError": lambda tf: tf.keras.losses.MeanSquaredError(),
    "SparseCategoricalCrossentropy": lambda tf: tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True),
    "BinaryCrossentropy": lambda tf: tf.keras.losses.BinaryCrossentropy(label_smoothing=0.1),
    "Huber": lambda tf: tf.keras.losses.Huber(),      # Keras 3.15 leaves `delta` out of its config
    "SparseCategoricalAccuracy": lambda tf: tf.keras.metrics.SparseCategoricalAccuracy(),
    "HeNormal": lambda tf: tf.keras.initializers.HeNormal(seed=3),
    "RandomUniform": lambda tf: tf.keras.initializers.RandomUniform(-1.0, 1.0),
}


def comparable(config):
    """A config without what legitimately differs: generated names, the dtype policy, and
    tapeflow's 'auto' reduction, which is Keras 3's 'sum_over_batch_size'."""
    if isinstance(config, dict):
        return {k: comparable(v) for k, v in config.items() if k not in ("name", "dtype")}
    return "sum_over_batch_size" if config == "auto" else config


@pytest.mark.parametrize("name", sorted(OBJECTS))
def test_configs_cross_over(tensorflow, name):
    """tapeflow's config of an object rebuilds, in Keras, the object Keras would have made,
    and Keras's config rebuilds tapeflow's."""
    keras = pytest.importorskip("keras")                 # TF 2.21's tf.keras is Keras 3
    ours, theirs = OBJECTS[name](tapeflow), OBJECTS[name](tensorflow)
    ours_in_keras = keras.saving.deserialize_keras_object(
        tapeflow.keras.saving.serialize_keras_object(ours))
    assert comparable(ours_in_keras.get_config()) == comparable(theirs.get_config())
    theirs_in_ours = tapeflow.keras.saving.deserialize_keras_object(
        keras.saving.serialize_keras_object(theirs))
    assert type(theirs_in_ours) is type(ours)
    assert comparable(theirs_in_ours.get_config()) == comparable(ours.get_config())


def residual_class(tf):
    """The same subclassed model for either library, registered under one name."""
    @tf.keras.utils.register_keras_serializable(package="parity", name="Residual")
    class Residual(tf.keras.Model):
        def __init__(self, units=4, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.inner = tf.keras.layers.Dense(units, activation="relu")
            self.blocks = [tf.keras.layers.Dense(units), tf.keras.layers.Dense(2)]

        def call(self, x):
            h = self.inner(x)
            return self.blocks[1](self.blocks[0](h) + h)

        def get_config(self):
            return {**super().get_config(), "units": self.units}
    return Residual


def multi_output(tf):
    layers = tf.keras.layers
    x = tf.keras.Input((3,), name="x")
    hidden = layers.Dense(4, activation="relu")(x)
    return tf.keras.Model(x, {"score": layers.Dense(1, name="score")(hidden),
                              "label": layers.Dense(2, name="label")(hidden)})


@pytest.mark.parametrize("kind", ["subclassed", "dict outputs"])
@pytest.mark.parametrize("writer", ["tapeflow", "keras"])
def test_subclassed_and_multi_output_models_both_ways(tensorflow, tmp_path, kind, writer):
    modules = {"tapeflow": tapeflow, "keras": tensorflow}
    source, target = modules[writer], modules["keras" if writer == "tapeflow" else "tapeflow"]
    rng = np.random.default_rng(1)
    x = rng.normal(size=(8, 3)).astype("float32")
    for module in modules.values():
        residual_class(module)
    source.keras.utils.set_random_seed(0)
    if kind == "subclassed":
        model = residual_class(source)(units=4)
        model(x)
        model.compile(optimizer=source.keras.optimizers.Adam(0.01), loss="mse")
        model.fit(x, rng.normal(size=(8, 2)), epochs=2, verbose=0)
    else:
        model = multi_output(source)
        model.compile(optimizer=source.keras.optimizers.SGD(0.01, momentum=0.5),
                      loss={"score": "mse", "label": source.keras.losses.
                            SparseCategoricalCrossentropy(from_logits=True)},
                      loss_weights={"score": 0.5, "label": 1.0})
        model.fit(x, {"score": rng.normal(size=(8, 1)), "label": np.arange(8) % 2}, epochs=2,
                  verbose=0)
    path = str(tmp_path / "model.keras")
    model.save(path)
    restored = target.keras.models.load_model(path)
    ours, theirs = model.predict(x, verbose=0), restored.predict(x, verbose=0)
    if isinstance(ours, dict):
        assert sorted(ours) == sorted(theirs)
        for key in ours:
            np.testing.assert_allclose(theirs[key], ours[key], rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_allclose(theirs, ours, rtol=1e-5, atol=1e-6)
    for a, b in zip(optimizer_state(model), optimizer_state(restored)):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def tensor_events(directory: str) -> dict:
    """{tag: (plugin name, steps, first value)} of an event-file directory, read with
    TensorBoard's reader (the test is skipped without the tensorboard package)."""
    event_accumulator = pytest.importorskip(
        "tensorboard.backend.event_processing.event_accumulator")
    from tensorboard.util import tensor_util
    accumulator = event_accumulator.EventAccumulator(directory, size_guidance={"tensors": 0})
    accumulator.Reload()
    return {tag: (accumulator.SummaryMetadata(tag).plugin_data.plugin_name,
                  [event.step for event in accumulator.Tensors(tag)],
                  tensor_util.make_ndarray(accumulator.Tensors(tag)[0].tensor_proto))
            for tag in accumulator.Tags()["tensors"]}


def test_tensorboard_runs_and_tags_match_keras(tensorflow, tmp_path):
    """The TensorBoard callback writes the same runs, tags and steps as Keras's (needs the
    tensorboard package beside TF, which TF's summaries need too)."""
    pytest.importorskip("tensorboard")
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=(16, 4)).astype("float32"), rng.normal(size=(16, 2))
    found = {}
    for module, tag in ((tapeflow, "ours"), (tensorflow, "theirs")):
        inputs = module.keras.Input((4,))
        models = {"functional": module.keras.Model(
                      inputs, module.keras.layers.Dense(2, name="d")(inputs), name="fun"),
                  "sequential": module.keras.Sequential(
                      [module.keras.Input((4,)), module.keras.layers.Dense(2, name="e")],
                      name="seq")}
        for name, model in models.items():
            model.compile(optimizer="sgd", loss="mse")
            directory = str(tmp_path / tag / name)
            model.fit(x, y, epochs=2, batch_size=4, verbose=0, validation_split=0.25,
                      callbacks=[module.keras.callbacks.TensorBoard(directory,
                                                                    histogram_freq=1)])
            for run in ("train", "validation"):
                found[tag, name, run] = {t: event[:2] for t, event in
                                         tensor_events(f"{directory}/{run}").items()}
    for key in [k for k in found if k[0] == "ours"]:
        assert found[key] == found[("theirs", *key[1:])], key


def test_summaries_match_tf_summary(tensorflow, tmp_path):
    """tf.summary's scalars, histograms, text and images hold the same tensors and plugin
    tags as TF's (needs the tensorboard package beside TF)."""
    pytest.importorskip("tensorboard")
    data = np.random.default_rng(3).normal(size=50)
    picture = np.random.default_rng(4).uniform(size=(2, 3, 5, 3)).astype("float32")
    found = {}
    for module, tag in ((tapeflow, "ours"), (tensorflow, "theirs")):
        writer = module.summary.create_file_writer(str(tmp_path / tag))
        with writer.as_default(step=4):
            module.summary.scalar("scalar", 0.125)
            module.summary.histogram("histogram", data, buckets=7)
            module.summary.text("text", "note")
            if importlib.util.find_spec("PIL"):
                module.summary.image("image", picture, max_outputs=2)
        writer.flush()
        found[tag] = tensor_events(str(tmp_path / tag))
    assert sorted(found["ours"]) == sorted(found["theirs"])
    for name, (plugin, steps, value) in found["theirs"].items():
        ours = found["ours"][name]
        assert (ours[0], ours[1]) == (plugin, steps), name
        if name == "image":                  # PNG bytes may differ; the size must not
            assert list(ours[2][:2]) == list(value[:2]) and len(ours[2]) == len(value)
        elif value.dtype == object:
            assert ours[2].tolist() == value.tolist()
        else:
            np.testing.assert_allclose(ours[2], value, rtol=1e-6, err_msg=name)
