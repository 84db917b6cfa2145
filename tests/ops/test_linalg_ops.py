"""tf.linalg: values against NumPy/SciPy, shapes, dtypes, errors and gradient identities."""
import numpy as np
import pytest
import scipy.linalg

import tapeflow as tf
from tapeflow.framework import errors

from .test_math_ops import grad

rng = np.random.default_rng(7)


def well_conditioned(*batch, n=3):
    return rng.standard_normal(batch + (n, n)) + n * np.eye(n)


def spd(*batch, n=3):
    x = rng.standard_normal(batch + (n, n))
    return x @ np.swapaxes(x, -1, -2) + n * np.eye(n)


# -- values ---------------------------------------------------------------------------------
def test_inv_det_slogdet_match_numpy_batched():
    a = well_conditioned(2, 4)
    np.testing.assert_allclose(tf.linalg.inv(a).numpy(), np.linalg.inv(a), rtol=1e-12)
    np.testing.assert_allclose(tf.linalg.inv(a, adjoint=True).numpy(),
                               np.swapaxes(np.linalg.inv(a), -1, -2), rtol=1e-12)
    np.testing.assert_allclose(tf.linalg.det(a).numpy(), np.linalg.det(a), rtol=1e-12)
    sign, logdet = tf.linalg.slogdet(-a)
    expected_sign, expected_log = np.linalg.slogdet(-a)
    np.testing.assert_array_equal(sign.numpy(), expected_sign)
    np.testing.assert_allclose(logdet.numpy(), expected_log, rtol=1e-12)
    assert tf.linalg.det(a).shape == [2, 4]


def test_float32_stays_float32():
    a = well_conditioned(3).astype(np.float32)
    for result in [tf.linalg.inv(a), tf.linalg.det(a), tf.linalg.slogdet(a)[1],
                   tf.linalg.cholesky(spd().astype(np.float32)), tf.linalg.eigh(a)[0],
                   tf.linalg.svd(a, compute_uv=False), tf.linalg.qr(a).q, tf.linalg.trace(a),
                   tf.linalg.solve(a, a)]:
        assert result.dtype == tf.float32


def test_complex_inputs_keep_their_dtype():
    a = well_conditioned(2) + 1j * rng.standard_normal((2, 3, 3))
    np.testing.assert_allclose(tf.linalg.inv(a).numpy(), np.linalg.inv(a), rtol=1e-12)
    e = tf.linalg.eigvalsh(a + np.conj(np.swapaxes(a, -1, -2)))
    assert e.dtype == tf.complex128
    s, u, v = tf.linalg.svd(a)
    assert s.dtype == tf.float64 and u.dtype == tf.complex128
    np.testing.assert_allclose((u.numpy() * s.numpy()[..., None, :]) @ np.conj(
        np.swapaxes(v.numpy(), -1, -2)), a, atol=1e-12)


def test_solve_and_adjoint_solve():
    a, b = well_conditioned(2), rng.standard_normal((2, 3, 2))
    np.testing.assert_allclose(tf.linalg.solve(a, b).numpy(), np.linalg.solve(a, b), rtol=1e-12)
    np.testing.assert_allclose(tf.linalg.solve(a, b, adjoint=True).numpy(),
                               np.linalg.solve(np.swapaxes(a, -1, -2), b), rtol=1e-12)


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_triangular_solve_reads_one_triangle(lower, adjoint):
    a, b = well_conditioned(), rng.standard_normal((3, 2))
    expected = scipy.linalg.solve_triangular(a, b, lower=lower, trans=1 if adjoint else 0)
    got = tf.linalg.triangular_solve(a, b, lower=lower, adjoint=adjoint).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_triangular_solve_broadcasts_batch_dimensions():
    a, b = well_conditioned(4, 1), rng.standard_normal((5, 3, 2))
    got = tf.linalg.triangular_solve(a, b)
    assert got.shape == [4, 5, 3, 2]
    np.testing.assert_allclose(got.numpy()[2, 3], scipy.linalg.solve_triangular(
        a[2, 0], b[3], lower=True), rtol=1e-12)


def test_cholesky_reconstructs_and_reads_lower_triangle():
    a = spd(2)
    l_factor = tf.linalg.cholesky(a).numpy()
    np.testing.assert_allclose(l_factor @ np.swapaxes(l_factor, -1, -2), a, rtol=1e-12)
    assert np.all(np.triu(l_factor, 1) == 0)
    junk_above = np.tril(a) + np.triu(np.full((3, 3), 99.0), 1)
    np.testing.assert_array_equal(tf.linalg.cholesky(junk_above).numpy(), l_factor)


