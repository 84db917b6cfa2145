"""SparseTensor and RaggedTensor elements in tf.data: sources, map, batch, unbatch,
ragged_batch and padded_batch; element specs and values as TF 2.21's."""
import pytest

import tapeflow as tf


def rt():
    return tf.ragged.constant([[1, 2], [], [3, 4, 5]])


def st():
    return tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])


def value(x):
    if isinstance(x, tf.RaggedTensor):
        return x.to_list()
    if isinstance(x, tf.SparseTensor):
        return (x.indices.numpy().tolist(), x.values.numpy().tolist(),
                x.dense_shape.numpy().tolist())
    return x.numpy().tolist()


CASES = {
    "slices_ragged": (lambda: tf.data.Dataset.from_tensor_slices(rt()),
                      "RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)",
                      [[1, 2], [], [3, 4, 5]]),
    "tensors_ragged": (lambda: tf.data.Dataset.from_tensors(rt()),
                       "RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, tf.int64)",
                       [[[1, 2], [], [3, 4, 5]]]),
    "tensors_sparse": (lambda: tf.data.Dataset.from_tensors(st()),
                       "SparseTensorSpec(TensorShape([2, 3]), tf.float32)",
                       [([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])]),
    "slices_sparse": (lambda: tf.data.Dataset.from_tensor_slices(st()),
                      "SparseTensorSpec(TensorShape([3]), tf.float32)",
                      [([[0]], [1.0], [3]), ([[2]], [2.0], [3])]),
    "map_to_ragged": (lambda: tf.data.Dataset.range(3).map(lambda i: tf.ragged.range(i)),
                      "RaggedTensorSpec(TensorShape([1, None]), tf.int64, 1, tf.int64)",
                      [[[]], [[0]], [[0, 1]]]),
    "batch_ragged": (lambda: tf.data.Dataset.from_tensor_slices(rt()).batch(2),
                     "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)",
                     [[[1, 2], []], [[3, 4, 5]]]),
    "batch_sparse": (lambda: tf.data.Dataset.from_tensor_slices(st()).batch(2),
                     "SparseTensorSpec(TensorShape([None, 3]), tf.float32)",
                     [([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])]),
    "batch_rank2": (lambda: tf.data.Dataset.from_tensors(rt()).repeat(2).batch(2),
                    "RaggedTensorSpec(TensorShape([None, 3, None]), tf.int32, 2, tf.int64)",
                    [[[[1, 2], [], [3, 4, 5]], [[1, 2], [], [3, 4, 5]]]]),
    "unbatch_ragged": (lambda: tf.data.Dataset.from_tensors(rt()).unbatch(),
                       "RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)",
                       [[1, 2], [], [3, 4, 5]]),
    "map_over_batches": (lambda: tf.data.Dataset.from_tensor_slices(rt()).batch(2).map(
        lambda x: x * 2), "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)",
        [[[2, 4], []], [[6, 8, 10]]]),
    "map_row_lengths": (lambda: tf.data.Dataset.from_tensor_slices(rt()).batch(2).map(
        lambda x: x.row_lengths()), "TensorSpec(shape=(None,), dtype=tf.int64, name=None)",
        [[2, 0], [3]]),
    "ragged_batch": (lambda: tf.data.Dataset.range(4).map(lambda i: tf.range(i)).ragged_batch(2),
                     "RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64)",
                     [[[], [0]], [[0, 1], [0, 1, 2]]]),
    "ragged_batch_drop": (lambda: tf.data.Dataset.range(4).map(lambda i: tf.range(i))
                          .ragged_batch(3, drop_remainder=True),
                          "RaggedTensorSpec(TensorShape([3, None]), tf.int64, 1, tf.int64)",
                          [[[], [0], [0, 1]]]),
    "ragged_batch_uniform": (lambda: tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4], [5, 6]])
                             .ragged_batch(2),
                             "TensorSpec(shape=(None, 2), dtype=tf.int32, name=None)",
                             [[[1, 2], [3, 4]], [[5, 6]]]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_composite_elements(name):
    make, spec, expected = CASES[name]
    ds = make()
    assert repr(ds.element_spec) == spec
    assert [value(e) for e in ds] == expected


def test_slices_of_a_ragged_tensor_are_tensors_and_a_structure_mixes_kinds():
    ds = tf.data.Dataset.from_tensor_slices({"ids": rt(), "label": [0, 1, 2]})
    first = next(iter(ds))
    assert isinstance(first["ids"], tf.Tensor) and first["ids"].numpy().tolist() == [1, 2]
    assert [value(b["ids"]) for b in ds.batch(3)] == [[[1, 2], [], [3, 4, 5]]]


@pytest.mark.parametrize("make", [lambda: tf.data.Dataset.from_tensor_slices(rt()),
                                  lambda: tf.data.Dataset.from_tensors(rt())])
def test_padded_batch_refuses_ragged_elements(make):
    with pytest.raises(TypeError, match="only supported for datasets that produce tensor"):
        make().padded_batch(2)


def test_from_generator_with_a_ragged_signature():
    spec = tf.RaggedTensorSpec(shape=(None, None), dtype=tf.int32)

    def gen():
        yield tf.ragged.constant([[1, 2], [3]])
        yield tf.ragged.constant([[4], [5, 6], []])
    ds = tf.data.Dataset.from_generator(gen, output_signature=spec)
    assert ds.element_spec == spec
    assert [value(e) for e in ds] == [[[1, 2], [3]], [[4], [5, 6], []]]
    assert [value(e) for e in ds.map(lambda x: tf.reduce_sum(x, axis=1))] == [[3, 3],
                                                                               [4, 11, 0]]


@pytest.mark.parametrize("yielded,match", [
    ([[1, 2], [3]], "did not match the expected structure"),
    (tf.ragged.constant([[1.0, 2.0], [3.0]]), "where an element of RaggedTensorSpec"),
])
def test_from_generator_refuses_what_does_not_fit_the_ragged_signature(yielded, match):
    ds = tf.data.Dataset.from_generator(
        lambda: iter([yielded]), output_signature=tf.RaggedTensorSpec([None, None], tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=match):
        list(ds)


def _ragged_and_sparse():
    def gen():
        for _ in range(2):
            yield tf.ragged.constant([[1, 2], [3]]), tf.sparse.from_dense([[0, 1], [2, 0]])
    return tf.data.Dataset.from_generator(gen, output_signature=(
        tf.RaggedTensorSpec(shape=(None, None), dtype=tf.int32, ragged_rank=1),
        tf.SparseTensorSpec(shape=(None, 2), dtype=tf.int32)))


def test_an_iterator_read_in_a_function_gives_composite_elements():
    # TF 2.21: next(it), get_next_as_optional() and a for loop in a tf.function all give
    # the RaggedTensor and SparseTensor (sums 6 and 3)
    @tf.function
    def step(it):
        r, s = next(it)
        return tf.reduce_sum(r.flat_values), tf.sparse.reduce_sum(s)

    @tf.function
    def optional_step(it):
        r, s = it.get_next_as_optional().get_value()
        return tf.reduce_sum(r.flat_values) + tf.sparse.reduce_sum(s)

    @tf.function
    def loop(ds):
        total = tf.constant(0)
        for r, s in ds:
            total += tf.reduce_sum(r.flat_values) * tf.sparse.reduce_sum(s)
        return total

    ds = _ragged_and_sparse()
    it = iter(ds)
    assert [int(x) for x in step(it)] == [6, 3]
    assert int(optional_step(it)) == 9
    assert int(loop(ds)) == 36

