"""SparseTensor and SparseTensorSpec: parts, static shapes, conversions, errors, operators
with dense tensors, and gradients reaching the values (and Variables they came from)."""
import numpy as np
import pytest

import tapeflow as tf

INDICES = [[0, 1], [2, 0]]


def _st(values=(1.0, 2.0), shape=(3, 4)):
    return tf.SparseTensor(INDICES, list(values), list(shape))


def test_parts_are_int64_indices_and_shape_and_the_values_dtype():
    st = _st()
    assert (st.indices.dtype, st.dense_shape.dtype, st.dtype) == (tf.int64, tf.int64,
                                                                  tf.float32)
    assert st.shape == tf.TensorShape([3, 4]) and st.get_shape() == st.shape
    np.testing.assert_array_equal(st.indices.numpy(), INDICES)
    np.testing.assert_array_equal(st.values.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(st.dense_shape.numpy(), [3, 4])
    assert tf.sparse.SparseTensor is tf.SparseTensor


def test_repr_shows_the_three_tensors():
    assert repr(_st()) == str(_st()) == (
        "SparseTensor(indices=tf.Tensor(\n[[0 1]\n [2 0]], shape=(2, 2), dtype=int64), "
        "values=tf.Tensor([1. 2.], shape=(2,), dtype=float32), "
        "dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))")


@pytest.mark.parametrize("indices, values, shape, error", [
    (tf.constant([[0]]), [1.0], [2], ValueError),            # int32 indices
    ([[0]], [1.0, 2.0], [2], ValueError),                    # nnz differs
    ([[0]], [1.0], [2, 3], ValueError),                      # rank differs
    ([[0]], [1.0], [2.0], TypeError),                        # float dense shape
    ([[0.5]], [1.0], [2], TypeError),                        # float indices
    ([0], [1.0], [2], ValueError),                           # indices not a matrix
    ([[0]], [[1.0]], [2], ValueError),                       # values not a vector
], ids=["int32", "nnz", "rank", "float shape", "float indices", "1-D indices", "2-D values"])
def test_bad_parts_raise_tf_classes(indices, values, shape, error):
    with pytest.raises(error):
        tf.SparseTensor(indices, values, shape)


def test_with_values_keeps_indices_and_shape():
    st = _st().with_values(tf.constant([7, 8]))
    assert st.dtype == tf.int32 and st.shape == tf.TensorShape([3, 4])
    np.testing.assert_array_equal(st.indices.numpy(), INDICES)


def test_from_value_and_set_shape():
    st = _st()
    assert tf.SparseTensor.from_value(st) is st
    with pytest.raises(ValueError):
        st.set_shape([3, 5])
    st.set_shape([None, 4])
    assert st.shape == tf.TensorShape([3, 4])


def test_not_a_dense_tensor():
    with pytest.raises((TypeError, ValueError)):
        tf.convert_to_tensor(_st())
    with pytest.raises(TypeError):
        _st() + _st()


@pytest.mark.parametrize("other, want", [
    (2.0, [2.0, 4.0]),
    ([[1.0], [10.0], [100.0]], [1.0, 200.0]),             # broadcast along columns
    ([1.0, 2.0, 3.0, 4.0], [2.0, 2.0]),                    # along rows
    (np.arange(12.0, dtype=np.float32).reshape(3, 4), [1.0, 16.0]),
])
def test_multiply_and_divide_by_dense_broadcast_to_the_shape(other, want):
    st = _st()
    product = st * other
    np.testing.assert_allclose(product.values.numpy(), want)
    np.testing.assert_array_equal(product.indices.numpy(), INDICES)
    np.testing.assert_allclose((product / other).values.numpy(), [1.0, 2.0])


def test_multiply_by_a_higher_rank_dense_tensor_is_an_error():
    with pytest.raises(ValueError, match="SparseDenseCwiseMul"):
        _st() * tf.ones([1, 3, 4])


def test_gradients_reach_values_the_dense_factor_and_a_variable():
    v = tf.Variable([1.0, 2.0])
    d = tf.constant([[1.0], [10.0], [100.0]])
    with tf.GradientTape() as tape:
        tape.watch(d)
        st = tf.SparseTensor(INDICES, v * 3.0, [3, 4])
        y = tf.reduce_sum(tf.sparse.to_dense(st * d))
    gv, gd = tape.gradient(y, [v, d])
    np.testing.assert_allclose(gv.numpy(), [3.0, 300.0])
    np.testing.assert_allclose(gd.numpy(), [[3.0], [0.0], [6.0]])


@pytest.mark.parametrize("row", [[1.0, 2.0, 3.0, 4.0], [2.0]], ids=["row", "one"])
def test_a_dense_row_factor_gets_a_dense_gradient(row):
    # As TF's SparseDenseCwiseMul: a Tensor, not IndexedSlices, with each column's values
    # summed (a broadcast row of one sums them all).
    d = tf.constant(row)
    with tf.GradientTape() as tape:
        tape.watch(d)
        y = tf.reduce_sum((_st() * d).values)
    grad = tape.gradient(y, d)
    assert type(grad) is tf.Tensor
    by_column = np.zeros(4)
    np.add.at(by_column, np.asarray(INDICES)[:, 1], [1.0, 2.0])
    np.testing.assert_allclose(grad.numpy(), by_column if len(row) == 4 else [3.0])


def test_spec_describes_shape_and_dtype():
    spec = tf.SparseTensorSpec([None, 4], tf.float32)
    assert repr(spec) == "SparseTensorSpec(TensorShape([None, 4]), tf.float32)"
    assert spec.is_compatible_with(_st()) and not spec.is_compatible_with(_st(shape=(3, 5)))
    assert not spec.is_compatible_with(tf.constant([1.0]))
    assert tf.SparseTensorSpec.from_value(_st()) == tf.SparseTensorSpec([3, 4])
    assert hash(spec) == hash(tf.SparseTensorSpec([None, 4]))
    assert spec.value_type is tf.SparseTensor
    assert repr(tf.SparseTensorSpec(None, tf.int32)) == \
        "SparseTensorSpec(TensorShape(None), tf.int32)"