@pytest.mark.parametrize("shape,full,q_shape,r_shape", [
    ((4, 3), False, (4, 3), (3, 3)), ((4, 3), True, (4, 4), (4, 3)),
    ((3, 5), False, (3, 3), (3, 5)), ((2, 4, 3), False, (2, 4, 3), (2, 3, 3))])
def test_qr_shapes_and_reconstruction(shape, full, q_shape, r_shape):
    a = rng.standard_normal(shape)
    q, r = tf.linalg.qr(a, full_matrices=full)
    assert (q.shape, r.shape) == (list(q_shape), list(r_shape))
    q, r = q.numpy(), r.numpy()
    np.testing.assert_allclose(q @ r, a, atol=1e-12)
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, np.eye(q.shape[-1]) + 0 * q[..., :1, :1],
                               atol=1e-12)
    np.testing.assert_array_equal(np.tril(r, -1), 0 * r)


def test_logdet_matches_slogdet_and_is_real_for_complex():
    a = spd(2)
    np.testing.assert_allclose(tf.linalg.logdet(a).numpy(), np.linalg.slogdet(a)[1], rtol=1e-12)
    h = hermitian()
    result = tf.linalg.logdet(h)
    assert result.dtype == tf.float64
    assert float(result) == pytest.approx(np.linalg.slogdet(h)[1].real, rel=1e-12)


def test_eigh_matches_numpy_and_ascends():
    a = spd(2, n=4)
    e, v = tf.linalg.eigh(a)
    expected_e, _ = np.linalg.eigh(a)
    np.testing.assert_allclose(e.numpy(), expected_e, rtol=1e-12)
    np.testing.assert_allclose(v.numpy() @ (e.numpy()[..., None] * np.swapaxes(v.numpy(), -1, -2)),
                               a, rtol=1e-10)
    np.testing.assert_allclose(tf.linalg.eigvalsh(a).numpy(), expected_e, rtol=1e-12)


@pytest.mark.parametrize("shape,full", [((3, 3), False), ((5, 3), False), ((3, 5), True),
                                        ((2, 4, 3), True)])
def test_svd_shapes_and_reconstruction(shape, full):
    a = rng.standard_normal(shape)
    s, u, v = tf.linalg.svd(a, full_matrices=full)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), rtol=1e-12)
    m, n = shape[-2:]
    k = min(m, n)
    assert u.shape[-2:] == [m, m if full else k] and v.shape[-2:] == [n, n if full else k]
    u, v = u.numpy()[..., :k], v.numpy()[..., :k]
    np.testing.assert_allclose((u * s.numpy()[..., None, :]) @ np.swapaxes(v, -1, -2), a,
                               atol=1e-12)
    assert tf.linalg.svd(a, compute_uv=False).shape == list(shape[:-2]) + [k]


def test_transposes_matvec_and_matmul_alias():
    m = rng.standard_normal((2, 3, 4)) + 1j * rng.standard_normal((2, 3, 4))
    assert tf.linalg.matrix_transpose(m).shape == [2, 4, 3]
    np.testing.assert_array_equal(tf.linalg.matrix_transpose(m).numpy(), np.swapaxes(m, -1, -2))
    np.testing.assert_array_equal(tf.linalg.adjoint(m).numpy(), np.conj(np.swapaxes(m, -1, -2)))
    np.testing.assert_array_equal(tf.linalg.matrix_transpose(m, conjugate=True).numpy(),
                                  tf.linalg.adjoint(m).numpy())
    a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal(4)
    np.testing.assert_allclose(tf.linalg.matvec(a, b).numpy(), a @ b)
    np.testing.assert_allclose(tf.linalg.matvec(a, rng.standard_normal(3) + 0 * b[:3],
                                                transpose_a=True).shape, (2, 4))
    assert tf.linalg.matmul is tf.matmul
    assert tf.linalg.norm is tf.norm and tf.linalg.eye is tf.eye
    assert tf.math.softplus is tf.nn.softplus and tf.math.log_softmax is tf.nn.log_softmax


def test_inputs_are_not_modified():
    a = spd()
    before = a.copy()
    tf.linalg.cholesky(a), tf.linalg.inv(a), tf.linalg.eigh(a), tf.linalg.triangular_solve(a, a)
    np.testing.assert_array_equal(a, before)


