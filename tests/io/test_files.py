"""tf.io.read_file/write_file/matching_files and serialize_tensor/parse_tensor (TensorProto
bytes recorded from TF 2.21)."""
import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("tensorboard")


def test_read_write_match(tmp_path):
    path = str(tmp_path / "sub" / "f.bin")
    tf.io.write_file(path, b"\x00ab")  # makes the directory, as TF
    assert tf.io.read_file(path).numpy() == b"\x00ab"
    assert tf.io.read_file("file://" + path).numpy() == b"\x00ab"
    tf.io.write_file(str(tmp_path / "g"), tf.constant("t\u00e9"))
    found = tf.io.matching_files(str(tmp_path / "*"))
    assert found.dtype == tf.string and found.numpy().tolist() == [
        str(tmp_path / "g").encode(), str(tmp_path / "sub").encode()]
    both = tf.io.matching_files([str(tmp_path / "sub" / "*"), str(tmp_path / "g")])
    assert both.numpy().tolist() == [str(tmp_path / "g").encode(), path.encode()]
    assert tf.io.matching_files(str(tmp_path / "zz*")).shape == [0]


def test_files_in_a_function_are_read_when_it_runs(tmp_path):
    path = str(tmp_path / "state")
    tf.io.write_file(path, "one")

    @tf.function
    def read_twice(p):
        first = tf.io.read_file(p)
        tf.io.write_file(p, tf.constant("two"))
        return first

    assert read_twice(tf.constant(path)).numpy() == b"one"
    assert read_twice(tf.constant(path)).numpy() == b"two"
    read_missing = tf.function(lambda: tf.io.read_file(str(tmp_path / "nope")))
    with pytest.raises(tf.errors.NotFoundError, match="nope; No such file or directory"):
        read_missing()


def test_file_errors(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="nope; No such file or directory"):
        tf.io.read_file(str(tmp_path / "nope"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="scalar"):
        tf.io.write_file(str(tmp_path / "x"), ["a", "b"])
    with pytest.raises(tf.errors.UnimplementedError, match="scheme 'gs' not implemented"):
        tf.io.read_file("gs://bucket/x")


BYTES = [  # (value, dtype, TF 2.21's serialize_tensor bytes)
    ([[1., 2., 3.], [4, 5, 6]], tf.float32,
     "08011208120208021202080322180000803f0000004000004040000080400000a0400000c040"),
    (7, tf.int32, "08031200220407000000"),
    ([True, False], tf.bool, "080a12041202080222020100"),
    (["ab", ""], tf.string, "0807120412020802420261624200"),
    ("x", tf.string, "08071200420178"),
    ([1.5], tf.float16, "08131204120208012202003e"),
    (np.zeros([0, 2], np.float32), tf.float32, "08011206120012020802"),
    (3, tf.int64, "0809120022080300000000000000"),
    ([1 + 2j], tf.complex64, "080812041202080122080000803f00000040"),
    ([1, 2], tf.uint8, "080412041202080222020102"),
]


@pytest.mark.parametrize("value,dtype,expected", BYTES)
def test_serialize_tensor_bytes_are_tfs(value, dtype, expected):
    tensor = tf.constant(value, dtype)
    data = tf.io.serialize_tensor(tensor)
    assert data.dtype == tf.string and data.shape == [] and data.numpy().hex() == expected
    back = tf.io.parse_tensor(data, dtype)
    assert back.dtype == dtype and back.shape == tensor.shape
    assert np.asarray(back.numpy()).tolist() == np.asarray(tensor.numpy()).tolist()


def test_bfloat16_and_in_functions():
    pytest.importorskip("ml_dtypes")
    value = tf.cast(tf.constant([1.5]), tf.bfloat16)
    assert tf.io.serialize_tensor(value).numpy().hex() == "080e1204120208012202c03f"
    round_trip = tf.function(lambda x: tf.io.parse_tensor(tf.io.serialize_tensor(x),
                                                          tf.float32) * 2)
    assert round_trip(tf.constant([1., 2.])).numpy().tolist() == [2., 4.]


@pytest.mark.parametrize("call,message", [
    (lambda: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1., 2.])), tf.int32),
     r"Type mismatch between parsed tensor \(float\) and dtype \(int32\)"),
    (lambda: tf.io.parse_tensor(b"garbage\xff", tf.float32),
     "Could not parse `serialized` as TensorProto, base64: Z2FyYmFnZf8="),
    (lambda: tf.io.parse_tensor(tf.constant(["a", "b"]), tf.float32),
     r"Expected `serialized` to be a scalar, got shape: \[2\]"),
])
def test_parse_tensor_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()


