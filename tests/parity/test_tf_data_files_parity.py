"""Dataset files both ways with TensorFlow (in a subprocess): `Dataset.save` directories and
`Dataset.cache(filename)` files tapeflow writes load in TF with equal elements, and TF's load
in tapeflow."""
import json

import pytest

import tapeflow as tf

pytestmark = pytest.mark.parity
pytest.importorskip("crc32c")
pytest.importorskip("tensorboard")

_DATASET = """
def dataset(tf):
    return tf.data.Dataset.from_tensor_slices({"x": [[1.5, -2.0], [3.0, 4.25], [0.0, 1.0]],
                                               "n": [[1, 2, 3], [4, 5, 6], [7, 8, 9]],
                                               "s": ["a", "", "b\\xc3\\xa9"]})

def describe(ds):
    return [{k: [list(v.shape), v.numpy().tolist() if v.dtype != tf.string else v.numpy().hex()]
             for k, v in sorted(e.items())} for e in ds]
"""
local = {}
exec(_DATASET, local)


def _describe(ds):
    return [{k: [list(v.shape), v.numpy().tolist() if v.dtype != tf.string else v.numpy().hex()]
             for k, v in sorted(e.items())} for e in ds]


@pytest.mark.parametrize("compression", [None, "GZIP"])
def test_saved_datasets_both_ways(tf_subprocess, tmp_path, compression):
    ours, theirs = str(tmp_path / "ours"), str(tmp_path / "theirs")
    local["dataset"](tf).save(ours, compression)
    result = tf_subprocess(_DATASET + """
dataset(tf).save(ARGS["theirs"], ARGS["compression"])
RESULT = describe(tf.data.Dataset.load(ARGS["ours"], compression=ARGS["compression"]))
""", ours=ours, theirs=theirs, compression=compression)
    expected = json.loads(json.dumps(_describe(local["dataset"](tf))))
    assert result == expected
    loaded = tf.data.Dataset.load(theirs, compression=compression)
    assert json.loads(json.dumps(_describe(loaded))) == expected


def test_cache_files_both_ways(tf_subprocess, tmp_path):
    ours, theirs = str(tmp_path / "ours"), str(tmp_path / "theirs")
    list(local["dataset"](tf).cache(ours))
    result = tf_subprocess(_DATASET + """
list(dataset(tf).cache(ARGS["theirs"]))
# a cache is read instead of its input: an empty input shows it
empty = dataset(tf).filter(lambda e: False)
RESULT = describe(empty.cache(ARGS["ours"]))
""", ours=ours, theirs=theirs)
    expected = json.loads(json.dumps(_describe(local["dataset"](tf))))
    assert result == expected
    empty = local["dataset"](tf).filter(lambda e: False)
    assert json.loads(json.dumps(_describe(empty.cache(theirs)))) == expected
