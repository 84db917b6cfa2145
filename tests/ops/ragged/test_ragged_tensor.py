"""RaggedTensor: factories, conversions, properties, reprs, indexing and validation; every
expected value, repr and exception class is TF 2.21's for the same call."""
import numpy as np
import pytest

import tapeflow as tf

RT = tf.RaggedTensor


def rt():
    return RT.from_row_splits([1, 2, 3, 4, 5], [0, 2, 2, 5])


@pytest.mark.parametrize("make,expected", [
    (lambda: RT.from_row_splits([1, 2, 3, 4, 5], [0, 2, 2, 5]), [[1, 2], [], [3, 4, 5]]),
    (lambda: RT.from_row_lengths([1, 2, 3], [2, 0, 1]), [[1, 2], [], [3]]),
    (lambda: RT.from_row_starts([1, 2, 3], [0, 2, 2]), [[1, 2], [], [3]]),
    (lambda: RT.from_row_limits([1, 2, 3], [2, 2, 3]), [[1, 2], [], [3]]),
    (lambda: RT.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4), [[1, 2], [], [3], []]),
    (lambda: RT.from_nested_row_lengths([1, 2, 3, 4], [[2, 1], [1, 2, 1]]),
     [[[1], [2, 3]], [[4]]]),
    (lambda: RT.from_nested_row_splits([1, 2, 3, 4], [[0, 2, 3], [0, 1, 3, 4]]),
     [[[1], [2, 3]], [[4]]]),
    (lambda: RT.from_nested_value_rowids([1, 2, 3], [[0, 0], [0, 1, 1]], nested_nrows=[2, 2]),
     [[[1], [2, 3]], []]),
    (lambda: RT.from_uniform_row_length([1, 2, 3, 4], 2), [[1, 2], [3, 4]]),
    (lambda: RT.from_tensor([[1, 2, 0], [3, 0, 0]], padding=0), [[1, 2], [3]]),
    (lambda: RT.from_tensor([[1, 2, 0], [3, 0, 0]], lengths=[1, 3]), [[1], [3, 0, 0]]),
    (lambda: RT.from_tensor([[1, 2], [3, 4]]), [[1, 2], [3, 4]]),
    (lambda: RT.from_sparse(tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 4])),
     [[1, 2], [], [3]]),
    (lambda: tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1),
     [[[1, 2], [3, 4]], [[5, 6]]]),
])
def test_factories(make, expected):
    assert make().to_list() == expected


@pytest.mark.parametrize("value,text", [
    ([[1, 2], [], [3, 4, 5]], "<tf.RaggedTensor [[1, 2], [], [3, 4, 5]]>"),
    ([[1], [4]], "<tf.RaggedTensor [[1],\n [4]]>"),
    ([[1.0, 2.0], [3.0]], "<tf.RaggedTensor [[1.0, 2.0], [3.0]]>"),
    ([[[1, 2], [3]], [[4]]], "<tf.RaggedTensor [[[1, 2], [3]], [[4]]]>"),
    ([[True], [False, True]], "<tf.RaggedTensor [[True], [False, True]]>"),
    ([["a", "bc"], ["d"]], "<tf.RaggedTensor [[b'a', b'bc'], [b'd']]>"),
])
def test_repr(value, text):
    assert repr(tf.ragged.constant(value)) == text
    assert str(tf.ragged.constant(value)) == text


def test_shape_dtype_spec_and_partition():
    r = rt()
    assert r.shape.as_list() == [3, None] and r.dtype == tf.int32 and r.ragged_rank == 1
    assert r.row_splits.dtype == tf.int64
    assert repr(r._type_spec) == "RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, tf.int64)"
    assert r.row_lengths().numpy().tolist() == [2, 0, 3]
    assert r.value_rowids().numpy().tolist() == [0, 0, 2, 2, 2]
    assert int(r.nrows()) == 3
    assert r.row_starts().numpy().tolist() == [0, 2, 2]
    assert r.row_limits().numpy().tolist() == [2, 2, 5]
    assert r.bounding_shape().numpy().tolist() == [3, 3]
    c = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert c.shape.as_list() == [2, None, None] and c.ragged_rank == 2
    assert [s.numpy().tolist() for s in c.nested_row_splits] == [[0, 2, 3], [0, 2, 3, 4]]
    assert c.flat_values.numpy().tolist() == [1, 2, 3, 4]
    assert tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32).row_splits.dtype \
        == tf.int32