# -- errors ---------------------------------------------------------------------------------
def test_singular_matrices_raise_invalid_argument():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(errors.InvalidArgumentError, match="MatrixInverse.*not invertible"):
        tf.linalg.inv(singular)
    with pytest.raises(errors.InvalidArgumentError, match="MatrixSolve.*not invertible"):
        tf.linalg.solve(singular, np.ones((2, 1)))
    assert float(tf.linalg.det(singular)) == 0.0


def test_failures_tf_does_not_raise_for_give_nan_and_inf():
    factors = tf.linalg.cholesky(np.stack([-np.eye(2), 4 * np.eye(2)])).numpy()
    np.testing.assert_array_equal(factors[0], [[np.nan, 0.0], [np.nan, np.nan]])  # as TF
    np.testing.assert_array_equal(factors[1], 2 * np.eye(2))
    solved = tf.linalg.triangular_solve(np.zeros((2, 2)), np.ones((2, 1))).numpy()
    assert solved[0, 0] == np.inf and np.isnan(solved[1, 0])
    a, b = np.array([[2.0, 0.0], [1.0, 0.0]]), np.array([[2.0], [3.0]])
    np.testing.assert_array_equal(tf.linalg.triangular_solve(a, b).numpy(), [[1.0], [np.inf]])


@pytest.mark.parametrize("fn", [tf.linalg.inv, tf.linalg.det, tf.linalg.cholesky,
                                tf.linalg.eigh, tf.linalg.slogdet])
def test_rank_and_square_errors_name_op_and_shape(fn):
    with pytest.raises(errors.InvalidArgumentError, match=r"rank >= 2.*\[3\]"):
        fn(np.ones(3))
    with pytest.raises(errors.InvalidArgumentError, match=r"square.*\[2, 3\]"):
        fn(np.ones((2, 3)))


def test_dtype_and_shape_errors():
    with pytest.raises(errors.InvalidArgumentError, match="MatrixInverse.*int32"):
        tf.linalg.inv(tf.constant([[1, 0], [0, 1]]))
    with pytest.raises(errors.NotFoundError, match="MatrixDeterminant.*float16"):
        tf.linalg.det(tf.constant(np.eye(2, dtype=np.float16)))
    with pytest.raises(errors.InvalidArgumentError, match=r"MatrixSolve.*\[3, 3\].*\[2, 1\]"):
        tf.linalg.solve(np.eye(3), np.ones((2, 1)))
    with pytest.raises(errors.InvalidArgumentError, match="outer dimensions"):
        tf.linalg.solve(np.ones((2, 3, 3)), np.ones((3, 1)))
    with pytest.raises(errors.InvalidArgumentError, match="batch dimensions"):
        tf.linalg.triangular_solve(np.ones((2, 3, 3)), np.ones((4, 3, 1)))
    with pytest.raises(errors.InvalidArgumentError, match="MatrixSolve"):
        tf.linalg.solve(tf.constant(np.eye(2)), tf.constant(np.eye(2, dtype=np.float32)))
    with pytest.raises(ValueError, match="rank"):
        tf.linalg.matrix_transpose(np.ones(3))


# -- gradients ------------------------------------------------------------------------------
def test_det_gradient_is_det_times_inverse_transpose():
    a = well_conditioned()
    g = grad(tf.linalg.det, a).numpy()
    np.testing.assert_allclose(g, np.linalg.det(a) * np.linalg.inv(a).T, rtol=1e-10)


def test_slogdet_sign_gradient_is_zero_and_logdet_gradient_is_inverse_transpose():
    a = well_conditioned()
    g_sign = grad(lambda x: tf.linalg.slogdet(x)[0], a).numpy()
    np.testing.assert_array_equal(g_sign, np.zeros_like(a))
    g_log = grad(lambda x: tf.linalg.slogdet(x)[1], a).numpy()
    np.testing.assert_allclose(g_log, np.linalg.inv(a).T, rtol=1e-10)


def test_eigenvalue_sum_gradient_is_identity_and_svd_norm_gradient_is_uvt():
    a = spd()
    g = grad(lambda x: tf.reduce_sum(tf.linalg.eigvalsh(x)), a).numpy()
    np.testing.assert_allclose(g, np.eye(3), atol=1e-10)
    b = rng.standard_normal((4, 3))
    g = grad(lambda x: tf.reduce_sum(tf.linalg.svd(x, compute_uv=False)), b).numpy()
    u, _, vh = np.linalg.svd(b, full_matrices=False)
    np.testing.assert_allclose(g, u @ vh, atol=1e-10)


