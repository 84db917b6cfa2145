"""tf.linalg.LinearOperator and its subclasses: every method against the dense matrix, the
hints and what they allow, errors, and gradients reaching the tensors an operator holds."""
import numpy as np
import pytest
import scipy.linalg

import tapeflow as tf
from tapeflow.framework import errors

LO = tf.linalg
rng = np.random.default_rng(5)
A = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
D = rng.uniform(0.5, 2.0, (2, 3))
M = rng.uniform(0.5, 2.0, 2)
B2 = rng.standard_normal((2, 2)) + 2 * np.eye(2)
TRIDIAGONALS = rng.standard_normal((2, 3, 3)) + np.array([[0.0], [3.0], [0.0]])
SPECTRUM = rng.uniform(1.0, 2.0, (2, 4)) + 1j * rng.standard_normal((2, 4))
U, V = rng.standard_normal((2, 3, 2)), rng.standard_normal((2, 3, 2))
DIAG_UPDATE = rng.uniform(0.5, 2.0, (2, 2))

# (id, factory, dense matrix)
OPERATORS = [
    ("full", lambda: LO.LinearOperatorFullMatrix(A), A),
    ("full rectangular", lambda: LO.LinearOperatorFullMatrix(A[:, :, :2]), A[:, :, :2]),
    ("diag", lambda: LO.LinearOperatorDiag(D), np.apply_along_axis(np.diag, -1, D)),
    ("identity", lambda: LO.LinearOperatorIdentity(3, batch_shape=[2], dtype=tf.float64),
     np.broadcast_to(np.eye(3), (2, 3, 3))),
    ("scaled identity", lambda: LO.LinearOperatorScaledIdentity(3, M),
     M[:, None, None] * np.eye(3)),
    ("lower triangular", lambda: LO.LinearOperatorLowerTriangular(A), np.tril(A)),
    ("zeros", lambda: LO.LinearOperatorZeros(3, 2, batch_shape=[2], dtype=tf.float64,
                                             is_square=False, is_self_adjoint=False),
     np.zeros((2, 3, 2))),
    ("composition", lambda: LO.LinearOperatorComposition(
        [LO.LinearOperatorFullMatrix(A), LO.LinearOperatorDiag(D)]),
     A @ np.apply_along_axis(np.diag, -1, D)),
    ("adjoint", lambda: LO.LinearOperatorAdjoint(LO.LinearOperatorFullMatrix(A)),
     np.swapaxes(A, -1, -2)),
    ("inversion", lambda: LO.LinearOperatorInversion(LO.LinearOperatorFullMatrix(A)),
     np.linalg.inv(A)),
    ("block diag", lambda: LO.LinearOperatorBlockDiag(
        [LO.LinearOperatorFullMatrix(A[:, :2, :2]), LO.LinearOperatorDiag(D[:, :1])]),
     np.concatenate([np.concatenate([A[:, :2, :2], np.zeros((2, 2, 1))], -1),
                     np.concatenate([np.zeros((2, 1, 2)), D[:, None, :1]], -1)], -2)),
    ("kronecker", lambda: LO.LinearOperatorKronecker(
        [LO.LinearOperatorFullMatrix(A), LO.LinearOperatorFullMatrix(B2)]),
     np.stack([np.kron(a, B2) for a in A])),
    ("permutation", lambda: LO.LinearOperatorPermutation([[1, 2, 0], [0, 2, 1]],
                                                         dtype=tf.float64),
     np.stack([np.eye(3)[[1, 2, 0]], np.eye(3)[[0, 2, 1]]])),
    ("householder", lambda: LO.LinearOperatorHouseholder(D),
     np.eye(3) - 2 * D[:, :, None] * D[:, None, :] / (D * D).sum(-1)[:, None, None]),
    ("toeplitz", lambda: LO.LinearOperatorToeplitz(D + [3.0, 0.0, 0.0], D[::-1]),
     np.stack([scipy.linalg.toeplitz(c, r) for c, r in zip(D + [3.0, 0.0, 0.0], D[::-1])])),
    ("tridiag", lambda: LO.LinearOperatorTridiag(TRIDIAGONALS),
     np.stack([np.diag(d[1]) + np.diag(d[0, :-1], 1) + np.diag(d[2, 1:], -1)
               for d in TRIDIAGONALS])),
    ("circulant", lambda: LO.LinearOperatorCirculant(SPECTRUM, input_output_dtype=tf.complex128),
     np.stack([scipy.linalg.circulant(np.fft.ifft(s)) for s in SPECTRUM])),
    ("circulant 2-D", lambda: LO.LinearOperatorCirculant2D(SPECTRUM.reshape(2, 2, 2),
                                                           input_output_dtype=tf.complex128),
     np.stack([np.stack([np.fft.ifft2(np.fft.fft2(e.reshape(2, 2)) * s).ravel()
                         for e in np.eye(4)], axis=-1) for s in SPECTRUM.reshape(2, 2, 2)])),
    ("circulant 3-D", lambda: LO.LinearOperatorCirculant3D(SPECTRUM[0].reshape(1, 2, 2) + 0j,
                                                           input_output_dtype=tf.complex128),
     np.stack([np.fft.ifftn(np.fft.fftn(e.reshape(1, 2, 2)) * SPECTRUM[0].reshape(1, 2, 2))
               .ravel() for e in np.eye(4)], axis=-1)),
    ("low-rank update", lambda: LO.LinearOperatorLowRankUpdate(
        LO.LinearOperatorFullMatrix(A), U, DIAG_UPDATE, V),
     A + U @ (DIAG_UPDATE[:, :, None] * np.swapaxes(V, -1, -2))),
    ("low-rank update, self-adjoint", lambda: LO.LinearOperatorLowRankUpdate(
        LO.LinearOperatorDiag(D), U), np.apply_along_axis(np.diag, -1, D) +
     U @ np.swapaxes(U, -1, -2)),
    ("block lower triangular", lambda: LO.LinearOperatorBlockLowerTriangular(
        [[LO.LinearOperatorFullMatrix(A[:, :2, :2])],
         [LO.LinearOperatorFullMatrix(A[:, 2:, :2]), LO.LinearOperatorDiag(D[:, :1])]]),
     np.concatenate(
         [np.concatenate([A[:, :2, :2], np.zeros((2, 2, 1))], -1),
          np.concatenate([A[:, 2:, :2], D[:, None, :1]], -1)], -2)),
]
IDS = [o[0] for o in OPERATORS]


