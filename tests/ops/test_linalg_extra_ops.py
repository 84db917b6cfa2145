"""The newer tf.linalg functions: values against NumPy/SciPy, dtypes, shapes, errors, and the
gradients the op table does not cover (forward mode, graphs, lstsq's refusal)."""
import numpy as np
import pytest
import scipy.linalg

import tapeflow as tf
from tapeflow.framework import errors

from .test_math_ops import grad

rng = np.random.default_rng(11)


def well_conditioned(*batch, n=3):
    return rng.standard_normal(batch + (n, n)) + n * np.eye(n)


def each(fn, x):
    """fn applied to every matrix of a batch."""
    return np.stack([fn(m) for m in x.reshape((-1,) + x.shape[-2:])]).reshape(x.shape)


def dense_tridiagonal(d):
    """The matrix of compact diagonals d [..., 3, n]."""
    return (np.apply_along_axis(np.diag, -1, d[..., 1, :]) +
            np.apply_along_axis(lambda u: np.diag(u[:-1], 1), -1, d[..., 0, :]) +
            np.apply_along_axis(lambda s: np.diag(s[1:], -1), -1, d[..., 2, :]))


# -- matrix functions -----------------------------------------------------------------------
@pytest.mark.parametrize("scale", [0.1, 1.0, 30.0])
def test_expm_matches_scipy_across_scales(scale):
    a = scale * rng.standard_normal((2, 4, 4))
    np.testing.assert_allclose(tf.linalg.expm(a).numpy(), each(scipy.linalg.expm, a),
                               rtol=1e-9, atol=1e-12)


def test_expm_dtypes_and_edge_values():
    a = rng.standard_normal((3, 3))
    assert tf.linalg.expm(a.astype(np.float32)).dtype == tf.float32
    z = a + 1j * rng.standard_normal((3, 3))
    np.testing.assert_allclose(tf.linalg.expm(z).numpy(), scipy.linalg.expm(z), rtol=1e-10)
    np.testing.assert_allclose(tf.linalg.expm(np.zeros((2, 2))).numpy(), np.eye(2), rtol=1e-15)
    assert np.isnan(tf.linalg.expm(np.full((2, 2), np.nan)).numpy()).all()
    with pytest.raises(errors.NotFoundError):
        tf.linalg.expm(np.eye(2, dtype=np.float16))
    with pytest.raises(errors.InvalidArgumentError, match="square"):
        tf.linalg.expm(np.ones((2, 3)))


def test_logm_inverts_expm_and_takes_complex_only():
    z = 0.3 * (rng.standard_normal((2, 3, 3)) + 1j * rng.standard_normal((2, 3, 3)))
    np.testing.assert_allclose(tf.linalg.logm(tf.linalg.expm(z)).numpy(), z, atol=1e-10)
    np.testing.assert_allclose(tf.linalg.logm(z + 3 * np.eye(3)).numpy(),
                               each(scipy.linalg.logm, z + 3 * np.eye(3)), rtol=1e-10)
    with pytest.raises(errors.InvalidArgumentError, match="complex"):
        tf.linalg.logm(np.eye(2))


def test_sqrtm_squares_back_and_is_nan_without_a_real_root():
    a = well_conditioned(2) @ np.swapaxes(well_conditioned(2), -1, -2)
    root = tf.linalg.sqrtm(a).numpy()
    np.testing.assert_allclose(root @ root, a, rtol=1e-10)
    assert tf.matrix_square_root(a.astype(np.float32)).dtype == tf.float32
    assert np.isnan(tf.linalg.sqrtm(np.array([[1.0, 2.0], [3.0, -4.0]])).numpy()).all()
    z = np.array([[1.0, 2.0], [3.0, -4.0]], np.complex128)
    np.testing.assert_allclose(tf.linalg.sqrtm(z).numpy(), scipy.linalg.sqrtm(z), rtol=1e-10)


@pytest.mark.parametrize("fn", [tf.linalg.expm, tf.linalg.sqrtm])
def test_matrix_function_jvp_matches_finite_differences(fn):
    a = well_conditioned() @ well_conditioned().T
    t = rng.standard_normal((3, 3))
    x = tf.constant(a)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t)) as acc:
        y = fn(x)
    eps = 1e-6
    numeric = (fn(a + eps * t).numpy() - fn(a - eps * t).numpy()) / (2 * eps)
    np.testing.assert_allclose(acc.jvp(y).numpy(), numeric, rtol=1e-6, atol=1e-8)


