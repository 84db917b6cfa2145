"""What Keras 3.15 (TF 2.21) writes, for tapeflow's Keras: checkpoint keys of a model
holding MultiHeadAttention, `.keras` build configs (None batch dimensions), and
`get_weights` in Keras's layer-by-layer order. Expected values are TF's."""
import json
import zipfile

import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers


def build_configs(config, found):
    if isinstance(config, dict):
        if "build_config" in config:
            found.append((config.get("class_name"), config["build_config"]))
        for value in config.values():
            build_configs(value, found)
    elif isinstance(config, list):
        for value in config:
            build_configs(value, found)
    return found


def saved_builds(model, path):
    model.save(path)
    return build_configs(json.loads(zipfile.ZipFile(path).read("config.json")), [])


def attention_model():
    query = tf.keras.Input((4, 6))
    return tf.keras.Model(query, layers.MultiHeadAttention(2, 3)(query, query))


def test_a_checkpoint_of_a_model_with_attention_has_keras_3s_keys(tmp_path):
    path = tf.train.Checkpoint(model=attention_model()).save(tmp_path / "c")
    assert tf.train.list_variables(path) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
        ("model/_operations/1/_key_dense/_kernel/.ATTRIBUTES/VARIABLE_VALUE", [6, 2, 3]),
        ("model/_operations/1/_key_dense/bias/.ATTRIBUTES/VARIABLE_VALUE", [2, 3]),
        ("model/_operations/1/_output_dense/_kernel/.ATTRIBUTES/VARIABLE_VALUE", [2, 3, 6]),
        ("model/_operations/1/_output_dense/bias/.ATTRIBUTES/VARIABLE_VALUE", [6]),
        ("model/_operations/1/_query_dense/_kernel/.ATTRIBUTES/VARIABLE_VALUE", [6, 2, 3]),
        ("model/_operations/1/_query_dense/bias/.ATTRIBUTES/VARIABLE_VALUE", [2, 3]),
        ("model/_operations/1/_value_dense/_kernel/.ATTRIBUTES/VARIABLE_VALUE", [6, 2, 3]),
        ("model/_operations/1/_value_dense/bias/.ATTRIBUTES/VARIABLE_VALUE", [2, 3]),
        ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", [])]


def test_build_configs_record_none_batch_dimensions_as_keras_writes_them(tmp_path):
    assert saved_builds(attention_model(), tmp_path / "a.keras") == [
        ("Functional", {"input_shape": None}),
        ("MultiHeadAttention", {"shapes_dict": {"query_shape": [None, 4, 6],
                                                "value_shape": [None, 4, 6]}})]
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(2),
                                 layers.BatchNormalization()])
    assert saved_builds(model, tmp_path / "s.keras") == [
        ("Sequential", {"input_shape": [None, 3]}), ("Dense", {"input_shape": [None, 3]}),
        ("BatchNormalization", {"input_shape": [None, 2]})]
    called = tf.keras.Sequential([layers.Dense(2)])
    called(np.ones((5, 3), np.float32))                   # built by a call: its batch kept
    assert saved_builds(called, tmp_path / "c.keras") == [
        ("Sequential", {"input_shape": [5, 3]}), ("Dense", {"input_shape": [5, 3]})]
    loaded = tf.keras.models.load_model(tmp_path / "a.keras")
    assert [w.shape.as_list() for w in loaded.weights] == \
        [w.shape.as_list() for w in attention_model().weights]


def test_get_weights_goes_layer_by_layer_as_keras_does():
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(4),
                                 layers.BatchNormalization(), layers.Dense(1)])
    # TF 2.21's list for the same model: each layer's trainable then non-trainable weights.
    assert [w.shape for w in model.get_weights()] == [(3, 4), (4,), (4,), (4,), (4,), (4,),
                                                      (4, 1), (1,)]
    assert [w.name.split("/")[-1] for w in model.layers[1].weights] == [
        "gamma:0", "beta:0", "moving_mean:0", "moving_variance:0"]
    values = [np.full(w.shape, i, np.float32) for i, w in enumerate(model.get_weights())]
    model.set_weights(values)
    assert [float(w.reshape(-1)[0]) for w in model.get_weights()] == list(range(8))
    assert model.layers[1].moving_mean.numpy().tolist() == [4.0] * 4