def test_storage_is_flat_values_plus_one_splits_vector_per_ragged_dim():
    c = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    parts = c._type_spec._to_components(c)
    assert [p.numpy().tolist() for p in parts] == [[1, 2, 3, 4], [0, 2, 3], [0, 2, 3, 4]]
    assert c.__slots__ == ("_values", "_row_splits")


def test_to_tensor_to_sparse_numpy():
    r = rt()
    assert r.to_tensor().numpy().tolist() == [[1, 2, 0], [0, 0, 0], [3, 4, 5]]
    assert r.to_tensor(default_value=-1, shape=[2, 4]).numpy().tolist() == \
        [[1, 2, -1, -1], [-1, -1, -1, -1]]
    assert tf.ragged.constant([[[1, 2], [3]], [[4]]]).to_tensor().numpy().tolist() == \
        [[[1, 2], [3, 0]], [[4, 0], [0, 0]]]
    st = r.to_sparse()
    assert st.indices.numpy().tolist() == [[0, 0], [0, 1], [2, 0], [2, 1], [2, 2]]
    assert st.values.numpy().tolist() == [1, 2, 3, 4, 5]
    assert st.dense_shape.numpy().tolist() == [3, 3]
    rows = r.numpy()
    assert rows.dtype == object and [x.tolist() for x in rows] == [[1, 2], [], [3, 4, 5]]
    assert tf.ragged.constant([[1, 2], [3, 4]]).numpy().tolist() == [[1, 2], [3, 4]]


@pytest.mark.parametrize("outer,inner,expected", [
    (0, 1, [[1, 2], [3], [4]]), (1, 2, [[1, 2, 3], [4]]), (-2, -1, [[1, 2, 3], [4]])])
def test_merge_dims(outer, inner, expected):
    assert tf.ragged.constant([[[1, 2], [3]], [[4]]]).merge_dims(outer, inner).to_list() == \
        expected


def test_merge_dims_deeper_and_uniform():
    e = tf.ragged.constant([[[[1], [2]], [[3]]], [[[4, 5]]]])
    assert e.merge_dims(1, 3).to_list() == [[1, 2, 3], [4, 5]]
    assert e.merge_dims(2, 3).to_list() == [[[1, 2], [3]], [[4, 5]]]
    assert e.merge_dims(1, 2).to_list() == [[[1], [2], [3]], [[4, 5]]]
    d = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert d.merge_dims(1, 2).to_list() == [[1, 2, 3, 4], [5, 6]]
    assert d.merge_dims(0, 1).numpy().tolist() == [[1, 2], [3, 4], [5, 6]]
    assert tf.ragged.constant([[[1, 2], [3]], [[4]]]).merge_dims(0, 2).numpy().tolist() == \
        [1, 2, 3, 4]


def test_with_values():
    r = rt()
    assert r.with_values(r.values * 2).to_list() == [[2, 4], [], [6, 8, 10]]
    assert r.with_flat_values(r.flat_values + 1).to_list() == [[2, 3], [], [4, 5, 6]]
    assert r.with_row_splits_dtype(tf.int32).row_splits.dtype == tf.int32


