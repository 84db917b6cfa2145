"""Convolution and pooling against TensorFlow where the op table cannot compare them: TF's
CPU kernels lack float64 3-D pooling and the gradients of grouped convolutions, so these
run in float32 (forward values and, where TF has them, gradients)."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

CASES = {  # id: (function of `tf`, input shapes, whether TF's CPU has the gradient)
    "max_pool3d VALID": (lambda tf, x: tf.nn.max_pool3d(x, 2, 2, "VALID"), [(2, 4, 5, 4, 3)],
                         True),
    "max_pool3d SAME": (lambda tf, x: tf.nn.max_pool3d(x, [1, 3, 2, 2, 1], 1, "SAME"),
                        [(1, 4, 5, 4, 2)], True),
    "avg_pool3d SAME": (lambda tf, x: tf.nn.avg_pool3d(x, [3, 2, 2], [2, 1, 2], "SAME"),
                        [(1, 5, 4, 5, 2)], True),
    "pool AVG 3-D": (lambda tf, x: tf.nn.pool(x, [2, 2, 2], "AVG", strides=[1, 2, 1]),
                     [(1, 3, 4, 3, 1)], True),
    # TF's gradient of a rank-5 pool fails without an explicit data_format.
    "max_pool 3-D": (lambda tf, x: tf.nn.max_pool(x, 2, 1, "SAME", data_format="NDHWC"),
                     [(1, 3, 3, 3, 2)], True),
    "max_pool 3-D, no data_format": (lambda tf, x: tf.nn.max_pool(x, 2, 1, "SAME"),
                                     [(1, 3, 3, 3, 2)], False),
    "grouped conv2d": (lambda tf, x, w: tf.nn.conv2d(x, w, 2, "SAME"),
                       [(2, 7, 6, 6), (3, 2, 2, 9)], False),
    "grouped conv2d dilated": (lambda tf, x, w: tf.nn.conv2d(x, w, 1, "VALID", dilations=2),
                               [(1, 7, 7, 4), (3, 3, 1, 8)], False),
    "grouped conv1d": (lambda tf, x, w: tf.nn.conv1d(x, w, 1, "SAME"), [(2, 6, 4), (3, 2, 4)],
                       False),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_matches_tensorflow_in_float32(key, parity):
    fn, shapes, has_gradient = CASES[key]
    rng = np.random.default_rng(len(key))
    args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    results = []
    for module in (tapeflow, parity.tf):
        inputs = [module.constant(a) for a in args]
        with module.GradientTape() as tape:
            tape.watch(inputs)
            y = fn(module, *inputs)
        weight = module.constant(np.random.default_rng(0).standard_normal(y.shape.as_list()),
                                 dtype=y.dtype)
        result = [parity.describe(module, y)]
        if has_gradient:
            result.append(parity.describe(module, tape.gradient(y, inputs,
                                                                output_gradients=weight)))
        results.append(result)
    parity.assert_same(results[0], results[1], rtol=1e-5, atol=1e-5, where=key)
