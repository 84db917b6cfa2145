"""Slicing, __getitem__, n-d gathers and scatters, where, boolean_mask and repeat."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError

from .test_math_ops import grad

X = np.arange(24.0).reshape(2, 3, 4)



def test_slice():
    out = tf.slice(X, [1, 0, 1], [1, -1, 2])
    np.testing.assert_array_equal(out.numpy(), X[1:2, :, 1:3])
    with pytest.raises(InvalidArgumentError, match="Slice"):
        tf.slice(X, [0, 0, 3], [1, 1, 2])
    with pytest.raises(InvalidArgumentError, match="Slice"):
        tf.slice(X, [0, 0], [1, 1])
    g = grad(lambda x: tf.slice(x, [0, 1, 1], [2, 1, 2]), X)
    expected = np.zeros_like(X)
    expected[:, 1:2, 1:3] = 1
    np.testing.assert_array_equal(g.numpy(), expected)


@pytest.mark.parametrize("spec", [
    np.s_[1], np.s_[-1], np.s_[1:], np.s_[::-1], np.s_[:, ::2], np.s_[..., 1],
    np.s_[None, 0], np.s_[0, ..., None], np.s_[1, 2, 3], np.s_[:, -1:-4:-2, 1:], np.s_[...],
    np.s_[5:], np.s_[-10:10], np.s_[:, None, ::-3, None],
])
def test_getitem_matches_numpy(spec):
    np.testing.assert_array_equal(tf.constant(X)[spec].numpy(), X[spec])


def test_getitem_follows_tf_not_numpy_for_lists_and_arrays():
    x = tf.constant(X)
    # TF reads a list as an index tuple.
    np.testing.assert_array_equal(x[[1, 2]].numpy(), X[1, 2])
    assert float(x[tf.constant(1), tf.constant(2, tf.int64), np.int32(3)]) == X[1, 2, 3]
    assert float(x[True, 0, 0]) == X[1, 0, 0]
    for bad in (1.0, np.array([0, 1]), tf.constant([0, 1]), tf.constant(1.0), "a",
                np.s_[0.5:], (tf.constant([True, False]), 0)):
        with pytest.raises(TypeError, match="valid indices"):
            x[bad]


def test_getitem_boolean_mask_is_tf_boolean_mask():
    x = tf.constant(X)
    mask = X[:, :, 0] > 5
    np.testing.assert_array_equal(x[mask].numpy(), X[mask])
    np.testing.assert_array_equal(x[tf.constant(mask)].numpy(), X[mask])
    with pytest.raises(ValueError, match="scalar"):
        x[True]


def test_getitem_errors():
    x = tf.constant(X)
    with pytest.raises(InvalidArgumentError, match="out of bounds"):
        x[2]
    with pytest.raises(InvalidArgumentError, match="out of bounds"):
        x[:, -4]
    with pytest.raises(InvalidArgumentError, match="only 3 dims"):
        x[0, 0, 0, 0]
    with pytest.raises(InvalidArgumentError, match="Multiple ellipses"):
        x[..., 0, ...]
    with pytest.raises(InvalidArgumentError, match="non-zero"):
        x[::0]


def test_getitem_on_variables_and_their_gradient():
    v = tf.Variable(X)
    np.testing.assert_array_equal(v[1, ::-1].numpy(), X[1, ::-1])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v[:, 1:] * 2.0)
    expected = np.zeros_like(X)
    expected[:, 1:] = 2
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), expected)


def test_iterating_a_tensor_uses_getitem():
    rows = list(tf.constant([[1, 2], [3, 4]]))
    np.testing.assert_array_equal(rows[1].numpy(), [3, 4])


def test_strided_slice_masks():
    t = tf.constant(X)
    out = tf.strided_slice(t, [0, 0, 0, 0], [0, 2, 0, 3], [1, 1, 1, -1], begin_mask=1,
                           end_mask=1, ellipsis_mask=4, shrink_axis_mask=0, new_axis_mask=0)
    np.testing.assert_array_equal(out.numpy(), X[:, 0:2, ..., 0:3:-1])
    out = tf.strided_slice(t, [1, 0, -1], [2, 0, 0], [1, 1, -1], shrink_axis_mask=1,
                           new_axis_mask=2)
    np.testing.assert_array_equal(out.numpy(), X[1, None, -1:0:-1])
    with pytest.raises(InvalidArgumentError):
        tf.strided_slice(t, [0], [1], [0])


@st.composite
def index_cases(draw):
    """A shape and a basic index for it: ints, slices of any step, newaxis, maybe `...`."""
    shape = draw(st.lists(st.integers(1, 4), min_size=0, max_size=4))
    explicit = draw(st.integers(0, len(shape)))
    ellipsis_at = draw(st.one_of(st.none(), st.integers(0, explicit)))
    dims = list(range(explicit)) if ellipsis_at is None else (
        list(range(ellipsis_at)) + list(range(len(shape) - explicit + ellipsis_at, len(shape))))
    spec = []
    for position, dim in enumerate(dims + [None]):
        if position == ellipsis_at:
            spec.append(Ellipsis)
        while draw(st.integers(0, 4)) == 4:
            spec.append(None)
        if dim is None:
            break
        d = shape[dim]
        if draw(st.booleans()):
            spec.append(draw(st.integers(-d, d - 1)))
        else:
            bound = st.one_of(st.none(), st.integers(-d - 2, d + 2))
            spec.append(slice(draw(bound), draw(bound),
                              draw(st.sampled_from([None, 1, 2, 3, -1, -2, -3]))))
    return shape, tuple(spec)


@settings(max_examples=150, deadline=None)
@given(index_cases())
def test_getitem_matches_numpy_on_random_specs(case):
    shape, spec = case
    x = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    t = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(t)
        out = t[spec]
        total = tf.reduce_sum(out)
    np.testing.assert_array_equal(out.numpy(), x[spec])
    assert out.dtype == tf.float64
    counts = np.zeros(shape)
    counts[spec] += 1
    np.testing.assert_array_equal(tape.gradient(total, t).numpy(), counts)


def test_gather_nd():
    params = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(tf.gather_nd(params, [[2, 1], [0, 3]]).numpy(), [9, 3])
    np.testing.assert_array_equal(tf.gather_nd(params, [[2], [0]]).numpy(), params[[2, 0]])
    batched = tf.gather_nd(X, [[[1], [0]], [[2], [2]]], batch_dims=1)
    np.testing.assert_array_equal(batched.numpy(), np.stack([X[0, [1, 0]], X[1, [2, 2]]]))
    with pytest.raises(InvalidArgumentError, match="does not index into param shape"):
        tf.gather_nd(params, [[3, 0]])
    with pytest.raises(InvalidArgumentError, match="innermost"):
        tf.gather_nd(params, [[0, 0, 0]])
    with pytest.raises(InvalidArgumentError):
        tf.gather_nd(params, [[0.0, 1.0]])
    g = grad(lambda p: tf.gather_nd(p, [[1, 0], [1, 0], [0, 2]]), np.zeros((2, 3)))
    np.testing.assert_array_equal(g.numpy(), [[0, 0, 1], [2, 0, 0]])
    rows = grad(lambda p: tf.gather_nd(p, [[1], [1]]), np.zeros((2, 3)))  # as TF: slices
    assert isinstance(rows, tf.IndexedSlices)
    np.testing.assert_array_equal(rows.indices.numpy(), [1, 1])
    np.testing.assert_array_equal(tf.convert_to_tensor(rows).numpy(), [[0, 0, 0], [2, 2, 2]])


def test_scatter_nd_sums_duplicates():
    out = tf.scatter_nd([[0], [2], [0]], tf.constant([1.0, 2.0, 3.0]), [4])
    np.testing.assert_array_equal(out.numpy(), [4, 0, 2, 0])
    out = tf.scatter_nd([[1, 0]], tf.constant([[5, 6]]), [2, 2, 2])
    assert out.dtype == tf.int32 and out.numpy()[1, 0].tolist() == [5, 6]
    with pytest.raises(InvalidArgumentError, match="updates must have shape"):
        tf.scatter_nd([[0]], tf.constant([1.0, 2.0]), [4])
    with pytest.raises(InvalidArgumentError):
        tf.scatter_nd([[4]], tf.constant([1.0]), [4])


def test_tensor_scatter_update_and_add():
    base = tf.constant([1.0, 2.0, 3.0])
    updated = tf.tensor_scatter_nd_update(base, [[0], [2]], [9.0, 8.0])
    np.testing.assert_array_equal(updated.numpy(), [9, 2, 8])
    added = tf.tensor_scatter_nd_add(base, [[1], [1]], [1.0, 1.0])
    np.testing.assert_array_equal(added.numpy(), [1, 4, 3])
    np.testing.assert_array_equal(base.numpy(), [1, 2, 3])
    with pytest.raises(InvalidArgumentError):
        tf.tensor_scatter_nd_update(base, [[0]], tf.constant([1], tf.int32))
    t, u = tf.constant([1.0, 2.0, 3.0]), tf.constant([5.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([t, u])
        y = tf.tensor_scatter_nd_update(t, [[1]], u) * tf.constant([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(tape.gradient(y, t).numpy(), [1, 0, 3])
    np.testing.assert_array_equal(tape.gradient(y, u).numpy(), [2])


def test_where_one_argument_gives_int64_coordinates():
    out = tf.where([[True, False], [False, True]])
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [[0, 0], [1, 1]])
    np.testing.assert_array_equal(tf.where(tf.constant([0.0, 2.0])).numpy(), [[1]])


def test_where_three_arguments_broadcast():
    out = tf.where([[True], [False]], tf.constant([1.0, 2.0]), 0.0)
    np.testing.assert_array_equal(out.numpy(), [[1, 2], [0, 0]])
    with pytest.raises(ValueError, match="both"):
        tf.where([True], [1.0])
    with pytest.raises(InvalidArgumentError, match="bool"):
        tf.where(tf.constant([1.0]), [1.0], [2.0])
    with pytest.raises(InvalidArgumentError):
        tf.where([True], tf.constant([1.0]), tf.constant([1], tf.int32))
    with pytest.raises(InvalidArgumentError):
        tf.where([True, False, True], tf.constant([1.0, 2.0]), 0.0)


def test_where_nan_trap_matches_tf():
    x = tf.constant([0.0, 4.0])
    condition = tf.constant([False, True])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        g = grad(lambda t: tf.where(condition, tf.math.log(t), tf.zeros_like(t)), x)
        # TF's SqrtGrad kernel gives 0 where the upstream gradient is 0: no trap for sqrt.
        g_sqrt = grad(lambda t: tf.where(condition, tf.sqrt(t - 1.0), tf.zeros_like(t)), x)
    assert np.isnan(g.numpy()[0]) and g.numpy()[1] == 0.25
    np.testing.assert_allclose(g_sqrt.numpy(), [0.0, 0.5 / np.sqrt(3.0)], rtol=1e-6)
    safe = grad(lambda t: tf.where(condition, tf.sqrt(tf.where(condition, t, 1.0)), 0.0), x)
    np.testing.assert_array_equal(safe.numpy(), [0.0, 0.25])


def test_boolean_mask():
    mask = np.array([[True, False, True], [False, False, True]])
    np.testing.assert_array_equal(tf.boolean_mask(X, mask).numpy(), X[mask])
    np.testing.assert_array_equal(tf.boolean_mask(X, [True, False, True, False], axis=2).numpy(),
                                  X[:, :, [0, 2]])
    with pytest.raises(ValueError, match="scalar"):
        tf.boolean_mask(X, True)
    with pytest.raises(ValueError, match="incompatible"):
        tf.boolean_mask(X, [True, False, True])
    g = grad(lambda x: tf.boolean_mask(x, mask), X)
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(g.numpy(), np.broadcast_to(mask[..., None], X.shape))


@pytest.mark.parametrize("repeats, axis", [(2, None), (3, 0), ([1, 0, 2], 1), ([2, 1], 0),
                                           (0, 2), ([4], -1)])
def test_repeat_matches_numpy(repeats, axis):
    np.testing.assert_array_equal(tf.repeat(X, repeats, axis=axis).numpy(),
                                  np.repeat(X, repeats, axis=axis))


def test_repeat_errors_and_gradient():
    with pytest.raises(InvalidArgumentError):
        tf.repeat(X, [1, 2], axis=1)
    with pytest.raises(InvalidArgumentError):
        tf.repeat(X, -1)
    g = grad(lambda x: tf.repeat(x, [3, 1]), np.array([1.0, 2.0]))
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(g.numpy(), [3, 1])


INDEXING_CALLS = [
    lambda x: x[1, ::-1], lambda x: tf.slice(x, [0, 1, 0], [1, 2, 3]),
    lambda x: tf.gather_nd(x, [[1, 2]]), lambda x: tf.tensor_scatter_nd_update(x, [[0]], x[1:]),
    lambda x: tf.tensor_scatter_nd_add(x, [[1, 1]], [x[0, 0]]),
    lambda x: tf.where(tf.ones_like(x, tf.bool), x, 0.0),
    lambda x: tf.boolean_mask(x, [True, False]),
    lambda x: tf.repeat(x, 2, axis=1), lambda x: tf.scatter_nd([[1]], x[:1], [3, 3, 4]),
]


@pytest.mark.parametrize("call", INDEXING_CALLS)
def test_inputs_are_not_modified(call, assert_inputs_unchanged):
    assert_inputs_unchanged(call, X)


def test_indices_known_only_when_the_graph_runs():
    @tf.function(input_signature=[tf.TensorSpec([4, 5], tf.float64),
                                  tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
    def f(x, t, u):
        parts = x[t], x[:, t], x[t:u], x[-t, ::-1], x[1:, t, None], x[..., t:t + 2]
        assert [p.shape.as_list() for p in parts] == [[5], [4], [None, 5], [5], [3, 1],
                                                      [4, None]]
        with tf.GradientTape() as tape:
            tape.watch(x)
            total = tf.reduce_sum(x[t] * x[t:u, 0:1])
        return parts + (tape.gradient(total, x),)

    xv = np.arange(20.0).reshape(4, 5)
    got = f(tf.constant(xv), tf.constant(1), tf.constant(3))
    want = xv[1], xv[:, 1], xv[1:3], xv[-1, ::-1], xv[1:, 1, None], xv[..., 1:3]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.numpy(), w)
    x = tf.constant(xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(x[1] * x[1:3, 0:1])
    np.testing.assert_array_equal(got[-1].numpy(), tape.gradient(total, x).numpy())
    with pytest.raises(tf.errors.InvalidArgumentError):
        f(tf.constant(xv), tf.constant(7), tf.constant(8))
    with pytest.raises(TypeError, match="valid indices"):
        tf.function(lambda x, t: x[t])(tf.constant(xv), tf.constant(1.0))


def test_v1_where_selects_rows_without_broadcasting():
    # TF 2.21's tf.compat.v1.where (the Select op): values, gradients and error classes.
    w = tf.compat.v1.where
    c = tf.constant([True, False, True])
    a = tf.reshape(tf.range(6.), [3, 2])
    b = -a
    assert w(c, a, b).numpy().tolist() == [[0., 1.], [-2., -3.], [4., 5.]]
    assert w(tf.constant(True), a, b).numpy().tolist() == a.numpy().tolist()
    assert w(tf.constant([[True, False]] * 3), a, b).numpy().tolist() == \
        [[0., -1.], [2., -3.], [4., -5.]]
    assert w(c, tf.ones([3]), tf.zeros([3])).numpy().tolist() == [1., 0., 1.]
    assert w(c).numpy().tolist() == [[0], [2]]
    assert w(tf.constant(True), 1.0, 2.0).numpy() == 1.0
    assert tf.compat.v1.where_v2 is tf.where
    for cond, x, y in [([True, False], a, b), (c, a, tf.zeros([2])),
                       ([[True], [False], [True]], a, b), (c, 1.0, 2.0)]:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Select"):
            w(tf.constant(cond), x, y)
    with pytest.raises(ValueError):
        w(c, a)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        out = w(c, a, b)
    ga, gb = tape.gradient(out, [a, b])
    assert ga.numpy().tolist() == [[1., 1.], [0., 0.], [1., 1.]]
    assert gb.numpy().tolist() == [[0., 0.], [1., 1.], [0., 0.]]
    shapes = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.bool), tf.TensorSpec([None, 2]),
                                  tf.TensorSpec([None, 2])])
    def traced(c, x, y):
        out = w(c, x, y)
        shapes.append(out.shape.as_list())
        return out
    assert traced(c, a, b).numpy().tolist() == [[0., 1.], [-2., -3.], [4., 5.]]
    assert shapes == [[None, 2]]
    assert tf.raw_ops.Select(condition=c, x=a, y=b).numpy().tolist() == \
        [[0., 1.], [-2., -3.], [4., 5.]]