def _functional():
    a, b = tf.keras.Input((3,)), tf.keras.Input((2,))
    joined = layers.Concatenate()([layers.Dense(4)(a), b])
    return tf.keras.Model([a, b], layers.Dense(1)(joined))


def _conv():
    return tf.keras.Sequential([tf.keras.Input((8, 8, 1)), layers.Conv2D(2, 3),
                                layers.BatchNormalization(), layers.Dropout(0.5),
                                layers.Flatten(), layers.Dense(1)])


def _lstm():
    return tf.keras.Sequential([tf.keras.Input((5, 3)), layers.LSTM(4), layers.Dense(1)])


def _subclassed():
    class Sub(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d1, self.d2 = layers.Dense(3), layers.Dense(1)

        def call(self, x):
            return self.d2(self.d1(x))

    model = Sub()
    model(np.ones((1, 2), np.float32))
    return model


def _called_sequential():
    model = tf.keras.Sequential([layers.Dense(2)])
    model(np.ones((1, 3), np.float32))
    return model


def _embedding():
    model = tf.keras.Sequential([layers.Embedding(5, 2)])
    model(np.ones((1, 3), np.int32))
    return model


# What TF 2.21 writes for tf.train.Checkpoint(model=...) of the same Keras 3 models.
KERAS3_KEYS = [
    (_functional, ["_operations/1/_kernel", "_operations/1/bias", "_operations/4/_kernel",
                   "_operations/4/bias"]),
    (_conv, ["_functional/_operations/1/_kernel", "_functional/_operations/1/bias",
             "_functional/_operations/2/beta", "_functional/_operations/2/gamma",
             "_functional/_operations/2/moving_mean", "_functional/_operations/2/moving_variance",
             "_functional/_operations/5/_kernel", "_functional/_operations/5/bias"]),
    (_lstm, ["_functional/_operations/1/cell/bias", "_functional/_operations/1/cell/kernel",
             "_functional/_operations/1/cell/recurrent_kernel",
             "_functional/_operations/2/_kernel", "_functional/_operations/2/bias"]),
    (_subclassed, ["d1/_kernel", "d1/bias", "d2/_kernel", "d2/bias"]),
    (_called_sequential, ["_functional/_operations/1/_kernel",
                          "_functional/_operations/1/bias"]),
    (_embedding, ["_functional/_operations/1/_embeddings"]),
]


@pytest.mark.parametrize("make, expected", KERAS3_KEYS, ids=lambda x: getattr(x, "__name__", ""))
def test_checkpoint_keys_of_keras_models_are_keras_3s(tmp_path, make, expected):
    path = tf.train.Checkpoint(model=make()).write(tmp_path / "c")
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert keys == ["_CHECKPOINTABLE_OBJECT_GRAPH"] + [   # write: no save_counter, as TF
        f"model/{k}/.ATTRIBUTES/VARIABLE_VALUE" for k in expected]


def test_a_compiled_and_fitted_model_saves_its_optimizer_as_keras_3_does(tmp_path):
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9), loss="mse")
    model.fit(x, x[:, :2], epochs=1, verbose=0)
    path = tf.train.Checkpoint(model=model).write(tmp_path / "c")
    assert [k for k, _ in tf.train.list_variables(path)] == [   # TF 2.21's keys
        "_CHECKPOINTABLE_OBJECT_GRAPH"] + [f"model/optimizer/{k}/.ATTRIBUTES/VARIABLE_VALUE"
                                           for k in ("_iterations", "_learning_rate",
                                                     "_trainable_variables/0",
                                                     "_trainable_variables/1",
                                                     "_variables/2", "_variables/3")]
