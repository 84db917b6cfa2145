"""tf.data pipelines, Keras metric history keys, clip_by_global_norm and tf.print, each
written once against a module `tf` and run with tapeflow and with TensorFlow."""
import sys

import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

# Each pipeline is `fn(tf)` returning a dataset; its elements (dtypes, shapes, values),
# element_spec and cardinality must be the same under tapeflow and TensorFlow.
PIPELINES = {
    "from_tensor_slices tuple": lambda tf: tf.data.Dataset.from_tensor_slices(
        ([1, 2, 3], [[1.0], [2.0], [3.0]])),
    "from_tensor_slices dict": lambda tf: tf.data.Dataset.from_tensor_slices(
        {"b": np.arange(4.0), "a": [[1, 2]] * 4}),
    "from_tensor_slices rows": lambda tf: tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]),
    "from_tensor_slices float64": lambda tf: tf.data.Dataset.from_tensor_slices(np.ones(2)),
    "from_tensors": lambda tf: tf.data.Dataset.from_tensors(([1, 2], 3.0)),
    "range": lambda tf: tf.data.Dataset.range(2, 11, 3),
    "range down": lambda tf: tf.data.Dataset.range(5, 0, -2),
    "range int32": lambda tf: tf.data.Dataset.range(3, output_type=tf.int32),
    "batch": lambda tf: tf.data.Dataset.range(7).batch(3),
    "batch drop_remainder": lambda tf: tf.data.Dataset.range(7).batch(3, drop_remainder=True),
    "batch dict": lambda tf: tf.data.Dataset.from_tensor_slices(
        {"x": np.arange(10.0).reshape(5, 2), "y": np.arange(5)}).batch(2),
    "padded_batch": lambda tf: tf.data.Dataset.range(5).map(
        lambda x: tf.fill([x], x)).padded_batch(2, padded_shapes=[5],
                                                padding_values=tf.constant(-1, tf.int64)),
    "padded_batch rows": lambda tf: tf.data.Dataset.from_tensor_slices(
        np.arange(12).reshape(6, 2)).padded_batch(4, padded_shapes=[3]),
    "padded_batch bool float": lambda tf: tf.data.Dataset.range(4).map(
        lambda x: (tf.fill([x], x > 1), tf.fill([x, 2], tf.cast(x, tf.float32)))).padded_batch(
        3, padded_shapes=([4], [None, 2])),
    "nested batch unbatch": lambda tf: tf.data.Dataset.from_tensor_slices(
        {"a": ([1, 2, 3], [[1.0], [2.0], [3.0]]), "b": [4, 5, 6]}).batch(2).unbatch(),
    "unbatch": lambda tf: tf.data.Dataset.range(7).batch(3).unbatch(),
    "unbatch tuple": lambda tf: tf.data.Dataset.from_tensors(
        ([1, 2, 3], [[1.0], [2.0], [3.0]])).unbatch(),
    "zip": lambda tf: tf.data.Dataset.zip(tf.data.Dataset.range(3),
                                          tf.data.Dataset.range(10, 20)),
    "zip dict": lambda tf: tf.data.Dataset.zip({"a": tf.data.Dataset.range(2),
                                                "b": tf.data.Dataset.range(3).repeat()}),
    "enumerate": lambda tf: tf.data.Dataset.from_tensor_slices([5.0, 6.0]).enumerate(start=3),
    "filter": lambda tf: tf.data.Dataset.range(20).filter(lambda x: x % 3 == 0),
    "map tuple": lambda tf: tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4])).map(
        lambda a, b: (a + b, tf.cast(a, tf.float32) * 0.5)),
    "map dict": lambda tf: tf.data.Dataset.from_tensor_slices({"a": [1.0, 2.0]}).map(
        lambda d: {"twice": d["a"] * 2, "a": d["a"]}),
    "map batch": lambda tf: tf.data.Dataset.range(6).batch(4).map(lambda x: x * 2),
    "take skip": lambda tf: tf.data.Dataset.range(10).skip(2).take(3),
    "take all": lambda tf: tf.data.Dataset.range(3).take(-1),
    "skip all": lambda tf: tf.data.Dataset.range(3).skip(-1),
    "repeat": lambda tf: tf.data.Dataset.range(3).repeat(2),
    "repeat take": lambda tf: tf.data.Dataset.range(3).repeat().take(7),
    "concatenate": lambda tf: tf.data.Dataset.range(2).concatenate(tf.data.Dataset.range(5, 7)),
    "cache prefetch": lambda tf: tf.data.Dataset.range(4).cache().prefetch(tf.data.AUTOTUNE),
    "flat_map": lambda tf: tf.data.Dataset.range(1, 4).flat_map(
        lambda n: tf.data.Dataset.range(n)),
    "interleave": lambda tf: tf.data.Dataset.range(1, 6).interleave(
        lambda n: tf.data.Dataset.from_tensors(n).repeat(6 - n), cycle_length=3,
        block_length=2),
    "interleave ranges": lambda tf: tf.data.Dataset.range(5).interleave(
        lambda n: tf.data.Dataset.range(n), cycle_length=4),
    "window": lambda tf: tf.data.Dataset.range(7).window(3, 2).flat_map(
        lambda w: w.batch(3)),
    "window stride": lambda tf: tf.data.Dataset.range(9).window(
        3, 1, 2, drop_remainder=True).flat_map(lambda w: w.batch(3)),
    "window tuple": lambda tf: tf.data.Dataset.from_tensor_slices(
        ([1, 2, 3], [4.0, 5.0, 6.0])).window(2).flat_map(tf.data.Dataset.zip),
}