def test_expm_gradient_inside_a_function():
    a = 0.5 * rng.standard_normal((3, 3))

    @tf.function
    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.linalg.expm(x))
        return tape.gradient(y, x)

    np.testing.assert_allclose(gradient(tf.constant(a)).numpy(),
                               grad(lambda x: tf.reduce_sum(tf.linalg.expm(x)), a).numpy(),
                               rtol=1e-12)


# -- eig --------------------------------------------------------------------------------------
def test_eig_decomposes_and_returns_complex():
    a = rng.standard_normal((2, 4, 4))
    e, v = tf.linalg.eig(a)
    assert e.dtype == tf.complex128 and v.dtype == tf.complex128
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * e.numpy()[..., None, :], atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(v.numpy(), axis=-2), 1.0, rtol=1e-12)
    np.testing.assert_allclose(np.sort_complex(tf.linalg.eigvals(a).numpy()),
                               np.sort_complex(np.linalg.eigvals(a)), rtol=1e-12)
    assert tf.eigvals(a.astype(np.float32)).dtype == tf.complex64
    assert tf.eig(a.astype(np.complex64))[1].dtype == tf.complex64


def test_eigvals_gradient_of_a_trace_power():
    # sum(e^2) = trace(a^2): its gradient is 2 a^T.
    a = rng.standard_normal((3, 3))
    g = grad(lambda x: tf.math.real(tf.reduce_sum(tf.linalg.eigvals(x) ** 2)), a)
    assert g.dtype == tf.float64
    np.testing.assert_allclose(g.numpy(), 2 * a.T, rtol=1e-8)


# -- LU ---------------------------------------------------------------------------------------
def test_lu_factors_with_partial_pivoting():
    a = rng.standard_normal((2, 3, 4, 4))
    packed, p = tf.linalg.lu(a)
    assert p.dtype == tf.int32 and p.shape == [2, 3, 4]
    lower = np.tril(packed.numpy(), -1) + np.eye(4)
    upper = np.triu(packed.numpy())
    np.testing.assert_allclose(np.take_along_axis(a, p.numpy()[..., None], axis=-2),
                               lower @ upper, atol=1e-12)
    assert np.abs(lower).max() <= 1.0 + 1e-12  # partial pivoting bounds the multipliers
    _, expected_p = scipy.linalg.lu_factor(a[0, 0])[0], scipy.linalg.lu(a[0, 0])[0]
    np.testing.assert_array_equal(expected_p[p.numpy()[0, 0]], np.eye(4))
    assert tf.linalg.lu(a, output_idx_type=tf.int64).p.dtype == tf.int64


def test_lu_errors():
    with pytest.raises(errors.InvalidArgumentError, match="square"):
        tf.linalg.lu(np.ones((3, 2)))
    with pytest.raises(errors.InvalidArgumentError, match="output_idx_type"):
        tf.linalg.lu(np.eye(2), output_idx_type=tf.float32)


def test_lu_solve_inverse_and_reconstruct():
    a, b = well_conditioned(2), rng.standard_normal((2, 3, 2))
    packed, p = tf.linalg.lu(a)
    np.testing.assert_allclose(tf.linalg.lu_solve(packed, p, b).numpy(), np.linalg.solve(a, b),
                               rtol=1e-10)
    np.testing.assert_allclose(tf.linalg.lu_matrix_inverse(packed, p).numpy(), np.linalg.inv(a),
                               rtol=1e-10)
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(packed, p).numpy(), a, rtol=1e-12)


def test_lu_in_a_function():
    a = well_conditioned()
    solve = tf.function(lambda x, b: tf.linalg.lu_solve(*tf.linalg.lu(x), b))
    np.testing.assert_allclose(solve(tf.constant(a), tf.constant(np.eye(3))).numpy(),
                               np.linalg.inv(a), rtol=1e-10)


def test_cholesky_solve():
    x = rng.standard_normal((2, 3, 3))
    a, b = x @ np.swapaxes(x, -1, -2) + 3 * np.eye(3), rng.standard_normal((2, 3, 1))
    np.testing.assert_allclose(tf.linalg.cholesky_solve(tf.linalg.cholesky(a), b).numpy(),
                               np.linalg.solve(a, b), rtol=1e-10)


