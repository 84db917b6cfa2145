"""Which dtypes public functions take, as TensorFlow 2.21 answers (tests/parity checks every
function against TF itself where TF is installed; these are the cases tapeflow once got
wrong)."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework import errors

IAE, NOT_FOUND = errors.InvalidArgumentError, errors.NotFoundError


def _tensor(dtype):
    return tf.constant(np.array([[1, 2], [3, 5]]).astype(dtype), dtype=getattr(tf, dtype))


@pytest.mark.parametrize("fn,dtype,expected", [
    (tf.nn.relu, "bool", IAE), (tf.nn.relu, "complex64", IAE), (tf.nn.relu, "int32", "int32"),
    (tf.nn.softmax, "int32", IAE), (tf.nn.softmax, "complex128", IAE),
    (tf.nn.silu, "complex128", "complex128"),
    (tf.sort, "bool", IAE), (tf.argsort, "complex64", IAE),
    (lambda x: tf.math.top_k(x).values, "bool", IAE),
    (tf.round, "complex64", NOT_FOUND), (tf.math.reciprocal, "int32", NOT_FOUND),
    (tf.math.real, "bool", TypeError), (tf.math.angle, "int32", TypeError),
    (lambda x: tf.divide(x, x), "bool", TypeError),
    (lambda x: tf.math.floordiv(x, x), "complex128", NOT_FOUND),
    (lambda x: tf.math.divide_no_nan(x, x), "int32", "float64"),
    (lambda x: tf.math.divide_no_nan(x, x), "bool", TypeError),
    (lambda x: tf.matmul(x, x), "bool", IAE), (lambda x: tf.tensordot(x, x, 1), "bool", IAE),
    (lambda x: tf.einsum("ij,jk->ik", x, x), "bool", NOT_FOUND),
    (tf.linalg.trace, "bool", IAE), (lambda x: tf.math.polygamma(x, x), "float16", IAE),
    (tf.linalg.inv, "float16", "float16"), (lambda x: tf.linalg.qr(x).r, "float16", "float16"),
    (tf.math.l2_normalize, "int32", TypeError), (tf.norm, "bool", TypeError),
    (tf.math.reduce_std, "bool", IAE),
])
def test_dtype_support_is_tfs(fn, dtype, expected):
    if isinstance(expected, str):
        assert fn(_tensor(dtype)).dtype.name == expected
    else:
        with pytest.raises(expected):
            fn(_tensor(dtype))


def test_float16_inverse_is_computed_in_float32():
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    np.testing.assert_allclose(tf.linalg.inv(tf.constant(a, tf.float16)).numpy(),
                               np.linalg.inv(a), rtol=1e-3)
