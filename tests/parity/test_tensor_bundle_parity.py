"""Checkpoint bundles both ways with TensorFlow: TF reads the .index/.data files tapeflow
writes (tf.train.load_checkpoint, tf.raw_ops.RestoreV2), tapeflow reads TF's
(tf.train.Checkpoint.write, SaveV2), bit for bit; TF's writer and tapeflow's make the same
bytes."""
import os

import numpy as np
import pytest

pytestmark = pytest.mark.parity
pytest.importorskip("crc32c")
pytest.importorskip("tensorboard")
ml_dtypes = pytest.importorskip("ml_dtypes")

from tapeflow.train.tensor_bundle import BundleReader, write_bundle  # noqa: E402

DTYPES = ["float32", "float64", "int32", "int64", "bool", "bfloat16", "float16", "string"]
SHAPES = [(), (3,), (2, 3), (2, 1, 3), (1, 2, 2, 3)]

# TF's side: each key's dtype, shape and bytes (strings: the elements' bytes), as JSON
_DESCRIBE = """
def describe(value):
    value = np.array(value, object) if isinstance(value, bytes) else np.asarray(value)
    if value.dtype == object:
        return [value.shape, [bytes(v).hex() for v in value.reshape(-1)]]
    return [value.shape, value.tobytes().hex()]
"""


def _describe(value):
    value = np.asarray(value)
    if value.dtype == object:
        return [list(value.shape), [bytes(v).hex() for v in value.reshape(-1)]]
    return [list(value.shape), value.tobytes().hex()]


def _value(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    count = int(np.prod(shape, dtype=np.int64))
    if dtype == "string":
        return np.array([bytes(rng.integers(0, 256, size=int(rng.integers(0, 5)), dtype=np.uint8))
                         for _ in range(count)], dtype=object).reshape(shape)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype == "bfloat16":
        return rng.normal(size=shape).astype(ml_dtypes.bfloat16)
    if np.dtype(dtype).kind == "f":
        return rng.normal(size=shape).astype(dtype)
    return rng.integers(-2 ** 31, 2 ** 31, size=shape).astype(dtype)


def _table():
    return {f"{dtype}_{len(shape)}d/.ATTRIBUTES/VARIABLE_VALUE": _value(dtype, shape, seed)
            for seed, (dtype, shape) in enumerate((d, s) for d in DTYPES for s in SHAPES)}


def test_tf_reads_tapeflow_bundle(tf_subprocess, tmp_path):
    tensors = _table()
    prefix = str(tmp_path / "ours")
    write_bundle(prefix, tensors)
    theirs = tf_subprocess(_DESCRIBE + """
reader = tf.train.load_checkpoint(ARGS["prefix"])
dtypes = reader.get_variable_to_dtype_map()
names = sorted(dtypes)
restored = tf.raw_ops.RestoreV2(prefix=ARGS["prefix"], tensor_names=names,
                                shape_and_slices=[""] * len(names),
                                dtypes=[dtypes[n] for n in names])
RESULT = {n: [dtypes[n].name, reader.get_variable_to_shape_map()[n],
              describe(reader.get_tensor(n)), describe(r.numpy())]
          for n, r in zip(names, restored)}
""", prefix=prefix)
    assert sorted(theirs) == sorted(tensors)
    for key, value in tensors.items():
        dtype, shape, loaded, restored = theirs[key]
        assert dtype == key.split("_")[0] and shape == list(value.shape), key
        assert loaded == restored == _describe(value), key


def test_tapeflow_reads_tf_checkpoint(tf_subprocess, tmp_path):
    prefix = str(tmp_path / "theirs")
    theirs = tf_subprocess(_DESCRIBE + """
import itertools
rng = np.random.default_rng(0)
variables = {}
for dtype, rank in itertools.product(ARGS["dtypes"], range(5)):
    shape = [2, 3, 1, 2][:rank]
    value = rng.normal(size=shape) * 100
    if dtype == "string":
        value = np.array([str(v).encode() for v in value.reshape(-1)], object).reshape(shape)
    variables[f"{dtype}_{rank}"] = tf.Variable(tf.cast(value, dtype) if dtype != "string"
                                               else value)
tf.train.Checkpoint(**variables).write(ARGS["prefix"])
RESULT = {f"{name}/.ATTRIBUTES/VARIABLE_VALUE": [v.dtype.name, describe(v.numpy())]
          for name, v in variables.items()}
""", prefix=prefix, dtypes=DTYPES)
    reader = BundleReader(prefix)
    assert sorted(reader.keys()) == sorted(list(theirs) + ["_CHECKPOINTABLE_OBJECT_GRAPH"])
    for key, (dtype, described) in theirs.items():
        assert reader.dtype(key).name == dtype, key
        assert _describe(reader.read(key)) == described, key
    assert isinstance(reader.read("_CHECKPOINTABLE_OBJECT_GRAPH").item(), bytes)


@pytest.mark.parametrize("count", [3, 20000])
def test_same_bytes_as_tfs_writer(tf_subprocess, tmp_path, count):
    # 20000 keys fill several 256 KiB index blocks
    names = [f"v{i * 7919 % count}/x" for i in range(count)]
    theirs = str(tmp_path / "theirs")
    tf_subprocess("""
names = ARGS["names"]
tf.raw_ops.SaveV2(prefix=ARGS["prefix"], tensor_names=names, shape_and_slices=[""] * len(names),
                  tensors=[tf.constant([float(i), -1.0]) if i % 2 else tf.constant(str(i))
                           for i in range(len(names))])
RESULT = None
""", prefix=theirs, names=names)
    ours = str(tmp_path / "ours")
    write_bundle(ours, {name: np.array([float(i), -1.0], np.float32) if i % 2 else str(i)
                        for i, name in enumerate(names)})
    for suffix in (".index", ".data-00000-of-00001"):
        with open(ours + suffix, "rb") as mine, open(theirs + suffix, "rb") as tfs:
            assert mine.read() == tfs.read(), suffix
    assert os.path.getsize(ours + ".index") > (262144 if count > 3 else 0)
