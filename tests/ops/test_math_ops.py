"""Elementwise math ops: values against NumPy/SciPy, dtypes, TF's gradient edge rules,
operators and errors. Gradients in general are checked by the op table (test_op_table.py)."""
import numpy as np
import pytest
from scipy import special

import tapeflow as tf
from tapeflow.framework import errors


def grad(fn, *xs, persistent=False, output_gradients=None):
    """The gradients of fn(*xs) w.r.t. each x, watched as a constant (a list when there are
    several); the op tests share this one helper."""
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape(persistent=persistent) as tape:
        tape.watch(xs)
        y = fn(*xs)
    grads = tape.gradient(y, xs, output_gradients=output_gradients)
    return grads[0] if len(grads) == 1 else grads


_X = np.array([-1.7, -0.3, 0.4, 2.5])
_UNIT = np.array([-0.9, -0.2, 0.3, 0.8])
_POS = np.array([0.2, 0.9, 1.6, 3.1])
UNARY = [  # (tapeflow function, reference, inputs, complex too)
    (tf.abs, np.abs, _X, False), (tf.sign, np.sign, _X, True), (tf.negative, np.negative, _X, True),
    (tf.square, np.square, _X, True), (tf.sqrt, np.sqrt, _POS, True),
    (tf.math.rsqrt, lambda x: 1 / np.sqrt(x), _POS, True),
    (tf.math.reciprocal, np.reciprocal, _POS, True), (tf.exp, np.exp, _X, True),
    (tf.math.expm1, np.expm1, _X, True), (tf.math.log, np.log, _POS, True),
    (tf.math.log1p, np.log1p, _POS, True), (tf.sin, np.sin, _X, True), (tf.cos, np.cos, _X, True),
    (tf.tan, np.tan, _UNIT, True), (tf.asin, np.arcsin, _UNIT, True),
    (tf.acos, np.arccos, _UNIT, True), (tf.atan, np.arctan, _X, True),
    (tf.sinh, np.sinh, _X, True), (tf.cosh, np.cosh, _X, True), (tf.tanh, np.tanh, _X, True),
    (tf.asinh, np.arcsinh, _X, True), (tf.acosh, np.arccosh, _POS + 1, True),
    (tf.atanh, np.arctanh, _UNIT, True), (tf.sigmoid, special.expit, _X, True),
    (tf.math.erf, special.erf, _X, False), (tf.math.erfc, special.erfc, _X, False),
    (tf.math.lgamma, special.gammaln, _X, False), (tf.math.digamma, special.psi, _X, False),
    (tf.floor, np.floor, _X, False), (tf.math.ceil, np.ceil, _X, False),
    (tf.round, np.round, np.array([0.5, 1.5, -2.5, 2.7]), False),
]


@pytest.mark.parametrize("fn,ref,x,has_complex", UNARY, ids=[u[0].__name__ for u in UNARY])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_unary_values_and_dtype(fn, ref, x, has_complex, dtype):
    out = fn(tf.constant(x.astype(dtype)))
    assert out.dtype == tf.as_dtype(dtype)
    tol = {np.float16: 2e-3, np.float32: 1e-6, np.float64: 1e-12}[dtype]
    np.testing.assert_allclose(out.numpy().astype(np.float64),
                               ref(x.astype(dtype).astype(np.float64)), rtol=tol, atol=tol)


@pytest.mark.parametrize("fn,ref,x", [(u[0], u[1], u[2]) for u in UNARY if u[3]],
                         ids=[u[0].__name__ for u in UNARY if u[3]])
def test_unary_complex_values(fn, ref, x):
    z = x + 0.5j
    out = fn(tf.constant(z))
    assert out.dtype == tf.complex128
    np.testing.assert_allclose(out.numpy(), 1 / np.sqrt(z) if fn is tf.math.rsqrt else
                               1 / (1 + np.exp(-z)) if fn is tf.sigmoid else ref(z), rtol=1e-12)


