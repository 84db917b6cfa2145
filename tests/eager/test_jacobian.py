"""GradientTape.jacobian and batch_jacobian: TF's shapes, values and errors, vectorized and
looped, over every op of the gradient-check table."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import registry
from tapeflow.framework.batched_registry import has_batched_gradient
from tapeflow.testing.op_cases import CASES, NO_SECOND_DERIVATIVE


def numeric_jacobian(fn, arrays, index, eps=1e-6):
    """d fn / d arrays[index] by central differences, shape out.shape + arg.shape."""
    def value(xs):
        return np.asarray(fn(*[tf.constant(x) for x in xs])._value, dtype=np.float64)

    base = arrays[index]
    out = value(arrays)
    jac = np.zeros(out.shape + base.shape)
    for j in np.ndindex(base.shape):
        hi, lo = [a.copy() for a in arrays], [a.copy() for a in arrays]
        hi[index][j] += eps
        lo[index][j] -= eps
        jac[(...,) + j] = (value(hi) - value(lo)) / (2 * eps)
    return jac


@pytest.mark.parametrize("inside_context", [False, True])
def test_jacobian_doc_example(inside_context):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
        if inside_context:  # a non-persistent tape stops recording, as for gradient()
            jac = g.jacobian(y, x)
    if not inside_context:
        jac = g.jacobian(y, x)
    assert jac.dtype == tf.float32
    np.testing.assert_array_equal(jac.numpy(), [[2.0, 0.0], [0.0, 4.0]])


def test_batch_jacobian_doc_example():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    np.testing.assert_array_equal(g.batch_jacobian(y, x).numpy(),
                                  [[[2, 0], [0, 4]], [[6, 0], [0, 8]]])


def mlp(x, w, b):
    return tf.tanh(tf.matmul(x, w) + b) * tf.reduce_sum(x, axis=1, keepdims=True)


@pytest.mark.parametrize("use_pfor", [True, False])
def test_jacobian_shapes_and_values(use_pfor):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((2, 3)), rng.standard_normal((3, 4)), rng.standard_normal(4)]
    args = [tf.constant(a) for a in arrays]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(args)
        y = mlp(*args)
    jac = tape.jacobian(y, {"x": args[0], "params": [args[1], args[2]]},
                        experimental_use_pfor=use_pfor)
    assert set(jac) == {"x", "params"}
    results = [jac["x"], *jac["params"]]
    for i, (arg, got) in enumerate(zip(args, results)):
        assert got.shape == y.shape + arg.shape and got.dtype == tf.float64
        np.testing.assert_allclose(got.numpy(), numeric_jacobian(mlp, arrays, i), atol=1e-7)


def test_batch_jacobian_shapes_and_values():
    rng = np.random.default_rng(1)
    w = tf.constant(rng.standard_normal((3, 2, 5)))
    x = tf.constant(rng.standard_normal((4, 3)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(tf.reshape(tf.matmul(x, tf.reshape(w, [3, 10])), [4, 2, 5]))
    vectorized = tape.batch_jacobian(y, x)
    looped = tape.batch_jacobian(y, x, experimental_use_pfor=False)
    assert vectorized.shape == [4, 2, 5, 3]
    full = tape.jacobian(y, x).numpy()  # [4, 2, 5, 4, 3]
    expected = np.stack([full[i, :, :, i] for i in range(4)])
    np.testing.assert_allclose(vectorized.numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(looped.numpy(), expected, rtol=1e-12)


def test_batch_jacobian_errors():
    x = tf.constant([1.0, 2.0])
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, m])
        y = x * 2.0
        z = m * 2.0
    with pytest.raises(ValueError, match="rank"):
        tape.batch_jacobian(y, x)  # rank 1
    with pytest.raises(ValueError):
        tape.batch_jacobian(z, x)  # source rank 1
    three = tf.constant(np.ones((3, 2), np.float32))
    with pytest.raises(ValueError, match="first dimension"):
        tape.batch_jacobian(z, three)
    nonpersistent = tf.GradientTape()
    with nonpersistent:
        nonpersistent.watch(m)
        z = m * 2.0
    with pytest.raises(RuntimeError, match="persistent"):
        nonpersistent.batch_jacobian(z, m, experimental_use_pfor=False)


def test_unconnected_sources():
    x = tf.constant([[1.0, 2.0]])
    c = tf.constant([[3.0, 4.0, 5.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, c])
        y = x * 2.0
    assert tape.jacobian(y, c) is None
    assert tape.jacobian(y, c, experimental_use_pfor=False) is None
    zeros = tape.jacobian(y, [x, c], unconnected_gradients=tf.UnconnectedGradients.ZERO)[1]
    assert zeros.shape == [1, 2, 1, 3] and zeros.dtype == tf.float32
    assert not np.any(zeros.numpy())
    batch_zeros = tape.batch_jacobian(y, c)
    assert batch_zeros.shape == [1, 2, 3] and not np.any(batch_zeros.numpy())
    with pytest.raises(ValueError):
        tape.jacobian(y, x, unconnected_gradients="sometimes")


@pytest.mark.parametrize("use_pfor", [True, False])
def test_target_with_no_elements(use_pfor):
    x = tf.constant(np.zeros((0,)))
    c = tf.constant([1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, c])
        y = tf.abs(x)
    jacobian, unconnected = tape.jacobian(y, [x, c], experimental_use_pfor=use_pfor)
    assert jacobian.shape == [0, 0] and jacobian.dtype == tf.float64
    assert unconnected is None
    assert tape.jacobian(y, c, experimental_use_pfor=use_pfor,
                         unconnected_gradients="zero").shape == [0, 1]


def test_integer_target_and_self_jacobian():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        n = tf.cast(x, tf.int32)
    assert tape.jacobian(n, x) is None
    np.testing.assert_array_equal(tape.jacobian(x, x).numpy(), np.eye(3))


def test_non_persistent_tape_is_used_once():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(RuntimeError, match="persistent=True"):
        tape.jacobian(y, x, experimental_use_pfor=False)
    tape.jacobian(y, x)
    with pytest.raises(RuntimeError):
        tape.jacobian(y, x)
    with pytest.raises(RuntimeError):
        tape.gradient(y, x)


def test_variables_and_parallel_iterations():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.reshape(tf.matmul(v, v), [-1])
    jac = tape.jacobian(y, v, parallel_iterations=3)
    value = v.numpy()
    expected = np.zeros((4, 2, 2), np.float32)
    for i, j in np.ndindex(2, 2):
        for k, m in np.ndindex(2, 2):
            # d (v @ v)[i, j] / d v[k, m]
            expected[2 * i + j, k, m] = (i == k) * value[m, j] + (m == j) * value[i, k]
    np.testing.assert_allclose(jac.numpy(), expected)


def _cube_hessian(x, z):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(x ** 3.0)
        jac = inner.jacobian(y, x)
    return jac, outer.jacobian(jac, [x, z], unconnected_gradients="zero")


@pytest.mark.parametrize("traced", [False, True])
def test_nested_jacobians_give_the_hessian(traced):
    fn = tf.function(_cube_hessian) if traced else _cube_hessian
    jac, (hx, hz) = fn(tf.constant([1.0, 2.0]), tf.constant(5.0))
    np.testing.assert_array_equal(jac.numpy(), [3.0, 12.0])
    np.testing.assert_array_equal(hx.numpy(), [[6.0, 0.0], [0.0, 12.0]])
    np.testing.assert_array_equal(hz.numpy(), [0.0, 0.0])


def test_ops_without_a_batched_rule_run_row_by_row(temporary_op):
    op = temporary_op("TestRowByRow", np.sin)

    @registry.RegisterGradient("TestRowByRow")
    def _grad(op, g):
        return g * tf.math.cos(op.inputs[0]) if hasattr(g, "_id") else g * np.cos(op.inputs[0])

    assert not has_batched_gradient("TestRowByRow")
    x = tf.constant([0.5, 1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.framework.execute.execute(op, (x,), {})
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), np.diag(np.cos([0.5, 1.0, 2.0])),
                               rtol=1e-6)


def test_custom_gradient_in_a_jacobian():
    @tf.custom_gradient
    def clip_grad(x):
        return tf.identity(x), lambda dy: dy * 0.5

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = clip_grad(x) * x
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), [[1.5, 0.0], [0.0, 3.0]])


DIFFERENTIABLE = [c for c in CASES if c.differentiable]


@pytest.mark.parametrize("case", DIFFERENTIABLE, ids=[c.id for c in DIFFERENTIABLE])
def test_every_op_vectorized_jacobian(case):
    """Vectorized == looped == finite differences, and the same one order up (the Jacobian
    of a recorded gradient, which batches the backward pass's own ops)."""
    arrays = [np.asarray(a, np.float64) if np.asarray(a).dtype.kind == "f" else np.asarray(a)
              for a in case.args]
    args = [tf.constant(a) for a in arrays]
    floats = [i for i, a in enumerate(args) if a.dtype.is_floating]
    upstream = np.random.default_rng(0).standard_normal(case.fn(*args).shape)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([args[i] for i in floats])
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([args[i] for i in floats])
            y = case.fn(*args)
        grads = tape.gradient(y, [args[i] for i in floats], output_gradients=upstream)
    for i in floats:
        vectorized = same_both_ways(tape, y, args[i])
        if vectorized is not None:
            np.testing.assert_allclose(vectorized.numpy(),
                                       numeric_jacobian(case.fn, arrays, i, case.eps),
                                       rtol=case.rtol * 10, atol=1e-6)
    for g in grads if case.op not in NO_SECOND_DERIVATIVE else ():
        for i in floats:
            if g is not None:
                same_both_ways(outer, g, args[i])


def same_both_ways(tape, target, source):
    """The vectorized Jacobian, checked equal to the looped one (None when both are)."""
    vectorized = tape.jacobian(target, source)
    looped = tape.jacobian(target, source, experimental_use_pfor=False)
    if looped is None:
        assert vectorized is None
        return None
    assert vectorized.shape == looped.shape and vectorized.dtype == looped.dtype
    np.testing.assert_allclose(vectorized.numpy(), looped.numpy(), rtol=1e-10, atol=1e-12)
    return vectorized


def test_common_ops_have_a_batched_gradient():
    names = ["AddV2", "Sub", "Mul", "RealDiv", "Pow", "Neg", "Square", "Sqrt", "Exp", "Log",
             "Tanh", "Sigmoid", "Sin", "Maximum", "BatchMatMulV2", "Einsum", "Sum", "Mean",
             "Max", "Cumsum", "Cast", "Identity", "ReadVariableOp", "Reshape", "BroadcastTo",
             "Transpose", "ConcatV2", "SplitV", "ExpandDims", "Squeeze", "Pack", "Unpack",
             "Tile", "PadV2", "Slice", "StridedSlice", "GatherV2", "SelectV2", "Relu",
             "ReluGrad", "Softmax", "SparseSoftmaxCrossEntropyWithLogits"]
    assert [n for n in names if not has_batched_gradient(n)] == []


# -- inside tf.function: the vectorized pass builds graph ops through the same rules ---------

def _mlp_jacobians(x, w, **kwargs):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        h = tf.nn.relu(tf.matmul(x, w)) + tf.reduce_sum(x ** 2, axis=1, keepdims=True)
        y = tf.nn.softmax(tf.tanh(h)) * tf.reduce_max(x)
    return tape.jacobian(y, [x, w], **kwargs), tape.batch_jacobian(y, x, **kwargs)


@pytest.mark.parametrize("kwargs", [{}, {"parallel_iterations": 3},
                                    {"experimental_use_pfor": False}])
def test_jacobian_and_batch_jacobian_in_function(kwargs):
    rng = np.random.default_rng(1)
    xa, wa = rng.standard_normal((4, 3)), rng.standard_normal((3, 5))
    x, w = tf.constant(xa), tf.constant(wa)
    (jx, jw), bj = tf.function(lambda x, w: _mlp_jacobians(x, w, **kwargs))(x, w)
    (ex, ew), eb = _mlp_jacobians(x, w)
    assert jx.shape == (4, 5, 4, 3) and jw.shape == (4, 5, 3, 5) and bj.shape == (4, 5, 3)
    np.testing.assert_allclose(jx.numpy(), ex.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(jw.numpy(), ew.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(bj.numpy(), eb.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(jx.numpy(), numeric_jacobian(lambda x: _mlp_value(x, w), [xa], 0),
                               atol=1e-6)


def _mlp_value(x, w):
    h = tf.nn.relu(tf.matmul(x, w)) + tf.reduce_sum(x ** 2, axis=1, keepdims=True)
    return tf.nn.softmax(tf.tanh(h)) * tf.reduce_max(x)


def test_jacobians_in_function_with_unknown_dimensions_run_when_the_graph_runs():
    rng = np.random.default_rng(2)
    w, v = tf.constant(rng.standard_normal((3, 4))), tf.Variable(rng.standard_normal(4))

    def jacobians(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.tanh(tf.matmul(x, w)) * v + tf.reduce_max(x, axis=1, keepdims=True)
        return (tape.batch_jacobian(y, x), tape.jacobian(y, [x, v]),
                tape.jacobian(y, tf.constant(1.0, tf.float64)),
                tape.jacobian(y, tf.constant(1.0, tf.float64), unconnected_gradients="zero"))

    def second(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            total = tf.reduce_sum(jacobians(x)[0] ** 2)
        return tape.gradient(total, x)

    spec = [tf.TensorSpec([None, 3], tf.float64)]
    traced, traced_second = tf.function(jacobians, input_signature=spec), \
        tf.function(second, input_signature=spec)
    for batch in (5, 2):
        x = tf.constant(rng.standard_normal((batch, 3)))
        (bj, (jx, jv), none, zeros), (ebj, (ejx, ejv), _, ezeros) = traced(x), jacobians(x)
        assert bj.shape == (batch, 4, 3) and jx.shape == (batch, 4, batch, 3)
        for got, want in ((bj, ebj), (jx, ejx), (jv, ejv), (zeros, ezeros)):
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-14)
        assert none is None and zeros.shape == (batch, 4)
        np.testing.assert_allclose(traced_second(x).numpy(), second(x).numpy(), rtol=1e-10)
    with pytest.raises(ValueError, match="first dimension"):
        tf.function(lambda x: jacobian_of_rank_one(x), input_signature=[
            tf.TensorSpec([None], tf.float32)])(tf.ones(2))


def jacobian_of_rank_one(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.batch_jacobian(y, x)


@pytest.mark.parametrize("case", DIFFERENTIABLE, ids=[c.id for c in DIFFERENTIABLE])
def test_every_op_jacobian_in_function(case):
    """The Jacobian built in a graph equals the eager one, for every op of the table."""
    arrays = [np.asarray(a, np.float64) if np.asarray(a).dtype.kind == "f" else np.asarray(a)
              for a in case.args]
    floats = [i for i, a in enumerate(arrays) if a.dtype.kind == "f"]

    def jacobians(*args):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([args[i] for i in floats])
            y = case.fn(*args)
        return [tape.jacobian(y, args[i]) for i in floats]

    args = [tf.constant(a) for a in arrays]
    for eager, graph in zip(jacobians(*args), tf.function(jacobians)(*args)):
        if eager is None:
            assert graph is None
        else:
            np.testing.assert_allclose(graph.numpy(), eager.numpy(), rtol=1e-10, atol=1e-12)


def test_gradient_of_a_jacobian_in_function_through_a_rule_run_at_run_time():
    # Max's rule reads the input's shape, unknown while a [2, None] input is traced: its
    # batched gradient runs in an EagerPyFunc, itself differentiated by the outer tape.
    def jacobian_and_its_gradient(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_max(x * x, axis=1) * tf.reduce_sum(x)
            jac = tape.jacobian(y, x)
            total = tf.reduce_sum(jac ** 2)
        return jac, outer.gradient(total, x)

    x = tf.constant([[0.5, 2.0], [1.0, -3.0]], tf.float64)
    traced = tf.function(jacobian_and_its_gradient,
                         input_signature=[tf.TensorSpec([2, None], tf.float64)])
    types = {op.type for op in traced.get_concrete_function().graph.get_operations()}
    assert "EagerPyFunc" in types
    for got, want in zip(traced(x), jacobian_and_its_gradient(x)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-14)


def test_jacobian_through_an_op_whose_first_output_is_not_differentiable():
    # A function call's first output is an integer: the vectorized pass still goes through.
    f = tf.function(lambda x: (tf.size(x), x * x))
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        _, y = f(x)
    np.testing.assert_array_equal(tape.jacobian(y, x).numpy(), [[2.0, 0.0], [0.0, 4.0]])
