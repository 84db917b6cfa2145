"""TFRecord files: TF's framing and compression (files TF 2.21 wrote in
tests/data/tf_records), TFRecordDataset's reading order, damaged files."""
import os

import pytest

import tapeflow as tf

pytest.importorskip("crc32c")

FIXTURES = os.path.join(os.path.dirname(__file__), os.pardir, "data", "tf_records")
COMPRESSIONS = {"": "examples.tfrecord", "GZIP": "examples.gzip.tfrecord",
                "ZLIB": "examples.zlib.tfrecord"}
# the third record of the fixtures: an Example of x=[7.0, 8.0], as TF serialized it
LAST = bytes.fromhex("0a130a110a0178120c120a0a080000e04000000041")


def _write(path, records, options=None):
    with tf.io.TFRecordWriter(str(path), options) as writer:
        for record in records:
            writer.write(record)


def test_framing_is_tfs():
    # TF 2.21: TFRecordWriter of b"abc" writes these 19 bytes
    assert tf.io.TFRecordWriter  # noqa: B018
    from tapeflow.io.tf_record import frame
    assert frame(b"abc").hex() == "0300000000000000b099490e6162636e57f121"


@pytest.mark.parametrize("compression", sorted(COMPRESSIONS))
def test_reads_tfs_files_and_writes_the_same_bytes(tmp_path, compression):
    path = os.path.join(FIXTURES, COMPRESSIONS[compression])
    records = [r.numpy() for r in tf.data.TFRecordDataset(path, compression)]
    assert len(records) == 3 and records[2] == LAST
    assert list(tf.compat.v1.io.tf_record_iterator(path, compression)) == records
    ours = tmp_path / "ours.tfrecord"
    _write(ours, records, tf.io.TFRecordOptions(compression))
    with open(path, "rb") as theirs:
        assert ours.read_bytes() == theirs.read()


def test_dataset_of_several_files(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    _write(first, [b"a0", b"a1", b"a2"])
    _write(second, [b"b0"])
    names = [str(first), str(second)]
    read = lambda **kw: [r.numpy() for r in tf.data.TFRecordDataset(names, **kw)]  # noqa: E731
    assert read() == [b"a0", b"a1", b"a2", b"b0"]
    # one record from each file in turn, as TF's deterministic interleave
    assert read(num_parallel_reads=2) == [b"a0", b"b0", b"a1", b"a2"]
    assert read(num_parallel_reads=tf.data.AUTOTUNE, buffer_size=3) == [b"a0", b"b0", b"a1",
                                                                         b"a2"]
    from_dataset = tf.data.TFRecordDataset(tf.data.Dataset.from_tensor_slices(names[::-1]))
    assert [r.numpy() for r in from_dataset] == [b"b0", b"a0", b"a1", b"a2"]
    assert tf.data.TFRecordDataset(names).element_spec == tf.TensorSpec([], tf.string)


def test_writer_takes_text_and_tensors_and_flushes(tmp_path):
    path = tmp_path / "r"
    writer = tf.io.TFRecordWriter(str(path), "GZIP")
    writer.write("h\u00e9")
    writer.write(tf.constant(b"\x00\x01"))
    writer.flush()
    assert list(tf.compat.v1.io.tf_record_iterator(str(path), "GZIP")) == [
        "h\u00e9".encode(), b"\x00\x01"]
    writer.close()


@pytest.mark.parametrize("damage,message", [
    (lambda data: data[:-5], "truncated record at 19 in file"),
    (lambda data: data[:5], "truncated record at 0 in file"),
    (lambda data: data[:14] + b"Z" + data[15:], "corrupted record at 12 in file"),
    (lambda data: data[:2] + b"Z" + data[3:], "corrupted record at 0 in file"),
])
def test_damaged_files_raise_data_loss_naming_the_file(tmp_path, damage, message):
    path = tmp_path / "bad.tfrecord"
    _write(path, [b"abc", b"defg"])
    path.write_bytes(damage(path.read_bytes()))
    for read in (lambda: list(tf.data.TFRecordDataset(str(path))),
                 lambda: list(tf.compat.v1.io.tf_record_iterator(str(path)))):
        with pytest.raises(tf.errors.DataLossError, match=f"{message}.*bad.tfrecord"):
            read()


def test_damaged_compressed_stream(tmp_path):
    path = tmp_path / "bad.gz"
    _write(path, [b"x" * 100], "GZIP")
    path.write_bytes(path.read_bytes()[:15])
    with pytest.raises(tf.errors.DataLossError, match="bad.gz"):
        list(tf.data.TFRecordDataset(str(path), "GZIP"))


def test_options_and_missing_files(tmp_path):
    options = tf.io.TFRecordOptions
    assert [options.get_compression_type_string(o) for o in
            ("GZIP", None, "", options("ZLIB"), tf.compat.v1.io.TFRecordCompressionType.GZIP)] \
        == ["GZIP", "", "", "ZLIB", "GZIP"]
    with pytest.raises(ValueError, match='Not a valid compression_type: "LZ4"'):
        options("LZ4")
    with pytest.raises(tf.errors.NotFoundError, match="nope; No such file or directory"):
        list(tf.data.TFRecordDataset(str(tmp_path / "nope")))
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        tf.io.TFRecordWriter(str(tmp_path / "no" / "dir"))


def test_private_module_name():
    from tapeflow.python.lib.io import tf_record
    assert tf_record.TFRecordWriter is tf.io.TFRecordWriter
    assert tf_record.tf_record_iterator is tf.compat.v1.io.tf_record_iterator


def test_text_lines(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"one\r\ntwo\n\nthree")
    assert [x.numpy() for x in tf.data.TextLineDataset(str(path))] == [b"one", b"two", b"",
                                                                      b"three"]


def test_fixed_length_records(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"HHabcdefFF")
    read = tf.data.FixedLengthRecordDataset(str(path), 2, header_bytes=2, footer_bytes=2)
    assert [r.numpy() for r in read] == [b"ab", b"cd", b"ef"]  # TF 2.21's
    gz = tmp_path / "f.gz"
    gz.write_bytes(__import__("gzip").compress(b"abcd"))
    assert [r.numpy() for r in tf.data.FixedLengthRecordDataset(
        str(gz), 2, compression_type="GZIP")] == [b"ab", b"cd"]
    path.write_bytes(b"HHabcdefgFF")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="has body length 7 bytes, which is not an exact multiple of the "
                             r"record length \(2 bytes\)"):
        list(read)
