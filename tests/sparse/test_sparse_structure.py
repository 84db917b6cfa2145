"""tf.sparse conversions and rearrangements: values against the dense NumPy equivalent,
the values' gradients (dense, as TF's), what has none, and errors."""
import numpy as np
import pytest

import tapeflow as tf

UNORDERED = [[2, 3], [0, 1], [1, 2], [1, 0]]
VALUES = [1.0, -2.0, 3.0, 0.5]


def _st(values=VALUES, indices=UNORDERED, shape=(3, 4)):
    return tf.SparseTensor(indices, values, shape)




def _canonical(st) -> bool:
    keys = [tuple(i) for i in st.indices.numpy()]
    return keys == sorted(keys) and len(set(keys)) == len(keys)


DENSE = np.zeros((3, 4), np.float32)
DENSE[tuple(np.array(UNORDERED).T)] = VALUES


@pytest.mark.parametrize("fn, want", [
    (lambda st: tf.sparse.reorder(st), DENSE),
    (lambda st: tf.sparse.transpose(st), DENSE.T),
    (lambda st: tf.sparse.reshape(st, [2, -1]), DENSE.reshape(2, 6)),
    (lambda st: tf.sparse.reshape(st, [-1]), DENSE.ravel()),
    (lambda st: tf.sparse.slice(st, [1, 1], [5, 5]), DENSE[1:, 1:]),
    (lambda st: tf.sparse.slice(st, [0, 0], [2, 2]), DENSE[:2, :2]),
    (lambda st: tf.sparse.expand_dims(st, 0), DENSE[None]),
    (lambda st: tf.sparse.expand_dims(st), DENSE[..., None]),
    (lambda st: tf.sparse.retain(st, [True, False, True, False]),
     np.where(np.isin(DENSE, [1.0, 3.0]), DENSE, 0.0)),
    (lambda st: tf.sparse.reset_shape(st, [4, 6]), np.pad(DENSE, [(0, 1), (0, 2)])),
    (lambda st: tf.sparse.reset_shape(st), DENSE),
    (lambda st: tf.sparse.concat(0, [st, st]), np.concatenate([DENSE, DENSE])),
    (lambda st: tf.sparse.concat(-1, [st, tf.sparse.eye(3)]),
     np.concatenate([DENSE, np.eye(3)], 1)),
    (lambda st: tf.sparse.concat(1, [st, tf.sparse.eye(2)], expand_nonconcat_dims=True),
     np.concatenate([DENSE, np.pad(np.eye(2), [(0, 1), (0, 0)])], 1)),
    (lambda st: tf.sparse.from_dense(tf.sparse.to_dense(tf.sparse.reorder(st))), DENSE),
], ids=["reorder", "transpose", "reshape", "reshape flat", "slice clipped", "slice",
        "expand_dims 0", "expand_dims default", "retain", "reset_shape", "reset_shape tight",
        "concat 0", "concat -1", "concat expand", "from_dense"])
def test_values_match_the_dense_equivalent(fn, want, dense):
    got = fn(_st())
    np.testing.assert_allclose(dense(got), want)
    assert got.values.dtype == tf.float32 and got.indices.dtype == tf.int64


def test_orderings():
    assert _canonical(tf.sparse.reorder(_st()))
    assert _canonical(tf.sparse.transpose(_st()))
    assert _canonical(tf.sparse.concat(1, [_st(), _st()]))


def test_reset_shape_tight_is_max_index_plus_one():
    np.testing.assert_array_equal(tf.sparse.reset_shape(_st()).dense_shape.numpy(), [3, 4])
    np.testing.assert_array_equal(
        tf.sparse.reset_shape(_st(indices=[[0, 0], [0, 1], [1, 0], [1, 1]])).dense_shape,
        [2, 2])


def test_to_dense_default_value_and_validation():
    st = tf.sparse.reorder(_st())
    got = tf.sparse.to_dense(st, default_value=9.0).numpy()
    np.testing.assert_array_equal(got, np.where(DENSE == 0, 9.0, DENSE))
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of order"):
        tf.sparse.to_dense(_st())
    with pytest.raises(tf.errors.InvalidArgumentError, match="repeated"):
        tf.sparse.to_dense(_st(indices=[[0, 0]] * 4))
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        tf.sparse.to_dense(_st(indices=[[0, 0], [0, 1], [0, 2], [3, 0]]))
    np.testing.assert_allclose(tf.sparse.to_dense(_st(), validate_indices=False).numpy(), DENSE)
    with pytest.raises(TypeError, match="SparseTensor"):
        tf.sparse.to_dense(tf.constant([1.0]))


def test_fill_empty_rows():
    st = tf.SparseTensor([[1, 0], [3, 2]], [1.0, 2.0], [5, 3])
    filled, empty = tf.sparse.fill_empty_rows(st, -1.0)
    np.testing.assert_array_equal(filled.indices.numpy(), [[0, 0], [1, 0], [2, 0], [3, 2],
                                                           [4, 0]])
    np.testing.assert_array_equal(filled.values.numpy(), [-1.0, 1.0, -1.0, 2.0, -1.0])
    np.testing.assert_array_equal(empty.numpy(), [True, False, True, False, True])


