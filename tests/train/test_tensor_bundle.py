"""TensorBundle files (a checkpoint's .index and .data shards): tapeflow's round trip, the
bytes of TF's writer, files TF wrote (tests/data/tf_checkpoints, written by TF 2.21), and
damaged files."""
import os

import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("crc32c")
pytest.importorskip("tensorboard")

from tapeflow.io import table  # noqa: E402
from tapeflow.train.tensor_bundle import BundleReader, write_bundle  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(__file__), os.pardir, "data", "tf_checkpoints")
SHAPES = [(), (3,), (2, 3), (1, 2, 2), (2, 1, 3, 2)]


def _values(dtype, shape):
    count = int(np.prod(shape, dtype=np.int64))
    if dtype == "string":
        return np.array([b"x" * (i % 3) + bytes([i]) for i in range(count)],
                        dtype=object).reshape(shape)
    if dtype == "bool":
        return (np.arange(count) % 3 == 0).reshape(shape)
    if dtype == "bfloat16":
        ml_dtypes = pytest.importorskip("ml_dtypes")
        return (np.arange(count, dtype=np.float32) / 3 - 1).astype(ml_dtypes.bfloat16) \
            .reshape(shape)
    values = np.arange(count) * 7 - 3
    return (values / 3 if np.dtype(dtype).kind in "fc" else values).astype(dtype).reshape(shape)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "bool", "float16",
                                   "bfloat16", "string", "uint8", "complex64"])
def test_round_trip(tmp_path, dtype, shape):
    value = _values(dtype, shape)
    prefix = str(tmp_path / "ckpt")
    write_bundle(prefix, {"v": value, "step": np.int64(5)})
    reader = BundleReader(prefix)
    assert reader.keys() == ["step", "v"]
    assert reader.dtype("v") == tf.as_dtype(dtype) and reader.shape("v") == list(shape)
    got = reader.read("v")
    assert got.dtype == value.dtype and got.shape == value.shape
    assert got.tobytes() == value.tobytes() if dtype != "string" else \
        got.tolist() == value.tolist()
    assert reader.read("step") == 5


def test_bytes_equal_tfs_writer(tmp_path):
    # tests/data/tf_checkpoints/savev2.*: TF's SaveV2 of these five tensors, in this order
    prefix = str(tmp_path / "mine")
    write_bundle(prefix, {"zz": np.array([1., 2., 3.], np.float32), "a/b": np.int64(7),
                          "s": np.array([b"ab", b"", b"xyz"], object), "s2": b"hello",
                          "aa": np.array([[True, False]])})
    for suffix in (".index", ".data-00000-of-00001"):
        with open(prefix + suffix, "rb") as ours, \
                open(os.path.join(FIXTURES, "savev2" + suffix), "rb") as theirs:
            assert ours.read() == theirs.read()


def test_reads_tfs_checkpoint():
    reader = BundleReader(os.path.join(FIXTURES, "dtypes"))
    key = "{}/.ATTRIBUTES/VARIABLE_VALUE".format
    assert reader.keys() == ["_CHECKPOINTABLE_OBJECT_GRAPH"] + [
        key(name) for name in ["b", "bf16", "f32", "f64", "h", "i32", "i64", "s"]]
    graph = reader.read("_CHECKPOINTABLE_OBJECT_GRAPH")
    assert graph.shape == () and isinstance(graph.item(), bytes) and reader.shape(
        "_CHECKPOINTABLE_OBJECT_GRAPH") == []
    expected = {  # the values TF 2.21 stored
        "b": np.array([True, False, True]),
        "f32": np.arange(6, dtype=np.float32).reshape(2, 3) / 7,
        "f64": np.array(np.pi),
        "h": np.arange(16, dtype=np.float16).reshape(1, 2, 2, 4) / 3,
        "i32": np.array([[[1, -2], [3, 4]]], np.int32),
        "i64": np.array([2 ** 40, -5], np.int64),
        "s": np.array([[b"a", b"bc"], [b"", "d\u00e9f".encode()]], object)}
    for name, value in expected.items():
        got = reader.read(key(name))
        assert got.dtype == value.dtype and got.shape == value.shape, name
        assert got.tolist() == value.tolist(), name
    assert reader.dtype(key("bf16")) == tf.bfloat16
    pytest.importorskip("ml_dtypes")
    assert reader.read(key("bf16")).astype(np.float32).tolist() == [[1.5, -2.25],
                                                                   [3.0, 0.00099945068359375]]


