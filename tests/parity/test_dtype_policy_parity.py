"""Dtype policies against Keras 3: for each layer dtype argument and input dtype, the
output dtype, the weights' dtypes, the layer's dtype, compute dtype and config agree."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

LAYERS = {
    "Dense": (lambda L, dtype: L.Dense(3, dtype=dtype), lambda layer, x: layer(x)),
    "MultiHeadAttention": (lambda L, dtype: L.MultiHeadAttention(2, 2, dtype=dtype),
                           lambda layer, x: layer(x, x)),
    "LayerNormalization": (lambda L, dtype: L.LayerNormalization(dtype=dtype),
                           lambda layer, x: layer(x)),
}


def _describe(layer, output) -> tuple:
    config_dtype = layer.get_config()["dtype"]
    if isinstance(config_dtype, dict):
        config_dtype = config_dtype["config"]["name"]
    return (str(output.dtype.name), [w.dtype if isinstance(w.dtype, str) else w.dtype.name
                                     for w in layer.weights],
            layer.dtype, layer.compute_dtype, layer.variable_dtype, config_dtype)


@pytest.mark.parametrize("layer_name", list(LAYERS))
@pytest.mark.parametrize("dtype", [None, "float64", "mixed_float16"])
@pytest.mark.parametrize("input_dtype", ["float32", "float64"])
def test_layer_dtypes_match_keras(layer_name, dtype, input_dtype, tensorflow):
    import keras
    make, call = LAYERS[layer_name]
    x = np.ones((2, 3, 4), input_dtype)
    results = []
    for module, layers in ((tensorflow, keras.layers), (tapeflow, tapeflow.keras.layers)):
        layer = make(layers, dtype)
        results.append(_describe(layer, call(layer, module.constant(x))))
    assert results[1] == results[0]


RANDOM_LAYERS = {
    "Dropout": (lambda L: L.Dropout(0.5, seed=1), lambda layer, x: layer(x, training=True)),
    "SpatialDropout1D": (lambda L: L.SpatialDropout1D(0.5, seed=1),
                         lambda layer, x: layer(x, training=True)),
    "MultiHeadAttention dropout": (lambda L: L.MultiHeadAttention(2, 2, dropout=0.1, seed=1),
                                   lambda layer, x: layer(x, x, training=True)),
    "MultiHeadAttention": (lambda L: L.MultiHeadAttention(2, 2),
                           lambda layer, x: layer(x, x)),
    "Attention dropout": (lambda L: L.Attention(dropout=0.2, seed=1),
                          lambda layer, x: layer([x, x], training=True)),
    "Attention": (lambda L: L.Attention(), lambda layer, x: layer([x, x])),
    "GaussianNoise": (lambda L: L.GaussianNoise(0.3, seed=1),
                      lambda layer, x: layer(x, training=True)),
    "GaussianNoise 0": (lambda L: L.GaussianNoise(0.0), lambda layer, x: layer(x)),
    "GaussianDropout": (lambda L: L.GaussianDropout(0.3, seed=1),
                        lambda layer, x: layer(x, training=True)),
}


@pytest.mark.parametrize("key", list(RANDOM_LAYERS))
def test_seed_states_are_variables_not_weights_as_in_keras(key, tensorflow):
    import keras
    make, call = RANDOM_LAYERS[key]
    x = np.ones((2, 3, 4), np.float32)
    results = []
    for module, layers in ((tensorflow, keras.layers), (tapeflow, tapeflow.keras.layers)):
        layer = make(layers)
        call(layer, module.constant(x))
        results.append((len(layer.weights), len(layer.non_trainable_weights),
                        [(tuple(v.shape), v.dtype if isinstance(v.dtype, str) else v.dtype.name,
                          bool(v.trainable)) for v in layer.non_trainable_variables]))
    assert results[1] == results[0]
