"""ForwardAccumulator: TF's documented values, errors, nesting, and every op of the table."""
import logging

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import registry
from tapeflow.testing.gradient_checker import GradientCheckError, check_grads
from tapeflow.testing.op_cases import CASES
from tapeflow.testing.op_table import recorded_ops


def test_nested_accumulators_give_higher_derivatives():
    # TF's documented example: x ** 3.5 at 1.1.
    primal = tf.constant(1.1)
    with tf.autodiff.ForwardAccumulator(primal, tf.constant(1.0)) as outer:
        with tf.autodiff.ForwardAccumulator(primal, tf.constant(1.0)) as inner:
            primal_out = primal ** tf.constant(3.5)
    inner_jvp = inner.jvp(primal_out)
    assert inner_jvp.dtype == tf.float32
    np.testing.assert_allclose(inner_jvp.numpy(), 4.4417057, rtol=1e-6)
    np.testing.assert_allclose(outer.jvp(inner_jvp).numpy(), 10.094786, rtol=1e-6)
    # Strict nesting: the inner accumulator never sees the outer one's tangents.
    assert inner.jvp(outer.jvp(primal_out)) is None


def test_forward_over_backward_hessian_vector_product():
    v = tf.Variable([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, 0.0])) as acc:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v ** 3.0)
        backward = tape.gradient(y, v)
    np.testing.assert_array_equal(backward.numpy(), [3.0, 12.0])
    hvp = acc.jvp(backward)
    assert hvp.dtype == tf.float32 and hvp.shape == [2]
    np.testing.assert_array_equal(hvp.numpy(), [6.0, 0.0])