def test_cholesky_gradient_matches_finite_differences_of_symmetric_input():
    a = spd()
    direction = rng.standard_normal((3, 3))
    direction = direction + direction.T
    upstream = rng.standard_normal((3, 3))
    g = grad(tf.linalg.cholesky, a, output_gradients=tf.constant(upstream)).numpy()
    eps = 1e-6
    numeric = np.sum((np.linalg.cholesky(a + eps * direction) -
                      np.linalg.cholesky(a - eps * direction)) * upstream) / (2 * eps)
    assert np.sum(g * direction) == pytest.approx(numeric, rel=1e-6)
    np.testing.assert_allclose(g, g.T)


def test_complex_inverse_and_solve_gradients_use_the_conjugate_convention():
    a = well_conditioned() + 1j * rng.standard_normal((3, 3))
    b = rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2))
    upstream = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    g = grad(tf.linalg.inv, a, output_gradients=tf.constant(upstream)).numpy()
    inv_h = np.conj(np.linalg.inv(a)).T
    np.testing.assert_allclose(g, -inv_h @ upstream @ inv_h, rtol=1e-10)
    up_b = rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2))
    g_a, g_b = (g.numpy() for g in grad(tf.linalg.solve, a, b,
                                        output_gradients=tf.constant(up_b)))
    x = np.linalg.solve(a, b)
    expected_b = np.linalg.solve(np.conj(a).T, up_b)
    np.testing.assert_allclose(g_b, expected_b, rtol=1e-10)
    np.testing.assert_allclose(g_a, -expected_b @ np.conj(x).T, rtol=1e-10)


def test_unsupported_gradients_raise_not_implemented():
    with pytest.raises(NotImplementedError, match="full_matrices"):
        grad(lambda x: tf.linalg.qr(x, full_matrices=True).q, rng.standard_normal((4, 3)))
    with pytest.raises(NotImplementedError, match="full_matrices"):
        grad(lambda x: tf.linalg.svd(x, full_matrices=True)[1], rng.standard_normal((5, 3)))
    with pytest.raises(NotImplementedError, match="complex"):
        grad(lambda x: tf.linalg.qr(x).r, well_conditioned() + 1j)


def test_second_derivative_of_log_det_through_nested_tapes():
    a = tf.constant(well_conditioned())
    direction = rng.standard_normal((3, 3))
    with tf.GradientTape() as outer:
        outer.watch(a)
        with tf.GradientTape() as inner:
            inner.watch(a)
            y = tf.linalg.slogdet(a)[1]
        g = inner.gradient(y, a)
        directional = tf.reduce_sum(g * direction)
    h = outer.gradient(directional, a).numpy()
    inv = np.linalg.inv(a.numpy())
    # d/dA <inv(A)^T, D> = -(inv(A) D inv(A))^T
    np.testing.assert_allclose(h, -(inv @ direction @ inv).T, rtol=1e-10)


def complex_normal(*shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


@pytest.mark.parametrize("fn,numpy_fn,make", [
    (tf.linalg.det, np.linalg.det, lambda: well_conditioned() + 1j * rng.standard_normal((3, 3))),
    (lambda x: tf.linalg.eigh(x)[1] * tf.math.conj(tf.linalg.eigh(x)[1]),
     lambda x: np.abs(np.linalg.eigh(x)[1]) ** 2, lambda: hermitian()),
    (lambda x: tf.linalg.eigh(x)[0], lambda x: np.linalg.eigvalsh(x), lambda: hermitian()),
    (tf.linalg.cholesky, np.linalg.cholesky, lambda: hermitian()),
], ids=["det", "eigh vectors", "eigh values", "cholesky"])
def test_complex_gradients_match_finite_differences(fn, numpy_fn, make):
    # A real loss Re<w, f(a)>: its TF-convention gradient g gives the directional derivative
    # Re(sum(conj(g) * d)). Directions are Hermitian for the ops that read one triangle.
    a = make()
    w = complex_normal(*np.shape(numpy_fn(a)))
    d = complex_normal(3, 3)
    d = d + np.conj(d).T
    g = grad(lambda x: tf.math.real(tf.reduce_sum(fn(x) * np.conj(w))), a).numpy()
    eps = 1e-6
    numeric = (np.sum(numpy_fn(a + eps * d) * np.conj(w)).real -
               np.sum(numpy_fn(a - eps * d) * np.conj(w)).real) / (2 * eps)
    assert np.sum(np.conj(g) * d).real == pytest.approx(numeric, rel=1e-6)


def hermitian():
    x = complex_normal(3, 3)
    return x @ np.conj(x).T + 3 * np.eye(3)