@pytest.mark.parametrize("key,expected", [
    ((slice(None), slice(1, None)), [[2], [], [4, 5]]),
    ((slice(None), slice(None, -1)), [[1], [], [3, 4]]),
    (slice(None, None, 2), [[1, 2], [3, 4, 5]]),
    (slice(1, None), [[], [3, 4, 5]]),
    (-1, [3, 4, 5]),
    ((2, slice(1, None)), [4, 5]),
    ((slice(None), slice(5, None)), [[], [], []]),
])
def test_indexing(key, expected):
    out = rt()[key]
    assert (out.to_list() if isinstance(out, RT) else out.numpy().tolist()) == expected


def test_indexing_nested_and_errors():
    c = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert c[0].to_list() == [[1, 2], [3]]
    assert c[0, 1].numpy().tolist() == [3]
    assert int(c[1, 0, 0]) == 4
    with pytest.raises(ValueError, match="inner ragged dimension"):
        rt()[:, 0]
    with pytest.raises(tf.errors.InvalidArgumentError):
        rt()[5]


@pytest.mark.parametrize("splits", [[0, 2, 1], [1, 2, 3], [0, 2, 4]])
def test_validate_raises_invalid_argument(splits):
    with pytest.raises(tf.errors.InvalidArgumentError, match="do not form a valid RaggedTensor"):
        RT.from_row_splits([1, 2, 3], splits)


def test_misuse_errors():
    with pytest.raises(ValueError, match="factory methods"):
        RT([1], [0, 1])
    with pytest.raises(ValueError, match="same nesting depth"):
        tf.ragged.constant([[1, [2]], [3]])
    with pytest.raises(TypeError, match="unhashable"):
        hash(rt())
    with pytest.raises(TypeError, match="boolean"):
        bool(rt())
    with pytest.raises(TypeError):
        len(rt())
    with pytest.raises(ValueError, match="unsupported type"):
        tf.convert_to_tensor(rt())


def test_constant_of_rank_one_and_empty_is_a_tensor():
    assert isinstance(tf.ragged.constant([1, 2]), tf.Tensor)
    empty = tf.ragged.constant([])
    assert isinstance(empty, tf.Tensor) and empty.dtype == tf.float32 and empty.shape == [0]


def test_spec():
    spec = tf.RaggedTensorSpec([2, None], tf.int32)
    assert repr(spec) == "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)"
    assert spec.is_compatible_with(tf.ragged.constant([[1], [2, 3]]))
    assert not spec.is_compatible_with(tf.ragged.constant([[1], [2], [3]]))
    assert not spec.is_compatible_with(tf.ragged.constant([[1.0], [2.0]]))
    assert spec._batch(4) == tf.RaggedTensorSpec([4, 2, None], tf.int32, 2)
    assert spec._unbatch() == tf.RaggedTensorSpec([None], tf.int32, 0)
    assert spec.most_specific_common_supertype([tf.RaggedTensorSpec([3, None], tf.int32)]) \
        == tf.RaggedTensorSpec([None, None], tf.int32)
    assert spec.value_type is tf.RaggedTensor
    with pytest.raises(ValueError):
        tf.RaggedTensorSpec(None, tf.int32)
    value = spec._from_components([tf.constant([1, 2, 3]), tf.constant([0, 1, 3], tf.int64)])
    assert value.to_list() == [[1], [2, 3]]
    assert [c.numpy().tolist() for c in tf.nest.flatten(value, expand_composites=True)] == \
        [[1, 2, 3], [0, 1, 3]]


def test_compat_v1_ragged_tensor_value():
    v = tf.compat.v1.ragged.constant_value([[1, 2], [3]])
    assert repr(v) == ("tf.RaggedTensorValue(values=array([1, 2, 3]), "
                       "row_splits=array([0, 2, 3]))")
    assert v.to_list() == [[1, 2], [3]] and v.shape == (2, None) and v.ragged_rank == 1
    assert v.row_splits.dtype == np.int64
    assert tf.compat.v1.ragged.constant_value([[[1, 2]], [[3, 4], [5, 6]]],
                                              ragged_rank=1).shape == (2, None, 2)
    assert tf.compat.v1.ragged.constant is tf.ragged.constant
