"""tf.lookup tables; the expected values were recorded from TensorFlow 2.21."""
import numpy as np
import pytest

import tapeflow as tf

DATA = __import__("pathlib").Path(__file__).parent.parent / "data" / "tf_checkpoints"


def _static():
    return tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [1, 2, 3]), -1)


def _vocab(keys, num_oov_buckets):
    init = tf.lookup.KeyValueTensorInitializer(
        keys, tf.constant(list(range(len(keys))), tf.int64))
    return tf.lookup.StaticVocabularyTable(init, num_oov_buckets=num_oov_buckets)


@pytest.mark.parametrize("make,keys,expected,size", [
    (_static, ["a", "z", "c"], [1, -1, 3], 3),
    # OOV ids: size + Fingerprint64(key) % buckets, as TF gives them
    (lambda: _vocab(["a", "b", "c"], 5), ["a", "emerson", "lake", "palmer", "king", "crimson"],
     [0, 6, 4, 5, 6, 7], 8),
    (lambda: _vocab(tf.constant([10, 20], tf.int64), 3),
     tf.constant([10, 7, 99, 20, 123456], tf.int64), [0, 3, 2, 1, 4], 5),
])
def test_static_tables_look_up_as_tf(make, keys, expected, size):
    table = make()
    np.testing.assert_array_equal(table.lookup(tf.constant(keys)).numpy(), expected)
    assert table.size().numpy() == size and table.size().dtype == tf.int64


def test_static_hash_table_dtypes_default_and_export():
    table = _static()
    assert (table.key_dtype, table.value_dtype) == (tf.string, tf.int32)
    assert table.default_value.numpy() == -1
    keys, values = table.export()
    assert dict(zip(keys.numpy().tolist(), values.numpy().tolist())) == {
        b"a": 1, b"b": 2, b"c": 3}
    assert table.lookup(tf.ragged.constant([["a"], ["b", "z"]])).to_list() == [[1], [2, -1]]


@pytest.mark.parametrize("call,error,match", [
    (lambda: _static().lookup(tf.constant([1, 2])), TypeError,
     "Dtype of argument `keys` must be <dtype: 'string'>, received: <dtype: 'int32'>"),
    (lambda: tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a"], [1]), "x"),
     TypeError, "Cannot convert 'x' to EagerTensor of dtype int32"),
    (lambda: _vocab(["a"], 0), ValueError, "num_oov_buckets"),
    (lambda: tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(["a"], [0]), 1),
     TypeError, "Invalid `value_dtype`, expected <dtype: 'int64'> but got <dtype: 'int32'>"),
    (lambda: tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [1]), -1),
     tf.errors.InvalidArgumentError, "InitializeTableV2"),
    (lambda: tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        "/nonexistent/vocab.txt", tf.string, -2, tf.int64, -1), -1),
     tf.errors.NotFoundError, "/nonexistent/vocab.txt"),
])
def test_errors_are_tfs(call, error, match):
    with pytest.raises(error, match=match.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[")):
        call()


@pytest.mark.parametrize("text,key_index,value_index,kwargs,keys,expected,size", [
    ("apple\nbanana\ncherry\n", -2, -1, {}, ["banana", "x"], [1, -1], 3),
    ("apple\nbanana\ncherry\n", -2, -1, {"value_index_offset": 2, "vocab_size": 2},
     ["apple", "banana", "cherry"], [2, 3, -1], 2),
    ("a\t5\nb\t7\n", 0, 1, {}, ["b", "a", "c"], [7, 5, -1], 2),
])
def test_text_file_initializer(tmp_path, text, key_index, value_index, kwargs, keys, expected,
                               size):
    path = tmp_path / "vocab.txt"
    path.write_text(text)
    assert (tf.lookup.TextFileIndex.WHOLE_LINE, tf.lookup.TextFileIndex.LINE_NUMBER) == (-2, -1)
    table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        str(path), tf.string, key_index, tf.int64, value_index, **kwargs), -1)
    np.testing.assert_array_equal(table.lookup(tf.constant(keys)).numpy(), expected)
    assert table.size().numpy() == size