def test_split_cuts_the_first_parts_longer(dense):
    st = tf.SparseTensor([[0, 0], [0, 2], [1, 4]], [1.0, 2.0, 3.0], [2, 5])
    parts = tf.sparse.split(sp_input=st, num_split=2, axis=1)
    np.testing.assert_allclose(dense(parts[0]), dense(st)[:, :3])
    np.testing.assert_allclose(dense(parts[1]), dense(st)[:, 3:])
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_split"):
        tf.sparse.split(sp_input=st, num_split=6, axis=1)


def test_eye_and_to_indicator(dense):
    np.testing.assert_array_equal(dense(tf.sparse.eye(3, 2, dtype=tf.int32)), np.eye(3, 2))
    st = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([2, 0, 1], tf.int64), [2, 4])
    np.testing.assert_array_equal(tf.sparse.to_indicator(st, 3).numpy(),
                                  [[True, False, True], [False, True, False]])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.sparse.to_indicator(st, 2)
    with pytest.raises(TypeError):
        tf.sparse.to_indicator(_st(), 3)


def test_mask_drops_the_masked_slices():
    a = tf.IndexedSlices(tf.constant([[1.0], [2.0], [3.0]]), tf.constant([4, 1, 7]),
                         tf.constant([8, 1]))
    masked = tf.sparse.mask(a, [1, 7])
    np.testing.assert_array_equal(masked.indices.numpy(), [4])
    np.testing.assert_array_equal(masked.values.numpy(), [[1.0]])


@pytest.mark.parametrize("fn, want", [
    (lambda v: tf.sparse.reorder(_st(v)).values * [1.0, 2.0, 3.0, 4.0], [4.0, 1.0, 3.0, 2.0]),
    (lambda v: tf.sparse.transpose(_st(v)).values * [1.0, 2.0, 3.0, 4.0], [4.0, 2.0, 3.0, 1.0]),
    (lambda v: tf.sparse.slice(_st(v), [1, 0], [2, 4]).values * [1.0, 2.0, 3.0],
     [1.0, 0.0, 2.0, 3.0]),
    (lambda v: tf.sparse.reshape(_st(v), [-1]).values * 2.0, [2.0] * 4),
    (lambda v: tf.sparse.to_dense(_st(v), validate_indices=False) * np.arange(12.0).reshape(
        3, 4).astype(np.float32), [11.0, 1.0, 6.0, 4.0]),
], ids=["reorder", "transpose", "slice", "reshape", "to_dense"])
def test_value_gradients_are_dense(fn, want):
    v = tf.constant(VALUES)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(fn(v))
    g = tape.gradient(y, v)
    assert isinstance(g, tf.Tensor)
    np.testing.assert_allclose(g.numpy(), want)


def test_concat_has_no_gradient_and_split_none_registered():
    v = tf.constant(VALUES)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        joined = tf.reduce_sum(tf.sparse.concat(0, [_st(v), _st(v)]).values)
        parts = tf.reduce_sum(tf.sparse.split(sp_input=_st(v), num_split=2, axis=0)[0].values)
    assert tape.gradient(joined, v) is None
    with pytest.raises(LookupError, match="SparseSplit"):
        tape.gradient(parts, v)


@pytest.mark.parametrize("call, error", [
    (lambda: tf.sparse.reshape(_st(), [5, -1]), tf.errors.InvalidArgumentError),
    (lambda: tf.sparse.reshape(_st(), [-1, -1]), tf.errors.InvalidArgumentError),
    (lambda: tf.sparse.concat(0, [_st(), _st(shape=(3, 5))]), tf.errors.InvalidArgumentError),
    (lambda: tf.sparse.concat(0, []), ValueError),
    (lambda: tf.sparse.slice(_st(), [0], [1, 1]), tf.errors.InvalidArgumentError),
    (lambda: tf.sparse.expand_dims(_st(), 4), tf.errors.InvalidArgumentError),
    (lambda: tf.sparse.retain(_st(), [True]), ValueError),
    (lambda: tf.sparse.reset_shape(_st(), [2, 4]), ValueError),
    (lambda: tf.sparse.reset_shape(_st(), [2, 4, 4]), ValueError),
    (lambda: tf.sparse.mask(tf.constant([1.0]), [0]), TypeError),
    (lambda: tf.sparse.reorder([[1.0]]), TypeError),
], ids=["reshape size", "reshape two -1", "concat shapes", "concat empty", "slice rank",
        "expand_dims axis", "retain length", "reset_shape smaller", "reset_shape rank",
        "mask dense", "reorder dense"])
def test_errors(call, error):
    with pytest.raises(error):
        call()
