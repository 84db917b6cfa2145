"""A Newton step built on `batch_jacobian` (tanh, matmul, powers, softplus, exp, sin, a
quotient, a row sum, then `linalg.solve`), eagerly and in tf.function, against TF.

In float64 the Jacobians and iterates agree to float64 rounding: the gradient rules and the
order in which the Jacobian's contributions are summed are TF's. In float32 they agree only
to a few float32 ulps, amplified by the solve: TF's float32 tanh, sin and exp are Eigen's
fast approximations (tanh up to ~5 ulps from the rounded value, and exactly +-1 beyond
|x| ~ 7.9, so its gradient 1 - y**2 is 0 there), and TF's float32 `linalg.solve` factors in
float32, while NumPy's linalg computes float32 input in float64 and rounds the result."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity


def newton_steps(tf, dtype, graph, steps=3):
    """Newton's method on f(x) = tanh(x W) + x**3 + softplus(x) exp(-x/10)
    + sin(x) / (1 + x**2) + 0.1 * sum(x**2) - b, batched: the batch Jacobian of f, then
    x - solve(J, f(x)). Returns the last J and every iterate."""
    rng = np.random.default_rng(7)
    w = tf.constant(rng.standard_normal((3, 3)).astype(dtype) * 0.5)
    b = tf.constant(rng.standard_normal((4, 3)).astype(dtype))
    x = tf.constant(rng.standard_normal((4, 3)).astype(dtype))

    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = (tf.tanh(tf.matmul(x, w)) + x ** 3 + tf.nn.softplus(x) * tf.exp(-0.1 * x)
                 + tf.sin(x) / (1.0 + tf.square(x))
                 + 0.1 * tf.reduce_sum(x * x, axis=1, keepdims=True) - b)
        jacobian = tape.batch_jacobian(y, x)
        return jacobian, x - tf.linalg.solve(jacobian, y[..., None])[..., 0]

    if graph:
        step = tf.function(step)
    iterates = []
    for _ in range(steps):
        jacobian, x = step(x)
        iterates.append(x.numpy())
    return jacobian.numpy(), np.stack(iterates)


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("dtype, rtol, atol", [(np.float64, 1e-12, 1e-14),
                                               (np.float32, 2e-5, 2e-6)],
                         ids=["float64", "float32"])
def test_newton_step_with_batch_jacobian_matches_tf(tensorflow, dtype, rtol, atol, graph):
    ours = newton_steps(tapeflow, dtype, graph)
    theirs = newton_steps(tensorflow, dtype, graph)
    for mine, tf_value in zip(ours, theirs):
        assert mine.dtype == tf_value.dtype
        np.testing.assert_allclose(mine, tf_value, rtol=rtol, atol=atol)
