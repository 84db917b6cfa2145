"""Embedding(mask_zero=True) feeding GlobalAveragePooling1D and a Dense classifier, against
Keras on TF: the masked mean (masked steps replaced by 0, divided by the kept count, NaN
for a sequence of padding only, no gradient into masked steps), the gradients, and a few
steps of `fit` with Adam, whose embedding gradient is IndexedSlices with repeated ids."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

IDS = np.array([[3, 5, 0, 0, 0], [1, 2, 7, 4, 0], [0, 0, 0, 0, 0], [9, 9, 9, 9, 9]],
               np.int32)
rng = np.random.default_rng(3)
E0 = rng.standard_normal((10, 4))
K0 = rng.standard_normal((4, 3))


def _pooled(module, graph, dtype):
    keras = module.keras
    emb = keras.layers.Embedding(10, 4, mask_zero=True, dtype=dtype)
    pool = keras.layers.GlobalAveragePooling1D(dtype=dtype)
    dense = keras.layers.Dense(3, dtype=dtype)
    emb.build((None, 5))
    emb.embeddings.assign(E0.astype(dtype))
    dense.build((None, 4))
    dense.kernel.assign(K0.astype(dtype))

    def run(ids):
        with module.GradientTape() as tape:
            pooled = pool(emb(ids), mask=emb.compute_mask(ids))
            logits = dense(pooled)
            loss = module.reduce_sum(module.square(logits))
        grads = tape.gradient(loss, [emb.embeddings, dense.kernel])
        return pooled, logits, module.convert_to_tensor(grads[0]), grads[1]

    if graph:
        run = module.function(run)
    return [t.numpy() for t in run(module.constant(IDS))]


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("dtype, rtol", [("float32", 1e-6), ("float64", 1e-12)])
def test_masked_global_average_pooling_matches_keras(tensorflow, dtype, rtol, graph):
    ours = _pooled(tapeflow, graph, dtype)
    theirs = _pooled(tensorflow, graph, dtype)
    for mine, keras in zip(ours, theirs):
        assert mine.dtype == keras.dtype
        np.testing.assert_array_equal(np.isnan(mine), np.isnan(keras))
        np.testing.assert_allclose(mine, keras, rtol=rtol, atol=rtol)


def _fitted(module):
    keras = module.keras
    model = keras.Sequential([keras.Input((5,), dtype="int32"),
                              keras.layers.Embedding(10, 4, mask_zero=True),
                              keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(3)])
    model.layers[0].embeddings.assign((E0 * 0.05).astype(np.float32))
    model.layers[-1].kernel.assign(K0.astype(np.float32))
    model.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    ids = IDS.copy()
    ids[2] = [0, 6, 0, 8, 0]
    model.fit(ids, np.array([0, 1, 2, 1]), epochs=5, batch_size=4, verbose=0, shuffle=False)
    return [w.numpy() for w in model.weights] + [model.predict(ids, verbose=0)]


def test_fit_with_adam_on_masked_embedding_matches_keras(tensorflow):
    for mine, keras in zip(_fitted(tapeflow), _fitted(tensorflow)):
        np.testing.assert_allclose(mine, keras, rtol=1e-5, atol=1e-6)
