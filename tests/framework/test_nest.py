"""Flattening and re-packing nested structures."""
import collections
import gc
import weakref

import numpy as np
import pytest

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


# What TF 2.21 gives, recorded from it: tf.nest's rules for each kind of structure.
Point = collections.namedtuple("Point", "a b")


def test_dicts_flatten_by_sorted_key_and_rebuild_in_their_own_order():
    ordered = collections.OrderedDict([("b", 1), ("a", 2)])
    assert tf.nest.flatten(ordered) == [2, 1]
    packed = tf.nest.pack_sequence_as(ordered, [10, 20])
    assert type(packed) is collections.OrderedDict and list(packed.items()) == [("b", 20),
                                                                                ("a", 10)]
    default = collections.defaultdict(list, {"b": 1, "a": 2})
    doubled = tf.nest.map_structure(lambda x: x * 2, default)
    assert type(doubled) is collections.defaultdict and doubled.default_factory is list
    assert list(doubled.items()) == [("b", 2), ("a", 4)]
    assert list(tf.nest.map_structure(lambda x: x, {"b": 1, "a": 2})) == ["b", "a"]


def test_leaves_and_other_sequences():
    assert tf.nest.flatten(None) == [None]
    assert tf.nest.flatten([None, (), [], {}]) == [None]
    assert tf.nest.flatten(["ab", b"cd"]) == ["ab", b"cd"]
    assert tf.nest.flatten({1, 2}) == [{1, 2}]
    assert tf.nest.flatten({"b": 1, "a": 2}.values()) == [1, 2]
    assert tf.nest.flatten({"b": 1, "a": 2}.items()) == ["b", 1, "a", 2]
    assert tf.nest.pack_sequence_as(range(2), [5, 6]) == [5, 6]
    assert tf.nest.pack_sequence_as(collections.deque([1, 2]), [5, 6]) == \
        collections.deque([5, 6])
    checks = [[], (), {}, "a", None, 1, Point(1, 2), {1}, tf.constant(1),
              collections.OrderedDict(), range(3), bytearray(b"x")]
    assert [tf.nest.is_nested(x) for x in checks] == [True, True, True, False, False, False,
                                                      True, False, False, True, True, True]


def test_attrs_classes_and_proxies():
    attr = pytest.importorskip("attr")

    @attr.s
    class Pair:
        x = attr.ib()
        y = attr.ib()

    assert tf.nest.flatten(Pair(2, [1, 3])) == [2, 1, 3]
    assert tf.nest.pack_sequence_as(Pair(2, [1, 3]), [7, 8, 9]) == Pair(7, [8, 9])
    wrapt = pytest.importorskip("wrapt")
    proxy = wrapt.ObjectProxy([1, 2])
    assert tf.nest.is_nested(proxy) and tf.nest.flatten(proxy) == [1, 2]
    packed = tf.nest.pack_sequence_as(proxy, [3, 4])
    assert type(packed) is wrapt.ObjectProxy and packed.__wrapped__ == [3, 4]


def test_composites_expand_to_their_components():
    st = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
    assert tf.nest.flatten(st) == [st] and not tf.nest.is_nested(st)
    parts = tf.nest.flatten(st, expand_composites=True)
    assert [p.numpy().tolist() for p in parts] == [[[0, 0]], [1.0], [2, 2]]
    rebuilt = tf.nest.pack_sequence_as(st, parts, expand_composites=True)
    assert isinstance(rebuilt, tf.SparseTensor) and rebuilt.values.numpy().tolist() == [1.0]
    assert len(tf.nest.flatten([1, st, {"a": st}], expand_composites=True)) == 7
    specs = tf.nest.flatten(tf.SparseTensorSpec([2, 2], tf.float32), expand_composites=True)
    assert [(s.shape.as_list(), s.dtype) for s in specs] == [
        ([None, 2], tf.int64), ([None], tf.float32), ([2], tf.int64)]
    tf.nest.assert_same_structure(st, tf.SparseTensor([[0, 1]], [3.0], [3, 3]),
                                  expand_composites=True)
    with pytest.raises(ValueError, match="Incompatible CompositeTensor TypeSpecs"):
        tf.nest.assert_same_structure(st, tf.SparseTensor([[0, 1]], [3], [2, 2]),
                                      expand_composites=True)
    with pytest.raises(ValueError, match="is a sequence, while substructure"):
        tf.nest.assert_same_structure(st, tf.constant(1.0), expand_composites=True)
    tf.nest.assert_same_structure(st, tf.constant(1))     # not expanded: two leaves


