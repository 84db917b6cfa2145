"""Layer: building on first call, weights, trainable, training propagation, input checks."""
import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers


class Scale(layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight("w", shape=[input_shape[-1]], initializer="ones")
        self.count = self.add_weight("count", shape=(), initializer="zeros", trainable=False)

    def call(self, x):
        return x * self.w


class Block(layers.Layer):
    """A composite layer: sublayers in attributes and in a list."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inner = Scale(name="inner")
        self.stack = [layers.Dense(2, name="d0"), layers.Dense(1, name="d1")]

    def call(self, x, training=None):
        self.seen_training = training
        return self.stack[1](self.stack[0](self.inner(x)))


class Recorder(layers.Layer):
    def call(self, x, training=None):
        self.seen_training = training
        return x


def test_builds_on_first_call_from_the_input_shape():
    layer = Scale()
    assert not layer.built and layer.weights == []
    out = layer(np.array([[1.0, 2.0, 3.0]]))
    assert layer.built and out.dtype == tf.float32   # float64 input cast to the layer dtype
    assert [w.shape.as_list() for w in layer.weights] == [[3], []]
    assert layer.get_build_config() == {"input_shape": [1, 3]}
    assert layer.count_params() == 4


def test_weight_order_trainable_and_non_trainable():
    block = Block(name="block")
    block(tf.constant([[1.0, 2.0]]))
    names = [w.name for w in block.weights]
    # Keras 3's order, layer by layer (TF 2.21: block/inner/w, block/inner/count, block/d0/...)
    assert names == ["inner/w:0", "inner/count:0", "d0/kernel:0", "d0/bias:0", "d1/kernel:0",
                     "d1/bias:0"]
    assert [w.name for w in block.non_trainable_weights] == ["inner/count:0"]
    block.trainable = False
    assert block.trainable_weights == [] and not block.inner.trainable
    assert len(block.non_trainable_weights) == 6
    block.trainable = True
    assert len(block.trainable_variables) == 5


def test_training_flag_reaches_call_and_is_inherited_by_inner_layers():
    outer = Block()
    x = tf.constant([[1.0, 2.0]])
    outer(x, training=True)
    assert outer.seen_training is True
    outer(x)
    assert outer.seen_training is False

    class Wrapper(layers.Layer):
        def __init__(self):
            super().__init__()
            self.recorder = Recorder()

        def call(self, x):
            return self.recorder(x)

    wrapper = Wrapper()
    wrapper(x, training=True)
    assert wrapper.recorder.seen_training is True
    wrapper(x)
    assert wrapper.recorder.seen_training is False


def test_wrong_rank_and_wrong_last_dimension_name_the_layer():
    dense = layers.Dense(3, name="my_dense")
    with pytest.raises(ValueError, match=r'layer "my_dense".*min_ndim=2, found ndim=1'):
        dense(tf.constant([1.0, 2.0]))
    assert not dense.built
    dense(tf.constant([[1.0, 2.0]]))
    with pytest.raises(ValueError, match=r"axis -1 of input shape to have value 2.*\(1, 5\)"):
        dense(tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0]]))


def test_set_weights_checks_everything_before_setting():
    dense = layers.Dense(2)
    dense(tf.constant([[1.0, 2.0, 3.0]]))
    before = dense.get_weights()
    with pytest.raises(ValueError, match="expects 2 weights"):
        dense.set_weights([before[0]])
    with pytest.raises(ValueError, match=r"weight shape \(2,\) is not compatible.*\(3,\)"):
        dense.set_weights([np.zeros((3, 2)), np.zeros(3)])
    assert all(np.array_equal(a, b) for a, b in zip(before, dense.get_weights()))
    dense.set_weights([np.ones((3, 2)), np.array([1.0, 2.0])])
    assert dense.bias.numpy().tolist() == [1.0, 2.0]


def test_unique_names_unknown_kwargs_and_unbuilt_count_params():
    tf.keras.backend.clear_session()
    assert [layers.Dense(1).name for _ in range(3)] == ["dense", "dense_1", "dense_2"]
    with pytest.raises(TypeError, match="not understood: 'colour'"):
        layers.Dense(1, colour="red")
    with pytest.raises(ValueError, match="isn't built"):
        layers.Dense(1).count_params()


def test_add_weight_keywords_in_keras3_style_and_integer_dtypes():
    layer = layers.Layer()
    w = layer.add_weight(shape=(2, 3), initializer="ones", name="w")
    step = layer.add_weight("step", shape=(), dtype="int64")
    assert w.shape.as_list() == [2, 3] and w.name.endswith("/w:0")
    assert step.dtype == tf.int64 and int(step) == 0


def test_calling_a_layer_on_a_layer_is_refused_clearly():
    with pytest.raises(TypeError, match="called on layer dense"):
        layers.Dense(1)(layers.Dense(2, name="dense"))


@pytest.mark.parametrize("make, inputs, words", [
    (lambda: tf.keras.layers.Dense(2), [np.ones((1, 2), "float32")] * 2, "expects 1 input"),
    (lambda: tf.keras.layers.Flatten(), {"a": np.ones((1, 2), "float32")}, "expects 1 input"),
    (lambda: tf.keras.layers.BatchNormalization(), (np.ones((1, 2), "float32"),) * 2,
     "expects 1 input"),
    (lambda: tf.keras.layers.Add(), {"a": np.ones((1, 2), "float32")}, "received a dict"),
])
def test_a_structure_where_one_tensor_goes_is_a_value_error(make, inputs, words):
    layer = make()
    with pytest.raises(ValueError, match=words):
        layer(inputs)
    assert not layer.weights


@pytest.mark.parametrize("make,shape", [
    (lambda: tf.keras.layers.Dense(2), (None, 3)),
    (lambda: tf.keras.layers.LayerNormalization(), (None, 4, 3)),
    (lambda: tf.keras.layers.EinsumDense("ab,bc->ac", output_shape=2, bias_axes="c"),
     (None, 3)),
])
def test_build_called_directly_marks_the_layer_built(make, shape):
    layer = make()
    layer.build(shape)
    assert layer.built
    weights = list(layer.weights)
    layer(np.ones([2, *shape[1:]], np.float32))
    assert [w is v for w, v in zip(layer.weights, weights)] == [True] * len(weights)
