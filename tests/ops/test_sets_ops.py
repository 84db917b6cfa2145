"""tf.sets on dense tensors and SparseTensors: results, dtypes and errors as TF 2.21's."""
import pytest

import tapeflow as tf

A = [[1, 2, 2, 3], [4, 5, 6, 6]]
B = [[2, 3, 7, 7], [6, 8, 9, 9]]
D = [[1, 5], [2, 2], [3, 4]]


def sp():
    return tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 3]], [5, 1, 3, 3], [3, 4])


def parts(st):
    return (st.indices.numpy().tolist(), st.values.numpy().tolist(),
            st.dense_shape.numpy().tolist())


@pytest.mark.parametrize("fn,expected", [
    (lambda: tf.sets.intersection(A, B), ([[0, 0], [0, 1], [1, 0]], [2, 3, 6], [2, 2])),
    (lambda: tf.sets.union(A, B),
     ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4]],
      [1, 2, 3, 7, 4, 5, 6, 8, 9], [2, 5])),
    (lambda: tf.sets.difference(A, B), ([[0, 0], [1, 0], [1, 1]], [1, 4, 5], [2, 2])),
    (lambda: tf.sets.difference(A, B, aminusb=False),
     ([[0, 0], [1, 0], [1, 1]], [7, 8, 9], [2, 2])),
    (lambda: tf.sets.intersection(sp(), D), ([[0, 0], [0, 1], [2, 0]], [1, 5, 3], [3, 2])),
    (lambda: tf.sets.intersection(D, sp()), ([[0, 0], [0, 1], [2, 0]], [1, 5, 3], [3, 2])),
    (lambda: tf.sets.union(sp(), D),
     ([[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]], [1, 5, 2, 3, 3, 4], [3, 2])),
    (lambda: tf.sets.difference(D, sp()), ([[1, 0], [2, 0]], [2, 4], [3, 1])),
    (lambda: tf.sets.difference(sp(), D), ([[1, 0]], [3], [3, 1])),
    (lambda: tf.sets.intersection(sp(), sp()),
     ([[0, 0], [0, 1], [1, 0], [2, 0]], [1, 5, 3, 3], [3, 2])),
    (lambda: tf.sets.union([[[1, 1], [2, 3]], [[4, 4], [5, 5]]],
                           [[[1, 1], [2, 3]], [[4, 4], [5, 5]]]),
     ([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 1, 0]], [1, 2, 3, 4, 5], [2, 2, 2])),
    (lambda: tf.sets.intersection([[1, 2], [3, 4]], [[5, 6], [7, 8]]), ([], [], [2, 0])),
    (lambda: tf.sets.intersection(tf.constant([["a", "b", "a"]]), tf.constant([["b", "c"]])),
     ([[0, 0]], [b"b"], [1, 1])),
])
def test_set_operations(fn, expected):
    assert parts(fn()) == expected


def test_result_dtype_follows_the_inputs():
    out = tf.sets.intersection(tf.constant([[1, 2]], tf.uint8), tf.constant([[1]], tf.uint8))
    assert out.values.dtype == tf.uint8 and out.indices.dtype == tf.int64


@pytest.mark.parametrize("st,expected", [
    (lambda: sp(), [2, 1, 1]),
    (lambda: tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 1, 0]], [1, 1, 2], [2, 2, 2]),
     [[1, 0], [0, 1]]),
    (lambda: tf.SparseTensor([[0, 0], [0, 1], [0, 2]], ["a", "b", "a"], [1, 3]), [2]),
])
def test_set_size(st, expected):
    size = tf.sets.size(st())
    assert size.dtype == tf.int32 and size.numpy().tolist() == expected


@pytest.mark.parametrize("fn,error,match", [
    (lambda: tf.sets.size(tf.constant(A)), TypeError, "Expected `SparseTensor`"),
    (lambda: tf.sets.size(tf.SparseTensor([[0, 0]], [1.0], [1, 2])), TypeError,
     "invalid dtype"),
    (lambda: tf.sets.union([[1.0]], [[1.0]]), TypeError, "invalid dtype"),
    (lambda: tf.sets.union(tf.constant([[1]]), tf.constant([[1]], tf.int64)), TypeError,
     "Types don't match"),
    (lambda: tf.sets.union(tf.constant(1), tf.constant(1)), tf.errors.InvalidArgumentError,
     "rank 0 < 2"),
    (lambda: tf.sets.union([1, 2, 2], [3]), tf.errors.InvalidArgumentError, "rank 1 < 2"),
    (lambda: tf.sets.intersection([[1, 2]], [[1], [2]]), tf.errors.InvalidArgumentError,
     r"Mismatched shapes \[1\] vs \[2\]"),
    (lambda: tf.sets.intersection(tf.SparseTensor([[0, 1], [0, 0]], [1, 2], [1, 2]), [[1, 2]]),
     tf.errors.InvalidArgumentError, "out of order"),
])
def test_errors(fn, error, match):
    with pytest.raises(error, match=match):
        fn()


def test_in_a_function():
    @tf.function
    def f(a, b):
        return tf.sets.intersection(a, b)
    assert parts(f(tf.constant(A), tf.constant(B))) == ([[0, 0], [0, 1], [1, 0]], [2, 3, 6],
                                                        [2, 2])
