"""Embedding(mask_zero=True) -> GlobalAveragePooling1D -> Dense, against values recorded
from Keras 3.15 on TensorFlow 2.21 (float64; tests/parity/test_masked_pooling_parity.py
runs the same program under TF). Keras's masked mean replaces masked steps by 0, sums, and
divides by the kept count: a sequence of padding only pools to NaN (0 / 0), and no
gradient reaches a masked step, so embedding row 0 (padding) gets exactly 0 even though
the loss is NaN."""
import numpy as np
import pytest

import tapeflow as tf

nan = float("nan")
IDS = np.array([[3, 5, 0, 0, 0], [1, 2, 7, 4, 0], [0, 0, 0, 0, 0], [9, 9, 9, 9, 9]],
               np.int32)
rng = np.random.default_rng(3)
E0 = rng.standard_normal((10, 4))
K0 = rng.standard_normal((4, 3))

POOLED = [
    [-0.1285139265373429, 0.43888725255193095, -0.2550225142587384, -0.44801485642433636],
    [-0.26986891473942654, 0.9677905870643603, -0.43072518903003804, -0.2690213833730572],
    [nan, nan, nan, nan],
    [-2.8281623068437627, 1.02130681750008, -0.9596447598081417, -1.6686198426559695],
]
LOGITS = [
    [-1.3644353009936956, -0.17709240196738651, 0.3993981020699333],
    [-2.0208191954481167, -0.4304092714415322, 0.23458606545918845],
    [nan, nan, nan],
    [-5.084942238263148, -2.3288794878302963, 2.562983599549321],
]
EMBEDDING_GRADIENT = [
    [0.0, 0.0, 0.0, 0.0],
    [-0.4822520792642555, 1.0758017148479968, -1.558342316227476, -1.187576915616138],
    [-0.4822520792642555, 1.0758017148479968, -1.558342316227476, -1.187576915616138],
    [-0.678892807195134, 1.4429924421062734, -1.9727984312098643, -1.850157548819423],
    [-0.4822520792642555, 1.0758017148479968, -1.558342316227476, -1.187576915616138],
    [-0.678892807195134, 1.4429924421062734, -1.9727984312098643, -1.850157548819423],
    [0.0, 0.0, 0.0, 0.0],
    [-0.4822520792642555, 1.0758017148479968, -1.558342316227476, -1.187576915616138],
    [0.0, 0.0, 0.0, 0.0],
    [-8.354254054999888, 10.554858893908921, -16.78252458555905, -15.094035291175754],
]


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
def test_masked_mean_pooling_matches_keras_values(graph):
    emb = tf.keras.layers.Embedding(10, 4, mask_zero=True, dtype="float64")
    pool = tf.keras.layers.GlobalAveragePooling1D(dtype="float64")
    dense = tf.keras.layers.Dense(3, dtype="float64")
    emb.build((None, 5))
    emb.embeddings.assign(E0)
    dense.build((None, 4))
    dense.kernel.assign(K0)

    def run(ids):
        with tf.GradientTape() as tape:
            pooled = pool(emb(ids), mask=emb.compute_mask(ids))
            logits = dense(pooled)
            loss = tf.reduce_sum(tf.square(logits))
        return pooled, logits, tf.convert_to_tensor(tape.gradient(loss, emb.embeddings))

    if graph:
        run = tf.function(run)
    pooled, logits, embedding_gradient = run(tf.constant(IDS))
    for got, expected in [(pooled, POOLED), (logits, LOGITS),
                          (embedding_gradient, EMBEDDING_GRADIENT)]:
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-15)
    assert embedding_gradient.numpy()[0].tolist() == [0.0] * 4


def test_masked_mean_ignores_non_finite_values_at_masked_steps():
    x = tf.constant([[[1.0], [np.inf], [3.0]]])
    mask = tf.constant([[True, False, True]])
    pooled = tf.keras.layers.GlobalAveragePooling1D()(x, mask=mask)
    assert pooled.numpy().tolist() == [[2.0]]
