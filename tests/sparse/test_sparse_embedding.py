"""tf.nn.embedding_lookup_sparse and safe_embedding_lookup_sparse: combiners against a
NumPy reference, weights, pruning and default ids, IndexedSlices gradients, errors."""
import numpy as np
import pytest

import tapeflow as tf

PARAMS = np.arange(12.0, dtype=np.float32).reshape(4, 3)
ROWS = [[0, 0], [0, 1], [2, 0], [3, 0], [3, 1]]
IDS = [1, 3, 1, 0, 2]
WEIGHTS = [1.0, 2.0, 0.5, 1.5, 3.0]


def _ids(ids=IDS, rows=ROWS, shape=(5, 2)):
    return tf.SparseTensor(rows, tf.constant(ids, tf.int64), list(shape))


def _reference(combiner, weights=None, rows=5):
    out = np.zeros((rows, 3), np.float32)
    for r in range(rows):
        picked = [(i, w) for (row, _), i, w in zip(ROWS, IDS, weights or [1.0] * len(IDS))
                  if row == r]
        if not picked:
            continue
        total = sum(w * PARAMS[i] for i, w in picked)
        scale = {"sum": 1.0, "mean": sum(w for _, w in picked),
                 "sqrtn": np.sqrt(sum(w * w for _, w in picked))}[combiner]
        out[r] = total / scale
    return out


@pytest.mark.parametrize("combiner", ["mean", "sqrtn", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
def test_combiners(combiner, weighted):
    weights = _ids().with_values(WEIGHTS) if weighted else None
    got = tf.nn.embedding_lookup_sparse(PARAMS, _ids(), weights, combiner=combiner)
    want = _reference(combiner, WEIGHTS if weighted else None)[:4]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_gradient_to_params_is_indexed_slices():
    params = tf.Variable(PARAMS)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.embedding_lookup_sparse(params, _ids(), None, combiner="sum"))
    g = tape.gradient(y, params)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(),
                               np.repeat([[1.0], [2.0], [1.0], [1.0]], 3, axis=1))


def test_safe_lookup_prunes_and_fills():
    ids = _ids([1, -1, 3, 2, 0])
    got = tf.nn.safe_embedding_lookup_sparse(PARAMS, ids, combiner="sum")
    want = np.zeros((5, 3), np.float32)
    want[0], want[2], want[3] = PARAMS[1], PARAMS[3], PARAMS[2] + PARAMS[0]
    np.testing.assert_allclose(got.numpy(), want)
    with_default = tf.nn.safe_embedding_lookup_sparse(PARAMS, ids, combiner="sum", default_id=2)
    want[1] = want[4] = PARAMS[2]
    np.testing.assert_allclose(with_default.numpy(), want)


def test_safe_lookup_drops_non_positive_weights_and_keeps_outer_shape():
    ids = tf.SparseTensor([[0, 0, 0], [0, 1, 1], [1, 1, 0]], tf.constant([1, 0, 3], tf.int64),
                          [2, 2, 2])
    weights = tf.SparseTensor(ids.indices, [2.0, -1.0, 0.5], [2, 2, 2])
    got = tf.nn.safe_embedding_lookup_sparse(PARAMS, ids, weights, combiner="mean")
    want = np.zeros((2, 2, 3), np.float32)
    want[0, 0], want[1, 1] = PARAMS[1], PARAMS[3]
    np.testing.assert_allclose(got.numpy(), want)


@pytest.mark.parametrize("call, error", [
    (lambda: tf.nn.embedding_lookup_sparse(PARAMS, _ids(), None, combiner="max"), ValueError),
    (lambda: tf.nn.safe_embedding_lookup_sparse(PARAMS, _ids(), combiner="max"), ValueError),
    (lambda: tf.nn.embedding_lookup_sparse(PARAMS, tf.constant([1]), None), TypeError),
    (lambda: tf.nn.safe_embedding_lookup_sparse(
        PARAMS, tf.SparseTensor([[0]], tf.constant([1], tf.int64), [2])), ValueError),
], ids=["combiner", "safe combiner", "dense ids", "rank 1"])
def test_errors(call, error):
    with pytest.raises(error):
        call()
