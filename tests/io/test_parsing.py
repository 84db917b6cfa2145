"""tf.train.Example messages and tf.io.parse_* with each feature configuration; the expected
values are TF 2.21's for the same records (tests/data/tf_records holds Examples TF wrote)."""
import os

import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("google.protobuf")

FIXTURES = os.path.join(os.path.dirname(__file__), os.pardir, "data", "tf_records")
F, FL, IL, BL = tf.train.Feature, tf.train.FloatList, tf.train.Int64List, tf.train.BytesList


def ex(**features) -> bytes:
    return tf.train.Example(features=tf.train.Features(feature=features)).SerializeToString(
        deterministic=True)


E1 = ex(a=F(float_list=FL(value=[1, 2])), b=F(int64_list=IL(value=[3])),
        s=F(bytes_list=BL(value=[b"x", b"yz"])))
E2 = ex(a=F(float_list=FL(value=[5, 6])), s=F(bytes_list=BL(value=[])))
E3 = ex(ix=F(int64_list=IL(value=[3, 0])), v=F(float_list=FL(value=[1.5, 2.5])),
        iy=F(int64_list=IL(value=[1, 2])))


def plain(value):
    """Nested lists of a parsed value (SparseTensor: indices, values, dense_shape)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, tf.SparseTensor):
        return [plain(value.indices), plain(value.values), plain(value.dense_shape)]
    if hasattr(value, "to_list"):
        return value.to_list()
    return np.asarray(value.numpy()).tolist()


def test_messages_are_tfs():
    assert F(int64_list=IL(value=[1, 2])).SerializeToString() == b"\x1a\x04\n\x02\x01\x02"
    sequence = tf.train.SequenceExample(
        context=tf.train.Features(feature={"x": F(int64_list=IL(value=[3]))}),
        feature_lists=tf.train.FeatureLists(feature_list={
            "t": tf.train.FeatureList(feature=[F(float_list=FL(value=[1.0]))])}))
    assert sequence.SerializeToString().hex() == (  # TF 2.21's bytes
        "0a0c0a0a0a017812051a030a010312110a0f0a0174120a0a0812060a040000803f")
    # TF's message, in a package of tapeflow's own (as TensorBoard's copies of TF's protos
    # are), so TF's protos can be loaded in the same process
    assert type(sequence).DESCRIPTOR.full_name == "tapeflow.SequenceExample"
    parsed = tf.train.Example.FromString(E1)
    assert list(parsed.features.feature["a"].float_list.value) == [1.0, 2.0]
    assert tf.compat.v1.train.Example is tf.train.Example


CASES = {  # name: (records, features, batched, TF's result)
    "default": ([E1, E2], {"b": tf.io.FixedLenFeature([], tf.int64, default_value=-1)}, True,
                {"b": [3, -1]}),
    "shaped": ([E1], {"a": tf.io.FixedLenFeature([1, 2], tf.float32)}, True,
               {"a": [[[1.0, 2.0]]]}),
    "rows": ([E1, E2, ex()], {
        "s": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True),
        "a": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True,
                                           default_value=9)}, True,
        {"a": [[[1.0, 2.0]], [[5.0, 6.0]], [[9.0, 9.0]]],
         "s": [[b"x", b"yz"], [b"", b""], [b"", b""]]}),
    "varlen": ([E1, E2], {"s": tf.io.VarLenFeature(tf.string),
                          "b": tf.io.VarLenFeature(tf.int64)}, True,
               {"b": [[[0, 0]], [3], [2, 1]],
                "s": [[[0, 0], [0, 1]], [b"x", b"yz"], [2, 2]]}),
    "varlen single": (E1, {"s": tf.io.VarLenFeature(tf.string)}, False,
                      {"s": [[[0], [1]], [b"x", b"yz"], [2]]}),
    "sparse": ([E3], {"sp": tf.io.SparseFeature("ix", "v", tf.float32, 5)}, True,
               {"sp": [[[0, 0], [0, 3]], [2.5, 1.5], [1, 5]]}),
    "sparse 2-d": (E3, {"sp": tf.io.SparseFeature(["ix", "iy"], "v", tf.float32, [5, 3])},
                   False, {"sp": [[[0, 2], [3, 1]], [2.5, 1.5], [5, 3]]}),
    "ragged single": (E1, {"a": tf.io.RaggedFeature(tf.float32)}, False, {"a": [1.0, 2.0]}),
    "empty batch": (tf.constant([], tf.string), {
        "a": tf.io.FixedLenFeature([2], tf.float32), "s": tf.io.VarLenFeature(tf.string)},
        True, {"a": [], "s": [[], [], [0, 0]]}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_parse(name):
    records, features, batched, expected = CASES[name]
    parse = tf.io.parse_example if batched else tf.io.parse_single_example
    assert plain(parse(records, features)) == expected


RAGGED = {
    "ragged": ([E1, E2], {"a": tf.io.RaggedFeature(tf.float32),
                          "s": tf.io.RaggedFeature(tf.string)}, True,
               {"a": [[1.0, 2.0], [5.0, 6.0]], "s": [[b"x", b"yz"], []]}),
    "row lengths": (ex(v=F(int64_list=IL(value=[1, 2, 3, 4, 5])),
                       l=F(int64_list=IL(value=[2, 3]))),
                    {"r": tf.io.RaggedFeature(tf.int64, value_key="v", partitions=[
                        tf.io.RaggedFeature.RowLengths("l")])}, False,
                    {"r": [[1, 2], [3, 4, 5]]}),
}


@pytest.mark.parametrize("name", sorted(RAGGED))
def test_parse_ragged(name):
    if not hasattr(tf, "RaggedTensor"):
        pytest.skip("RaggedTensor is not in this build")
    records, features, batched, expected = RAGGED[name]
    parse = tf.io.parse_example if batched else tf.io.parse_single_example
    assert plain(parse(records, features)) == expected


@pytest.mark.parametrize("records,features,error,message", [
    (E2, {"b": tf.io.FixedLenFeature([], tf.int64)}, "InvalidArgumentError",
     r"Feature: b \(data type: int64\) is required but could not be found"),
    ([E1], {"a": tf.io.FixedLenFeature([3], tf.float32)}, "InvalidArgumentError",
     r"Key: a, Index: 0.  Number of float values != expected.  Values size: 2 but output "
     r"shape: \[3\]"),
    (E1, {"a": tf.io.FixedLenFeature([2], tf.int64)}, "InvalidArgumentError",
     "Key: a.  Data types don't match. Data type: float but expected type: int64"),
    ([E1], {"a": tf.io.FixedLenSequenceFeature([3], tf.float32, allow_missing=True)},
     "InvalidArgumentError", "not a multiple of stride length"),
    ([E1], {"a": tf.io.FixedLenSequenceFeature([], tf.float32)}, "ValueError",
     "FixedLenSequenceFeature requires allow_missing to be True"),
    ([E1], {"a": tf.io.FixedLenFeature([2], tf.int32)}, "InvalidArgumentError",
     "Unsupported dtype int32"),
    (b"\xff\xff", {"a": tf.io.VarLenFeature(tf.int64)}, "InvalidArgumentError",
     "Could not parse example input"),
    (E1, {"s": tf.io.VarLenFeature(tf.string), "r": tf.io.RaggedFeature(tf.string, "s")},
     "ValueError", "Ragged and sparse keys must not intersect"),
])
def test_parse_errors(records, features, error, message):
    parse = tf.io.parse_example if isinstance(records, list) else tf.io.parse_single_example
    error = ValueError if error == "ValueError" else getattr(tf.errors, error)
    with pytest.raises(error, match=message):
        parse(records, features)


SEQUENCE = tf.train.SequenceExample(
    context=tf.train.Features(feature={"c": F(int64_list=IL(value=[7]))}),
    feature_lists=tf.train.FeatureLists(feature_list={
        "t": tf.train.FeatureList(feature=[F(float_list=FL(value=[1, 2])),
                                           F(float_list=FL(value=[3, 4]))]),
        "w": tf.train.FeatureList(feature=[F(bytes_list=BL(value=[b"a"])),
                                           F(bytes_list=BL(value=[b"b", b"c"]))])})
).SerializeToString()
SEQUENCE_2 = tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={
    "t": tf.train.FeatureList(feature=[F(float_list=FL(value=[9, 9]))])})).SerializeToString()


def test_parse_sequence_examples():
    context, lists = tf.io.parse_single_sequence_example(
        SEQUENCE, {"c": tf.io.FixedLenFeature([], tf.int64)},
        {"t": tf.io.FixedLenSequenceFeature([2], tf.float32), "w": tf.io.VarLenFeature(tf.string)})
    assert plain(context) == {"c": 7}
    assert plain(lists) == {"t": [[1.0, 2.0], [3.0, 4.0]],
                            "w": [[[0, 0], [1, 0], [1, 1]], [b"a", b"b", b"c"], [2, 2]]}
    context, lists, lengths = tf.io.parse_sequence_example(
        [SEQUENCE, SEQUENCE_2], {"c": tf.io.FixedLenFeature([], tf.int64, default_value=0)},
        {"t": tf.io.FixedLenSequenceFeature([2], tf.float32), "w": tf.io.VarLenFeature(tf.string)})
    assert plain(context) == {"c": [7, 0]}
    assert plain(lists) == {"t": [[[1.0, 2.0], [3.0, 4.0]], [[9.0, 9.0], [0.0, 0.0]]],
                            "w": [[[0, 0, 0], [0, 1, 0], [0, 1, 1]], [b"a", b"b", b"c"],
                                  [2, 2, 2]]}
    assert plain(lengths) == {"t": [2, 1]}
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Feature list 'w' is required but could not be found"):
        tf.io.parse_single_sequence_example(
            SEQUENCE_2, None, {"w": tf.io.FixedLenSequenceFeature([], tf.string)})
    _, lists = tf.io.parse_single_sequence_example(
        SEQUENCE_2, None, {"w": tf.io.FixedLenSequenceFeature([], tf.string,
                                                              allow_missing=True)})
    assert plain(lists) == {"w": []}


def test_a_tfrecord_pipeline_with_tfs_file():
    features = {"x": tf.io.FixedLenFeature([2], tf.float32),
                "ids": tf.io.VarLenFeature(tf.int64), "tag": tf.io.VarLenFeature(tf.string)}
    records = tf.data.TFRecordDataset(os.path.join(FIXTURES, "examples.gzip.tfrecord"), "GZIP")
    single = records.map(lambda r: tf.io.parse_single_example(r, features))
    assert single.element_spec["ids"] == tf.SparseTensorSpec([None], tf.int64)
    assert [plain(e["x"]) for e in single] == [[0.5, -1.25], [2.0, 3.0], [7.0, 8.0]]
    batch = tf.io.parse_example(tf.constant([r.numpy() for r in records]), features)
    # TF 2.21's parse of the same three records
    assert plain(batch) == {"ids": [[[0, 0], [0, 1], [0, 2]], [3, 1, 4], [3, 3]],
                            "tag": [[[0, 0], [1, 0], [1, 1]], [b"cat", b"dog", b"\xff\x00"],
                                    [3, 2]],
                            "x": [[0.5, -1.25], [2.0, 3.0], [7.0, 8.0]]}
    traced = tf.function(lambda r: tf.io.parse_example(r, features)["x"] * 2)
    assert plain(traced(tf.constant([E1.replace(b"\x0a\x01a", b"\x0a\x01x")]))) == [[2.0, 4.0]]