# -- least squares, pseudo-inverse, rank -----------------------------------------------------
@pytest.mark.parametrize("shape", [(5, 3), (3, 5)])
@pytest.mark.parametrize("fast", [True, False])
def test_lstsq_matches_numpy(shape, fast):
    a, b = rng.standard_normal(shape), rng.standard_normal((shape[0], 2))
    expected = np.linalg.lstsq(a, b, rcond=None)[0]
    np.testing.assert_allclose(tf.linalg.lstsq(a, b, fast=fast).numpy(), expected, rtol=1e-8)


def test_lstsq_regularized_and_rank_deficient():
    a, b = rng.standard_normal((2, 4, 3)), rng.standard_normal((2, 4, 1))
    ridge = np.linalg.solve(np.swapaxes(a, -1, -2) @ a + 0.5 * np.eye(3),
                            np.swapaxes(a, -1, -2) @ b)
    np.testing.assert_allclose(tf.linalg.lstsq(a, b, l2_regularizer=0.5).numpy(), ridge,
                               rtol=1e-10)
    deficient = np.array([[1.0, 1.0], [1.0, 1.0], [0.0, 0.0]])
    np.testing.assert_allclose(tf.linalg.lstsq(deficient, np.ones((3, 1)), fast=False).numpy(),
                               [[0.5], [0.5]], rtol=1e-12)


def test_lstsq_slow_path_has_no_gradient_and_errors():
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((4, 1))
    with pytest.raises(ValueError, match="fast=False"):
        grad(lambda x: tf.linalg.lstsq(x, b, fast=False), a)
    with pytest.raises(errors.InvalidArgumentError, match="rows"):
        tf.linalg.lstsq(a, np.ones((3, 1)))


def test_pinv_and_matrix_rank():
    a = rng.standard_normal((2, 4, 3))
    np.testing.assert_allclose(tf.linalg.pinv(a).numpy(), np.linalg.pinv(a), rtol=1e-10)
    low_rank = a @ np.diag([1.0, 1.0, 0.0]) @ rng.standard_normal((3, 3))
    np.testing.assert_array_equal(tf.linalg.matrix_rank(low_rank).numpy(), [2, 2])
    assert tf.linalg.matrix_rank(low_rank).dtype == tf.int32
    np.testing.assert_array_equal(tf.linalg.matrix_rank(np.diag([1.0, 1e-3]), tol=1e-2).numpy(),
                                  1)
    np.testing.assert_allclose(tf.linalg.pinv(np.diag([1.0, 1e-3]), rcond=1e-2).numpy(),
                               np.diag([1.0, 0.0]))
    with pytest.raises(TypeError, match="complex128"):
        tf.linalg.pinv(np.eye(2, dtype=np.complex128))


# -- small composites ----------------------------------------------------------------------
def test_cross_values_gradient_and_errors():
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    np.testing.assert_allclose(tf.linalg.cross(a, b).numpy(), np.cross(a, b))
    ga, gb = grad(lambda x, y: tf.reduce_sum(tf.linalg.cross(x, y)), a, b)
    np.testing.assert_allclose(ga.numpy(), np.cross(b, np.ones(3)), rtol=1e-12)
    np.testing.assert_allclose(gb.numpy(), np.cross(np.ones(3), a), rtol=1e-12)
    with pytest.raises(errors.InvalidArgumentError, match="same shape"):
        tf.linalg.cross(a, b[0])
    with pytest.raises(errors.FailedPreconditionError, match="3-element"):
        tf.linalg.cross(a[:, :2], b[:, :2])


@pytest.mark.parametrize("k", [-1, 0, 2])
def test_set_diag_replaces_one_diagonal(k):
    x = rng.standard_normal((2, 3, 4))
    length = len(np.diagonal(x[0], k))
    d = rng.standard_normal((2, length))
    got = tf.linalg.set_diag(x, d, k=k).numpy()
    np.testing.assert_array_equal(np.diagonal(got, k, axis1=-2, axis2=-1), d)
    mask = np.eye(3, 4, k, dtype=bool)
    np.testing.assert_array_equal(got[:, ~mask], x[:, ~mask])
    gx, gd = grad(lambda a, b: tf.reduce_sum(tf.linalg.set_diag(a, b, k=k)), x, d)
    np.testing.assert_array_equal(gx.numpy()[:, mask], 0.0)
    np.testing.assert_array_equal(gd.numpy(), np.ones_like(d))


