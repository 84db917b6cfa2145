"""Dtype policies: a layer computes in its policy's compute dtype (inputs are cast to it)
and keeps its weights in the variable dtype; mixed policies cast the weights while the
layer runs, so gradients reach the float32 weights."""
import numpy as np
import pytest

import tapeflow as tf

mp = tf.keras.mixed_precision


@pytest.fixture
def restore_defaults():
    yield
    mp.set_global_policy(None)
    tf.keras.config.set_floatx("float32")


@pytest.mark.parametrize("name,compute,variable", [
    ("float32", "float32", "float32"), ("float64", "float64", "float64"),
    ("mixed_float16", "float16", "float32"),
    ("float16", "float16", "float16"),
])
def test_policy_dtypes(name, compute, variable):
    policy = mp.Policy(name)
    assert (policy.name, policy.compute_dtype, policy.variable_dtype) == (name, compute,
                                                                           variable)
    assert repr(policy) == f'<DTypePolicy "{name}">'
    assert mp.DTypePolicy.from_config(policy.get_config()) == policy


@pytest.mark.parametrize("name", ["foo", "mixed_float32"])
def test_unknown_policy_names_raise(name):
    with pytest.raises(ValueError, match="Cannot convert"):
        mp.Policy(name)


def test_mixed_bfloat16_is_refused_naming_the_missing_dtype():
    with pytest.raises(ValueError, match="no bfloat16"):
        mp.Policy("mixed_bfloat16")


def test_float64_inputs_are_cast_to_the_float32_compute_dtype():
    layer = tf.keras.layers.Dense(2)
    assert layer(np.ones((1, 3))).dtype == tf.float32
    assert layer.dtype_policy == mp.Policy("float32")


def test_float64_layer_keeps_float64():
    layer = tf.keras.layers.Dense(2, dtype="float64")
    assert layer(np.ones((1, 3), np.float32)).dtype == tf.float64
    assert layer.kernel.dtype == tf.float64


def test_mixed_float16_computes_in_float16_with_float32_weights():
    layer = tf.keras.layers.Dense(2, dtype="mixed_float16", kernel_initializer="ones")
    x = tf.ones([1, 3])
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_sum(tf.cast(y, tf.float32))
    assert y.dtype == tf.float16 and layer.kernel.dtype == tf.float32
    assert (layer.dtype, layer.compute_dtype, layer.variable_dtype) == ("float32", "float16",
                                                                        "float32")
    grads = tape.gradient(loss, layer.trainable_weights)
    assert [g.dtype for g in grads] == [tf.float32, tf.float32]
    np.testing.assert_array_equal(grads[0].numpy(), np.ones((3, 2)))
    assert isinstance(layer.kernel, tf.Variable)          # restored after the call
    assert layer.get_config()["dtype"] == "mixed_float16"


def test_global_policy_applies_to_new_layers_and_sublayers(restore_defaults):
    mp.set_global_policy("mixed_float16")
    assert mp.global_policy().name == tf.keras.config.dtype_policy().name == "mixed_float16"
    attention = tf.keras.layers.MultiHeadAttention(2, 2)
    x = np.ones((1, 3, 4), np.float32)
    out = attention(x, x)
    assert out.dtype == tf.float16
    assert {w.dtype for w in attention.weights} == {tf.float32}
    mp.set_global_policy("float32")
    assert tf.keras.layers.Dense(1).compute_dtype == "float32"


def test_set_floatx_sets_the_default_dtype(restore_defaults):
    tf.keras.config.set_floatx("float64")
    assert tf.keras.config.floatx() == "float64"
    layer = tf.keras.layers.Dense(1)
    assert layer(np.ones((1, 2), np.float32)).dtype == tf.float64
    with pytest.raises(ValueError, match="Unknown `floatx` value"):
        tf.keras.config.set_floatx("int8")


def test_mixed_model_trains_with_fit():
    model = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(4, activation="relu",
                                                       dtype="mixed_float16"),
                                 tf.keras.layers.Dense(1, dtype="float32")])
    model.compile(optimizer="sgd", loss="mse")
    x = np.random.default_rng(0).standard_normal((32, 3)).astype(np.float32)
    before = [w.copy() for w in model.get_weights()]
    model.fit(x, x.sum(1, keepdims=True), epochs=1, verbose=0)
    assert all(w.dtype == np.float32 for w in model.get_weights())
    assert any(not np.array_equal(a, b) for a, b in zip(before, model.get_weights()))
