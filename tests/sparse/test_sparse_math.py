"""tf.sparse arithmetic: sums, extremes, softmax, reductions, sparse-dense products (NumPy
and SciPy paths), map_values, bincount and sampled_addmm: values, gradients, errors."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.ops import sparse_ops

IDX = [[0, 1], [1, 0], [1, 2], [2, 3]]
VALUES = [1.0, -2.0, 3.0, 0.5]
OTHER = [[0, 1], [2, 0], [2, 3]]


def _st(values=VALUES, indices=IDX, shape=(3, 4)):
    return tf.SparseTensor(indices, values, shape)




A, B = np.zeros((3, 4), np.float32), np.zeros((3, 4), np.float32)
A[tuple(np.array(IDX).T)], B[tuple(np.array(OTHER).T)] = VALUES, [-0.95, 4.0, 2.0]


@pytest.mark.parametrize("fn, want", [
    (lambda a, b: tf.sparse.add(a, b), A + B),
    (lambda a, b: tf.sparse.maximum(a, b), np.maximum(A, B)),
    (lambda a, b: tf.sparse.minimum(a, b), np.minimum(A, B)),
], ids=["add", "maximum", "minimum"])
def test_binary_values_over_the_union(fn, want, dense):
    out = fn(_st(), _st([-0.95, 4.0, 2.0], OTHER))
    np.testing.assert_allclose(dense(out), want, rtol=1e-6)
    np.testing.assert_array_equal(out.indices.numpy(), [[0, 1], [1, 0], [1, 2], [2, 0], [2, 3]])


def test_add_threshold_drops_small_sums_of_two_entries_only():
    out = tf.sparse.add(_st(), _st([-0.95, 0.01, 2.0], OTHER), threshold=0.1)
    np.testing.assert_array_equal(out.indices.numpy(), [[1, 0], [1, 2], [2, 0], [2, 3]])
    np.testing.assert_allclose(out.values.numpy(), [-2.0, 3.0, 0.01, 2.5])


def test_add_sparse_and_dense_is_dense_either_way():
    dense = np.ones((3, 4), np.float32)
    np.testing.assert_allclose(tf.sparse.add(_st(), dense).numpy(), A + 1)
    np.testing.assert_allclose(tf.sparse.add(dense, _st()).numpy(), A + 1)


def test_add_gradients():
    a, b = tf.constant(VALUES), tf.constant([-0.95, 0.01, 2.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        out = tf.sparse.add(_st(a), _st(b, OTHER), threshold=0.1)
        y = tf.reduce_sum(out.values * [1.0, 2.0, 3.0, 4.0])
    ga, gb = tape.gradient(y, [a, b])
    np.testing.assert_allclose(ga.numpy(), [0.0, 1.0, 2.0, 4.0])
    np.testing.assert_allclose(gb.numpy(), [0.0, 3.0, 4.0])


def test_softmax_over_rows_of_present_entries():
    out = tf.sparse.softmax(_st())
    row = np.exp([-2.0, 3.0]) / np.exp([-2.0, 3.0]).sum()
    np.testing.assert_allclose(out.values.numpy(), [1.0, row[0], row[1], 1.0], rtol=1e-6)
    with pytest.raises(ValueError, match="rank"):
        tf.sparse.softmax(tf.SparseTensor([[0]], [1.0], [2]))


@pytest.mark.parametrize("axis, keepdims", [(None, False), (0, False), (1, True), (-1, False),
                                            ([0, 1], True)])
def test_reduce_sum_dense_and_sparse(axis, keepdims, dense):
    want = np.sum(A, axis=None if axis is None else tuple(np.atleast_1d(axis)),
                  keepdims=keepdims)
    np.testing.assert_allclose(tf.sparse.reduce_sum(_st(), axis, keepdims).numpy(), want)
    np.testing.assert_allclose(dense(tf.sparse.reduce_sum(_st(), axis, keepdims,
                                                           output_is_sparse=True)), want)


def test_reduce_sum_gradient_and_bad_axis():
    v = tf.constant(VALUES)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(tf.sparse.reduce_sum(_st(v), 1) * [1.0, 2.0, 3.0])
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [1.0, 2.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.sparse.reduce_sum(_st(), 2)


def test_reduce_max_over_present_entries_only():
    st = _st([-1.0, -3.0], [[0, 0], [1, 2]], (2, 3))
    np.testing.assert_allclose(tf.sparse.reduce_max(st, 0).numpy(), [-1.0, 0.0, -3.0])
    np.testing.assert_allclose(tf.sparse.reduce_max(st, 1, keepdims=True).numpy(),
                               [[-1.0], [-3.0]])
    assert float(tf.sparse.reduce_max(st)) == -1.0
    sparse = tf.sparse.reduce_max(st, 0, output_is_sparse=True)
    np.testing.assert_array_equal(sparse.indices.numpy(), [[0], [2]])
    v = tf.constant([-1.0, -3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(tf.sparse.reduce_max(_st(v, [[0, 0], [1, 2]], (2, 3)), 0))
    with pytest.raises(LookupError, match="SparseReduceMax"):
        tape.gradient(y, v)


@pytest.mark.parametrize("adjoint_a, adjoint_b", [(False, False), (True, False), (False, True),
                                                  (True, True)])
def test_sparse_dense_matmul_values_and_gradients(adjoint_a, adjoint_b):
    a = A.T if adjoint_a else A
    rng = np.random.default_rng(0)
    b = rng.standard_normal((2, a.shape[1]) if adjoint_b else (a.shape[1], 2)).astype(np.float32)
    want = a @ (b.T if adjoint_b else b)
    v, bt = tf.constant(VALUES), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([v, bt])
        out = tf.sparse.sparse_dense_matmul(_st(v), bt, adjoint_a, adjoint_b)
        y = tf.reduce_sum(out ** 2)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
    gv, gb = tape.gradient(y, [v, bt])
    with tf.GradientTape() as tape:
        tape.watch([v, bt])
        dense = tf.sparse.to_dense(_st(v))
        y = tf.reduce_sum(tf.linalg.matmul(dense, bt, adjoint_a=adjoint_a,
                                           adjoint_b=adjoint_b) ** 2)
    wv, wb = tape.gradient(y, [v, bt])
    np.testing.assert_allclose(gv.numpy(), wv.numpy(), rtol=1e-5)
    np.testing.assert_allclose(gb.numpy(), wb.numpy(), rtol=1e-5)


def test_sparse_dense_matmul_scipy_and_numpy_paths_agree(monkeypatch, dense):
    pytest.importorskip("scipy")
    rng = np.random.default_rng(1)
    n = 40
    indices = np.argwhere(rng.random((n, n)) < 0.3)
    st = tf.SparseTensor(indices, rng.standard_normal(len(indices)), [n, n])
    b = tf.constant(rng.standard_normal((n, 32)))
    assert len(indices) * 32 > sparse_ops._SCIPY_MATMUL_WORK
    fast = tf.sparse.sparse_dense_matmul(st, b).numpy()
    monkeypatch.setattr(sparse_ops, "_scipy_sparse", lambda: None)
    np.testing.assert_allclose(fast, tf.sparse.sparse_dense_matmul(st, b).numpy(), rtol=1e-12)
    np.testing.assert_allclose(fast, dense(st) @ b.numpy(), rtol=1e-12)


@pytest.mark.parametrize("call, error", [
    (lambda: tf.sparse.sparse_dense_matmul(_st(), tf.ones([3, 2])),
     tf.errors.InvalidArgumentError),
    (lambda: tf.sparse.sparse_dense_matmul(_st(), tf.ones([4, 2], tf.float64)),
     tf.errors.InvalidArgumentError),
    (lambda: tf.sparse.add(_st(), _st(shape=(3, 5))), tf.errors.InvalidArgumentError),
    (lambda: tf.sparse.add(_st(), _st(tf.constant([1, 2, 3, 4]))), TypeError),
    (lambda: tf.sparse.add(tf.ones([3, 4]), tf.ones([3, 4])), TypeError),
    (lambda: tf.sparse.maximum(_st(), tf.ones([3, 4])), TypeError),
    (lambda: tf.sparse.map_values(tf.add, 1.0, 2.0), ValueError),
    (lambda: tf.sparse.map_values(tf.add, _st(), _st(indices=OTHER + [[0, 0]])),
     tf.errors.InvalidArgumentError),
    (lambda: tf.sparse.bincount(tf.constant([1, -1])), tf.errors.InvalidArgumentError),
    (lambda: tf.sparse.bincount(tf.constant([1]), axis=1), ValueError),
], ids=["matmul inner", "matmul dtypes", "add shapes", "add dtypes", "add dense",
        "maximum dense", "map_values none", "map_values indices", "bincount negative",
        "bincount axis"])
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_map_values_applies_to_values():
    out = tf.sparse.map_values(tf.add, _st(), _st())
    np.testing.assert_allclose(out.values.numpy(), np.multiply(VALUES, 2))
    assert tf.sparse.map_values(tf.zeros_like, _st()).shape == tf.TensorShape([3, 4])


@pytest.mark.parametrize("kwargs, indices, values, shape", [
    ({}, [[0], [1], [3]], [1, 2, 3], [4]),
    ({"axis": -1}, [[0, 1], [0, 3], [1, 0], [1, 3]], [2, 1, 1, 2], [2, 4]),
    ({"binary_output": True}, [[0], [1], [3]], [1, 1, 1], [4]),
    ({"minlength": 6, "maxlength": 3}, [[0], [1]], [1, 2], [3]),
], ids=["counts", "per row", "binary", "min/max length"])
def test_bincount(kwargs, indices, values, shape):
    out = tf.sparse.bincount(tf.constant([[1, 1, 3], [0, 3, 3]]), **kwargs)
    np.testing.assert_array_equal(out.indices.numpy(), indices)
    np.testing.assert_array_equal(out.values.numpy(), values)
    np.testing.assert_array_equal(out.dense_shape.numpy(), shape)


def test_sampled_addmm():
    m1 = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    m2 = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    indices, values, shape = tf.sparse.sampled_addmm(
        [[0, 1], [1, 0]], [1.0, 2.0], [2, 2], m1, m2, beta=0.5, alpha=2.0)
    product = m1 @ m2
    np.testing.assert_allclose(values.numpy(), [2 * product[0, 1] + 0.5,
                                                2 * product[1, 0] + 1.0])
    np.testing.assert_array_equal(shape.numpy(), [2, 2])


def test_cross_hashed_crosses_each_row():
    a = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([5, 7, 1], tf.int64), [3, 2])
    out = tf.sparse.cross_hashed([a, tf.constant([[3], [4], [4]])], num_buckets=100)
    np.testing.assert_array_equal(out.indices.numpy(), [[0, 0], [0, 1], [2, 0]])
    np.testing.assert_array_equal(out.values.numpy()[:2], [42, 60])  # TF's values
    np.testing.assert_array_equal(out.dense_shape.numpy(), [3, 2])
    assert out.values.numpy().min() >= 0 and tf.sparse.cross_hashed([a]).dtype == tf.int64
    with pytest.raises(TypeError, match="int32 or int64"):
        tf.sparse.cross_hashed([tf.constant([[1.0]])])
    with pytest.raises(tf.errors.InvalidArgumentError, match="batch"):
        tf.sparse.cross_hashed([a, tf.constant([[1]])])
