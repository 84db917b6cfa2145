"""Diagonals, traces and bands: values against NumPy and TF's errors. Gradients are checked
by the op table (test_op_table.py)."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import errors

rng = np.random.default_rng(7)


def test_diagonals_and_trace():
    d = np.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(tf.linalg.diag(d).numpy(), np.stack([np.diag(r) for r in d]))
    np.testing.assert_array_equal(tf.linalg.diag(d[0], k=1).numpy(), np.diag(d[0], k=1))
    np.testing.assert_array_equal(
        tf.linalg.diag(d[0], k=-1, num_rows=3, num_cols=4, padding_value=7.0).numpy(),
        [[7, 7, 7, 7], [1, 7, 7, 7], [7, 2, 7, 7]])
    m = rng.standard_normal((2, 3, 4))
    np.testing.assert_array_equal(tf.linalg.diag_part(m).numpy(),
                                  np.diagonal(m, axis1=-2, axis2=-1))
    np.testing.assert_array_equal(tf.linalg.diag_part(m, k=2).numpy(),
                                  np.diagonal(m, offset=2, axis1=-2, axis2=-1))
    np.testing.assert_allclose(tf.linalg.trace(m).numpy(), np.trace(m, axis1=-2, axis2=-1))
    t = rng.standard_normal((2, 3))
    full = tf.linalg.tensor_diag(t)
    assert full.shape == [2, 3, 2, 3] and full.numpy()[1, 2, 1, 2] == t[1, 2]
    assert float(np.sum(np.abs(full.numpy()))) == pytest.approx(np.sum(np.abs(t)))
    np.testing.assert_array_equal(tf.linalg.tensor_diag_part(full).numpy(), t)


@pytest.mark.parametrize("lower,upper", [(0, -1), (-1, 0), (1, 1), (0, 0), (-1, -1)])
def test_band_part_matches_triangles(lower, upper):
    m = rng.standard_normal((2, 4, 5))
    keep_low = np.tril(m, upper) if upper >= 0 else m
    expected = np.triu(keep_low, -lower) if lower >= 0 else keep_low
    np.testing.assert_array_equal(tf.linalg.band_part(m, lower, upper).numpy(), expected)


def test_errors():
    with pytest.raises(errors.InvalidArgumentError, match="k=3"):
        tf.linalg.diag_part(np.ones((2, 3)), k=3)
    with pytest.raises(errors.InvalidArgumentError, match="MatrixBandPart"):
        tf.linalg.band_part(np.ones((2, 3)), 3, 0)
    with pytest.raises(errors.InvalidArgumentError, match="does not fit"):
        tf.linalg.diag([1.0, 2.0], num_rows=5, num_cols=5)
    with pytest.raises(errors.InvalidArgumentError, match="DiagPart"):
        tf.linalg.tensor_diag_part(np.ones((2, 3)))