def test_integer_dtypes_are_kept():
    i = tf.constant([-7, 0, 5])
    for out, expected in [(tf.abs(i), [7, 0, 5]), (tf.sign(i), [-1, 0, 1]),
                          (tf.square(i), [49, 0, 25]), (tf.negative(i), [7, 0, -5]),
                          (tf.maximum(i, 1), [1, 1, 5]), (tf.minimum(i, 1), [-7, 0, 1]),
                          (tf.math.floordiv(i, 2), [-4, 0, 2]), (tf.math.floormod(i, 3), [2, 0, 2]),
                          (i // -2, [3, 0, -3]), (i % -3, [-1, 0, -1]),
                          (tf.math.squared_difference(i, 1), [64, 1, 16]),
                          (tf.add_n([i, i, i]), [-21, 0, 15])]:
        assert out.dtype == tf.int32
        np.testing.assert_array_equal(out.numpy(), expected)
    assert tf.abs(tf.constant([-3], tf.int64)).dtype == tf.int64


def test_float_only_ops_reject_integers_and_bools():
    for fn in (tf.sin, tf.exp, tf.sqrt, tf.math.erf, tf.math.lgamma, tf.floor, tf.math.is_nan):
        with pytest.raises(errors.InvalidArgumentError, match="int32"):
            fn(tf.constant([1, 2]))
    with pytest.raises(errors.InvalidArgumentError, match="Add.*bool"):
        tf.add(tf.constant([True]), tf.constant([False]))
    with pytest.raises(errors.InvalidArgumentError, match="Abs"):
        tf.abs(tf.constant([True]))


@pytest.mark.parametrize("fn,ref", [
    (tf.maximum, np.maximum), (tf.minimum, np.minimum), (tf.math.atan2, np.arctan2),
    (tf.math.squared_difference, lambda x, y: (x - y) ** 2),
    (tf.math.floormod, np.mod), (tf.math.floordiv, lambda x, y: np.floor(x / y)),
    (tf.math.divide_no_nan, np.divide), (tf.pow, np.power)])
def test_binary_values_broadcast(fn, ref):
    x = np.array([[0.5, 1.5, 2.5]])
    y = np.array([[0.7], [2.0]])
    out = fn(tf.constant(x), tf.constant(y))
    assert out.shape == (2, 3) and out.dtype == tf.float64
    np.testing.assert_allclose(out.numpy(), ref(x, y), rtol=1e-12)


def test_floordiv_is_floor_of_the_quotient_for_floats():
    # NumPy's floor_divide(1.0, 0.1) is 9.0; TF (and Python's floor(1/0.1)) give 10.
    assert float(tf.math.floordiv(1.0, 0.1)) == 10.0
    assert float(tf.constant(-7.5) // 2.0) == -4.0


def test_divide_no_nan_is_zero_for_a_zero_divisor():
    x = np.array([1.0, np.inf, np.nan, 0.0])
    out = tf.math.divide_no_nan(tf.constant(x), tf.constant(np.zeros(4)))
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, 0.0, 0.0])
    gx, gy = grad(tf.math.divide_no_nan, np.array([3.0, 3.0]), np.array([2.0, 0.0]))
    np.testing.assert_allclose(gx.numpy(), [0.5, 0.0])
    np.testing.assert_allclose(gy.numpy(), [-0.75, 0.0])


def test_integer_division_by_zero_raises():
    for fn in (tf.math.floordiv, tf.math.floormod):
        with pytest.raises(errors.InvalidArgumentError, match="division by zero"):
            fn(tf.constant([4, 5]), tf.constant([2, 0]))


def test_maximum_minimum_ties_send_the_gradient_to_the_first_argument():
    x, y = np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0, 5.0])
    gx, gy = grad(tf.maximum, x, y)
    np.testing.assert_array_equal(gx.numpy(), [1.0, 1.0, 0.0])
    np.testing.assert_array_equal(gy.numpy(), [0.0, 0.0, 1.0])
    gx, gy = grad(tf.minimum, x, y)
    np.testing.assert_array_equal(gx.numpy(), [1.0, 0.0, 1.0])
    np.testing.assert_array_equal(gy.numpy(), [0.0, 1.0, 0.0])


def test_maximum_does_not_leak_an_infinite_gradient_into_the_other_side():
    # sqrt(maximum(x, 0)) at x < 0: sqrt'(0) = inf reaches maximum, which sends it to the
    # constant 0, so x gets 0 (TF's where), not inf * 0 = nan.
    with np.errstate(divide="ignore"):
        g = grad(lambda x: tf.sqrt(tf.maximum(x, 0.0)), np.array([-1.0, 4.0]))
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.25])


def test_sqrt_gradient_at_zero_is_inf():
    with np.errstate(divide="ignore"):
        g = grad(tf.sqrt, np.array([0.0, 4.0]))
    np.testing.assert_array_equal(g.numpy(), [np.inf, 0.25])


