"""String tensors: conversion, reprs, the ops that move strings, the ops that refuse them,
and strings through Variables, tf.function, tf.data, tf.print and checkpoints.

Expected values and exception classes were recorded from TF 2.21."""
import os

import numpy as np
import pytest

import tapeflow as tf


def _b(*items):
    return np.array([x.encode() if isinstance(x, str) else x for x in items], dtype=object)


REPRS = [
    (lambda: tf.constant("abc"), "<tf.Tensor: shape=(), dtype=string, numpy=b'abc'>",
     "tf.Tensor(b'abc', shape=(), dtype=string)"),
    (lambda: tf.constant(["a", "bc"]),
     "<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'bc'], dtype=object)>",
     "tf.Tensor([b'a' b'bc'], shape=(2,), dtype=string)"),
    (lambda: tf.constant([["a", "bc"], ["d", "e"]]),
     "<tf.Tensor: shape=(2, 2), dtype=string, numpy=\narray([[b'a', b'bc'],\n"
     "       [b'd', b'e']], dtype=object)>",
     "tf.Tensor(\n[[b'a' b'bc']\n [b'd' b'e']], shape=(2, 2), dtype=string)"),
    (lambda: tf.Variable("a"), "<tf.Variable 'Variable:0' shape=() dtype=string, numpy=b'a'>",
     "<tf.Variable 'Variable:0' shape=() dtype=string, numpy=b'a'>"),
    (lambda: tf.constant([], tf.string),
     "<tf.Tensor: shape=(0,), dtype=string, numpy=array([], dtype=object)>", None),
]


@pytest.mark.parametrize("make,expected_repr,expected_str", REPRS)
def test_reprs_are_tfs(make, expected_repr, expected_str):
    t = make()
    assert repr(t) == expected_repr
    if expected_str is not None:
        assert str(t) == expected_str


CONVERSIONS = [
    ("héllo", b"h\xc3\xa9llo"),
    (b"a\x00\x00", b"a\x00\x00"),  # trailing NULs kept (NumPy's 'S' would strip them)
    (np.array(["x", "yz"]), _b("x", "yz")),
    (np.array([b"x", b"yz"]), _b("x", "yz")),
    (np.array([b"a\x00"], dtype="S2"), _b("a")),  # an 'S' array has lost them already
    (np.array([b"x", "yz"], dtype=object), _b("x", "yz")),
    ([[b"a", "b"]], np.array([[b"a", b"b"]], dtype=object)),
    (np.str_("q"), b"q"),
]


@pytest.mark.parametrize("value,expected", CONVERSIONS)
def test_conversion_gives_object_arrays_of_bytes(value, expected):
    t = tf.constant(value)
    assert t.dtype is tf.string
    got = t.numpy()
    if isinstance(expected, bytes):
        assert type(got) is bytes and got == expected
    else:
        assert got.dtype == object and got.shape == expected.shape
        assert got.tolist() == expected.tolist()
        assert all(type(x) is bytes for x in got.reshape(-1))


BAD_CONVERSIONS = [
    (lambda: tf.constant(np.array([1, 2], dtype=object)), ValueError, "Unsupported object"),
    (lambda: tf.constant(["a", 1]), ValueError, "mixed types"),
    (lambda: tf.constant([1, "a"]), ValueError, "mixed types"),
    (lambda: tf.constant([["a"], ["b", "c"]]), ValueError, "non-rectangular"),
    (lambda: tf.constant("a", dtype=tf.int32), TypeError, "int32"),
    (lambda: tf.constant(1, dtype=tf.string), TypeError, "string"),
    (lambda: tf.constant("a") * 2, TypeError, "string"),
    (lambda: tf.ones([2], tf.string), TypeError, "string"),
    (lambda: tf.as_dtype(str), TypeError, "str"),
]


