"""Flattening and re-packing nested structures."""
import collections
import gc
import weakref

import tapeflow as tf
from tapeflow.framework import nest


def test_flatten_and_pack_round_trip():
    Pair = collections.namedtuple("Pair", ["a", "b"])
    structure = {"b": [1, (2, 3)], "a": Pair(4, {"z": 5, "y": 6})}
    flat = nest.flatten(structure)
    assert flat == [4, 6, 5, 1, 2, 3]  # dicts by sorted key
    packed = nest.pack_sequence_as(structure, [x * 10 for x in flat])
    assert packed == {"b": [10, (20, 30)], "a": Pair(40, {"z": 50, "y": 60})}
    assert list(packed) == ["b", "a"] and type(packed["a"]) is Pair
    assert nest.map_structure(lambda x: -x, [1, (2,)]) == [-1, (-2,)]


def test_packing_keeps_no_leaf_alive():
    # A gradient returned by GradientTape.gradient is freed as soon as the caller drops it,
    # not when the garbage collector next runs.
    leaf = tf.constant([1.0, 2.0])
    ref = weakref.ref(leaf)
    gc.disable()
    try:
        packed = nest.pack_sequence_as([None, (None,)], [leaf, 3])
        del leaf, packed
        assert ref() is None
    finally:
        gc.enable()
