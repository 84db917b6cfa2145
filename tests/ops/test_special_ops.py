"""The SciPy-backed special functions: polygamma's values and gradients (erf, erfc, lgamma and
digamma values are in test_math_ops.py's unary table)."""
import numpy as np
from scipy import special

import tapeflow as tf

from .test_math_ops import grad


def test_polygamma_and_special_functions():
    x = np.array([0.5, 1.0, 3.0])
    for n in (0.0, 1.0, 3.0):
        np.testing.assert_allclose(tf.math.polygamma(tf.constant(n, tf.float64), x).numpy(),
                                   special.polygamma(int(n), x), rtol=1e-12)
    assert np.isnan(tf.math.polygamma(0.5, 1.0).numpy())
    assert np.isnan(tf.math.polygamma(-1.0, 1.0).numpy())
    g = grad(tf.math.digamma, x)
    np.testing.assert_allclose(g.numpy(), special.polygamma(1, x), rtol=1e-12)
    ga = grad(lambda a, x: tf.math.polygamma(a, x), np.array([1.0]), x)[0]
    assert ga is None
