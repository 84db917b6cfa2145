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
    ds = tf.data.Dataset.range(12).map(lambda x: {"b": x, "a": tf.fill([2], tf.cast(x, tf.float32))})
    cached = ds.cache(prefix)
    assert [int(e["b"]) for e in cached.take(3)] == [0, 1, 2]
    assert os.listdir(tmp_path) == []  # a partial pass leaves no cache, as TF's
    assert len(list(cached)) == 12
    reader = BundleReader(prefix)
    # TF's keys: the element index 7 wide, then the component (dict keys in sorted order)
    assert reader.keys()[:3] == ["      0_0", "      0_1", "      1_0"]
    assert reader.keys()[-1] == "     11_1" and reader.shape("     11_0") == [2]
    assert reader.read("     11_1") == 11
