"""SparseTensors through tf.function: as arguments (three tensors, traced by spec), as
results, with an input_signature, in concrete functions, and differentiated from outside."""
import numpy as np
import pytest

import tapeflow as tf


def _st(nnz=2, shape=(3, 4), dtype=np.float32):
    indices = [[0, 1], [2, 0], [2, 3]][:nnz]
    return tf.SparseTensor(indices, np.arange(1, nnz + 1, dtype=dtype), list(shape))


def test_argument_and_result_round_trip():
    @tf.function
    def f(st):
        return tf.sparse.reorder(st), st.dense_shape
    out, shape = f(_st())
    assert isinstance(out, tf.SparseTensor) and out.shape == tf.TensorShape([3, 4])
    np.testing.assert_array_equal(out.indices.numpy(), [[0, 1], [2, 0]])
    np.testing.assert_array_equal(out.values.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(shape.numpy(), [3, 4])


def test_traces_by_spec_not_by_number_of_values():
    seen = []

    @tf.function
    def f(st):
        seen.append(st.shape.as_list())
        return tf.sparse.reduce_sum(st)
    assert float(f(_st(2))) == 3.0 and float(f(_st(3))) == 6.0
    assert f.experimental_get_tracing_count() == 1
    f(_st(2, shape=(5, 4)))
    f(_st(2, dtype=np.float64))
    assert f.experimental_get_tracing_count() == 3
    assert seen == [[3, 4], [5, 4], [3, 4]]


def test_reduce_retracing_relaxes_the_dense_shape():
    @tf.function(reduce_retracing=True)
    def f(st):
        return tf.sparse.to_dense(st)
    f(_st(shape=(3, 4)))
    assert f(_st(shape=(5, 4))).shape == (5, 4)
    f(_st(shape=(6, 4)))
    assert f.experimental_get_tracing_count() == 2


def test_input_signature_with_a_sparse_spec():
    @tf.function(input_signature=[tf.SparseTensorSpec([None, 4], tf.float32),
                                  tf.TensorSpec([4, 2], tf.float32)])
    def f(st, b):
        return tf.sparse.sparse_dense_matmul(st, b)
    np.testing.assert_allclose(f(_st(3), tf.ones([4, 2])).numpy(), [[1, 1], [0, 0], [5, 5]])
    f(_st(2, shape=(7, 4)), tf.ones([4, 2]))
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="input_signature"):
        f(_st(2, shape=(3, 5)), tf.ones([4, 2]))


def test_concrete_function_of_a_spec():
    f = tf.function(lambda st: tf.sparse.reduce_sum(st, axis=1))
    concrete = f.get_concrete_function(tf.SparseTensorSpec([None, None], tf.float32))
    st = _st(3)
    np.testing.assert_allclose(concrete(st.indices, st.values, st.dense_shape).numpy(),
                               [1.0, 0.0, 5.0])


def test_gradient_through_the_function_reaches_the_values():
    @tf.function
    def f(st, b):
        return tf.reduce_sum(tf.sparse.sparse_dense_matmul(tf.sparse.softmax(st), b) ** 2)
    st, b = _st(3), tf.constant([[1.0], [2.0], [3.0], [4.0]])
    with tf.GradientTape() as tape:
        tape.watch([st.values, b])
        y = f(st, b)
    got = tape.gradient(y, [st.values, b])
    with tf.GradientTape() as tape:
        tape.watch([st.values, b])
        y = f.python_function(st, b)
    want = tape.gradient(y, [st.values, b])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-6)


@pytest.mark.parametrize("fn", [
    lambda st: tf.sparse.add(st, st, threshold=1.5),
    lambda st: tf.sparse.slice(st, [1, 0], [2, 4]),
    lambda st: tf.sparse.fill_empty_rows(st, -1.0)[0],
    lambda st: tf.sparse.concat(1, [st, st]),
    lambda st: tf.sparse.split(sp_input=st, num_split=2, axis=1)[1],
    lambda st: tf.sparse.reshape(st, [-1]),
    lambda st: tf.sparse.reduce_max(st, 1, output_is_sparse=True),
    lambda st: tf.sparse.reduce_sum(st, 0, keepdims=True, output_is_sparse=True),
    lambda st: tf.sparse.transpose(st),
    lambda st: tf.sparse.expand_dims(st, 0),
    lambda st: tf.sparse.retain(st, st.values > 1.5),
    lambda st: tf.sparse.maximum(st, tf.sparse.reset_shape(st, [3, 4])),
    lambda st: tf.sparse.from_dense(tf.sparse.to_dense(st)),
], ids=["add", "slice", "fill_empty_rows", "concat", "split", "reshape", "reduce_max",
        "reduce_sum", "transpose", "expand_dims", "retain", "maximum", "from_dense"])
def test_traced_equals_eager_when_sizes_are_unknown(fn):
    traced = tf.function(fn, input_signature=[tf.SparseTensorSpec([None, 4], tf.float32)])
    st = _st(3)
    got, want = traced(st), fn(st)
    for part in ("indices", "values", "dense_shape"):
        np.testing.assert_array_equal(getattr(got, part).numpy(), getattr(want, part).numpy())
