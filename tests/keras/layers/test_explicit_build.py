"""A layer built by hand (`layer.build(shape)`) keeps those weights on its first call."""
import numpy as np
import pytest

import tapeflow as tf

L = tf.keras.layers

# (layer factory, input shape given to build, input of the first call)
CASES = {
    "Dense": (lambda: L.Dense(3), (None, 2), np.ones((4, 2), "float32")),
    "Conv2D": (lambda: L.Conv2D(2, 3), (None, 5, 5, 1), np.ones((1, 5, 5, 1), "float32")),
    "BatchNormalization": (lambda: L.BatchNormalization(), (None, 3),
                           np.ones((4, 3), "float32")),
    "LayerNormalization": (lambda: L.LayerNormalization(), (None, 3),
                           np.ones((4, 3), "float32")),
    "Embedding": (lambda: L.Embedding(5, 2), (None, 3), np.zeros((2, 3), "int32")),
    "Concatenate": (lambda: L.Concatenate(), [(None, 2), (None, 2)],
                    [np.ones((1, 2), "float32")] * 2),
    "Add": (lambda: L.Add(), [(None, 2), (None, 2)], [np.ones((1, 2), "float32")] * 2),
    "Flatten": (lambda: L.Flatten(), (None, 2, 2), np.ones((1, 2, 2), "float32")),
    "Sequential": (lambda: tf.keras.Sequential([L.Dense(2), L.Dense(1)]), (None, 3),
                   np.ones((2, 3), "float32")),
}


class Scale(L.Layer):
    def build(self, input_shape):
        self.w = self.add_weight("w", shape=[input_shape[-1]], initializer="ones")

    def call(self, x):
        return x * self.w


CASES["subclassed Layer"] = (Scale, (None, 2), np.ones((1, 2), "float32"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_call_uses_the_weights_build_made(name):
    make, shape, inputs = CASES[name]
    layer = make()
    layer.build(shape)
    assert layer.built
    weights = list(layer.weights)
    values = [np.full(w.shape.as_list(), 0.5, w.dtype.as_numpy_dtype) for w in weights]
    layer.set_weights(values)
    layer(inputs)
    assert [id(w) for w in layer.weights] == [id(w) for w in weights]
    for w, v in zip(layer.weights, values):
        np.testing.assert_array_equal(w.numpy(), v)


def test_set_weights_after_build_is_what_the_call_uses():
    layer = L.Dense(1, use_bias=False)
    layer.build((None, 2))
    layer.set_weights([np.array([[2.0], [3.0]], "float32")])
    np.testing.assert_array_equal(layer(np.ones((1, 2), "float32")).numpy(), [[5.0]])
    assert len(layer.weights) == 1
