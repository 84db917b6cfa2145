"""nn.embedding_lookup: values, sharded tables, max_norm and IndexedSlices gradients."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError

TABLE = np.arange(14.0).reshape(7, 2)


def test_lookup_values_and_shape():
    out = tf.nn.embedding_lookup(TABLE, [[6, 0], [3, 3]])
    assert out.shape == [2, 2, 2]
    np.testing.assert_array_equal(out.numpy(), TABLE[[[6, 0], [3, 3]]])
    with pytest.raises(InvalidArgumentError):
        tf.nn.embedding_lookup(TABLE, [7])
    with pytest.raises(InvalidArgumentError):
        tf.nn.embedding_lookup(TABLE, [1.0])


def test_lookup_gradient_is_indexed_slices():
    table = tf.Variable(TABLE)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.embedding_lookup(table, [1, 4, 1]))
    g = tape.gradient(y, table)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(g.indices.numpy(), [1, 4, 1])
    expected = np.zeros_like(TABLE)
    expected[1], expected[4] = 2, 1
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), expected)


def test_sharded_lookup_uses_the_div_strategy():
    # 7 rows over 3 shards: sizes 3, 2, 2.
    shards = [tf.constant(TABLE[:3]), tf.constant(TABLE[3:5]), tf.constant(TABLE[5:])]
    ids = [[6, 0], [3, 4]]
    np.testing.assert_array_equal(tf.nn.embedding_lookup(shards, ids).numpy(), TABLE[ids])
    with tf.GradientTape() as tape:
        tape.watch(shards)
        y = tf.reduce_sum(tf.nn.embedding_lookup(shards, [4, 4, 0]))
    grads = tape.gradient(y, shards)
    assert all(isinstance(g, tf.IndexedSlices) and g.indices.dtype == tf.int32
               for g in grads if g is not None)
    np.testing.assert_array_equal(tf.convert_to_tensor(grads[1]).numpy(), [[0, 0], [2, 2]])
    assert grads[2] is None or not tf.convert_to_tensor(grads[2]).numpy().any()


def test_max_norm_scales_long_rows_only():
    table = np.array([[3.0, 4.0], [0.3, 0.4]])
    out = tf.nn.embedding_lookup(table, [0, 1], max_norm=1.0).numpy()
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.3, 0.4]])
    np.testing.assert_array_equal(table, [[3.0, 4.0], [0.3, 0.4]])
