"""Embedding: row lookups, sparse gradients, ids out of range."""
import numpy as np
import pytest

import tapeflow as tf


def test_lookup_and_indexed_slices_gradient():
    layer = tf.keras.layers.Embedding(5, 2, embeddings_initializer="random_normal")
    ids = tf.constant([[0, 3], [3, 1]])
    with tf.GradientTape() as tape:
        out = layer(ids)
        loss = tf.reduce_sum(out)
    table = layer.embeddings.numpy()
    np.testing.assert_array_equal(out.numpy(), table[ids.numpy()])
    grad = tape.gradient(loss, layer.embeddings)
    assert isinstance(grad, tf.IndexedSlices)
    np.testing.assert_array_equal(tf.convert_to_tensor(grad).numpy(),
                                  [[1, 1], [1, 1], [0, 0], [2, 2], [0, 0]])


def test_float_ids_are_cast_and_bad_ids_name_the_layer():
    layer = tf.keras.layers.Embedding(4, 3, name="words")
    assert layer(np.array([1.0, 2.0])).shape == [2, 3]
    before = layer.embeddings.numpy()
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r'"words": input value 4 at index \[1\] is outside \[0, 4\)'):
        layer(tf.constant([0, 4]))
    assert np.array_equal(before, layer.embeddings.numpy())
    with pytest.raises(ValueError, match="positive"):
        tf.keras.layers.Embedding(0, 3)


def test_embedding_trains_with_an_optimizer():
    layer = tf.keras.layers.Embedding(3, 1, embeddings_initializer="zeros")
    opt = tf.keras.optimizers.SGD(0.5)
    for _ in range(2):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(tf.constant([2, 2, 0])))
        opt.apply_gradients(zip(tape.gradient(loss, [layer.embeddings]), [layer.embeddings]))
    np.testing.assert_allclose(layer.embeddings.numpy().ravel(), [-1.0, 0.0, -2.0])