def test_set_diag_errors():
    with pytest.raises(errors.InvalidArgumentError, match="length"):
        tf.linalg.set_diag(np.zeros((3, 3)), np.ones(2))
    with pytest.raises(errors.InvalidArgumentError, match="rank"):
        tf.linalg.set_diag(np.zeros(3), np.ones(3))


def test_normalize():
    x = rng.standard_normal((2, 3))
    unit, norm = tf.linalg.normalize(x, axis=1)
    np.testing.assert_allclose(norm.numpy(), np.linalg.norm(x, axis=1, keepdims=True))
    np.testing.assert_allclose(unit.numpy(), x / norm.numpy())
    unit, norm = tf.linalg.normalize(x, ord=1)
    np.testing.assert_allclose(norm.numpy(), [[np.abs(x).sum()]])


# -- tridiagonal and banded ------------------------------------------------------------------
@pytest.mark.parametrize("pivoting", [True, False])
def test_tridiagonal_solve_compact(pivoting):
    d = rng.standard_normal((2, 3, 6)) + np.array([[0.0], [4.0], [0.0]])
    b = rng.standard_normal((2, 6, 3))
    np.testing.assert_allclose(
        tf.linalg.tridiagonal_solve(d, b, partial_pivoting=pivoting).numpy(),
        np.linalg.solve(dense_tridiagonal(d), b), rtol=1e-10)


def test_tridiagonal_solve_pivots_where_elimination_would_fail():
    d = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [0.0, 1.0, 1.0]])  # a zero first pivot
    b = np.array([[1.0], [2.0], [3.0]])
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(d, b).numpy(),
                               np.linalg.solve(dense_tridiagonal(d), b), rtol=1e-12)
    assert not np.isfinite(tf.linalg.tridiagonal_solve(d, b, partial_pivoting=False)).all()


def test_tridiagonal_solve_formats_and_rhs_forms():
    d = rng.standard_normal((3, 4)) + np.array([[0.0], [4.0], [0.0]])
    matrix, b = dense_tridiagonal(d), rng.standard_normal(4)
    expected = np.linalg.solve(matrix, b)
    for diagonals, form in [(d, "compact"), (tuple(d), "sequence"), (matrix, "matrix")]:
        got = tf.linalg.tridiagonal_solve(diagonals, b, diagonals_format=form)
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    rows = rng.standard_normal((2, 4))
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(d, rows, transpose_rhs=True).numpy(),
                               np.linalg.solve(matrix, rows.T), rtol=1e-12)
    zc = rows + 1j * rows[::-1]
    np.testing.assert_allclose(
        tf.linalg.tridiagonal_solve(d.astype(complex), zc.T, conjugate_rhs=True).numpy(),
        np.linalg.solve(matrix, np.conj(zc.T)), rtol=1e-12)


def test_tridiagonal_solve_singular_and_errors():
    zeros, b = np.zeros((3, 3)), np.ones((3, 1))
    assert np.isnan(tf.linalg.tridiagonal_solve(zeros, b).numpy()).all()
    assert np.isfinite(tf.linalg.tridiagonal_solve(zeros, b, perturb_singular=True)).all()
    with pytest.raises(ValueError, match="diagonals_format"):
        tf.linalg.tridiagonal_solve(zeros, b, diagonals_format="banded")
    with pytest.raises(ValueError, match=r"\[\.\.\., 3, M\]"):
        tf.linalg.tridiagonal_solve(np.zeros((2, 3)), b)
    with pytest.raises(ValueError, match="does not match"):
        tf.linalg.tridiagonal_solve(zeros, np.ones((4, 1)))


