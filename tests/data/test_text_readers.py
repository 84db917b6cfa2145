"""Text in tf.data: TextLineDataset, CsvDataset, make_csv_dataset, string generators and
maps, and failed elements that leave the iterator usable (TF 2.21's behaviour, recorded)."""
import gzip
import zlib

import numpy as np
import pytest

import tapeflow as tf


@pytest.fixture
def files(tmp_path):
    (tmp_path / "t.txt").write_bytes(b"l1\nl2\r\nl3")
    (tmp_path / "f.csv").write_bytes(b"a,b\n1,2\n3,x\n5,6\n")
    (tmp_path / "m.csv").write_bytes(b"name,age,score,big\nann,3,1.5,9999999999\nbob,,2,1\n"
                                     b"cy,5,x,2\n")
    (tmp_path / "t.gz").write_bytes(gzip.compress(b"g1\ng2\n"))
    (tmp_path / "t.z").write_bytes(zlib.compress(b"z1\n"))
    return tmp_path


def _drain(iterator, limit=12):
    """What each next() gives: values, an exception class name, or 'stop'."""
    out = []
    for _ in range(limit):
        try:
            element = next(iterator)
        except StopIteration:
            out.append("stop")
            return out
        except tf.errors.OpError as e:
            out.append(type(e).__name__)
            continue
        out.append(tuple(t.numpy() for t in element) if isinstance(element, tuple)
                   else element.numpy())
    return out


def test_text_lines(files):
    ds = tf.data.TextLineDataset(str(files / "t.txt"))
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    assert list(ds.as_numpy_iterator()) == [b"l1", b"l2", b"l3"]
    both = tf.data.TextLineDataset([str(files / "t.txt"), str(files / "f.csv")])
    assert list(both.as_numpy_iterator()) == [b"l1", b"l2", b"l3", b"a,b", b"1,2", b"3,x",
                                              b"5,6"]
    assert list(tf.data.TextLineDataset(str(files / "t.gz"), "GZIP").as_numpy_iterator()) == \
        [b"g1", b"g2"]
    assert list(tf.data.TextLineDataset(str(files / "t.z"), "ZLIB").as_numpy_iterator()) == \
        [b"z1"]
    split = tf.data.TextLineDataset(str(files / "f.csv")).skip(1).map(
        lambda line: tf.strings.split(line, ","))
    assert [x.tolist() for x in split.as_numpy_iterator()] == [[b"1", b"2"], [b"3", b"x"],
                                                                [b"5", b"6"]]


def test_a_missing_file_is_an_error_naming_it_and_the_next_file_follows(files):
    with pytest.raises(tf.errors.NotFoundError, match="missing.txt"):
        list(tf.data.TextLineDataset(str(files / "missing.txt")))
    ds = tf.data.TextLineDataset([str(files / "t.txt"), str(files / "missing.txt"),
                                  str(files / "t.z")], "")
    # (TF raises NotFoundError again on each later next(); tapeflow goes on to the next file)
    assert _drain(iter(ds))[:4] == [b"l1", b"l2", b"l3", "NotFoundError"]


def test_csv_records_and_a_bad_record_leaves_the_iterator_usable(files):
    path = str(files / "f.csv")
    ds = tf.data.experimental.CsvDataset(path, [tf.int32, tf.string], header=True)
    assert ds.element_spec == (tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.string))
    assert _drain(iter(ds)) == [(1, b"2"), (3, b"x"), (5, b"6"), "stop"]
    ints = tf.data.experimental.CsvDataset(path, [[0], [0]], header=True)
    assert _drain(iter(ints)) == [(1, 2), "InvalidArgumentError", (5, 6), "stop"]
    assert [tuple(int(t) for t in r) for r in ints.ignore_errors()] == [(1, 2), (5, 6)]
    second = tf.data.experimental.CsvDataset(path, [tf.string], select_cols=[1])
    assert [r[0].numpy() for r in second] == [b"b", b"2", b"x", b"6"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="select_cols should match"):
        tf.data.experimental.CsvDataset(path, [tf.string, tf.string], select_cols=[1])