@pytest.mark.parametrize("name,make,dense", OPERATORS, ids=IDS)
def test_products_and_parts_match_the_dense_matrix(name, make, dense):
    op = make()
    assert op.shape == list(dense.shape) and op.dtype == tf.as_dtype(dense.dtype)
    assert op.batch_shape == list(dense.shape[:-2]) and op.tensor_rank == dense.ndim
    assert (op.range_dimension, op.domain_dimension) == dense.shape[-2:]
    np.testing.assert_array_equal(op.shape_tensor().numpy(), dense.shape)
    np.testing.assert_allclose(op.to_dense().numpy(), dense, atol=1e-12)
    m, n = dense.shape[-2:]
    x = rng.standard_normal((n, 2)).astype(dense.dtype)
    y = rng.standard_normal((m, 2)).astype(dense.dtype)
    adjoint = np.conj(np.swapaxes(dense, -1, -2))
    np.testing.assert_allclose(op.matmul(x).numpy(), dense @ x, atol=1e-12)
    np.testing.assert_allclose(op.matmul(y, adjoint=True).numpy(), adjoint @ y, atol=1e-12)
    np.testing.assert_allclose(op.matmul(np.conj(x.T), adjoint_arg=True).numpy(), dense @ x,
                               atol=1e-12)
    np.testing.assert_allclose(op.matvec(x[:, 0]).numpy(), dense @ x[:, 0], atol=1e-12)
    np.testing.assert_allclose((op @ x).numpy(), dense @ x, atol=1e-12)
    np.testing.assert_allclose(op.diag_part().numpy(),
                               np.diagonal(dense, axis1=-2, axis2=-1), atol=1e-12)
    np.testing.assert_allclose(op.trace().numpy(), np.trace(dense, axis1=-2, axis2=-1),
                               atol=1e-12)
    np.testing.assert_allclose(op.add_to_tensor(dense).numpy(), 2 * dense, atol=1e-12)
    np.testing.assert_allclose(op.adjoint().to_dense().numpy(), adjoint, atol=1e-12)
    np.testing.assert_allclose(op.H.to_dense().numpy(), adjoint, atol=1e-12)


