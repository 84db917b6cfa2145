"""Dataset.cache(filename) in TF's format (a TensorBundle keyed by element and component),
reading a cache TF 2.21 wrote (tests/data/tf_cache: range(3) mapped to (x, as_string(x)))."""
import os

import pytest

import tapeflow as tf

pytest.importorskip("crc32c")
pytest.importorskip("tensorboard")

from tapeflow.train.tensor_bundle import BundleReader  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(__file__), "tf_cache")


def _unreadable_source():
    def rows():
        raise AssertionError("the cache file should have been read instead")
        yield  # noqa: unreachable (a generator)
    return tf.data.Dataset.from_generator(rows, output_signature=(
        tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.string)))


def test_reads_tfs_cache_file():
    ds = _unreadable_source().cache(os.path.join(FIXTURES, "cache1"))
    assert [(int(x), s.numpy()) for x, s in ds] == [(0, b"0"), (1, b"1"), (2, b"2")]


def test_writes_tfs_layout_and_only_after_a_full_pass(tmp_path):
    prefix = str(tmp_path / "c")
    ds = tf.data.Dataset.range(12).map(
        lambda x: {"b": x, "a": tf.fill([2], tf.cast(x, tf.float32))})
    cached = ds.cache(prefix)
    assert [int(e["b"]) for e in cached.take(3)] == [0, 1, 2]
    assert os.listdir(tmp_path) == []  # a partial pass leaves no cache, as TF's
    assert len(list(cached)) == 12
    reader = BundleReader(prefix)
    # TF's keys: the element index 7 wide, then the component (dict keys in sorted order)
    assert reader.keys()[:3] == ["      0_0", "      0_1", "      1_0"]
    assert reader.keys()[-1] == "     11_1" and reader.shape("     11_0") == [2]
    assert reader.read("     11_1") == 11


def test_loads_a_dataset_tf_saved():
    # tests/data/tf_saved: TF 2.21's Dataset.save(compression="GZIP") of range(5) mapped to
    # {"a": (x, as_string(x)), "f": fill([2], float(x))}
    ds = tf.data.Dataset.load(os.path.join(os.path.dirname(__file__), "tf_saved"),
                              compression="GZIP")
    assert ds.element_spec == {"a": (tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.string)),
                               "f": tf.TensorSpec([2], tf.float32)}
    assert int(ds.cardinality()) == 5
    assert [(int(e["a"][0]), e["a"][1].numpy(), e["f"].numpy().tolist()) for e in ds] == [
        (i, str(i).encode(), [float(i)] * 2) for i in range(5)]


@pytest.mark.parametrize("compression", [None, "GZIP", "ZLIB"])
def test_save_and_load(tmp_path, compression):
    Point = __import__("collections").namedtuple("Point", ["x", "label"])
    ds = tf.data.Dataset.from_tensor_slices(Point([[1., 2.], [3., 4.], [5., 6.]],
                                                  ["a", "", "c\u00e9"]))
    path = str(tmp_path / "saved")
    ds.save(path, compression, shard_func=lambda p: tf.cast(p.x[0] > 2, tf.int64))
    assert sorted(os.listdir(path))[-2:] == ["dataset_spec.pb", "snapshot.metadata"]
    loaded = tf.data.Dataset.load(path, compression=compression)
    assert type(loaded.element_spec).__name__ == "Point"
    assert [(p.x.numpy().tolist(), p.label.numpy()) for p in loaded] == [
        ([1., 2.], b"a"), ([3., 4.], b""), ([5., 6.], "c\u00e9".encode())]


def test_load_errors(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="snapshot metadata file not found"):
        tf.data.Dataset.load(str(tmp_path / "nope"))
    path = str(tmp_path / "saved")
    tf.data.Dataset.range(3).save(path)
    shard = next(os.path.join(root, f) for root, _, files in os.walk(path) for f in files
                 if f.endswith(".snapshot"))
    with open(shard, "r+b") as file:
        file.seek(20)
        file.write(b"\xff")
    with pytest.raises(tf.errors.DataLossError, match="00000000.snapshot"):
        list(tf.data.Dataset.load(path))


@pytest.mark.skipif(not hasattr(__import__("tapeflow.data.structure").data.structure,
                                 "batch_column"),
                    reason="batching composite elements comes with tf.data's composites")
def test_batches_of_parsed_sparse_features():
    F, IL = tf.train.Feature, tf.train.Int64List
    records = [tf.train.Example(features=tf.train.Features(feature={
        "ids": F(int64_list=IL(value=list(range(n))))})).SerializeToString() for n in (2, 0, 3)]
    ds = tf.data.Dataset.from_tensor_slices(records).map(
        lambda r: tf.io.parse_single_example(r, {"ids": tf.io.VarLenFeature(tf.int64)})).batch(2)
    assert ds.element_spec == {"ids": tf.SparseTensorSpec([None, None], tf.int64)}
    got = [(b["ids"].indices.numpy().tolist(), b["ids"].values.numpy().tolist(),
            b["ids"].dense_shape.numpy().tolist()) for b in ds]
    assert got == [([[0, 0], [0, 1]], [0, 1], [2, 2]),  # TF 2.21's batches
                   ([[0, 0], [0, 1], [0, 2]], [0, 1, 2], [1, 3])]
