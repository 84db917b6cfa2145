"""TFRecord files of tf.train.Examples both ways with TensorFlow (run in a subprocess):
TF parses the files tapeflow writes and tapeflow the files TF writes, to equal tensors, for
each compression; serialized Examples and tensors are the same bytes."""
import json

import numpy as np
import pytest

import tapeflow as tf

pytestmark = pytest.mark.parity
pytest.importorskip("crc32c")
pytest.importorskip("tensorboard")

COMPRESSIONS = ["", "GZIP", "ZLIB"]

# Both sides: five Examples, then parse them with these features and describe the result.
_COMMON = """
def examples(tf):
    F, FL, IL, BL = tf.train.Feature, tf.train.FloatList, tf.train.Int64List, tf.train.BytesList
    out = []
    for i in range(5):
        feature = {"x": F(float_list=FL(value=[i / 3, -i])),
                   "ids": F(int64_list=IL(value=list(range(i)))),
                   "tag": F(bytes_list=BL(value=[b"t%d" % i] * (i % 3)))}
        if i % 2:
            feature["opt"] = F(int64_list=IL(value=[i]))
        example = tf.train.Example(features=tf.train.Features(feature=feature))
        out.append(example.SerializeToString(deterministic=True))
    return out

def features(tf):
    return {"x": tf.io.FixedLenFeature([2], tf.float32),
            "ids": tf.io.VarLenFeature(tf.int64), "tag": tf.io.VarLenFeature(tf.string),
            "opt": tf.io.FixedLenFeature([], tf.int64, default_value=-7),
            "rows": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)}

def describe(value):
    if isinstance(value, dict):
        return {k: describe(v) for k, v in sorted(value.items())}
    if hasattr(value, "dense_shape"):
        return [describe(value.indices), describe(value.values), describe(value.dense_shape)]
    array = np.asarray(value.numpy())
    return [list(array.shape), [v.hex() for v in array.reshape(-1)] if array.dtype == object else array.tobytes().hex()]

def read(tf, path, compression):
    records = tf.data.TFRecordDataset(path, compression)
    return [r.numpy().hex() for r in records], describe(tf.io.parse_example(
        tf.constant([r.numpy() for r in records]), features(tf)))
"""
namespace = {"np": np}
exec(_COMMON, namespace)


@pytest.mark.parametrize("compression", COMPRESSIONS)
def test_tfrecords_of_examples_both_ways(tf_subprocess, tmp_path, compression):
    ours, theirs = str(tmp_path / "ours"), str(tmp_path / "theirs")
    with tf.io.TFRecordWriter(ours, compression) as writer:
        for record in namespace["examples"](tf):
            writer.write(record)
    result = tf_subprocess(_COMMON + """
with tf.io.TFRecordWriter(ARGS["theirs"], ARGS["compression"]) as writer:
    for record in examples(tf):
        writer.write(record)
RESULT = {"examples": [e.hex() for e in examples(tf)], "ours": read(tf, ARGS["ours"], ARGS["compression"]),
          "theirs_bytes": open(ARGS["theirs"], "rb").read().hex()}
""", ours=ours, theirs=theirs, compression=compression)
    assert result["examples"] == [e.hex() for e in namespace["examples"](tf)]
    mine = json.loads(json.dumps(namespace["read"](tf, ours, compression)))
    assert result["ours"] == mine  # TF's parse of tapeflow's file == tapeflow's
    assert json.loads(json.dumps(namespace["read"](tf, theirs, compression))) == mine
    with open(ours, "rb") as file:
        assert file.read().hex() == result["theirs_bytes"]


def test_sequence_examples_and_tensor_bytes(tf_subprocess):
    script = """
def sequences(tf):
    F, FL, BL = tf.train.Feature, tf.train.FloatList, tf.train.BytesList
    def one(steps, context):
        lists = {"t": tf.train.FeatureList(feature=[F(float_list=FL(value=[s, -s])) for s in steps]),
                 "w": tf.train.FeatureList(feature=[F(bytes_list=BL(value=[b"w"] * int(s))) for s in steps])}
        ctx = {"c": F(float_list=FL(value=[context]))} if context is not None else {}
        return tf.train.SequenceExample(context=tf.train.Features(feature=ctx),
                                        feature_lists=tf.train.FeatureLists(feature_list=lists)).SerializeToString(deterministic=True)
    return [one([1, 2, 3], 0.5), one([2], None), one([], 4.0)]

def parsed(tf):
    context = {"c": tf.io.FixedLenFeature([], tf.float32, default_value=-1.0)}
    sequence = {"t": tf.io.FixedLenSequenceFeature([2], tf.float32), "w": tf.io.VarLenFeature(tf.string)}
    batch = tf.io.parse_sequence_example(sequences(tf), context, sequence)
    single = [tf.io.parse_single_sequence_example(s, context, sequence) for s in sequences(tf)]
    values = [tf.constant([[1.5, -2.0]]), tf.constant(7, tf.int64), tf.constant([True]),
              tf.constant(["a", ""]), tf.constant([1.5], tf.float16)]
    return {"batch": describe(list(batch)), "single": describe(single),
            "tensors": [tf.io.serialize_tensor(v).numpy().hex() for v in values]}

def describe_all(value):
    return describe(value) if not isinstance(value, (list, tuple)) else [describe_all(v) for v in value]
"""
    local = {"np": np}
    exec(_COMMON + script.replace("describe(list(batch))", "describe_all(list(batch))")
         .replace("describe(single)", "describe_all(single)"), local)
    theirs = tf_subprocess(_COMMON + script.replace("describe(list(batch))",
                                                    "describe_all(list(batch))")
                           .replace("describe(single)", "describe_all(single)")
                           + "\nRESULT = parsed(tf)\n")
    assert json.loads(json.dumps(local["parsed"](tf))) == theirs
