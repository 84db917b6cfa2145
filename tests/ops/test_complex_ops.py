"""Complex numbers: building them, their parts, conjugate and angle, for complex and real
tensors, and TF's errors. Gradients are checked by the op table (test_op_table.py)."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import errors


def test_complex_parts():
    z = tf.complex(tf.constant([3.0, -1.0]), tf.constant([4.0, 0.0]))
    assert z.dtype == tf.complex64
    np.testing.assert_allclose(tf.math.real(z).numpy(), [3.0, -1.0])
    np.testing.assert_allclose(tf.math.imag(z).numpy(), [4.0, 0.0])
    np.testing.assert_allclose(tf.math.conj(z).numpy(), [3 - 4j, -1 + 0j])
    np.testing.assert_allclose(tf.math.angle(z).numpy(), np.angle([3 + 4j, -1]), rtol=1e-6)
    assert tf.abs(z).dtype == tf.float32
    np.testing.assert_allclose(tf.abs(z).numpy(), [5.0, 1.0])
    assert tf.complex(tf.constant(1.0, tf.float64), 2.0).dtype == tf.complex128


def test_complex_parts_of_real_tensors():
    x = tf.constant([-2.0, 3.0])
    assert tf.math.real(x) is x and tf.math.conj(x) is x
    np.testing.assert_array_equal(tf.math.imag(x).numpy(), [0.0, 0.0])
    np.testing.assert_allclose(tf.math.angle(x).numpy(), [np.pi, 0.0])
    with pytest.raises(TypeError):
        tf.math.conj(tf.constant([True]))
    with pytest.raises(TypeError, match="float16"):
        tf.complex(tf.constant([1.0], tf.float16), tf.constant([1.0], tf.float16))
    with pytest.raises(errors.InvalidArgumentError, match="float64"):
        tf.complex(tf.constant([1.0]), tf.constant([1.0], tf.float64))