@pytest.mark.parametrize("fn", [tf.sqrt, tf.math.rsqrt, tf.math.reciprocal])
def test_gradient_is_zero_where_the_upstream_gradient_is_even_at_a_pole(fn):
    # TF's SqrtGrad, RsqrtGrad and ReciprocalGrad kernels: 0, not 0 * inf = nan.
    x = tf.constant([0.0, 0.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        g = tape.gradient(y, x, output_gradients=tf.constant([0.0, 1.0, 0.0]))
    np.testing.assert_array_equal(g.numpy()[[0, 2]], [0.0, 0.0])
    assert np.isinf(g.numpy()[1])


def test_pow_exponent_gradient_is_zero_where_base_is_not_positive():
    gx, gy = grad(tf.pow, np.array([-2.0, 0.0, 2.0]), np.array([2.0, 2.0, 2.0]))
    np.testing.assert_allclose(gy.numpy(), [0.0, 0.0, 4.0 * np.log(2.0)])
    np.testing.assert_allclose(gx.numpy(), [-4.0, 0.0, 4.0])


def test_sign_has_a_connected_zero_gradient_and_abs_uses_it():
    g = grad(tf.sign, np.array([-2.0, 0.0, 3.0]))
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0, 0.0])
    g = grad(tf.abs, np.array([-2.0, 0.0, 3.0]))
    np.testing.assert_array_equal(g.numpy(), [-1.0, 0.0, 1.0])


@pytest.mark.parametrize("fn", [
    tf.floor, tf.math.ceil, tf.round, lambda x: tf.math.floordiv(x, 2.0),
    lambda x: tf.cast(x, tf.int32)])
def test_non_differentiable_ops_give_none(fn):
    assert grad(fn, np.array([0.3, 1.7])) is None


def test_integer_paths_give_none():
    assert grad(lambda i: tf.abs(i) * 2, np.array([1, -2], np.int32)) is None
    x = tf.constant([1.5, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.maximum(tf.cast(x, tf.int32), 2), tf.float32) * x
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 2.0])


def test_float16_gradients_keep_their_dtype():
    g = grad(lambda x: tf.sin(x) * tf.math.erf(x), np.array([0.5, 1.0], np.float16))
    assert g.dtype == tf.float16
    x = np.array([0.5, 1.0])
    np.testing.assert_allclose(g.numpy(), np.cos(x) * special.erf(x) +
                               np.sin(x) * 2 / np.sqrt(np.pi) * np.exp(-x * x), rtol=3e-3)


def test_clip_by_value():
    x = np.array([-2.0, -1.0, 0.5, 1.0, 3.0])
    out = tf.clip_by_value(tf.constant(x), -1.0, 1.0)
    np.testing.assert_array_equal(out.numpy(), [-1.0, -1.0, 0.5, 1.0, 1.0])
    gx, glo, ghi = grad(tf.clip_by_value, x, np.array(-1.0), np.array(1.0))
    np.testing.assert_array_equal(gx.numpy(), [0.0, 1.0, 1.0, 1.0, 0.0])  # bounds: t wins
    assert float(glo) == 1.0 and float(ghi) == 1.0
    with pytest.raises(ValueError, match="broadcast"):
        tf.clip_by_value(tf.constant([1.0, 2.0]), tf.constant([[0.0], [1.0]]), 3.0)


def test_add_n():
    out = tf.add_n([tf.constant([1.0, 2.0]), [3.0, 4.0], tf.Variable([5.0, 6.0])])
    np.testing.assert_array_equal(out.numpy(), [9.0, 12.0])
    single = tf.constant([1.0])
    assert tf.add_n([single]) is single
    ga, gb = grad(lambda a, b: tf.add_n([a, b, a]), np.ones(2), np.ones(2))
    np.testing.assert_array_equal(ga.numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(gb.numpy(), [1.0, 1.0])
    with pytest.raises(ValueError):
        tf.add_n([])
    with pytest.raises(errors.InvalidArgumentError, match=r"\[2\], \[3\]"):
        tf.add_n([tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0])])
    with pytest.raises(errors.InvalidArgumentError, match="int32"):
        tf.add_n([tf.constant([1.0]), tf.constant([1])])


def test_add_n_of_indexed_slices():
    sparse = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), (3, 2))
    out = tf.add_n([sparse, tf.constant(np.ones((3, 2), np.float32))])
    np.testing.assert_array_equal(out.numpy(), [[1.0, 1.0], [2.0, 3.0], [1.0, 1.0]])


