"""What Keras 3.15 (TF 2.21) writes, for tapeflow's Keras: checkpoint keys of a model
holding MultiHeadAttention, `.keras` build configs (None batch dimensions), and
`get_weights` in Keras's layer-by-layer order. Expected values are TF's."""
import json
import zipfile

import numpy as np

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