def test_assert_same_structure_errors():
    head = "The two structures don't have the same nested structure."
    with pytest.raises(ValueError) as info:
        tf.nest.assert_same_structure([1, 2], [1, 2, 3])
    text = str(info.value)
    assert text.startswith(head + "\n\nFirst structure: type=list str=[1, 2]\n\n")
    assert "More specifically: The two structures don't have the same number of elements." \
        in text and text.endswith("Entire first structure:\n[., .]\n"
                                  "Entire second structure:\n[., ., .]")
    with pytest.raises(ValueError, match='Substructure "type=tuple str=\\(2, 3\\)" is a '
                                         'sequence, while substructure "type=int str=2"'):
        tf.nest.assert_same_structure([1, 2], [1, (2, 3)])
    with pytest.raises(TypeError, match="don't have the same sequence type. First structure "
                                        "type=list str=\\[1, 2\\] has type list"):
        tf.nest.assert_same_structure([1, 2], (1, 2))
    tf.nest.assert_same_structure([1, 2], (1, 2), check_types=False)
    with pytest.raises(TypeError, match="has type Point, while"):
        tf.nest.assert_same_structure(Point(1, 2), (1, 2))
    tf.nest.assert_same_structure(Point(1, 2), collections.namedtuple("Point", "a b")(1, 2))
    with pytest.raises(ValueError, match="don't have the same set of keys. First structure "
                                         "has keys type=list str=\\['a'\\]"):
        tf.nest.assert_same_structure({"a": 1}, collections.OrderedDict(b=1, a=2))
    tf.nest.assert_same_structure({"a": 1}, {"b": 1}, check_types=False)
    tf.nest.assert_same_structure({"a": 1, "b": 2}, collections.OrderedDict(b=1, a=2))
    tf.nest.assert_same_structure([1], {"a": 1}, check_types=False)
    tf.nest.assert_same_structure("ab", 3)


def test_pack_sequence_as_errors():
    with pytest.raises(ValueError, match="Structure had 2 atoms, but flat_sequence had 3 "
                                         "items"):
        tf.nest.pack_sequence_as([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="However the input is a sequence"):
        tf.nest.pack_sequence_as(1, [5, 6])
    assert tf.nest.pack_sequence_as(1, [5]) == 5
    assert tf.nest.pack_sequence_as([1, 2], (5, 6)) == [5, 6]
    for flat in (5, iter([5, 6]), "ab", np.array([5, 6])):
        with pytest.raises(TypeError, match="Attempted to pack value"):
            tf.nest.pack_sequence_as([1, 2], flat)
    with pytest.raises(TypeError, match="sortable keys"):
        tf.nest.flatten({1: 1, "a": 2})
    with pytest.raises(TypeError, match="nest only supports dicts with sortable keys"):
        tf.nest.pack_sequence_as({1: 1, "a": 2}, [1, 2])


def test_map_structure_over_several_structures():
    assert tf.nest.map_structure(lambda a, b: a + b, Point(1, [2]), Point(10, [20])) == \
        Point(11, [22])
    assert tf.nest.map_structure(lambda a, b: (a, b), {"b": 1, "a": 2}, {"a": 3, "b": 4}) \
        == {"b": (1, 4), "a": (2, 3)}
    assert tf.nest.map_structure(lambda a, b: a + b, Point(1, 2), (3, 4),
                                 check_types=False) == Point(4, 6)
    assert tf.nest.map_structure(lambda *a: sum(a), [1], [2], [3]) == [6]
    with pytest.raises(TypeError, match="same sequence type"):
        tf.nest.map_structure(lambda a, b: a + b, [1, 2], (1, 2))
    with pytest.raises(ValueError, match="Must provide at least one structure"):
        tf.nest.map_structure(lambda a: a)
    with pytest.raises(ValueError, match="Only valid keyword arguments are `check_types` and "
                                         "`expand_composites`, not: `foo`"):
        tf.nest.map_structure(lambda a: a, [1], foo=1)
    with pytest.raises(TypeError, match="func must be callable, got: 1"):
        tf.nest.map_structure(1, [1])