@pytest.mark.parametrize("make,error,match", BAD_CONVERSIONS)
def test_bad_conversions_raise_tfs_class(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_dtype_properties():
    assert tf.string.as_numpy_dtype is object and tf.string.size == 0
    assert tf.string.is_numpy_compatible and not tf.string.is_floating
    for t in (np.str_, np.bytes_, object, np.object_, "string", np.dtype("U3"), np.dtype("S3")):
        assert tf.as_dtype(t) is tf.string
    with pytest.raises(TypeError, match="minimum"):
        tf.string.min
    with pytest.raises(ValueError, match="limits"):
        tf.string.limits


S = tf.constant(["a", "b", "c"])
M = tf.constant([["a", "b"], ["c", "d"]])
STRUCTURAL = [
    ("add", lambda: tf.add("a", "b"), b"ab"),
    ("plus", lambda: tf.constant(["a", "c"]) + tf.constant(["b"]), _b("ab", "cb")),
    ("radd", lambda: "x" + tf.constant("y"), b"xy"),
    ("equal", lambda: tf.equal(S, "a"), np.array([True, False, False])),
    ("eq op", lambda: S == "b", np.array([False, True, False])),
    ("not_equal", lambda: tf.not_equal(S, "a"), np.array([False, True, True])),
    ("gather", lambda: tf.gather(S, [2, 0]), _b("c", "a")),
    ("concat", lambda: tf.concat([["a"], tf.constant(["b"])], 0), _b("a", "b")),
    ("stack", lambda: tf.stack([tf.constant("a"), "b"]), _b("a", "b")),
    ("reshape", lambda: tf.reshape(S, [3, 1]), _b("a", "b", "c").reshape(3, 1)),
    ("expand_dims", lambda: tf.expand_dims(S, 0), _b("a", "b", "c")[None]),
    ("tile", lambda: tf.tile(S[:2], [2]), _b("a", "b", "a", "b")),
    ("where", lambda: tf.where([True, False], _b("a", "b"), _b("c", "d")), _b("a", "d")),
    ("where scalars", lambda: tf.where(S == "a", "yes", "no"), _b("yes", "no", "no")),
    ("identity", lambda: tf.identity(tf.constant("a")), b"a"),
    ("boolean_mask", lambda: tf.boolean_mask(S, [True, False, True]), _b("a", "c")),
    ("reverse", lambda: tf.reverse(S, [0]), _b("c", "b", "a")),
    ("transpose", lambda: tf.transpose(M), np.array([[b"a", b"c"], [b"b", b"d"]], object)),
    ("fill", lambda: tf.fill([2], "x"), _b("x", "x")),
    ("zeros_like", lambda: tf.zeros_like(S), _b("", "", "")),
    ("zeros", lambda: tf.zeros([2], tf.string), _b("", "")),
    ("pad", lambda: tf.pad(tf.constant(["a"]), [[1, 1]]), _b("", "a", "")),
    ("broadcast_to", lambda: tf.broadcast_to("a", [2]), _b("a", "a")),
    ("squeeze", lambda: tf.squeeze(tf.constant([["a"]])), b"a"),
    ("index", lambda: S[1], b"b"),
    ("index 2-d", lambda: M[1, 0], b"c"),
    ("slice", lambda: S[1:], _b("b", "c")),
    ("column", lambda: M[:, 1], _b("b", "d")),
    ("unstack", lambda: tf.unstack(S)[2], b"c"),
    ("split", lambda: tf.split(S, 3)[1], _b("b")),
    ("gather_nd", lambda: tf.gather_nd(M, [[0, 1]]), _b("b")),
    ("scatter", lambda: tf.tensor_scatter_nd_update(M, [[0, 0]], ["z"]),
     np.array([[b"z", b"b"], [b"c", b"d"]], object)),
    ("unique", lambda: tf.unique(tf.constant(["b", "a", "b"])).y, _b("b", "a")),
    ("unique idx", lambda: tf.unique(tf.constant(["b", "a", "b"])).idx,
     np.array([0, 1, 0], np.int32)),
    ("size", lambda: tf.size(M), np.int32(4)),
    ("shape", lambda: tf.shape(M), np.array([2, 2], np.int32)),
]


@pytest.mark.parametrize("name,make,expected", STRUCTURAL, ids=[r[0] for r in STRUCTURAL])
def test_ops_that_take_strings(name, make, expected):
    got = make().numpy()
    if isinstance(expected, bytes):
        assert type(got) is bytes and got == expected
    else:
        assert np.asarray(got).tolist() == expected.tolist()
        assert np.asarray(got).dtype == expected.dtype


REFUSED = [
    ("abs", lambda: tf.abs(tf.constant("a")), tf.errors.InvalidArgumentError),
    ("subtract", lambda: tf.constant("a") - tf.constant("b"), tf.errors.InvalidArgumentError),
    ("less", lambda: tf.less(S, "a"), tf.errors.InvalidArgumentError),
    ("maximum", lambda: tf.maximum(S, "a"), tf.errors.InvalidArgumentError),
    ("reduce_sum", lambda: tf.reduce_sum(S), tf.errors.InvalidArgumentError),
    ("sort", lambda: tf.sort(S), tf.errors.InvalidArgumentError),
    ("logical_not", lambda: tf.math.logical_not(tf.constant("a")),
     tf.errors.InvalidArgumentError),
    ("ones_like", lambda: tf.ones_like(S), tf.errors.InvalidArgumentError),
    ("cast from", lambda: tf.cast(tf.constant("1"), tf.int32), tf.errors.UnimplementedError),
    ("cast to", lambda: tf.cast(tf.constant(1), tf.string), tf.errors.UnimplementedError),
    ("mul", lambda: S * 2, TypeError),
]


@pytest.mark.parametrize("name,make,error", REFUSED, ids=[r[0] for r in REFUSED])
def test_ops_that_refuse_strings(name, make, error):
    with pytest.raises(error, match="string"):
        make()


def test_tensor_protocols():
    assert len(S) == 3 and bool(tf.constant("a"))
    assert [t.numpy() for t in S] == [b"a", b"b", b"c"]
    assert np.array(S).tolist() == [b"a", b"b", b"c"] and np.array(S).dtype == object


def test_variables_hold_and_assign_strings():
    v = tf.Variable(["a", "b"])
    assert v.dtype is tf.string
    v.assign(["x", "yz"])
    assert v.numpy().tolist() == [b"x", b"yz"]
    with pytest.raises(TypeError):
        v.assign([1, 2])
    assert v.numpy().tolist() == [b"x", b"yz"]


def test_functions_trace_and_return_strings():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def exclaim(x):
        return x + "!"

    assert exclaim(tf.constant(["a", "b"])).numpy().tolist() == [b"a!", b"b!"]
    out = exclaim.get_concrete_function().structured_outputs
    assert out.dtype is tf.string and out.shape.as_list() == [None]

    @tf.function
    def scalar(x):
        return x + "x"

    assert scalar(tf.constant("q")).numpy() == b"qx"
    # A Python str a function returns becomes a string tensor, as TF's.
    hello = tf.function(lambda x: "hello")(tf.constant(1))
    assert hello.dtype is tf.string and hello.numpy() == b"hello"


def test_datasets_of_strings(tmp_path):
    ds = tf.data.Dataset.from_tensor_slices(["a", "bb"])
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    assert list(ds.as_numpy_iterator()) == [b"a", b"bb"]
    assert [t.numpy() for t in ds.map(lambda x: x + "!")] == [b"a!", b"bb!"]
    assert next(iter(ds.batch(2))).numpy().tolist() == [b"a", b"bb"]
    padded = [t.numpy().tolist() for t in
              tf.data.Dataset.from_tensor_slices(["x", "yy", "z"]).padded_batch(2)]
    assert padded == [[b"x", b"yy"], [b"z"]]
    assert [t.numpy() for t in tf.data.Dataset.from_tensors(["x", "y"]).unbatch()] == \
        [b"x", b"y"]
    cached = tf.data.Dataset.from_tensor_slices(["a\x00", "b"]).cache(str(tmp_path / "c"))
    assert list(cached.as_numpy_iterator()) == list(cached.as_numpy_iterator()) == \
        [b"a\x00", b"b"]


def test_generators_yield_strings():
    def gen():
        yield "x"
        yield b"yy"
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.string))
    assert list(ds.as_numpy_iterator()) == [b"x", b"yy"]
    ds = tf.data.Dataset.from_generator(lambda: iter([["x", "z"]]),
                                        output_signature=tf.TensorSpec([None], tf.string))
    assert next(iter(ds)).numpy().tolist() == [b"x", b"z"]