def test_tridiagonal_matmul_and_solve_in_a_function():
    d = rng.standard_normal((2, 3, 5)) + np.array([[0.0], [4.0], [0.0]])
    b = rng.standard_normal((2, 5, 2))
    np.testing.assert_allclose(tf.linalg.tridiagonal_matmul(d, b).numpy(),
                               dense_tridiagonal(d) @ b, rtol=1e-12)
    np.testing.assert_allclose(
        tf.linalg.tridiagonal_matmul(dense_tridiagonal(d), b, diagonals_format="matrix").numpy(),
        dense_tridiagonal(d) @ b, rtol=1e-12)
    round_trip = tf.function(lambda d, b: tf.linalg.tridiagonal_solve(
        d, tf.linalg.tridiagonal_matmul(d, b)))
    np.testing.assert_allclose(round_trip(tf.constant(d), tf.constant(b)).numpy(), b, rtol=1e-10)


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_banded_triangular_solve(lower, adjoint):
    bands = rng.standard_normal((2, 3, 5)) + (np.array([[3.0], [0.0], [0.0]]) if lower else
                                              np.array([[0.0], [0.0], [3.0]]))
    b = rng.standard_normal((2, 5, 2))
    matrix = np.zeros((2, 5, 5))
    for j in range(3):
        if lower:
            matrix += np.apply_along_axis(lambda v, j=j: np.diag(v[j:], -j), -1, bands[:, j])
        else:
            k = 2 - j
            matrix += np.apply_along_axis(lambda v, k=k: np.diag(v[:5 - k], k), -1, bands[:, j])
    if adjoint:
        matrix = np.swapaxes(matrix, -1, -2)
    got = tf.linalg.banded_triangular_solve(bands, b, lower=lower, adjoint=adjoint)
    np.testing.assert_allclose(got.numpy(), np.linalg.solve(matrix, b), rtol=1e-10)


def test_eigh_tridiagonal_selects():
    alpha, beta = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 0.5, 0.25])
    expected = scipy.linalg.eigh_tridiagonal(alpha, beta, eigvals_only=True)
    np.testing.assert_allclose(tf.linalg.eigh_tridiagonal(alpha, beta).numpy(), expected)
    np.testing.assert_allclose(
        tf.linalg.eigh_tridiagonal(alpha, beta, select="i", select_range=[1, 2]).numpy(),
        expected[1:3])
    inside = expected[(expected > 1.5) & (expected <= 3.5)]
    np.testing.assert_allclose(
        tf.linalg.eigh_tridiagonal(alpha, beta, select="v", select_range=[1.5, 3.5]).numpy(),
        inside)
    e, v = tf.linalg.eigh_tridiagonal(alpha, beta, eigvals_only=False)
    matrix = np.diag(alpha) + np.diag(beta, 1) + np.diag(beta, -1)
    np.testing.assert_allclose(matrix @ v.numpy(), v.numpy() * e.numpy(), atol=1e-12)
    with pytest.raises(ValueError, match="select"):
        tf.linalg.eigh_tridiagonal(alpha, beta, select="x")
    with pytest.raises(ValueError, match="select_range"):
        tf.linalg.eigh_tridiagonal(alpha, beta, select="i")


def test_inputs_are_not_modified():
    a, d = well_conditioned(), rng.standard_normal((3, 4))
    a_copy, d_copy = a.copy(), d.copy()
    tf.linalg.lu(a), tf.linalg.expm(a), tf.linalg.eig(a), tf.linalg.tridiagonal_solve(
        d, np.ones((4, 1)))
    np.testing.assert_array_equal(a, a_copy)
    np.testing.assert_array_equal(d, d_copy)


@pytest.mark.parametrize("fn", [
    tf.linalg.expm, tf.linalg.pinv, tf.linalg.matrix_rank,
    lambda a: tf.math.real(tf.linalg.eigvals(a)),
    lambda a: tf.linalg.sqrtm(tf.matmul(a, a, transpose_b=True)),
    lambda a: tf.linalg.LinearOperatorFullMatrix(a).solve(tf.ones_like(a))],
    ids=["expm", "pinv", "matrix_rank", "eigvals", "sqrtm", "LinearOperator.solve"])
def test_matrices_of_sizes_known_only_when_the_graph_runs(fn):
    a = well_conditioned()
    traced = tf.function(fn, input_signature=[tf.TensorSpec([None, None], tf.float64)])
    np.testing.assert_allclose(traced(tf.constant(a)).numpy(), fn(tf.constant(a)).numpy(),
                               rtol=1e-12)
    with pytest.raises(ValueError, match="known when the graph is built"):
        tf.function(lambda x: tf.linalg.lstsq(x, x),
                    input_signature=[tf.TensorSpec([None, None], tf.float64)])(a)