def test_mutable_hash_table_insert_remove_export():
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(["x", "y"], tf.constant([5, 6], tf.int64))
    assert table.size().numpy() == 2
    np.testing.assert_array_equal(table.lookup(["x", "q"]).numpy(), [5, -1])
    table.remove(tf.constant(["x"]))
    keys, values = table.export()
    assert keys.numpy().tolist() == [b"y"] and values.numpy().tolist() == [6]
    with pytest.raises(TypeError):
        table.insert([1], [2])
    np.testing.assert_array_equal(table.lookup(
        tf.constant(["y", "b"]), dynamic_default_values=tf.constant([7, 8], tf.int64)).numpy(),
        [6, 8])


def test_mutable_hash_table_vector_values():
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, [0., 0.])
    table.insert(tf.constant(["a"]), tf.constant([[1., 2.]]))
    np.testing.assert_array_equal(table.lookup(tf.constant(["a", "b"])).numpy(),
                                  [[1., 2.], [0., 0.]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \[1, 2\] for value"):
        table.insert(tf.constant(["a"]), tf.constant([1.]))


def test_dense_hash_table():
    table = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1,
                                                  empty_key=0, deleted_key=-1)
    table.insert(tf.constant([3, 4], tf.int64), tf.constant([30, 40], tf.int64))
    np.testing.assert_array_equal(table.lookup(tf.constant([3, 5], tf.int64)).numpy(), [30, -1])
    table.remove(tf.constant([3], tf.int64))
    assert table.size().numpy() == 1
    np.testing.assert_array_equal(table.lookup(tf.constant([3, 4], tf.int64)).numpy(), [-1, 40])
    keys, values = table.export()
    assert keys.shape == (131072, 1) and values.shape == (131072, 1)  # every bucket, as TF
    with pytest.raises(tf.errors.InvalidArgumentError, match="empty_key"):
        table.insert(tf.constant([0], tf.int64), tf.constant([1], tf.int64))


def test_tables_inside_tf_function():
    static = _static()
    mutable = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)

    @tf.function
    def find(x):
        return static.lookup(x)

    @tf.function
    def add(x):
        mutable.insert(x, tf.constant([9], tf.int64))
        return mutable.lookup(x), mutable.size()

    assert find(tf.constant(["b"])).numpy().tolist() == [2]
    values, size = add(tf.constant(["new"]))
    assert values.numpy().tolist() == [9] and size.numpy() == 1
    add(tf.constant(["other"]))  # the same trace writes the table the function captured
    assert mutable.size().numpy() == 2


def test_checkpoint_keys_as_tf_and_round_trip(tmp_path):
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(tf.constant(["p", "q"]), tf.constant([1, 2], tf.int64))
    dense = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, 0, -1,
                                                  initial_num_buckets=8)
    dense.insert(tf.constant([3], tf.int64), tf.constant([30], tf.int64))
    path = tf.train.Checkpoint(t=table, d=dense).write(str(tmp_path / "ck"))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "d/.ATTRIBUTES/table-keys", "d/.ATTRIBUTES/table-values",
        "t/.ATTRIBUTES/table-keys", "t/.ATTRIBUTES/table-values"]
    fresh = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    fresh_dense = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, 0, -1,
                                                        initial_num_buckets=8)
    tf.train.Checkpoint(t=fresh, d=fresh_dense).read(path).assert_consumed()
    np.testing.assert_array_equal(fresh.lookup(tf.constant(["q", "z"])).numpy(), [2, -1])
    assert fresh_dense.size().numpy() == 1
    assert fresh_dense.lookup(tf.constant([3], tf.int64)).numpy().tolist() == [30]


def test_restores_a_checkpoint_tf_wrote():
    # written by TF 2.21: Checkpoint(table=MutableHashTable) holding {p: 1, q: 2}
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    tf.train.Checkpoint(table=table).read(str(DATA / "mutable_hash_table")).assert_consumed()
    np.testing.assert_array_equal(table.lookup(tf.constant(["p", "q", "r"])).numpy(),
                                  [1, 2, -1])