def test_inner_tape_does_not_record_outer_tangents():
    x = tf.constant(2.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
            tangent = acc.jvp(y)
    assert float(tangent) == 4.0
    assert tape.gradient(tangent, x) is None


def test_tape_around_accumulator_differentiates_the_jvp():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
            y = x * x * x
        tangent = acc.jvp(y)  # 3 x^2
    assert float(tangent) == 12.0
    assert float(tape.gradient(tangent, x)) == 12.0  # 6 x


def test_jvp_structure_and_unconnected():
    x = tf.constant([1.0, 2.0])
    c = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = x * x
        z = c * 2.0
    out = acc.jvp({"y": y, "z": z, "pair": (x, z)})
    np.testing.assert_array_equal(out["y"].numpy(), [2.0, 4.0])
    assert out["z"] is None and out["pair"][1] is None
    np.testing.assert_array_equal(out["pair"][0].numpy(), [1.0, 1.0])
    zero = acc.jvp(z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert zero.dtype == tf.float32 and float(zero) == 0.0
    assert float(acc.jvp(z, unconnected_gradients="zero")) == 0.0
    with pytest.raises(ValueError):
        acc.jvp(y, unconnected_gradients="sometimes")
    # The same JVP object each time, so outer recorders can follow it.
    assert acc.jvp(y) is acc.jvp(y)


def test_tangents_take_the_primal_dtype():
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.autodiff.ForwardAccumulator(x, np.array([1, 0])) as acc:
        y = tf.exp(x)
    assert acc.jvp(x).dtype == tf.float64
    with pytest.raises(ValueError):  # structures must match, as in TF
        tf.autodiff.ForwardAccumulator(x, [1.0, 0.0])
    np.testing.assert_allclose(acc.jvp(y).numpy(), [np.e, 0.0])


def test_errors():
    x = tf.constant(1.0)
    with pytest.raises(ValueError, match="multiple times"):
        tf.autodiff.ForwardAccumulator([x, x], [1.0, 2.0])
    with pytest.raises(ValueError):
        tf.autodiff.ForwardAccumulator(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError):
        tf.autodiff.ForwardAccumulator(np.ones(2), np.ones(2))
    with pytest.raises(ValueError):
        tf.autodiff.ForwardAccumulator(tf.constant(1.0, dtype=tf.float64),
                                       tf.constant(1.0, dtype=tf.float32))
    acc = tf.autodiff.ForwardAccumulator(x, 1.0)
    with pytest.raises(ValueError, match="without first tracing"):
        acc.jvp(x)
    with acc:
        with pytest.raises(ValueError, match="already recording"):
            acc.__enter__()
    assert tf.framework.context.state.recorders == []


def test_reentering_after_exit_continues_recording():
    x = tf.constant(3.0)
    acc = tf.autodiff.ForwardAccumulator(x, 1.0)
    with acc:
        y = x * x
    outside = y * 2.0
    with acc:
        z = y * 2.0
    assert acc.jvp(outside) is None
    assert float(acc.jvp(z)) == 12.0


def test_variables_read_inside_carry_their_tangent():
    v = tf.Variable([1.0, 2.0])
    w = tf.Variable([3.0, 4.0])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, 1.0])) as acc:
        y = v * w
        read = v.read_value()
    np.testing.assert_array_equal(acc.jvp(y).numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(acc.jvp(read).numpy(), [1.0, 1.0])
    assert acc.jvp(w) is None


def test_integer_paths_carry_no_tangent():
    x = tf.constant([1.5, 2.5])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = tf.cast(x, tf.int32)
        z = tf.round(x)
    assert acc.jvp(y) is None and acc.jvp(z) is None


def test_custom_gradient_forward_mode_uses_its_rule():
    @tf.custom_gradient
    def double_grad(x):
        return tf.identity(x), lambda dy: dy * 2.0

    x = tf.constant(1.0)
    with tf.autodiff.ForwardAccumulator(x, 1.0) as acc:
        y = double_grad(x) * 3.0
    assert float(acc.jvp(y)) == 6.0


def test_op_without_rules_raises_lookup_error(temporary_op):
    op = temporary_op("TestNoRuleForward", np.negative)
    x = tf.constant(1.0)
    with tf.autodiff.ForwardAccumulator(x, 1.0):
        with pytest.raises(LookupError, match="TestNoRuleForward"):
            tf.framework.execute.execute(op, (x,), {})


def test_non_floating_primal_warns(caplog):
    with caplog.at_level(logging.WARNING, logger="tapeflow"):
        tf.autodiff.ForwardAccumulator(tf.constant(1), tf.constant(1))
    assert "floating" in caplog.text


@pytest.fixture(params=["registered rules", "derived from gradients"])
def jvp_rules(request, monkeypatch):
    """Runs a test with each op's JVP rule, then with every rule derived from the VJP."""
    if request.param == "derived from gradients":
        for op in registry.all_ops().values():
            monkeypatch.setattr(op, "jvp", None)
    return request.param


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_forward_mode_matches_finite_differences(case, jvp_rules):
    assert case.op in recorded_ops(case)
    if case.differentiable:
        assert check_grads(case.fn, case.args, order=case.order, eps=case.eps, rtol=case.rtol,
                           mode="forward") < 1e-3
        return
    args = [tf.constant(a) for a in case.args]
    floats = [a for a in args if a.dtype.is_floating]
    with tf.autodiff.ForwardAccumulator(floats, [np.ones(a.shape) for a in floats]) as acc:
        out = case.fn(*args)
    assert acc.jvp(out) is None


def test_checker_rejects_a_wrong_jvp_rule(temporary_op):
    op = temporary_op("TestWrongCubeJvp", lambda x: x ** 3)

    @registry.RegisterGradient("TestWrongCubeJvp")
    def _grad(op, g):
        return g * 3 * op.inputs[0] * op.inputs[0]

    @registry.RegisterJVP("TestWrongCubeJvp")
    def _jvp(op, t):
        return t * 3 * op.inputs[0]  # wrong: x instead of x ** 2

    with pytest.raises(GradientCheckError, match="order 1"):
        check_grads(lambda x: tf.framework.execute.execute(op, (x,), {}), [np.array([1.5])],
                    mode="forward")


def test_fused_cross_entropy_gradient_output_has_a_tangent():
    from tapeflow.ops.nn_ops import SparseSoftmaxXent
    rng = np.random.default_rng(3)
    logits, labels = rng.standard_normal((3, 4)), np.array([0, 3, 1], np.int32)
    direction = rng.standard_normal((3, 4))

    def outputs(value):
        return tf.framework.execute.execute(
            SparseSoftmaxXent, (tf.constant(value), tf.constant(labels)), {})

    x = tf.constant(logits)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(direction)) as acc:
        loss, backprop = tf.framework.execute.execute(SparseSoftmaxXent,
                                                      (x, tf.constant(labels)), {})
    eps = 1e-6
    for out, tangent in zip(range(2), acc.jvp([loss, backprop])):
        numeric = (outputs(logits + eps * direction)[out].numpy()
                   - outputs(logits - eps * direction)[out].numpy()) / (2 * eps)
        np.testing.assert_allclose(tangent.numpy(), numeric, rtol=1e-6, atol=1e-8)


def test_a_jvp_lives_as_long_as_its_tensor():
    import gc
    import weakref
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = x * 2.0
        z = y * 3.0
    released = weakref.ref(acc.jvp(y))
    del y
    gc.collect()
    assert released() is None
    np.testing.assert_array_equal(acc.jvp(z).numpy(), [6.0, 6.0])
    np.testing.assert_array_equal(acc.jvp(x).numpy(), [1.0, 1.0])


# -- inside tf.function: tangents are graph tensors built through the same rules -------------

