"""truncatediv and truncatemod round toward zero; their gradients are TF's (none, and no
rule)."""
import numpy as np
import pytest

import tapeflow as tf


@pytest.mark.parametrize("x,y,div,mod", [
    ([7, -7], [2, 2], [3, -3], [1, -1]), ([7.5, -7.5], [2.0, 2.0], [3.0, -3.0], [1.5, -1.5]),
    (np.array([7, -7], np.int64), 2, [3, -3], [1, -1])])
def test_values(x, y, div, mod):
    assert tf.truncatediv(tf.constant(x), y).numpy().tolist() == div
    assert tf.truncatemod(tf.constant(x), y).numpy().tolist() == mod


@pytest.mark.parametrize("fn", [tf.truncatediv, tf.truncatemod])
def test_integer_division_by_zero(fn):
    with pytest.raises(tf.errors.InternalError, match="division by zero"):
        fn(tf.constant([7, -7]), tf.constant([0, 2]))


def test_gradients_as_tf():
    x = tf.constant([7.0, -7.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        div, mod = tf.truncatediv(x, 2.0), tf.truncatemod(x, 2.0)
    assert tape.gradient(div, x) is None
    with pytest.raises(LookupError, match="TruncateMod"):
        tape.gradient(mod, x)