# Cardinality and element_spec of pipelines that are not iterated to the end.
SPECS = {
    "repeat forever": lambda tf: tf.data.Dataset.range(5).repeat(),
    "repeat empty": lambda tf: tf.data.Dataset.range(0).repeat(),
    "filter repeat": lambda tf: tf.data.Dataset.range(5).filter(lambda x: x > 2).repeat(),
    "take of infinite": lambda tf: tf.data.Dataset.range(5).repeat().take(4),
    "skip of infinite": lambda tf: tf.data.Dataset.range(5).repeat().skip(4),
    "skip past the end": lambda tf: tf.data.Dataset.range(5).skip(10),
    "zip with infinite": lambda tf: tf.data.Dataset.zip(tf.data.Dataset.range(3),
                                                        tf.data.Dataset.range(5).repeat()),
    "concatenate infinite": lambda tf: tf.data.Dataset.range(3).concatenate(
        tf.data.Dataset.range(2).repeat()),
    "filter batch": lambda tf: tf.data.Dataset.range(5).filter(lambda x: x > 2).batch(2),
    "batch of infinite": lambda tf: tf.data.Dataset.range(5).repeat().batch(2),
    "padded_batch of infinite": lambda tf: tf.data.Dataset.range(5).repeat().padded_batch(2),
    "unbatch": lambda tf: tf.data.Dataset.range(6).batch(2).unbatch(),
    "generator": lambda tf: tf.data.Dataset.from_generator(
        lambda: iter([(1, [2.0])]), output_signature=(tf.TensorSpec([], tf.int32),
                                                      tf.TensorSpec([None], tf.float32))),
    "generator types": lambda tf: tf.data.Dataset.from_generator(
        lambda: iter([[1]]), output_types=tf.int64, output_shapes=[1]),
    "map cast": lambda tf: tf.data.Dataset.range(4).batch(2).map(
        lambda x: (tf.cast(x, tf.float32), {"y": x * 2})),
    "concatenate shapes": lambda tf: tf.data.Dataset.from_tensor_slices([[1, 2]]).concatenate(
        tf.data.Dataset.from_tensor_slices([[1, 2, 3]])),
    "shuffle": lambda tf: tf.data.Dataset.range(5).shuffle(3, seed=1),
    "window": lambda tf: tf.data.Dataset.range(7).window(3, 2),
    "window drop_remainder": lambda tf: tf.data.Dataset.range(7).window(3, 2,
                                                                       drop_remainder=True),
    "window of infinite": lambda tf: tf.data.Dataset.range(7).repeat().window(3),
}


def describe_tensor(t) -> tuple:
    value = t.numpy()
    return (t.dtype.name, tuple(t.shape.as_list()), np.asarray(value).tolist())