@pytest.mark.parametrize("call,expected", [  # TF 2.21's results
    (lambda: tf.io.decode_raw(tf.constant([b"\x01\x00\x02\x00", b"\x03\x00\x04\x00"]),
                              tf.int16), [[1, 2], [3, 4]]),
    (lambda: tf.io.decode_raw(b"\x01\x00\x02\x00", tf.int16, little_endian=False), [256, 512]),
    (lambda: tf.io.decode_raw(b"\x00\x00\x80\x3f", tf.float32), [1.0]),
    (lambda: tf.io.decode_raw([b"\x01\x00", b"\x01\x00\x02\x00\x03\x00"], tf.int16,
                              fixed_length=4), [[1, 0], [1, 2]]),
    (lambda: tf.io.decode_raw(b"ab", tf.uint8), [97, 98]),
    (lambda: tf.io.decode_compressed([__import__("zlib").compress(b"hello"),
                                      __import__("zlib").compress(b"")], "ZLIB"),
     [b"hello", b""]),
    (lambda: tf.io.decode_compressed(__import__("gzip").compress(b"hello"), "GZIP"), b"hello"),
    (lambda: tf.io.decode_compressed(b"abc"), b"abc"),
])
def test_decoding(call, expected):
    assert np.asarray(call().numpy()).tolist() == expected


@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.io.decode_raw(b"\x00\x00\x80", tf.float32), "InvalidArgumentError",
     "length 3 that is not a multiple of 4, the size of float"),
    (lambda: tf.io.decode_raw([b"\x00\x00", b"\x00\x00\x00\x00"], tf.int16),
     "InvalidArgumentError", "requires input strings to all be the same size"),
    (lambda: tf.io.decode_compressed(b"abc", "ZLIB"), "DataLossError", "inflate"),
    (lambda: tf.io.decode_compressed(b"abc", "LZ"), "InvalidArgumentError",
     "Only ZLIB, GZIP or NONE"),
])
def test_decoding_errors(call, error, message):
    with pytest.raises(getattr(tf.errors, error), match=message):
        call()


def test_decode_raw_of_tfrecords_in_a_pipeline(tmp_path):
    path = str(tmp_path / "raw.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for row in ([1.0, 2.0], [3.0, 4.0]):
            writer.write(np.array(row, np.float32).tobytes())
    ds = tf.data.TFRecordDataset(path).map(lambda r: tf.io.decode_raw(r, tf.float32))
    assert ds.element_spec == tf.TensorSpec([None], tf.float32)
    assert [x.numpy().tolist() for x in ds] == [[1.0, 2.0], [3.0, 4.0]]


def test_no_gradient_through_serialization():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.float32)
    assert tape.gradient(y, x) is None


def test_serialized_sparse_tensors_are_tfs_bytes():
    sp = tf.SparseTensor([[0, 1], [2, 0]], [1.5, 2.0], [3, 2])
    assert [x.hex() for x in tf.io.serialize_sparse(sp).numpy()] == [  # TF 2.21's
        "0809120812020802120208022220000000000000000001000000000000000200000000000000000000"
        "0000000000", "080112041202080222080000c03f00000040",
        "0809120412020802221003000000000000000200000000000000"]
    strings = tf.io.serialize_sparse(tf.SparseTensor([[0]], ["ab"], [2]))
    assert strings.numpy()[1].hex() == "08071204120208012203026162"
    rows = tf.io.serialize_many_sparse(sp)
    assert rows.shape == [3, 3] and rows.numpy()[1, 0].hex() == "08091206120012020801"
    back = tf.io.deserialize_many_sparse(rows, tf.float32)
    assert back.indices.numpy().tolist() == [[0, 1], [2, 0]]
    assert back.values.numpy().tolist() == [1.5, 2.0]
    assert back.dense_shape.numpy().tolist() == [3, 2]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Requested SparseTensor of type int64"):
        tf.io.deserialize_many_sparse(rows, tf.int64)
