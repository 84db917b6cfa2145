"""TF 2's top-level initializers: values, dtypes, seeds, configs and errors."""
import pytest

import tapeflow as tf


@pytest.mark.parametrize("init,dtype,want", [
    (tf.zeros_initializer(), tf.float32, [[0.0, 0.0]]),
    (tf.zeros_initializer(), tf.int32, [[0, 0]]), (tf.ones_initializer(), tf.int64, [[1, 1]]),
    (tf.constant_initializer(3), tf.int32, [[3, 3]]),
    (tf.constant_initializer([1.5, 2.5]), tf.float64, [[1.5, 2.5]])])
def test_deterministic_initializers(init, dtype, want):
    out = init([1, 2], dtype)
    assert out.dtype == dtype and out.numpy().tolist() == want


def test_constant_initializer_takes_the_values_dtype_and_config():
    out = tf.constant_initializer([1, 2, 3, 4])([2, 2])
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[1, 2], [3, 4]]
    assert tf.constant_initializer([1, 2]).get_config() == {"value": [1, 2]}
    assert tf.constant_initializer.from_config({"value": 2})([1]).numpy().tolist() == [2]
    with pytest.raises(TypeError, match="Invalid type"):
        tf.constant_initializer(object())
    with pytest.raises(TypeError):
        tf.constant_initializer([1, 2, 3])([2, 2])


@pytest.mark.parametrize("make,config", [
    (tf.random_normal_initializer, {"mean": 0.0, "stddev": 0.05, "seed": 3}),
    (tf.random_uniform_initializer, {"minval": -0.05, "maxval": 0.05, "seed": 3})])
def test_seeded_random_initializers_repeat(make, config):
    init = make(seed=3)
    assert init.get_config() == config
    assert init([5]).numpy().tolist() == init([5]).numpy().tolist()
    assert abs(init([1000]).numpy()).max() < 0.5
    assert make.from_config(init.get_config())([5]).numpy().tolist() == init([5]).numpy().tolist()


def test_random_initializer_dtypes():
    assert tf.random_uniform_initializer(0, 10)([4], tf.int32).dtype == tf.int32
    with pytest.raises(ValueError, match="floating point"):
        tf.random_normal_initializer()([2], tf.int32)
    with pytest.raises(ValueError, match="numeric or boolean"):
        tf.zeros_initializer()([2], tf.string)


def test_initializers_make_variables():
    v = tf.Variable(tf.ones_initializer()([2]))
    assert v.numpy().tolist() == [1.0, 1.0]
