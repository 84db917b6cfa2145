"""tf.data.Dataset: sources, transformations, element specs, cardinality, laziness, errors."""
import itertools

import numpy as np
import pytest

import tapeflow as tf

Dataset = tf.data.Dataset


def values(ds) -> list:
    """The elements as nested Python lists / numbers."""
    return [_tolist(e) for e in ds.as_numpy_iterator()]


def _tolist(x):
    if isinstance(x, dict):
        return {k: _tolist(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(_tolist(v) for v in x)
    return x.tolist()


def spec(shape, dtype):
    return tf.TensorSpec(shape, dtype)


@pytest.fixture(autouse=True)
def no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


# -- sources ---------------------------------------------------------------------------------
@pytest.mark.parametrize("data,expected,element_spec", [
    ([1, 2, 3], [1, 2, 3], spec([], tf.int32)),
    ([[1, 2], [3, 4]], [[1, 2], [3, 4]], spec([2], tf.int32)),
    (np.array([1.5, 2.5]), [1.5, 2.5], spec([], tf.float64)),
    ([1.5, 2], [1.5, 2.0], spec([], tf.float32)),
    (([1, 2], [3.0, 4.0]), [(1, 3.0), (2, 4.0)], (spec([], tf.int32), spec([], tf.float32))),
    ({"b": [1], "a": [[2.0]]}, [{"b": 1, "a": [2.0]}],
     {"b": spec([], tf.int32), "a": spec([1], tf.float32)}),
], ids=["ints", "rows", "float64", "floats", "tuple", "dict"])
def test_from_tensor_slices(data, expected, element_spec):
    ds = Dataset.from_tensor_slices(data)
    assert values(ds) == expected
    assert ds.element_spec == element_spec
    assert int(ds.cardinality()) == len(expected) == len(ds)


def test_from_tensor_slices_keeps_dict_order_and_namedtuples():
    import collections
    Pair = collections.namedtuple("Pair", "x y")
    element = next(iter(Dataset.from_tensor_slices(Pair([1], [2]))))
    assert isinstance(element, Pair) and int(element.y) == 2
    assert list(next(iter(Dataset.from_tensor_slices({"z": [1], "a": [2]})))) == ["z", "a"]


@pytest.mark.parametrize("data,match", [
    (([1, 2, 3], [1, 2]), "Dimensions 3 and 2 are not compatible"),
    (3, "rank >= 1"),
    ((), "should not be empty"),
])
def test_from_tensor_slices_errors(data, match):
    with pytest.raises(ValueError, match=match):
        Dataset.from_tensor_slices(data)


def test_from_tensors_is_one_element():
    ds = Dataset.from_tensors(([1, 2], 3))
    assert values(ds) == [([1, 2], 3)]
    assert ds.element_spec == (spec([2], tf.int32), spec([], tf.int32))
    assert int(ds.cardinality()) == 1


@pytest.mark.parametrize("args,kwargs,expected", [
    ((5,), {}, [0, 1, 2, 3, 4]),
    ((2, 10, 3), {}, [2, 5, 8]),
    ((5, 0, -2), {}, [5, 3, 1]),
    ((3, 1), {}, []),
])
def test_range(args, kwargs, expected):
    ds = Dataset.range(*args, **kwargs)
    assert values(ds) == expected
    assert int(ds.cardinality()) == len(expected)
    assert ds.element_spec == spec([], tf.int64)


def test_range_output_type_and_zero_step():
    assert Dataset.range(3, output_type=tf.int32).element_spec == spec([], tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="step"):
        Dataset.range(0, 5, 0)


def test_from_generator_with_a_signature_converts_and_calls_anew_each_iteration():
    calls = []

    def gen():
        calls.append(1)
        for i in range(3):
            yield i, [i] * i

    ds = Dataset.from_generator(gen, output_signature=(spec([], tf.int32),
                                                       spec([None], tf.float32)))
    assert values(ds) == [(0, []), (1, [1.0]), (2, [2.0, 2.0])]
    assert values(ds)[2][1] == [2.0, 2.0] and len(calls) == 2
    first = next(iter(ds))
    assert first[1].dtype == tf.float32 and first[0].dtype == tf.int32
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY


def test_from_generator_older_types_and_shapes_and_args():
    ds = Dataset.from_generator(lambda n: ([i] for i in range(n)), output_types=tf.int64,
                                output_shapes=[1], args=(3,))
    assert ds.element_spec == spec([1], tf.int64)
    assert values(ds) == [[0], [1], [2]]
    assert Dataset.from_generator(lambda: iter([1]), output_types=tf.int64).element_spec == \
        spec(None, tf.int64)
    pairs = Dataset.from_generator(lambda: iter([(1, [2.0])]), output_types=(tf.int32, tf.float32),
                                   output_shapes=([], [None]))
    assert pairs.element_spec == (spec([], tf.int32), spec([None], tf.float32))


def test_an_infinite_generator_is_never_materialised():
    produced = []

    def forever():
        for i in itertools.count():
            produced.append(i)
            yield i

    ds = Dataset.from_generator(forever, output_signature=spec([], tf.int64))
    ds = ds.map(lambda x: x * 2).filter(lambda x: x % 3 == 0).shuffle(4, seed=1).batch(2)
    assert len(values(ds.take(3))) == 3
    assert len(produced) < 40


@pytest.mark.parametrize("kwargs,error,match", [
    ({}, TypeError, "either the `output_signature` argument or the `output_types`"),
    ({"output_types": tf.int32, "output_signature": spec([], tf.int32)}, TypeError,
     "can not be used together"),
])
def test_from_generator_argument_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        Dataset.from_generator(lambda: iter([1]), **kwargs)


@pytest.mark.parametrize("yielded,signature,match", [
    ([[1, 2]], spec([1], tf.int64), r"shape \(2,\) where an element of shape \(1,\)"),
    (["a"], spec([], tf.int64), "did not match the expected structure"),
    ([1], (spec([], tf.int32), spec([], tf.int32)), "did not match the expected structure"),
])
def test_from_generator_mismatches_raise_while_iterating(yielded, signature, match):
    ds = Dataset.from_generator(lambda: iter(yielded), output_signature=signature)
    with pytest.raises(tf.errors.InvalidArgumentError, match=match):
        list(ds)


def test_zip_structures_and_errors():
    a, b = Dataset.range(2), Dataset.range(5, 8)
    assert values(Dataset.zip(a, b)) == [(0, 5), (1, 6)]
    assert values(Dataset.zip((a, b))) == [(0, 5), (1, 6)]
    assert values(Dataset.zip({"x": a, "y": b})) == [{"x": 0, "y": 5}, {"x": 1, "y": 6}]
    assert Dataset.zip(a).element_spec == spec([], tf.int64)
    assert Dataset.zip(datasets=(a, (b, a))).element_spec == (
        spec([], tf.int64), (spec([], tf.int64), spec([], tf.int64)))
    with pytest.raises(TypeError, match="at least one dataset"):
        Dataset.zip()
    with pytest.raises(TypeError, match="encountered object of type <class 'int'>"):
        Dataset.zip(1, 2)


# -- transformations -------------------------------------------------------------------------
def test_map_unpacks_tuples_and_passes_dicts_and_makes_lists_tuples():
    pairs = Dataset.from_tensor_slices(([1, 2], [10, 20]))
    assert values(pairs.map(lambda a, b: a + b)) == [11, 22]
    assert values(Dataset.from_tensor_slices({"a": [1, 2]}).map(lambda d: d["a"] * 2)) == [2, 4]
    listed = Dataset.range(2).map(lambda x: [x, x + 1])
    assert values(listed) == [(0, 1), (1, 2)]
    assert listed.element_spec == (spec([], tf.int64), spec([], tf.int64))
    assert values(Dataset.range(2).map(lambda x: 1.5)) == [1.5, 1.5]
    assert values(Dataset.range(2).map(lambda x: x, num_parallel_calls=tf.data.AUTOTUNE,
                                       deterministic=True)) == [0, 1]


def test_map_receives_tensors_and_its_spec_comes_from_a_trace():
    seen = []
    ds = Dataset.range(4).batch(2).map(lambda x: (seen.append(type(x)) or tf.cast(x, tf.float32),
                                                  x * 2))
    assert ds.element_spec == (spec([None], tf.float32), spec([None], tf.int64))
    list(ds)
    assert tf.Tensor in seen


def test_map_with_value_dependent_shapes_reports_unknown_dimensions():
    ds = Dataset.range(1, 4).map(lambda n: tf.fill([n], n))
    assert ds.element_spec == spec([None], tf.int64)
    assert values(ds) == [[1], [2, 2], [3, 3, 3]]


def test_filter_and_its_errors():
    assert values(Dataset.range(10).filter(lambda x: x % 3 == 0)) == [0, 3, 6, 9]
    assert int(Dataset.range(5).filter(lambda x: x > 2).cardinality()) == -2
    with pytest.raises(ValueError, match="must return a `tf.bool` scalar tensor"):
        list(Dataset.range(3).filter(lambda x: x))
    with pytest.raises(ValueError, match="must return a `tf.bool` scalar tensor"):
        list(Dataset.range(4).batch(2).filter(lambda x: x > 1))


@pytest.mark.parametrize("drop,expected,card,batch_dim", [
    (False, [[0, 1], [2, 3], [4]], 3, None),
    (True, [[0, 1], [2, 3]], 2, 2),
])
def test_batch(drop, expected, card, batch_dim):
    ds = Dataset.range(5).batch(2, drop_remainder=drop)
    assert values(ds) == expected
    assert int(ds.cardinality()) == card
    assert ds.element_spec == spec([batch_dim], tf.int64)


def test_batch_of_structures_and_errors():
    ds = Dataset.from_tensor_slices({"x": [[1.0], [2.0], [3.0]], "y": [0, 1, 0]}).batch(2)
    assert values(ds) == [{"x": [[1.0], [2.0]], "y": [0, 1]}, {"x": [[3.0]], "y": [0]}]
    with pytest.raises(tf.errors.InvalidArgumentError, match="greater than zero"):
        Dataset.range(3).batch(0)
    ragged = Dataset.range(1, 3).map(lambda n: tf.fill([n], n)).batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="different shapes in component 0"):
        list(ragged)


def test_padded_batch_defaults_shapes_and_values():
    ds = Dataset.range(4).map(lambda x: tf.fill([x], x))
    assert values(ds.padded_batch(2)) == [[[0], [1]], [[2, 2, 0], [3, 3, 3]]]
    assert ds.padded_batch(2).element_spec == spec([None, None], tf.int64)
    fixed = ds.padded_batch(2, padded_shapes=[5], padding_values=tf.constant(-1, tf.int64))
    assert values(fixed) == [[[-1] * 5, [1, -1, -1, -1, -1]], [[2, 2, -1, -1, -1], [3, 3, 3, -1, -1]]]
    assert fixed.element_spec == spec([None, 5], tf.int64)
    assert int(ds.padded_batch(3, drop_remainder=True).cardinality()) == 1
    pairs = Dataset.range(3).map(lambda x: (tf.fill([x], x), x))
    padded = pairs.padded_batch(2, padding_values=(tf.constant(9, tf.int64),
                                                   tf.constant(0, tf.int64)))
    assert values(padded) == [([[9], [1]], [0, 1]), ([[2, 2]], [2])]


def test_padded_batch_errors():
    ds = Dataset.range(4).map(lambda x: tf.fill([x], x))
    with pytest.raises(tf.errors.DataLossError, match="pad to a smaller size"):
        list(ds.padded_batch(2, padded_shapes=[2]))
    with pytest.raises(TypeError, match="does not match type"):
        ds.padded_batch(2, padding_values=7)


def test_unbatch():
    ds = Dataset.range(6).batch(4).unbatch()
    assert values(ds) == [0, 1, 2, 3, 4, 5]
    assert ds.element_spec == spec([], tf.int64)
    assert int(ds.cardinality()) == -2
    pairs = Dataset.from_tensors(([1, 2], [[3], [4]])).unbatch()
    assert values(pairs) == [(1, [3]), (2, [4])]
    with pytest.raises(ValueError, match="scalar components"):
        Dataset.range(3).unbatch()


@pytest.mark.parametrize("build,expected", [
    (lambda: Dataset.range(10).skip(2).take(3), [2, 3, 4]),
    (lambda: Dataset.range(3).take(-1), [0, 1, 2]),
    (lambda: Dataset.range(3).skip(-1), []),
    (lambda: Dataset.range(2).repeat(2), [0, 1, 0, 1]),
    (lambda: Dataset.range(3).repeat(0), []),
    (lambda: Dataset.range(2).repeat().take(5), [0, 1, 0, 1, 0]),
    (lambda: Dataset.range(0).repeat(), []),
    (lambda: Dataset.range(2).concatenate(Dataset.range(5, 7)), [0, 1, 5, 6]),
    (lambda: Dataset.from_tensor_slices([5, 6]).enumerate(start=3), [(3, 5), (4, 6)]),
    (lambda: Dataset.range(1, 3).flat_map(lambda n: Dataset.range(n)), [0, 0, 1]),
    (lambda: Dataset.range(1, 6).interleave(lambda n: Dataset.from_tensors(n).repeat(6 - n),
                                            cycle_length=3, block_length=2),
     [1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 1, 4, 4, 5]),
    (lambda: Dataset.range(4).interleave(lambda n: Dataset.range(n * 10, n * 10 + 2),
                                         cycle_length=1), [0, 1, 10, 11, 20, 21, 30, 31]),
    (lambda: Dataset.range(3).prefetch(tf.data.AUTOTUNE), [0, 1, 2]),
    (lambda: Dataset.range(3).cache(), [0, 1, 2]),
])
def test_element_sequences(build, expected):
    assert values(build()) == expected


@pytest.mark.parametrize("build,expected", [
    (lambda: Dataset.range(5).repeat(), -1),
    (lambda: Dataset.range(5).repeat(3), 15),
    (lambda: Dataset.range(0).repeat(), 0),
    (lambda: Dataset.range(5).filter(lambda x: x > 2).repeat(), -1),
    (lambda: Dataset.range(5).take(3), 3),
    (lambda: Dataset.range(5).take(10), 5),
    (lambda: Dataset.range(5).repeat().take(4), 4),
    (lambda: Dataset.range(5).skip(3), 2),
    (lambda: Dataset.range(5).skip(10), 0),
    (lambda: Dataset.range(5).repeat().skip(4), -1),
    (lambda: Dataset.zip(Dataset.range(3), Dataset.range(5).repeat()), 3),
    (lambda: Dataset.range(3).concatenate(Dataset.range(2)), 5),
    (lambda: Dataset.range(3).concatenate(Dataset.range(2).repeat()), -1),
    (lambda: Dataset.range(5).filter(lambda x: x > 2).batch(2), -2),
    (lambda: Dataset.range(5).repeat().batch(2), -1),
    (lambda: Dataset.range(5).map(lambda x: x).shuffle(2).cache().prefetch(1), 5),
    (lambda: Dataset.range(5).enumerate(), 5),
])
def test_cardinality(build, expected):
    ds = build()
    assert int(ds.cardinality()) == expected
    assert ds.cardinality().dtype == tf.int64
    assert int(tf.data.experimental.cardinality(ds)) == expected


def test_len_of_infinite_and_unknown_datasets():
    with pytest.raises(TypeError, match="infinite"):
        len(Dataset.range(2).repeat())
    with pytest.raises(TypeError, match="unknown"):
        len(Dataset.range(2).filter(lambda x: True))
    assert tf.data.INFINITE_CARDINALITY == tf.data.AUTOTUNE == -1
    assert tf.data.UNKNOWN_CARDINALITY == -2 and tf.data.experimental.AUTOTUNE == -1


def test_concatenate_merges_shapes_and_rejects_other_dtypes():
    ds = Dataset.from_tensor_slices([[1, 2]]).concatenate(Dataset.from_tensor_slices([[1, 2, 3]]))
    assert ds.element_spec == spec([None], tf.int32)
    assert Dataset.range(2).concatenate(Dataset.range(2).batch(1)).element_spec == \
        spec(None, tf.int64)
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        Dataset.range(3).concatenate(Dataset.from_tensor_slices([1.0]))


def order(ds) -> list:
    return [int(x) for x in ds]


def test_shuffle_is_a_permutation_reproducible_with_a_seed():
    ds = Dataset.range(20).shuffle(20, seed=7)
    first, second = order(ds), order(ds)
    assert sorted(first) == sorted(second) == list(range(20))
    assert first != second                                # reshuffled each iteration
    again = Dataset.range(20).shuffle(20, seed=7)
    assert order(again) == first and order(again) == second
    fixed = Dataset.range(20).shuffle(20, seed=7, reshuffle_each_iteration=False)
    assert order(fixed) == order(fixed)


def test_shuffle_follows_the_global_seed():
    tf.random.set_seed(3)
    a = order(Dataset.range(30).shuffle(30))
    tf.random.set_seed(3)
    assert order(Dataset.range(30).shuffle(30)) == a


def test_a_small_shuffle_buffer_only_moves_elements_locally():
    shuffled = order(Dataset.range(100).shuffle(3, seed=1))
    assert sorted(shuffled) == list(range(100))
    assert all(x <= i + 2 for i, x in enumerate(shuffled))    # at most 2 elements ahead


def test_shuffle_then_repeat_gives_a_new_order_per_epoch():
    epochs = order(Dataset.range(10).shuffle(10, seed=2).repeat(2))
    assert sorted(epochs[:10]) == sorted(epochs[10:]) == list(range(10))
    assert epochs[:10] != epochs[10:]
    with pytest.raises(tf.errors.InvalidArgumentError, match="buffer_size"):
        Dataset.range(3).shuffle(0)


def test_cache_in_memory_runs_the_input_once_and_only_after_a_full_pass():
    calls = []
    ds = Dataset.range(3).map(lambda x: calls.append(1) or x).cache()
    assert order(ds.take(2)) == [0, 1]                   # a partial pass caches nothing
    assert order(ds) == [0, 1, 2] and order(ds) == [0, 1, 2]
    assert len(calls) == 2 + 3


def test_cache_to_a_file_is_read_by_a_new_pipeline(tmp_path):
    path = tmp_path / "cache"
    calls = []

    def rows():
        for i in (1, 2):
            calls.append(i)
            yield {"a": i}, [i - 0.5]

    def make():
        signature = ({"a": spec([], tf.int32)}, spec([1], tf.float32))
        return Dataset.from_generator(rows, output_signature=signature).cache(str(path))

    assert values(make()) == [({"a": 1}, [0.5]), ({"a": 2}, [1.5])]
    assert (tmp_path / "cache.index").exists() and calls == [1, 2]  # TF's: a TensorBundle
    assert values(make()) == [({"a": 1}, [0.5]), ({"a": 2}, [1.5])]
    assert calls == [1, 2]


@pytest.mark.parametrize("args,kwargs,expected", [
    ((3, 2), {}, [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]),
    ((3, 2), {"drop_remainder": True}, [[0, 1, 2], [2, 3, 4], [4, 5, 6]]),
    ((3, 1, 2), {"drop_remainder": True}, [[0, 2, 4], [1, 3, 5], [2, 4, 6]]),
    ((2, 4), {}, [[0, 1], [4, 5]]),
    ((3,), {}, [[0, 1, 2], [3, 4, 5], [6]]),
])
def test_window(args, kwargs, expected):
    windows = Dataset.range(7).window(*args, **kwargs)
    assert [[int(x) for x in w] for w in windows] == expected
    assert int(windows.cardinality()) == len(expected)
    assert windows.element_spec == tf.data.DatasetSpec(spec([], tf.int64))


def test_window_of_structures_and_of_an_endless_stream():
    pairs = Dataset.from_tensor_slices(([1, 2, 3], [4.0, 5.0, 6.0])).window(2)
    assert [values(Dataset.zip(w)) for w in pairs] == [[(1, 4.0), (2, 5.0)], [(3, 6.0)]]
    endless = Dataset.range(5).repeat().window(4, shift=1).flat_map(lambda w: w.batch(4))
    assert values(endless.take(3)) == [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="positive"):
        Dataset.range(3).window(0)


def test_get_single_element():
    assert values(Dataset.from_tensors(([1, 2], 3)).take(1)) == [([1, 2], 3)]
    assert int(Dataset.range(1).get_single_element()) == 0
    for ds, match in ((Dataset.range(0), "empty"), (Dataset.range(2), "more than one")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=match):
            ds.get_single_element()


# -- iteration and inspection ----------------------------------------------------------------
def test_iterators_and_their_end():
    it = iter(Dataset.range(2))
    assert it.element_spec == spec([], tf.int64)
    assert int(next(it)) == 0 and int(it.get_next()) == 1
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()
    with pytest.raises(StopIteration):
        next(iter(Dataset.range(0)))


def test_as_numpy_iterator_gives_numpy_values():
    items = list(Dataset.from_tensor_slices(([1, 2], [[1.0], [2.0]])).as_numpy_iterator())
    assert isinstance(items[0][0], np.int32) and isinstance(items[0][1], np.ndarray)


def test_repr_reduce_and_apply():
    assert repr(Dataset.from_tensor_slices([1, 2])) == (
        "<_TensorSliceDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>")
    assert int(Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x)) == 10
    assert order(Dataset.range(4).apply(lambda d: d.skip(2))) == [2, 3]
    with pytest.raises(TypeError, match="must return a `tf.data.Dataset`"):
        Dataset.range(2).apply(lambda d: 3)


def test_transformations_leave_the_dataset_unchanged():
    ds = Dataset.range(4)
    ds.map(lambda x: x * 2).batch(2).shuffle(2).take(1)
    assert order(ds) == [0, 1, 2, 3]


def test_iterating_inside_a_graph_is_an_error():
    ds = Dataset.range(2)

    @tf.function
    def total():
        return sum(x for x in ds)

    with pytest.raises(RuntimeError, match="only supports Python-style iteration in eager"):
        total()


@pytest.mark.parametrize("make,error", [
    (lambda: Dataset.range(3).take(1.5), TypeError),
    (lambda: Dataset.range(3).concatenate([1]), TypeError),
    (lambda: Dataset.from_generator(3, output_types=tf.int32), TypeError),
    (lambda: Dataset.range(3).interleave(Dataset.range, cycle_length=0),
     tf.errors.InvalidArgumentError),
    (lambda: list(Dataset.range(3).flat_map(lambda x: x)), TypeError),
])
def test_bad_arguments(make, error):
    with pytest.raises(error):
        make()


def test_counts_may_be_tensors():
    assert order(Dataset.range(10).skip(tf.constant(7, tf.int64)).take(tf.constant(2))) == [7, 8]