def test_nested_accumulators_in_function():
    @tf.function
    def f(x):
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as outer:
            with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as inner:
                y = x ** tf.constant(3.5)
        first = inner.jvp(y)
        return first, outer.jvp(first)

    first, second = f(tf.constant(1.1))
    np.testing.assert_allclose(first.numpy(), 4.4417057, rtol=1e-6)
    np.testing.assert_allclose(second.numpy(), 10.094786, rtol=1e-6)


def test_hessian_vector_product_in_function():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def hvp(direction):
        with tf.autodiff.ForwardAccumulator(v, direction) as acc:
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(v ** 3.0)
            backward = tape.gradient(y, v)
        return backward, acc.jvp(backward)

    backward, product = hvp(tf.constant([1.0, 0.0]))
    np.testing.assert_array_equal(backward.numpy(), [3.0, 12.0])
    np.testing.assert_array_equal(product.numpy(), [6.0, 0.0])
    v.assign([2.0, 1.0])  # the variable is read by reference: same trace, new values
    np.testing.assert_array_equal(hvp(tf.constant([0.0, 1.0]))[1].numpy(), [0.0, 6.0])
    assert hvp.experimental_get_tracing_count() == 1


def test_jvp_in_function_unconnected_and_outer_tape():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
                y = tf.sin(x) * x
                z = tf.constant([5.0, 6.0])
            tangent = acc.jvp(y)
        return tangent, acc.jvp(z), acc.jvp(z, unconnected_gradients="zero"), \
            tape.gradient(tangent, x)

    xa = np.array([0.5, 2.0], np.float32)
    tangent, none, zeros, second = f(tf.constant(xa))
    np.testing.assert_allclose(tangent.numpy(), np.cos(xa) * xa + np.sin(xa), rtol=1e-6)
    assert none is None
    np.testing.assert_array_equal(zeros.numpy(), [0.0, 0.0])
    np.testing.assert_allclose(second.numpy(), 2 * np.cos(xa) - xa * np.sin(xa), rtol=1e-5)


@pytest.mark.parametrize("case", [c for c in CASES if c.differentiable],
                         ids=[c.id for c in CASES if c.differentiable])
def test_forward_mode_in_function_matches_eager(case, jvp_rules):
    arrays = [np.asarray(a, np.float64) if np.asarray(a).dtype.kind == "f" else np.asarray(a)
              for a in case.args]
    floats = [i for i, a in enumerate(arrays) if a.dtype.kind == "f"]
    rng = np.random.default_rng(0)
    directions = [tf.constant(rng.standard_normal(arrays[i].shape)) for i in floats]

    def jvp(*args):
        with tf.autodiff.ForwardAccumulator([args[i] for i in floats], directions) as acc:
            out = case.fn(*args)
        return acc.jvp(out)

    args = [tf.constant(a) for a in arrays]
    eager, graph = jvp(*args), tf.function(jvp)(*args)
    if eager is None:  # a constant gradient rule (Sign) may give zeros in a graph
        assert graph is None or not np.any(graph.numpy())
    else:
        np.testing.assert_allclose(graph.numpy(), eager.numpy(), rtol=1e-9, atol=1e-12)


def test_accumulator_in_function_with_unknown_dimensions():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
            y = tf.reduce_max(tf.sin(x) * x)
        return acc.jvp(y)

    for values in ([0.5, 2.0, 1.0], [3.0, -1.0]):
        xa = np.array(values, np.float32)
        k = np.argmax(np.sin(xa) * xa)
        np.testing.assert_allclose(f(tf.constant(xa)).numpy(),
                                   np.cos(xa[k]) * xa[k] + np.sin(xa[k]), rtol=1e-6)
    with pytest.raises(ValueError, match="tangent"):
        tf.function(lambda x: tf.autodiff.ForwardAccumulator(x, tf.ones(3)))(tf.ones(2))


def test_nested_accumulators_in_function_through_rules_run_at_run_time():
    # Max's and ReduceLogSumExp's JVPs read the input's shape, unknown while a [None] input
    # is traced: they run in EagerPyFunc nodes, whose own JVP the outer accumulator takes.
    def derivatives(x):
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as outer:
            with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as inner:
                y = tf.reduce_max(tf.sin(x) * x) + tf.reduce_logsumexp(x ** 3)
            first = inner.jvp(y)
        return first, outer.jvp(first)

    x = tf.constant([0.5, 2.0, 1.0], tf.float64)
    traced = tf.function(derivatives, input_signature=[tf.TensorSpec([None], tf.float64)])
    assert "EagerPyFunc" in {op.type for op in traced.get_concrete_function().graph
                             .get_operations()}
    for got, want in zip(traced(x), derivatives(x)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)
    h = 1e-5
    first = lambda t: float(derivatives(tf.constant([0.5, 2.0, 1.0], tf.float64) + t)[0])
    np.testing.assert_allclose(float(derivatives(x)[1]), (first(h) - first(-h)) / (2 * h),
                               rtol=1e-5)