def test_a_failed_map_leaves_the_iterator_usable():
    ds = tf.data.Dataset.from_tensor_slices(["1", "x", "3"]).map(tf.strings.to_number)
    assert _drain(iter(ds)) == [1.0, "InvalidArgumentError", 3.0, "stop"]
    assert list(ds.ignore_errors().as_numpy_iterator()) == [1.0, 3.0]
    assert [float(x) for x in ds.apply(tf.data.experimental.ignore_errors())] == [1.0, 3.0]
    # a failed element fails its batch, and the next batch follows
    assert _drain(iter(ds.batch(2))) == ["InvalidArgumentError", [3.0], "stop"]


def test_make_csv_dataset_infers_types_and_batches(files):
    ds = tf.data.experimental.make_csv_dataset(str(files / "m.csv"), batch_size=2,
                                               shuffle=False, num_epochs=1)
    assert {k: s.dtype for k, s in ds.element_spec.items()} == {
        "name": tf.string, "age": tf.int32, "score": tf.string, "big": tf.int64}
    assert list(ds.element_spec) == ["name", "age", "score", "big"]
    batches = [{k: v.numpy().tolist() for k, v in b.items()} for b in ds]
    assert batches == [{"name": [b"ann", b"bob"], "age": [3, 0], "score": [b"1.5", b"2"],
                        "big": [9999999999, 1]},
                       {"name": [b"cy"], "age": [5], "score": [b"x"], "big": [2]}]
    labelled = tf.data.experimental.make_csv_dataset(
        str(files / "m.csv"), batch_size=3, shuffle=False, num_epochs=1, label_name="age",
        select_columns=["name", "age"])
    features, labels = next(iter(labelled))
    assert list(features) == ["name"] and labels.numpy().tolist() == [3, 0, 5]
    assert features["name"].numpy().tolist() == [b"ann", b"bob", b"cy"]


def test_make_csv_dataset_with_names_defaults_epochs_and_errors(files):
    path = str(files / "f.csv")
    ds = tf.data.experimental.make_csv_dataset([path, path], batch_size=10, shuffle=False,
                                               num_epochs=2, column_names=["p", "q"])
    assert [b["p"].numpy().tolist() for b in ds] == [[1, 3, 5, 1, 3, 5, 1, 3, 5, 1], [3, 5]]
    ds = tf.data.experimental.make_csv_dataset(path, batch_size=2, shuffle=False, num_epochs=1,
                                               column_defaults=[0, "z"])
    assert [b["b"].numpy().tolist() for b in ds] == [[b"2", b"x"], [b"6"]]
    shuffled = tf.data.experimental.make_csv_dataset(path, batch_size=3, num_epochs=1,
                                                     shuffle_seed=1)
    assert sorted(next(iter(shuffled))["a"].numpy().tolist()) == [1, 3, 5]
    with pytest.raises(ValueError, match="No files match"):
        tf.data.experimental.make_csv_dataset(str(files / "none*.csv"), 2)
    with pytest.raises(ValueError, match="label_name"):
        tf.data.experimental.make_csv_dataset(path, 2, label_name="c")


def test_generators_and_maps_of_strings(files):
    def lines():
        yield from open(files / "t.txt", "rb").read().split(b"\n")
    ds = tf.data.Dataset.from_generator(lines, output_signature=tf.TensorSpec([], tf.string))
    upper = ds.map(lambda s: tf.strings.upper(tf.strings.strip(s)))
    assert list(upper.as_numpy_iterator()) == [b"L1", b"L2", b"L3"]
    lengths = ds.map(tf.strings.length).batch(3)
    assert next(iter(lengths)).numpy().tolist() == [2, 3, 2]
    words = tf.data.TextLineDataset(str(files / "f.csv")).map(
        lambda line: tf.strings.to_hash_bucket_fast(line, 100))
    assert np.all(np.array(list(words.as_numpy_iterator())) < 100)