SQUARE = [o for o in OPERATORS if o[2].shape[-1] == o[2].shape[-2]]


@pytest.mark.parametrize("name,make,dense", SQUARE, ids=[o[0] for o in SQUARE])
def test_determinants_and_solves_match_the_dense_matrix(name, make, dense):
    op = make()
    assert op.is_square
    np.testing.assert_allclose(op.determinant().numpy(), np.linalg.det(dense), rtol=1e-10,
                               atol=1e-12)
    if op.is_non_singular is False:
        with pytest.raises(NotImplementedError, match="singular"):
            op.solve(np.ones((3, 1)))
        return
    np.testing.assert_allclose(op.log_abs_determinant().numpy(), np.linalg.slogdet(dense)[1],
                               rtol=1e-12, atol=1e-12)
    n = dense.shape[-1]
    b = rng.standard_normal((n, 2)).astype(dense.dtype)
    np.testing.assert_allclose(op.solve(b).numpy(), np.linalg.solve(dense, b), rtol=1e-10,
                               atol=1e-12)
    np.testing.assert_allclose(op.solve(b, adjoint=True).numpy(),
                               np.linalg.solve(np.conj(np.swapaxes(dense, -1, -2)), b),
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(op.solvevec(b[:, 0]).numpy(),
                               np.linalg.solve(dense, b[:, :1])[..., 0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(op.inverse().to_dense().numpy(), np.linalg.inv(dense),
                               rtol=1e-10, atol=1e-12)


def test_hints_imply_each_other_and_refuse_contradictions():
    op = LO.LinearOperatorFullMatrix(A, is_positive_definite=True)
    assert op.is_non_singular and op.is_square
    with pytest.raises(ValueError, match="positive definite"):
        LO.LinearOperatorFullMatrix(A, is_positive_definite=True, is_non_singular=False)
    with pytest.raises(ValueError, match="square"):
        LO.LinearOperatorFullMatrix(A, is_self_adjoint=True, is_square=False)
    with pytest.raises(ValueError, match="was square"):
        LO.LinearOperatorFullMatrix(A, is_square=False).is_square
    assert LO.LinearOperatorFullMatrix(A[..., :2]).is_square is False
    assert LO.LinearOperatorDiag(D).is_self_adjoint is True
    assert LO.LinearOperatorDiag(D + 1j * D).is_self_adjoint is None
    with pytest.raises(ValueError, match="self adjoint"):
        LO.LinearOperatorDiag(D, is_self_adjoint=False)
    with pytest.raises(ValueError, match="always non-singular"):
        LO.LinearOperatorIdentity(2, is_non_singular=False)
    with pytest.raises(ValueError, match="singular"):
        LO.LinearOperatorZeros(2, is_non_singular=True)
    composed = LO.LinearOperatorComposition([LO.LinearOperatorDiag(D, is_non_singular=True),
                                             LO.LinearOperatorIdentity(3, dtype=tf.float64)])
    assert composed.is_non_singular is True
    assert LO.LinearOperatorAdjoint(LO.LinearOperatorDiag(D, is_non_singular=True)) \
        .is_non_singular is True


def test_operators_of_operators_simplify():
    op = LO.LinearOperatorFullMatrix(A)
    assert op.inverse().inverse() is op
    assert LO.LinearOperatorAdjoint(op).adjoint() is op
    np.testing.assert_array_equal(op.adjoint().to_dense().numpy(), np.swapaxes(A, -1, -2))
    symmetric = LO.LinearOperatorDiag(D)
    assert symmetric.adjoint() is symmetric
    product = op.matmul(symmetric)
    assert isinstance(product, LO.LinearOperatorComposition)
    np.testing.assert_allclose(product.to_dense().numpy(),
                               A @ np.apply_along_axis(np.diag, -1, D), atol=1e-12)
    solved = op.solve(symmetric)
    np.testing.assert_allclose(solved.to_dense().numpy(),
                               np.linalg.solve(A, np.apply_along_axis(np.diag, -1, D)),
                               rtol=1e-10)
    assert product.name == "LinearOperatorFullMatrix_o_LinearOperatorDiag"


def test_argument_and_shape_errors():
    op = LO.LinearOperatorFullMatrix(A)
    with pytest.raises(TypeError, match="float32"):
        op.matmul(np.ones((3, 1), np.float32))
    with pytest.raises(ValueError, match="not compatible"):
        op.matmul(np.ones((4, 1)))
    with pytest.raises(ValueError, match="rank"):
        op.matmul(np.ones(3))
    with pytest.raises(TypeError, match="dtype"):
        LO.LinearOperatorFullMatrix(np.ones((2, 2), np.int32))
    with pytest.raises(ValueError, match="2 dimensions"):
        LO.LinearOperatorFullMatrix(np.ones(2))
    rectangular = LO.LinearOperatorFullMatrix(A[..., :2])
    with pytest.raises(NotImplementedError, match="square"):
        rectangular.determinant()
    with pytest.raises(NotImplementedError, match="square"):
        rectangular.solve(np.ones((3, 1)))
    with pytest.raises(ValueError, match="non square"):
        rectangular.inverse()
    with pytest.raises(ValueError, match="non-empty"):
        LO.LinearOperatorComposition([])
    with pytest.raises(TypeError, match="same dtype"):
        LO.LinearOperatorComposition([op, LO.LinearOperatorIdentity(3)])
    with pytest.raises(ValueError, match="incompatible"):
        LO.LinearOperatorComposition([rectangular, rectangular])
    with pytest.raises(ValueError, match="square"):
        LO.LinearOperatorBlockDiag([rectangular])
    with pytest.raises(ValueError, match="non-negative"):
        LO.LinearOperatorIdentity(-1)


def test_self_adjoint_methods_and_assertions():
    x = rng.standard_normal((3, 3))
    spd = x @ x.T + 3 * np.eye(3)
    op = LO.LinearOperatorFullMatrix(spd, is_self_adjoint=True, is_positive_definite=True)
    np.testing.assert_allclose(op.eigvals().numpy(), np.linalg.eigvalsh(spd), rtol=1e-12)
    np.testing.assert_allclose(op.cond().numpy(), np.linalg.cond(spd), rtol=1e-10)
    factor = op.cholesky()
    assert isinstance(factor, LO.LinearOperatorLowerTriangular)
    np.testing.assert_allclose(factor.to_dense().numpy(), np.linalg.cholesky(spd), rtol=1e-12)
    op.assert_self_adjoint(), op.assert_positive_definite(), op.assert_non_singular()
    general = LO.LinearOperatorFullMatrix(A[0])
    with pytest.raises(NotImplementedError, match="self-adjoint"):
        general.eigvals()
    with pytest.raises(ValueError, match="Cholesky"):
        general.cholesky()
    with pytest.raises(errors.InvalidArgumentError, match="self-adjoint"):
        general.assert_self_adjoint()
    with pytest.raises(errors.InvalidArgumentError, match="non-singular"):
        LO.LinearOperatorFullMatrix(np.ones((2, 2))).assert_non_singular()
    with pytest.raises(errors.InvalidArgumentError, match="positive definite"):
        LO.LinearOperatorFullMatrix(-spd).assert_positive_definite()


def test_variables_are_tracked_and_receive_gradients():
    w = tf.Variable(A[0])
    d = tf.Variable(D[0])
    op = LO.LinearOperatorComposition([LO.LinearOperatorFullMatrix(w),
                                       LO.LinearOperatorDiag(d)])
    assert {id(v) for v in op.trainable_variables} == {id(w), id(d)}
    with tf.GradientTape() as tape:
        y = op.log_abs_determinant() + tf.reduce_sum(op.matvec(tf.ones([3], tf.float64)))
    gw, gd = tape.gradient(y, [w, d])
    np.testing.assert_allclose(gw.numpy(), np.linalg.inv(A[0]).T + np.outer(np.ones(3), D[0]),
                               rtol=1e-10)
    np.testing.assert_allclose(gd.numpy(), 1 / D[0] + A[0].sum(axis=0), rtol=1e-10)
    w.assign(2 * A[0])
    np.testing.assert_allclose(op.to_dense().numpy(), 2 * A[0] * D[0], rtol=1e-12)


def test_operators_inside_a_function():
    @tf.function
    def apply(matrix, x):
        op = LO.LinearOperatorKronecker([LO.LinearOperatorFullMatrix(matrix),
                                         LO.LinearOperatorIdentity(2, dtype=tf.float64)])
        return op.solve(x), op.determinant()

    x = rng.standard_normal((6, 1))
    solution, determinant = apply(tf.constant(A[0]), tf.constant(x))
    dense = np.kron(A[0], np.eye(2))
    np.testing.assert_allclose(solution.numpy(), np.linalg.solve(dense, x), rtol=1e-10)
    np.testing.assert_allclose(determinant.numpy(), np.linalg.det(dense), rtol=1e-10)


def test_facts_and_parameters():
    op = LO.LinearOperatorScaledIdentity(3, 2.0, name="scale")
    assert op.name == "scale" and op.parameters["num_rows"] == 3
    assert LO.LinearOperatorIdentity(2, name="a b/c").name == "a b/c"
    assert LO.LinearOperatorAdjoint(op).name == "scale_adjoint"
    assert op.dtype == tf.float32 and op.graph_parents == []
    assert op.batch_shape_tensor().numpy().tolist() == []
    assert int(op.domain_dimension_tensor()) == 3 and int(op.tensor_rank_tensor()) == 2
    assert "LinearOperatorScaledIdentity" in repr(op)
    zeros = LO.LinearOperatorZeros(2, 3, is_square=False, is_self_adjoint=False)
    assert zeros.is_square is False and zeros.is_self_adjoint is False
    with pytest.raises(ValueError, match="is_square=True"):
        LO.LinearOperatorZeros(2, 3)
    np.testing.assert_array_equal(zeros.add_to_tensor(np.ones((2, 3), np.float32)).numpy(), 1.0)


def test_structured_operators_hints_and_properties():
    perm = LO.LinearOperatorPermutation([2, 0, 1])
    assert perm.is_square and perm.perm.numpy().tolist() == [2, 0, 1]
    assert float(perm.log_abs_determinant()) == 0.0 and float(perm.determinant()) == 1.0
    with pytest.raises(ValueError, match="non-singular"):
        LO.LinearOperatorPermutation([0, 1], is_non_singular=False)
    with pytest.raises(TypeError, match="integer"):
        LO.LinearOperatorPermutation([0.0, 1.0])
    house = LO.LinearOperatorHouseholder([1.0, 2.0, 2.0])
    assert house.is_self_adjoint and house.is_positive_definite is False
    assert float(house.determinant()) == -1.0 and float(house.trace()) == 1.0
    with pytest.raises(ValueError, match="self adjoint"):
        LO.LinearOperatorHouseholder([1.0, 2.0], is_self_adjoint=False)
    with pytest.raises(ValueError, match="positive definite"):
        LO.LinearOperatorHouseholder([1.0, 2.0], is_positive_definite=True)
    toeplitz = LO.LinearOperatorToeplitz([1.0, 2.0], [7.0, 3.0])
    np.testing.assert_array_equal(toeplitz.col.numpy(), [1.0, 2.0])
    with pytest.raises(TypeError, match="one dtype"):
        LO.LinearOperatorToeplitz([1.0, 2.0], np.array([7.0, 3.0]))
    tridiag = LO.LinearOperatorTridiag(tuple(TRIDIAGONALS[0]), diagonals_format="sequence")
    assert tridiag.diagonals_format == "sequence" and tridiag.shape == [3, 3]
    np.testing.assert_array_equal(tridiag.diag_part().numpy(), TRIDIAGONALS[0, 1])


def test_circulant_operators():
    real = LO.LinearOperatorCirculant([4.0, 1.0, 2.0, 1.0], input_output_dtype=tf.float32)
    assert real.is_self_adjoint and real.dtype == tf.float32 and real.block_depth == 1
    assert real.block_shape == [4]
    np.testing.assert_allclose(real.convolution_kernel().numpy(), [2.0, 0.5, 1.0, 0.5])
    np.testing.assert_allclose(real.to_dense().numpy(), scipy.linalg.circulant([2, 0.5, 1, 0.5]),
                               atol=1e-7)
    np.testing.assert_allclose(np.sort(real.eigvals().numpy()), [1.0, 1.0, 2.0, 4.0], atol=1e-6)
    real.assert_hermitian_spectrum()
    with pytest.raises(errors.InvalidArgumentError, match="Hermitian"):
        LO.LinearOperatorCirculant([1.0 + 0j, 2.0j, 0.0, 0.0]).assert_hermitian_spectrum()
    with pytest.raises(ValueError, match="self-adjoint"):
        LO.LinearOperatorCirculant([1.0, 2.0], is_self_adjoint=False)
    assert LO.LinearOperatorCirculant2D(np.ones((2, 3))).block_shape_tensor().numpy().tolist() \
        == [2, 3]


def test_low_rank_update_and_block_lower_triangular_facts():
    base = LO.LinearOperatorDiag(D[0], is_positive_definite=True)
    update = LO.LinearOperatorLowRankUpdate(base, U[0], diag_update=DIAG_UPDATE[0],
                                            is_diag_update_positive=True)
    assert update.is_self_adjoint and update.is_positive_definite and update.is_non_singular
    assert update.v is update.u and update.base_operator is base
    np.testing.assert_array_equal(update.diag_operator.to_dense().numpy(), np.diag(DIAG_UPDATE[0]))
    assert LO.LinearOperatorLowRankUpdate(base, U[0], v=V[0]).is_self_adjoint is None
    assert isinstance(LO.LinearOperatorLowRankUpdate(base, U[0]).diag_operator,
                      LO.LinearOperatorIdentity)
    with pytest.raises(TypeError, match="dtype"):
        LO.LinearOperatorLowRankUpdate(base, U[0].astype(np.float32))
    blocks = [[LO.LinearOperatorDiag(D[0, :2])],
              [LO.LinearOperatorFullMatrix(A[0, :1, :2]), LO.LinearOperatorDiag(D[0, :1])]]
    lower = LO.LinearOperatorBlockLowerTriangular(blocks)
    assert lower.name == "LinearOperatorBlockLowerTriangular" and lower.is_square
    assert lower.operators[1][0] is blocks[1][0]
    with pytest.raises(ValueError, match="row i of length"):
        LO.LinearOperatorBlockLowerTriangular([blocks[1]])


def test_conjugate_gradient():
    x = rng.standard_normal((2, 5, 5))
    spd = x @ np.swapaxes(x, -1, -2) + 5 * np.eye(5)
    b = rng.standard_normal((2, 5))
    op = LO.LinearOperatorFullMatrix(spd, is_self_adjoint=True, is_positive_definite=True)
    state = LO.experimental.conjugate_gradient(op, b, tol=1e-10, max_iter=50)
    np.testing.assert_allclose(state.x.numpy(), np.linalg.solve(spd, b[..., None])[..., 0],
                               rtol=1e-8)
    assert int(state.i) <= 6 and state.i.dtype == tf.int32
    preconditioned = LO.experimental.conjugate_gradient(
        op, b, preconditioner=LO.LinearOperatorDiag(1 / np.diagonal(spd, axis1=-2, axis2=-1)),
        x=np.ones((2, 5)), tol=1e-10, max_iter=50)
    np.testing.assert_allclose(preconditioned.x.numpy(), state.x.numpy(), rtol=1e-8)
    assert int(LO.experimental.conjugate_gradient(op, b, max_iter=2).i) == 2
    with pytest.raises(ValueError, match="positive definite"):
        LO.experimental.conjugate_gradient(LO.LinearOperatorFullMatrix(spd), b)


def structured(op) -> str:
    return type(op).__name__.replace("LinearOperator", "")


def test_structure_is_kept_where_tf_keeps_it():
    diag = LO.LinearOperatorDiag(D, is_positive_definite=True)
    scaled = LO.LinearOperatorScaledIdentity(3, M)
    identity = LO.LinearOperatorIdentity(3, dtype=tf.float64)
    full = LO.LinearOperatorFullMatrix(A)
    lower = LO.LinearOperatorLowerTriangular(A)
    circulant = LO.LinearOperatorCirculant(SPECTRUM, input_output_dtype=tf.complex128)
    kron = LO.LinearOperatorKronecker([diag, LO.LinearOperatorDiag(D[:, :2])])
    block = LO.LinearOperatorBlockDiag([diag, identity])
    cases = [(diag.inverse(), "Diag", 1 / D), (diag.cholesky(), "Diag", np.sqrt(D)),
             (scaled.inverse(), "ScaledIdentity", 1 / M), (identity.inverse(), "Identity", None),
             (full.adjoint(), "Adjoint", None), (full.inverse(), "Inversion", None),
             (lower.adjoint(), "Adjoint", None), (circulant.inverse(), "Circulant", None),
             (circulant.adjoint(), "Circulant", None), (kron.inverse(), "Kronecker", None),
             (block.inverse(), "BlockDiag", None), (block.cholesky(), "BlockDiag", None),
             (diag @ diag, "Diag", D * D), (scaled @ diag, "Diag", M[:, None] * D),
             (scaled @ scaled, "ScaledIdentity", M * M), (identity @ full, "FullMatrix", None),
             (full @ identity, "FullMatrix", None), (diag @ lower, "LowerTriangular", None),
             (full @ full, "Composition", None), (block @ block, "BlockDiag", None),
             (circulant @ circulant, "Circulant", None), (diag.solve(diag), "Diag", np.ones_like(D))]
    for result, kind, diagonal in cases:
        assert structured(result) == kind, (result, kind)
        if diagonal is not None:
            np.testing.assert_allclose(result.diag_part().numpy() if kind == "Diag"
                                       else result.multiplier.numpy(), diagonal, rtol=1e-12)
    np.testing.assert_allclose((diag @ lower).to_dense().numpy(),
                               D[..., None] * np.tril(A), rtol=1e-12)
    np.testing.assert_allclose(block.inverse().to_dense().numpy(),
                               np.linalg.inv(block.to_dense().numpy()), rtol=1e-10)
    np.testing.assert_allclose((circulant @ circulant).to_dense().numpy(),
                               circulant.to_dense().numpy() @ circulant.to_dense().numpy(),
                               rtol=1e-10, atol=1e-12)
