"""einsum and tensordot against NumPy."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError

RNG = np.random.default_rng(2)


@pytest.mark.parametrize("equation, shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk", [(2, 3), (3, 4)]), ("ii->", [(3, 3)]),
    ("ii", [(3, 3)]), ("ii->i", [(3, 3)]), ("i,j->ij", [(2,), (3,)]), ("ij->", [(2, 3)]),
    ("b...i,b...i->b...", [(2, 3, 4), (2, 3, 4)]), ("...ij,...jk", [(1, 2, 3), (5, 3, 2)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("i j , j -> i", [(2, 3), (3,)]),
    ("iij,k->jk", [(2, 2, 3), (4,)]), ("...,...->...", [(), ()]),
])
def test_einsum_matches_numpy(equation, shapes):
    operands = [RNG.standard_normal(s) for s in shapes]
    out = tf.einsum(equation, *operands)
    assert out.dtype == tf.float64
    np.testing.assert_allclose(out.numpy(), np.einsum(equation.replace(" ", ""), *operands),
                               rtol=1e-12)


def test_einsum_errors():
    a = tf.zeros([2, 3])
    with pytest.raises(ValueError):
        tf.einsum("ij,jk->ik", a)
    with pytest.raises(ValueError):
        tf.einsum("ijk->i", a)
    with pytest.raises(ValueError):
        tf.einsum("ij->ii", a)
    with pytest.raises(ValueError):
        tf.einsum("i1->i", a)
    with pytest.raises(InvalidArgumentError, match="dimension"):
        tf.einsum("ij,ij->", a, tf.zeros([2, 4]))
    with pytest.raises(InvalidArgumentError):
        tf.einsum("ij,ij->", a, tf.zeros([2, 3], tf.float64))


def test_einsum_gradients_of_trace_and_diagonal():
    x = tf.constant(RNG.standard_normal((3, 3)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        trace = tf.einsum("ii->", x)
        diagonal = tf.einsum("ii->i", x) * tf.constant([1.0, 2.0, 3.0], tf.float64)
    np.testing.assert_array_equal(tape.gradient(trace, x).numpy(), np.eye(3))
    np.testing.assert_array_equal(tape.gradient(diagonal, x).numpy(), np.diag([1.0, 2.0, 3.0]))


@pytest.mark.parametrize("axes", [0, 1, [[1], [0]], [[0, 1], [1, 0]], ([-1], [0])])
def test_tensordot_matches_numpy(axes):
    a = RNG.standard_normal((2, 3))
    b = RNG.standard_normal((3, 2))
    np.testing.assert_allclose(tf.tensordot(a, b, axes).numpy(), np.tensordot(a, b, axes))


def test_tensordot_errors():
    with pytest.raises(ValueError):
        tf.tensordot(tf.zeros([2]), tf.zeros([2]), 2)
    with pytest.raises(ValueError):
        tf.tensordot(tf.zeros([2]), tf.zeros([2]), [[0], [0], [0]])
    with pytest.raises(InvalidArgumentError, match="contracted"):
        tf.tensordot(tf.zeros([2, 3]), tf.zeros([2, 3]), 1)


@pytest.mark.parametrize("equation", ["aecd,abcd->acbe", "acbe,aecd->abcd", "abcd,aecd->acbe",
                                      "abc,cde->abde", "abde,abc->cde"])
def test_einsum_as_one_product_gives_a_contiguous_result(equation):
    # Attention's products: the operands swap, or the result is copied, so that the
    # result lies in its own layout.
    rng = np.random.default_rng(0)
    sizes = dict(a=2, b=5, c=3, d=4, e=6)
    lhs = equation.split("->")[0].split(",")
    operands = [rng.standard_normal([sizes[c] for c in term]).astype(np.float32)
                for term in lhs]
    got = tf.einsum(equation, *operands).numpy()
    assert got.flags.c_contiguous
    np.testing.assert_allclose(got, np.einsum(equation, *operands), rtol=1e-5, atol=1e-5)
