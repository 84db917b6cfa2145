"""Which dtypes each public function takes, and what it returns: every function in the
lists below, called on a 2x2 tensor of each dtype, gives the same output dtype (or the same
exception class) under tapeflow and TensorFlow."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

DTYPES = ["int32", "int64", "bool", "float16", "float32", "float64", "complex64", "complex128"]
UNARY = """abs negative sign square sqrt exp sin cos tan asin acos atan sinh cosh tanh asinh acosh
atanh sigmoid round floor math.log math.ceil math.rsqrt math.reciprocal math.expm1 math.log1p
math.erf math.erfc math.lgamma math.digamma math.is_nan math.is_finite math.is_inf math.real
math.imag math.conj math.angle logical_not reduce_sum reduce_mean reduce_prod reduce_max
reduce_min reduce_logsumexp reduce_all reduce_any argmax argmin math.cumsum math.cumprod
nn.relu nn.relu6 nn.elu nn.selu nn.softplus nn.softsign nn.leaky_relu nn.softmax
nn.log_softmax nn.gelu nn.silu nn.l2_loss math.l2_normalize norm sort argsort zeros_like
ones_like identity stop_gradient math.count_nonzero math.reduce_std math.reduce_variance
linalg.det linalg.inv linalg.cholesky linalg.trace linalg.diag_part linalg.eigh linalg.svd
linalg.qr transpose""".split()
BINARY = """add subtract multiply divide truediv math.floordiv math.floormod pow maximum minimum
math.atan2 math.squared_difference math.divide_no_nan equal not_equal less greater
logical_and logical_or matmul math.polygamma complex""".split()
COMPOSED = {
    "concat": lambda tf: lambda a, b: tf.concat([a, b], 0),
    "stack": lambda tf: lambda a, b: tf.stack([a, b]),
    "where": lambda tf: lambda a, b: tf.where([[True, False], [False, True]], a, b),
    "tensordot": lambda tf: lambda a, b: tf.tensordot(a, b, 1),
    "einsum": lambda tf: lambda a, b: tf.einsum("ij,jk->ik", a, b),
    "top_k": lambda tf: lambda a, b: tf.math.top_k(a, 1).values,
}


def _function(tf, name):
    if name in COMPOSED:
        return COMPOSED[name](tf)
    fn = tf
    for part in name.split("."):
        fn = getattr(fn, part)
    return fn


def _output_dtype(tf, name: str, dtype: str, arity: int):
    x = tf.constant(np.array([[1, 2], [3, 5]]).astype(dtype), dtype=getattr(tf, dtype))
    try:
        out = _function(tf, name)(*[x] * arity)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return ("raised", type(e).__name__)
    return [t.dtype.name for t in (out if isinstance(out, (tuple, list)) else [out])]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,arity", [(n, 1) for n in UNARY] + [(n, 2) for n in BINARY] +
                         [(n, 2) for n in COMPOSED])
def test_dtype_support_matches_tensorflow(name, arity, dtype, parity):
    assert _output_dtype(tapeflow, name, dtype, arity) == _output_dtype(parity.tf, name, dtype,
                                                                         arity)