def test_py_function_and_numpy_function_take_and_give_strings():
    assert tf.py_function(lambda x: x.numpy() + b"!", [tf.constant("a")],
                          tf.string).numpy() == b"a!"
    assert tf.numpy_function(lambda x: x + b"!", [tf.constant("a")], tf.string).numpy() == b"a!"
    out = tf.numpy_function(lambda x: np.array(["u"]), [tf.constant(["a"])], tf.string)
    assert out.numpy().tolist() == [b"u"] and out.numpy().dtype == object


def test_print_writes_strings_quoted_and_escaped(capsys):
    tf.print(tf.constant("hé"), tf.constant(["a", "b"]), "lit")
    tf.print(tf.constant(b"\n\"q'\\t"), tf.constant(["x"] * 10))
    assert capsys.readouterr().err == ('"hé" ["a" "b"] lit\n'
                                       '"\\n\\"q\\\'\\\\t" ["x" "x" "x" ... "x" "x" "x"]\n')


def test_checkpoints_keep_strings(tmp_path):
    v = tf.Variable(["a\x00", "bc"])
    ckpt = tf.train.Checkpoint(v=v)
    path = ckpt.save(os.path.join(tmp_path, "ck"))
    v.assign(["x", "y"])
    ckpt.restore(path)
    assert v.numpy().tolist() == [b"a\x00", b"bc"]
    assert tf.train.load_variable(path, "v/.ATTRIBUTES/VARIABLE_VALUE").tolist() == \
        [b"a\x00", b"bc"]