def describe_structure(x, leaf):
    if isinstance(x, dict):
        return {k: describe_structure(v, leaf) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(describe_structure(v, leaf) for v in x)
    return leaf(x)


def describe_spec(spec) -> tuple:
    if type(spec).__name__ == "DatasetSpec":
        return ("DatasetSpec", describe_structure(spec.element_spec, describe_spec))
    shape = spec.shape
    return (spec.dtype.name, None if shape.rank is None else tuple(shape.as_list()))


def summary(ds, iterate: bool) -> dict:
    result = {"spec": describe_structure(ds.element_spec, describe_spec),
              "cardinality": int(ds.cardinality())}
    if iterate:
        result["elements"] = [describe_structure(e, describe_tensor) for e in ds]
    return result


@pytest.mark.parametrize("label", list(PIPELINES))
def test_pipeline_elements(label, tensorflow):
    ours = summary(PIPELINES[label](tapeflow), iterate=True)
    theirs = summary(PIPELINES[label](tensorflow), iterate=True)
    assert ours == theirs


@pytest.mark.parametrize("label", list(SPECS))
def test_pipeline_spec_and_cardinality(label, tensorflow):
    assert summary(SPECS[label](tapeflow), False) == summary(SPECS[label](tensorflow), False)


ERRORS = {
    "unequal first dimensions": lambda tf: tf.data.Dataset.from_tensor_slices(([1, 2, 3], [1])),
    "scalar slices": lambda tf: tf.data.Dataset.from_tensor_slices(3),
    "unbatch scalars": lambda tf: tf.data.Dataset.range(3).unbatch(),
    "zip of a number": lambda tf: tf.data.Dataset.zip(1, 2),
    "generator without types": lambda tf: tf.data.Dataset.from_generator(lambda: iter([1])),
    "concatenate dtypes": lambda tf: tf.data.Dataset.range(2).concatenate(
        tf.data.Dataset.from_tensor_slices([1.0])),
    "padding value dtype": lambda tf: tf.data.Dataset.range(3).map(
        lambda x: tf.fill([x], x)).padded_batch(2, padding_values=7),
    "len of infinite": lambda tf: len(tf.data.Dataset.range(2).repeat()),
    "len of unknown": lambda tf: len(tf.data.Dataset.range(2).filter(lambda x: x > 0)),
    "generator shape": lambda tf: list(tf.data.Dataset.from_generator(
        lambda: iter([[1, 2]]), output_types=tf.int64, output_shapes=[1])),
    "batch of ragged": lambda tf: list(tf.data.Dataset.range(1, 3).map(
        lambda n: tf.fill([n], n)).batch(2)),
    "pad to smaller": lambda tf: list(tf.data.Dataset.range(4).map(
        lambda n: tf.fill([n], n)).padded_batch(2, padded_shapes=[2])),
    "get_next at the end": lambda tf: [iter(tf.data.Dataset.range(0)).get_next()],
    "single element of many": lambda tf: tf.data.Dataset.range(2).get_single_element(),
    "single element of none": lambda tf: tf.data.Dataset.range(0).get_single_element(),
}


def raised(fn, module) -> str:
    try:
        fn(module)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return type(e).__name__
    return "nothing"


@pytest.mark.parametrize("label", list(ERRORS))
def test_error_classes(label, tensorflow):
    assert raised(ERRORS[label], tapeflow) == raised(ERRORS[label], tensorflow)


@pytest.mark.parametrize("name", ["mae", "mse", "acc", "accuracy", "mean_absolute_error",
                                  "mean_squared_error", "binary_accuracy", "MeanAbsoluteError"])
def test_metric_history_keys(name, tensorflow):
    def keys(tf) -> list:
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid")])
        model.compile(optimizer="sgd", loss="mse", metrics=[name])
        x = np.linspace(-1, 1, 8).reshape(4, 2).astype(np.float32)
        y = np.array([[0.0], [1.0], [0.0], [1.0]], np.float32)
        data = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
        return sorted(model.fit(data, validation_data=data, verbose=0).history)
    assert keys(tapeflow) == keys(tensorflow)


def test_clip_by_global_norm_values(tensorflow):
    def clip(tf, **kwargs):
        slices = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]),
                                  tf.constant([3, 2]))
        tensors = [tf.constant([3.0, 4.0]), None, slices, tf.constant([[12.0]])]
        clipped, norm = tf.clip_by_global_norm(tensors, 2.5, **kwargs)
        return [None if c is None else tf.convert_to_tensor(c).numpy() for c in clipped], \
            norm.numpy()

    for kwargs in ({}, {"use_norm": tensorflow.constant(20.0)}):
        tf_kwargs = {k: tapeflow.constant(float(v)) for k, v in kwargs.items()}
        (ours, our_norm), (theirs, their_norm) = clip(tapeflow, **tf_kwargs), \
            clip(tensorflow, **kwargs)
        np.testing.assert_allclose(our_norm, their_norm, rtol=1e-6)
        for a, b in zip(ours, theirs):
            assert (a is None) == (b is None)
            if a is not None:
                np.testing.assert_allclose(a, b, rtol=1e-6)
    assert float(tapeflow.linalg.global_norm([tapeflow.constant([3.0, 4.0])])) == \
        pytest.approx(float(tensorflow.linalg.global_norm([tensorflow.constant([3.0, 4.0])])))


def test_print_formatting(tensorflow, capfd):
    def show(tf):
        tf.print(tf.constant([1e-8, 0.1, 1 / 3, 123456789.0]), tf.range(20),
                 tf.reshape(tf.range(24), [2, 3, 4]), {"a": tf.constant([True, False])},
                 tf.constant([1.0, 2.0], tf.float64) / 3, "s", 3, summarize=2,
                 output_stream=sys.stdout)
        tf.print(tf.reshape(tf.range(100), [10, 10]), output_stream=sys.stdout)
    show(tapeflow)
    ours = capfd.readouterr().out
    show(tensorflow)
    assert ours == capfd.readouterr().out
