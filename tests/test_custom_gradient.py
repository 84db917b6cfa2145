import numpy as np
import pytest

import tapeflow as tf


def test_stop_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * tf.stop_gradient(x * x)
    assert float(y) == 27.0 and float(g.gradient(y, x)) == 9.0


def test_custom_gradient_bare_and_called():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad

    x = tf.constant(100.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = log1pexp(x)
    assert float(g.gradient(y, x)) == 1.0  # the naive gradient would be nan

    @tf.custom_gradient()
    def double_grad(x):
        return tf.identity(x), lambda dy: dy * 2.0
    with tf.GradientTape() as g:
        g.watch(x)
        y = double_grad(x)
    assert float(g.gradient(y, x)) == 2.0


def test_custom_gradient_several_inputs_and_outputs():
    @tf.custom_gradient
    def f(a, b):
        def grad(d1, d2):
            return d1 * 10.0, d2 * 100.0
        return [a * b, a + b], grad

    a, b = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch([a, b])
        p, s = f(a, b)
        y = p + s
    assert float(p) == 6.0 and float(s) == 5.0
    ga, gb = g.gradient(y, [a, b])
    assert (float(ga), float(gb)) == (10.0, 100.0)


def test_custom_gradient_wrong_count_is_value_error():
    @tf.custom_gradient
    def f(a, b):
        return a * b, lambda dy: dy
    a, b = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch([a, b])
        y = f(a, b)
    with pytest.raises(ValueError, match="2 gradients"):
        g.gradient(y, [a, b])


def test_custom_gradient_forward_is_not_recorded():
    @tf.custom_gradient
    def f(x):
        return tf.exp(x) * 2.0, lambda dy: dy * 0.0 + 7.0
    x = tf.constant(1.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = f(x)
    assert [op.name for op, *_ in g._tape.entries] == ["CustomGradient"]
    assert float(g.gradient(y, x)) == 7.0


def test_custom_gradient_with_variables():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            assert variables == [v] or list(variables)[0] is v
            return dy * 3.0, [dy * 5.0]
        return x * v, grad

    x = tf.constant(4.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = f(x)
    gx, gv = g.gradient(y, [x, v])
    assert (float(gx), float(gv)) == (3.0, 5.0)


def test_custom_gradient_variables_contract_errors():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def no_kwarg(x):
        return x * v, lambda dy: dy
    with pytest.raises(TypeError, match="variables"):
        no_kwarg(tf.constant(1.0))

    @tf.custom_gradient
    def wrong_count(x):
        def grad(dy, variables=None):
            return dy, []
        return x * v, grad
    x = tf.constant(1.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = wrong_count(x)
    with pytest.raises(ValueError, match="variable"):
        g.gradient(y, [x, v])


def test_custom_gradient_second_order_through_grad_fn():
    @tf.custom_gradient
    def cube(x):
        return x * x * x, lambda dy: dy * 3.0 * x * x
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        dy = inner.gradient(y, x)
    assert float(dy) == 12.0 and float(outer.gradient(dy, x)) == 12.0


def test_grad_pass_through_assign_example():
    x = tf.Variable(1.0, name="x")
    z = tf.Variable(3.0, name="z")
    with tf.GradientTape() as tape:
        y = tf.grad_pass_through(x.assign)(z ** 2)
    assert float(y) == 9.0 and float(x) == 9.0
    assert float(tape.gradient(y, z)) == 6.0


def test_grad_pass_through_straight_through_round():
    x = tf.constant([0.2, 1.7])
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.reduce_sum(tf.grad_pass_through(tf.round)(x) * 3.0)
    assert float(y) == 6.0
    np.testing.assert_array_equal(g.gradient(y, x).numpy(), [3.0, 3.0])


def test_grad_pass_through_variables_read_inside_get_none():
    v = tf.Variable(2.0)
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.grad_pass_through(lambda t: t * v)(x)
    gx, gv = g.gradient(y, [x, v])
    assert float(y) == 6.0 and float(gx) == 1.0 and gv is None


def test_recompute_grad_matches_plain_gradient_and_records_nothing_inside():
    def block(x):
        return tf.tanh(x * x) * x
    x = tf.constant([0.1, -0.5, 0.9], dtype=tf.float64)
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.reduce_sum(tf.recompute_grad(block)(x))
    assert [op.name for op, *_ in g._tape.entries] == ["CustomGradient", "Sum"]
    with tf.GradientTape() as h:
        h.watch(x)
        y2 = tf.reduce_sum(block(x))
    np.testing.assert_allclose(g.gradient(y, x).numpy(), h.gradient(y2, x).numpy(), rtol=1e-12)
    assert float(y) == pytest.approx(float(y2))


def test_recompute_grad_with_variables():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

    def layer(x):
        return tf.tanh(tf.matmul(x, w))
    x = tf.constant([[0.5, -0.25]])
    with tf.GradientTape() as g:
        y = tf.reduce_sum(tf.recompute_grad(layer)(x))
    with tf.GradientTape() as h:
        y2 = tf.reduce_sum(layer(x))
    np.testing.assert_allclose(g.gradient(y, w).numpy(), h.gradient(y2, w).numpy(), rtol=1e-6)


def test_in_a_function_a_variable_argument_is_an_input_not_a_read_variable():
    # TF 2.21 converts the arguments to tensors before f runs in a graph: grad_fn needs no
    # `variables=` for a variable (or an object converting to one) passed in; gradients 3, 2
    v, w = tf.Variable(2.0), tf.Variable(3.0)

    class Holder:
        def __init__(self, variable):
            self.variable = variable

    tf.register_tensor_conversion_function(
        Holder, lambda x, dtype=None, name=None, as_ref=False: tf.convert_to_tensor(x.variable))

    @tf.custom_gradient
    def scale(x, s):
        return x * s, lambda dy: (dy * s, None)

    @tf.function
    def grad(x, s):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = scale(x, s)
        return tape.gradient(y, x)

    assert float(grad(tf.constant(1.0), Holder(w))) == 3.0
    assert float(grad(tf.constant(1.0), v)) == 2.0