def test_reads_tfs_sharded_checkpoint():
    reader = BundleReader(os.path.join(FIXTURES, "sharded"))
    assert reader.num_shards == 3
    key = "{}/.ATTRIBUTES/VARIABLE_VALUE".format
    assert reader.read(key("a")).tolist() == list(range(40))
    assert reader.read(key("b")).tolist() == list(range(30))
    assert reader.read(key("c")).tolist() == np.ones([5, 5]).tolist()


def test_keys_sorted_bytewise_and_many_blocks(tmp_path):
    keys = [f"layer_{i}/kernel" for i in range(20000)] + ["Z", "a", "\u00e9", "_", "a/b"]
    prefix = str(tmp_path / "ckpt")
    write_bundle(prefix, {key: np.int32(i) for i, key in enumerate(keys)})
    with open(prefix + ".index", "rb") as index:
        data = index.read()
    assert len(data) > 2 * 262144  # several data blocks
    reader = BundleReader(prefix)
    assert reader.keys() == sorted(keys, key=str.encode)
    assert reader.read("layer_12345/kernel") == 12345 and reader.read("\u00e9") == 20002


def _damaged(tmp_path, suffix, damage):
    prefix = str(tmp_path / "ckpt")
    write_bundle(prefix, {"w": np.arange(8, dtype=np.float32), "s": b"text"})
    path = prefix + suffix
    with open(path, "rb") as file:
        data = file.read()
    with open(path, "wb") as file:
        file.write(damage(data))
    return prefix, path


@pytest.mark.parametrize("suffix,damage,when", [
    (".index", lambda data: data[:-10], "open"),
    (".index", lambda data: data[:20], "open"),
    (".index", lambda data: b"", "open"),
    (".index", lambda data: data[:5] + bytes([data[5] ^ 1]) + data[6:], "open"),
    (".data-00000-of-00001", lambda data: data[:10], "read"),
    (".data-00000-of-00001", lambda data: data[:3] + bytes([data[3] ^ 4]) + data[4:], "read"),
    (".data-00000-of-00001", lambda data: data[:-2] + b"zz", "read"),
])
def test_damaged_files_raise_data_loss_naming_the_file(tmp_path, suffix, damage, when):
    prefix, path = _damaged(tmp_path, suffix, damage)
    with pytest.raises(tf.errors.DataLossError, match=os.path.basename(path)):
        reader = BundleReader(prefix)
        reader.read("w")
        reader.read("s")
    if when == "read":
        BundleReader(prefix)  # the index is fine


def test_missing_files_and_keys(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="matching files for .*nope"):
        BundleReader(str(tmp_path / "nope"))
    prefix = str(tmp_path / "ckpt")
    write_bundle(prefix, {"w": np.float32(1)})
    with pytest.raises(tf.errors.NotFoundError, match="Key q not found in checkpoint"):
        BundleReader(prefix).read("q")
    os.remove(prefix + ".data-00000-of-00001")
    with pytest.raises(tf.errors.DataLossError, match="data-00000-of-00001"):
        BundleReader(prefix).read("w")


def test_failed_save_leaves_previous_bundle(tmp_path):
    prefix = str(tmp_path / "ckpt")
    write_bundle(prefix, {"w": np.float32(1)})
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(TypeError, match="'bad'.*datetime64"):
        write_bundle(prefix, {"w": np.float32(2), "bad": np.array(["2020-01-01"], "M8[D]")})
    assert sorted(os.listdir(tmp_path)) == before
    assert BundleReader(prefix).read("w") == 1


def test_table_rejects_unsorted_keys():
    with pytest.raises(ValueError, match="strictly increasing"):
        table.build_table([(b"b", b""), (b"a", b"")])
