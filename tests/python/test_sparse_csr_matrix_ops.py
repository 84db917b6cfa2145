"""tensorflow.python.ops.linalg.sparse.sparse_csr_matrix_ops: CSR matrices and their
products, with the entries and structure TF 2.21 gives (recorded from TF)."""
import pytest

import tapeflow as tf
from tapeflow.python.ops.linalg.sparse import sparse_csr_matrix_ops as csr


def product(a, b):
    m = csr.sparse_matrix_sparse_mat_mul(
        csr.sparse_tensor_to_csr_sparse_matrix(a.indices, a.values, a.dense_shape),
        csr.sparse_tensor_to_csr_sparse_matrix(b.indices, b.values, b.dense_shape), a.dtype)
    st = csr.csr_sparse_matrix_to_sparse_tensor(m, a.dtype)
    return st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()


@pytest.mark.parametrize("a,b,expected", [
    (([[0, 0], [1, 2]], [1., 2.], [2, 3]), ([[0, 1], [2, 0], [2, 1]], [3., 4., 5.], [3, 2]),
     ([[0, 1], [1, 0], [1, 1]], [3.0, 8.0, 10.0], [2, 2])),
    (([[0, 0, 0], [1, 1, 2]], [1., 2.], [2, 2, 3]), ([[0, 0, 1], [1, 2, 0]], [3., 4.], [2, 3, 2]),
     ([[0, 0, 1], [1, 1, 0]], [3.0, 8.0], [2, 2, 2])),                       # a batch
    (([[0, 0], [0, 1]], [1., -1.], [1, 2]), ([[0, 0], [1, 0]], [1., 1.], [2, 1]),
     ([[0, 0]], [0.0], [1, 1])),                       # a sum that cancels stays stored
])
def test_products(a, b, expected):
    assert product(tf.sparse.SparseTensor(*a), tf.sparse.SparseTensor(*b)) == expected


def test_the_values_are_differentiable_and_types_are_checked():
    a = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1., 2.], [2, 3])
    b = csr.sparse_tensor_to_csr_sparse_matrix([[0, 1], [2, 0], [2, 1]], [3., 4., 5.], [3, 2])
    x = tf.constant([1., 2.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        m = csr.sparse_tensor_to_csr_sparse_matrix(a.indices, x, a.dense_shape)
        y = tf.reduce_sum(csr.csr_sparse_matrix_to_sparse_tensor(
            csr.sparse_matrix_sparse_mat_mul(m, b, tf.float32), tf.float32).values)
    assert tape.gradient(y, x).numpy().tolist() == [3.0, 9.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="float64"):
        csr.csr_sparse_matrix_to_sparse_tensor(b, tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank 2 or 3"):
        csr.sparse_tensor_to_csr_sparse_matrix([[0]], [1.0], [3])
