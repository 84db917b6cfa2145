"""Property tests: broadcasting forward and backward, and bad shapes, on random shapes."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tapeflow as tf


@settings(max_examples=60, deadline=None)
@given(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=4),
       st.sampled_from(["add", "subtract", "multiply", "divide"]))
def test_binary_broadcast_gradients_match_numpy(shapes, name):
    sa, sb = shapes.input_shapes
    rng = np.random.default_rng(0)
    a = rng.uniform(0.5, 2.0, sa)
    b = rng.uniform(0.5, 2.0, sb)
    ta, tb = tf.constant(a), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([ta, tb])
        y = getattr(tf, name)(ta, tb)
    ga, gb = tape.gradient(y, [ta, tb])
    np.testing.assert_allclose(y.numpy(), getattr(np, name)(a, b))
    assert ga.shape == sa and gb.shape == sb
    ones = np.ones(shapes.result_shape)
    local_a = {"add": ones, "subtract": ones, "multiply": b * ones, "divide": 1 / b * ones}[name]
    local_b = {"add": ones, "subtract": -ones, "multiply": a * ones,
               "divide": -a / b ** 2 * ones}[name]
    sum_to = lambda g, shape: np.sum(g, axis=tuple(range(g.ndim - len(shape))) + tuple(
        i + g.ndim - len(shape) for i, d in enumerate(shape) if d == 1), keepdims=False).reshape(shape)
    np.testing.assert_allclose(ga.numpy(), sum_to(local_a, sa), rtol=1e-12)
    np.testing.assert_allclose(gb.numpy(), sum_to(local_b, sb), rtol=1e-12)


@settings(max_examples=40, deadline=None)
@given(hnp.array_shapes(min_dims=1, max_dims=3, max_side=5),
       hnp.array_shapes(min_dims=1, max_dims=3, max_side=5))
def test_incompatible_shapes_raise_invalid_argument(sa, sb):
    try:
        np.broadcast_shapes(sa, sb)
    except ValueError:
        a, b = tf.constant(np.ones(sa)), tf.constant(np.ones(sb))
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            a * b
        assert "Mul" in str(info.value) and str(list(sa)) in str(info.value)


@settings(max_examples=40, deadline=None)
@given(hnp.array_shapes(min_dims=0, max_dims=4, max_side=4), st.data())
def test_reduce_sum_gradient_is_ones_for_any_axes(shape, data):
    axes = data.draw(st.lists(st.integers(-len(shape), len(shape) - 1), unique_by=lambda a: a % max(len(shape), 1), max_size=len(shape))) if shape else []
    keepdims = data.draw(st.booleans())
    x = tf.constant(np.arange(np.prod(shape), dtype=np.float64).reshape(shape))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x, axis=axes or None, keepdims=keepdims) * 2.0
    np.testing.assert_array_equal(y.numpy(), np.sum(x.numpy(), axis=tuple(axes) or None,
                                                    keepdims=keepdims) * 2.0)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.full(shape, 2.0))