# -- complex numbers ---------------------------------------------------------------------------
def test_complex_gradients_follow_tf_conjugate_convention():
    z = np.array([1.0 + 2.0j, -0.5 + 0.3j])
    # L = re(z^2): dL/dx + i dL/dy = 2x - 2iy = 2 conj(z).
    g = grad(lambda z: tf.math.real(z * z), z)
    np.testing.assert_allclose(g.numpy(), 2 * np.conj(z))
    # |z| gives z / |z|; the complex square of a product conjugates the other factor.
    np.testing.assert_allclose(grad(tf.abs, z).numpy(), z / np.abs(z))
    w = np.array([0.5 - 1.0j, 2.0 + 0.0j])
    gz, gw = grad(tf.multiply, z, w)
    np.testing.assert_allclose(gz.numpy(), np.conj(w))
    np.testing.assert_allclose(gw.numpy(), np.conj(z))
    np.testing.assert_allclose(grad(tf.exp, z).numpy(), np.conj(np.exp(z)))
    gre, gim = grad(lambda a, b: tf.abs(tf.complex(a, b)), np.array([3.0]), np.array([4.0]))
    np.testing.assert_allclose([gre.numpy()[0], gim.numpy()[0]], [0.6, 0.8])


def test_complex_matmul_gradients():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))
    b = rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2))
    ga, gb = grad(tf.matmul, a, b)
    ones = np.ones((2, 2))
    np.testing.assert_allclose(ga.numpy(), ones @ b.conj().T)
    np.testing.assert_allclose(gb.numpy(), a.conj().T @ ones)
    ga, _ = grad(lambda a, b: tf.matmul(a, b, transpose_a=True), a.T, b)
    np.testing.assert_allclose(ga.numpy(), (ones @ b.conj().T).T)
    ga, _ = grad(lambda a, b: tf.matmul(a, b, adjoint_a=True), a.conj().T, b)
    np.testing.assert_allclose(ga.numpy(), (ones @ b.conj().T).conj().T)


# -- operators ---------------------------------------------------------------------------------
def test_arithmetic_operators():
    x = tf.constant([-7.0, 7.0])
    np.testing.assert_array_equal(abs(x).numpy(), [7.0, 7.0])
    np.testing.assert_array_equal((x // 2).numpy(), [-4.0, 3.0])
    np.testing.assert_array_equal((15 // tf.constant([4, -4])).numpy(), [3, -4])
    np.testing.assert_array_equal((x % 3).numpy(), [2.0, 1.0])
    np.testing.assert_array_equal((10 % tf.constant([3, -3])).numpy(), [1, -2])
    np.testing.assert_array_equal((2.0 ** tf.constant([1.0, 3.0])).numpy(), [2.0, 8.0])
    v = tf.Variable([-3.0, 4.0])
    np.testing.assert_array_equal(abs(v).numpy(), [3.0, 4.0])
    np.testing.assert_array_equal((v // 2).numpy(), [-2.0, 2.0])
    np.testing.assert_array_equal((v > 0).numpy(), [False, True])


def test_realdiv_divides_floats_and_rejects_integers_and_bools():
    out = tf.realdiv(tf.constant([[7.0], [1.0]]), tf.constant([2.0, 4.0]))
    np.testing.assert_allclose(out.numpy(), [[3.5, 1.75], [0.5, 0.25]])
    assert out.dtype == tf.float32
    assert tf.realdiv(tf.constant(1 + 1j), 2.0).numpy() == 0.5 + 0.5j
    with pytest.raises(errors.NotFoundError, match="RealDiv.*int32"):
        tf.realdiv(tf.constant([7]), tf.constant([2]))
    with pytest.raises(errors.InvalidArgumentError, match="RealDiv.*bool"):
        tf.realdiv(tf.constant([True]), tf.constant([True]))
    with pytest.raises(errors.InvalidArgumentError):
        tf.realdiv(tf.constant([1.0]), tf.constant([1.0], tf.float64))


def test_scalar_mul():
    out = tf.math.scalar_mul(2, tf.constant([1.0, 2.5]))
    assert out.dtype == tf.float32 and tf.scalar_mul is tf.math.scalar_mul
    np.testing.assert_array_equal(out.numpy(), [2.0, 5.0])
    g = grad(lambda s, x: tf.math.scalar_mul(s, x), np.float64(3.0), np.array([1.0, 2.0]))
    np.testing.assert_allclose(g[0].numpy(), 3.0)
    np.testing.assert_allclose(g[1].numpy(), [3.0, 3.0])
    slices = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
    scaled = tf.math.scalar_mul(-1.0, slices)
    assert isinstance(scaled, tf.IndexedSlices)
    np.testing.assert_array_equal(scaled.values.numpy(), [[-1.0, -2.0]])
    with pytest.raises(ValueError, match="0-D"):
        tf.math.scalar_mul(tf.constant([2.0, 3.0]), tf.constant([1.0, 2.0]))
