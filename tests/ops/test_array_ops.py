"""Layout ops: values against NumPy, dtypes, shapes and TF's errors."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError

from .test_math_ops import grad

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 4)).astype(np.float32)



@pytest.mark.parametrize("axis", [0, 1, 2, 3, -1, -4])
def test_expand_dims_matches_numpy(axis):
    out = tf.expand_dims(X, axis)
    np.testing.assert_array_equal(out.numpy(), np.expand_dims(X, axis))
    assert out.dtype == tf.float32


@pytest.mark.parametrize("axis", [4, -5])
def test_expand_dims_axis_out_of_range(axis):
    with pytest.raises(InvalidArgumentError, match="ExpandDims"):
        tf.expand_dims(X, axis)


def test_squeeze():
    x = np.zeros((1, 3, 1, 2), np.int32)
    assert tf.squeeze(x).shape == [3, 2]
    assert tf.squeeze(x, axis=[0, -2]).shape == [3, 2]
    assert tf.squeeze(x, axis=2).shape == [1, 3, 2]
    with pytest.raises(InvalidArgumentError, match="Can not squeeze dim\\[1\\]"):
        tf.squeeze(x, axis=1)
    with pytest.raises(InvalidArgumentError):
        tf.squeeze(x, axis=4)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat_matches_numpy(axis):
    parts = [X, X * 2, X]
    np.testing.assert_array_equal(tf.concat(parts, axis).numpy(), np.concatenate(parts, axis))


def test_concat_errors():
    with pytest.raises(InvalidArgumentError):
        tf.concat([tf.zeros([2, 2]), tf.zeros([3, 3])], 0)
    with pytest.raises(InvalidArgumentError, match="dtype"):
        tf.concat([tf.zeros([2]), tf.zeros([2], tf.int32)], 0)
    with pytest.raises(InvalidArgumentError, match="scalars"):
        tf.concat([tf.constant(1.0), tf.constant(2.0)], 0)
    with pytest.raises(InvalidArgumentError, match="axis"):
        tf.concat([tf.zeros([2]), tf.zeros([2])], 1)


def test_concat_python_values_take_the_tensors_dtype():
    out = tf.concat([tf.constant([1.0], tf.float64), [2, 3]], 0)
    assert out.dtype == tf.float64
    np.testing.assert_array_equal(out.numpy(), [1, 2, 3])


def test_stack_and_unstack_roundtrip():
    parts = [X[0], X[1]]
    for axis in (0, 1, -1):
        stacked = tf.stack(parts, axis=axis)
        np.testing.assert_array_equal(stacked.numpy(), np.stack(parts, axis))
        back = tf.unstack(stacked, axis=axis)
        assert isinstance(back, list) and len(back) == 2
        np.testing.assert_array_equal(back[1].numpy(), parts[1])
    assert tf.stack([1, 2]).dtype == tf.int32
    assert [t.shape for t in tf.unstack(tf.zeros([3]))] == [[], [], []]


def test_stack_and_unstack_errors():
    with pytest.raises(InvalidArgumentError, match="Shapes of all inputs must match"):
        tf.stack([tf.zeros([2]), tf.zeros([3])])
    with pytest.raises(InvalidArgumentError):
        tf.stack([tf.zeros([2])], axis=2)
    with pytest.raises(ValueError):
        tf.unstack(tf.zeros([3, 2]), num=2)
    with pytest.raises(InvalidArgumentError):
        tf.unstack(tf.zeros([3]), axis=1)


def test_split_by_count_and_sizes():
    x = np.arange(12).reshape(6, 2)
    parts = tf.split(x, 3)
    assert [p.shape for p in parts] == [[2, 2]] * 3
    np.testing.assert_array_equal(parts[2].numpy(), x[4:])
    parts = tf.split(x, [1, -1, 2], axis=0)
    assert [p.shape[0] for p in parts] == [1, 3, 2]
    parts = tf.split(x, tf.constant([1, 1]), axis=1)
    np.testing.assert_array_equal(parts[1].numpy(), x[:, 1:])


def test_split_errors():
    with pytest.raises(InvalidArgumentError, match="evenly divide"):
        tf.split(tf.zeros([5]), 2)
    with pytest.raises(InvalidArgumentError, match="add up"):
        tf.split(tf.zeros([5]), [2, 2])
    with pytest.raises(InvalidArgumentError):
        tf.split(tf.zeros([5]), [1.0, 4.0])


def test_tile():
    x = np.array([[1, 2], [3, 4]])
    np.testing.assert_array_equal(tf.tile(x, [2, 3]).numpy(), np.tile(x, [2, 3]))
    with pytest.raises(InvalidArgumentError, match="multiples"):
        tf.tile(x, [2])
    g = grad(lambda t: tf.tile(t, [3, 2]), X[0])
    np.testing.assert_array_equal(g.numpy(), np.full((3, 4), 6.0, np.float32))


@pytest.mark.parametrize("mode", ["CONSTANT", "reflect", "Symmetric"])
def test_pad_matches_numpy(mode):
    x = np.arange(12.0).reshape(3, 4)
    paddings = [[1, 2], [2, 0]]
    out = tf.pad(x, paddings, mode)
    np_mode = {"CONSTANT": "constant", "reflect": "reflect", "Symmetric": "symmetric"}[mode]
    np.testing.assert_array_equal(out.numpy(), np.pad(x, paddings, mode=np_mode))
    assert out.dtype == tf.float64


def test_pad_constant_values_and_dtype():
    out = tf.pad(tf.constant([1, 2]), [[1, 1]], constant_values=7)
    np.testing.assert_array_equal(out.numpy(), [7, 1, 2, 7])
    assert out.dtype == tf.int32
    with pytest.raises(TypeError):
        tf.pad(tf.constant([1, 2]), [[1, 1]], constant_values=0.5)


def test_pad_errors():
    x = tf.zeros([3, 3])
    with pytest.raises(ValueError, match="mode"):
        tf.pad(x, [[1, 1], [1, 1]], "WRAP")
    with pytest.raises(InvalidArgumentError, match="paddings"):
        tf.pad(x, [[1, 1]])
    with pytest.raises(InvalidArgumentError, match="non-negative"):
        tf.pad(x, [[-1, 1], [1, 1]])
    with pytest.raises(InvalidArgumentError):
        tf.pad(x, [[1.0, 1.0], [1.0, 1.0]])
    with pytest.raises(InvalidArgumentError, match="REFLECT"):
        tf.pad(x, [[3, 0], [0, 0]], "REFLECT")
    assert tf.pad(x, [[3, 0], [0, 0]], "SYMMETRIC").shape == [6, 3]
    with pytest.raises(InvalidArgumentError, match="SYMMETRIC"):
        tf.pad(x, [[4, 0], [0, 0]], "SYMMETRIC")


@pytest.mark.parametrize("mode", ["REFLECT", "SYMMETRIC"])
def test_mirror_pad_gradient_folds_back(mode):
    x = np.arange(4.0)
    g = grad(lambda t: tf.pad(t, [[2, 3]], mode) * np.arange(9.0), x)
    # Each input element collects the weights of every position that copies it.
    np_mode = mode.lower()
    copies = np.pad(np.arange(4), [[2, 3]], mode=np_mode)
    expected = np.bincount(copies, weights=np.arange(9.0), minlength=4)
    np.testing.assert_allclose(g.numpy(), expected)


def test_reverse_and_roll():
    x = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(tf.reverse(x, [1]).numpy(), x[:, ::-1])
    np.testing.assert_array_equal(tf.reverse(x, [-1, 0]).numpy(), x[::-1, ::-1])
    np.testing.assert_array_equal(tf.roll(x, [1, -1], [0, 1]).numpy(), np.roll(x, [1, -1], [0, 1]))
    np.testing.assert_array_equal(tf.roll(x, [1, 1], [1, 1]).numpy(), np.roll(x, 2, 1))
    with pytest.raises(InvalidArgumentError, match="more than once"):
        tf.reverse(x, [0, 0])
    with pytest.raises(InvalidArgumentError):
        tf.reverse(x, [2])
    with pytest.raises(InvalidArgumentError, match="same size"):
        tf.roll(x, [1, 2], [0])


def test_shape_size_rank():
    assert tf.shape(X).dtype == tf.int32
    np.testing.assert_array_equal(tf.shape(X).numpy(), [2, 3, 4])
    assert tf.shape(X, out_type=tf.int64).dtype == tf.int64
    assert int(tf.size(X)) == 24 and tf.size(X).dtype == tf.int32
    assert int(tf.rank(X)) == 3 and tf.rank(X).dtype == tf.int32
    assert tf.shape(tf.constant(1.0)).shape == [0]
    with pytest.raises(TypeError):
        tf.shape(X, out_type=tf.float32)


@pytest.mark.parametrize("fn", [tf.shape, tf.size, tf.rank])
def test_shape_size_rank_have_no_gradient(fn):
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(fn(x), tf.float32)
    assert tape.gradient(y, x) is None


def test_identity_n():
    a, b = tf.identity_n([X, [1, 2]])
    np.testing.assert_array_equal(a.numpy(), X)
    assert b.dtype == tf.int32


ARRAY_CALLS = [
    lambda x: tf.expand_dims(x, 1), lambda x: tf.squeeze(x[:1], 0),
    lambda x: tf.concat([x, x], 2), lambda x: tf.stack([x, x]), lambda x: tf.unstack(x),
    lambda x: tf.split(x, 2, axis=2), lambda x: tf.tile(x, [1, 2, 1]),
    lambda x: tf.pad(x, [[0, 1], [1, 1], [2, 3]], "SYMMETRIC"), lambda x: tf.reverse(x, [1]),
    lambda x: tf.roll(x, 1, 2),
]


@pytest.mark.parametrize("call", ARRAY_CALLS)
def test_inputs_are_not_modified(call, assert_inputs_unchanged):
    assert_inputs_unchanged(call, X)


def test_ensure_shape():
    x = tf.constant([1.0, 2.0, 3.0])
    assert tf.ensure_shape(x, [None]) is not None
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[3\] is not compatible"):
        tf.ensure_shape(x, [2])
    with pytest.raises(ValueError, match="incompatible"):
        tf.function(lambda x: tf.ensure_shape(x, [2]))(x)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        y = tf.ensure_shape(x, [3])
        assert y.shape == [3]  # the static shape is the merge
        return y * 2.0

    np.testing.assert_array_equal(f(x).numpy(), [2.0, 4.0, 6.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="EnsureShape"):
        f(tf.constant([1.0, 2.0]))


def test_get_static_value():
    np.testing.assert_array_equal(tf.get_static_value(tf.constant([1, 2])), [1, 2])
    assert tf.get_static_value(3) == 3
    seen = []

    @tf.function
    def f(x):
        seen.append((tf.get_static_value(x), tf.get_static_value(tf.constant(2.0) * 3.0)))
        return x

    f(tf.constant(1.0))
    assert seen == [(None, 6.0)]
