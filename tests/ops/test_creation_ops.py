"""zeros, ones, *_like, fill, eye, range, linspace, one_hot and meshgrid."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError


def test_zeros_ones_and_like():
    assert tf.zeros([2, 3]).dtype == tf.float32
    np.testing.assert_array_equal(tf.ones((2,), "int64").numpy(), [1, 1])
    assert tf.ones([2], tf.int64).dtype == tf.int64
    assert tf.zeros([]).shape == []
    assert tf.zeros(tf.TensorShape([0, 2])).shape == [0, 2]
    with pytest.raises(InvalidArgumentError):
        tf.zeros([-1])
    x = tf.constant([[1.5, 2.5]])
    assert tf.zeros_like(x).dtype == tf.float32
    assert tf.ones_like(x, dtype=tf.int32).dtype == tf.int32
    np.testing.assert_array_equal(tf.ones_like(x).numpy(), [[1, 1]])


@pytest.mark.parametrize("fn", [tf.zeros_like, tf.ones_like])
def test_like_ops_have_no_gradient(fn):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x) * 3.0
    assert tape.gradient(y, x) is None


def test_fill_takes_the_value_dtype_and_sums_the_gradient():
    out = tf.fill([2, 3], 1.5)
    assert out.dtype == tf.float32 and out.shape == [2, 3]
    assert tf.fill([2], tf.constant(3, tf.int64)).dtype == tf.int64
    v = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.fill([2, 3], v) * tf.constant([[1.0, 2.0, 3.0]])
    assert float(tape.gradient(y, v)) == 12.0
    with pytest.raises(InvalidArgumentError, match="scalar"):
        tf.fill([2], [1.0, 2.0])


def test_eye():
    np.testing.assert_array_equal(tf.eye(3).numpy(), np.eye(3))
    out = tf.eye(2, 3, batch_shape=[4], dtype=tf.float64)
    assert out.shape == [4, 2, 3] and out.dtype == tf.float64
    np.testing.assert_array_equal(out.numpy()[2], np.eye(2, 3))


@pytest.mark.parametrize("args, kwargs, dtype, values", [
    ((5,), {}, tf.int32, np.arange(5)),
    ((2, 8, 3), {}, tf.int32, np.arange(2, 8, 3)),
    ((1, 2, 0.25), {}, tf.float32, np.arange(1, 2, 0.25)),
    ((1.0, 3), {}, tf.float32, [1.0, 2.0]),
    ((5, 0, -2), {}, tf.int32, [5, 3, 1]),
    ((3,), {"dtype": tf.float64}, tf.float64, [0.0, 1.0, 2.0]),
    ((tf.constant(4, tf.int64),), {}, tf.int64, np.arange(4)),
    ((3, 3), {}, tf.int32, []),
])
def test_range_dtype_inference(args, kwargs, dtype, values):
    out = tf.range(*args, **kwargs)
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy(), values)


def test_range_errors():
    with pytest.raises(InvalidArgumentError, match="delta != 0"):
        tf.range(0, 5, 0)
    with pytest.raises(InvalidArgumentError, match="start <= limit"):
        tf.range(5, 0)
    with pytest.raises(InvalidArgumentError, match="start >= limit"):
        tf.range(0, 5, -1)


def test_linspace():
    out = tf.linspace(0.0, 1.0, 5)
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), np.linspace(0, 1, 5))
    assert tf.linspace(0, 10, 3).dtype == tf.float64
    batched = tf.linspace(tf.constant([0.0, 1.0]), tf.constant([1.0, 3.0]), 3, axis=-1)
    np.testing.assert_allclose(batched.numpy(), [[0, 0.5, 1], [1, 2, 3]])
    with pytest.raises(InvalidArgumentError):
        tf.linspace(0.0, 1.0, -1)
    with pytest.raises(InvalidArgumentError, match=r"axis in the range \[-1, 1\)"):
        tf.linspace(0.0, 1.0, 3, axis=1)
    np.testing.assert_allclose(tf.linspace([0.0, 1.0], 2.0, 3, axis=0).numpy(),
                               [[0.0, 1.0], [1.0, 1.5], [2.0, 2.0]])


def test_range_has_no_gradient():
    s = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(s)
        y = tf.range(s, 4.0)
    assert tape.gradient(y, s) is None


def test_linspace_is_differentiable_in_start_and_stop():
    # TF's linspace is composed of differentiable ops: d/dstart is 1 - t, d/dstop is t.
    start, stop = tf.constant([1.0, 2.0]), tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([start, stop])
        y = tf.linspace(start, stop, 3, axis=-1) * [[1.0, 2.0, 4.0]]
    g_start, g_stop = tape.gradient(y, [start, stop])
    np.testing.assert_allclose(g_start.numpy(), [2.0, 2.0])
    np.testing.assert_allclose(g_stop.numpy(), 10.0)


def test_one_hot():
    out = tf.one_hot([0, 2, -1, 3], 3)
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), [[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]])
    out = tf.one_hot([[1, 0]], 2, on_value=5, off_value=-1, axis=0)
    assert out.dtype == tf.int32 and out.shape == [2, 1, 2]
    np.testing.assert_array_equal(out.numpy()[:, 0, :], [[-1, 5], [5, -1]])
    assert tf.one_hot([1], 2, dtype=tf.float64).dtype == tf.float64
    assert tf.one_hot([1], 2, on_value=tf.constant(2, tf.int64)).dtype == tf.int64
    with pytest.raises(TypeError):
        tf.one_hot([1], 2, on_value=tf.constant(1.0), off_value=tf.constant(0.0, tf.float64))
    with pytest.raises(InvalidArgumentError):
        tf.one_hot([1.0], 2)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_matches_numpy(indexing):
    a, b, c = [1, 2, 3], [4.0, 5.0], [6, 7, 8, 9]
    ours = tf.meshgrid(tf.constant(a), tf.constant(b, tf.float64), tf.constant(c),
                       indexing=indexing)
    for got, want in zip(ours, np.meshgrid(a, b, c, indexing=indexing)):
        np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(ValueError, match="indexing"):
        tf.meshgrid(a, b, indexing="xz")


@pytest.mark.parametrize("depth", [-1, -5])
def test_one_hot_refuses_a_negative_depth(depth):
    with pytest.raises(InvalidArgumentError, match=f"OneHot: depth must be non-negative, got: "
                                                   f"{depth}"):
        tf.one_hot([0, 1], depth=depth)


def test_in_a_graph_like_ops_and_rank_of_known_shapes_are_constants():
    # TF: in a graph, zeros_like/ones_like of a fully known shape, and rank of a known rank,
    # are Const nodes that do not read the input; with an unknown dimension they read it.
    @tf.function
    def f(x):
        return (tf.zeros_like(x), tf.ones_like(x, dtype=tf.int32), tf.rank(x),
                tf.zeros_like(tf.reduce_mean(x, 0, keepdims=True)))

    known = f.get_concrete_function(tf.TensorSpec([2, 3])).graph
    ops = {op.type for op in known.get_operations()}
    assert "ZerosLike" not in ops and "OnesLike" not in ops and "Rank" not in ops
    partial = f.get_concrete_function(tf.TensorSpec([None, 3])).graph
    types = [op.type for op in partial.get_operations()]
    assert "ZerosLike" in types and "OnesLike" in types and "Rank" not in types
    a, b, r, z = f(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    np.testing.assert_array_equal(a.numpy(), np.zeros([2, 3], np.float32))
    assert b.dtype == tf.int32
    np.testing.assert_array_equal(b.numpy(), np.ones([2, 3], np.int32))
    assert int(r) == 2 and r.dtype == tf.int32
    assert z.shape == [1, 3] and z.dtype == tf.float32
    a, b, r, z = f(tf.ones([4, 3]))
    assert a.shape == [4, 3] and b.shape == [4, 3] and int(r) == 2
