"""A Newton step built on `batch_jacobian`, in float64, against the values TF 2.21 gives
(recorded): the Jacobian of the last step and the three iterates agree to float64 rounding
(the same program runs under TF in tests/parity/test_newton_jacobian_parity.py)."""
import numpy as np
import pytest

import tapeflow as tf


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


# Recorded from TensorFlow 2.21 (eager; tf.function agrees to 1e-15).
JACOBIAN = [
    [
        [2.5766733937592035, -0.44945936621157057, -0.07245377104247834],
        [-0.06619560259622938, 1.240553797276078, 0.4352323692215194],
        [-0.31400574944405935, -0.4669826460554834, 1.175760266644051],
    ],
    [
        [1.8946881959078792, -0.5611357572189967, -0.22180962757496986],
        [-0.06334661460644353, 1.8499222992249567, 0.14044898327619426],
        [-0.2272665284225025, -0.4345320522038122, 4.256421096646636],
    ],
    [
        [1.350951130185302, -0.5775127771896849, -0.20101558507367318],
        [0.016575019199557367, 2.7279806749616378, 0.25036253858513735],
        [-0.16294134066813715, -0.4639282605350197, 3.5257688162680236],
    ],
    [
        [5.515997528666017, -0.5819963595829425, -0.2741222638373701],
        [-0.21490173621251665, 2.8722400451773793, -0.01101172005006179],
        [-0.33158880274612856, -0.39152531235778515, 6.272960912951307],
    ],
]
ITERATES = [
    [
        [-1.1738005378915057, -0.6595001361196013, -0.6243189818813399],
        [-0.7534839578909265, -0.7216988591252097, -1.7275356102456763],
        [-0.2615225265688859, -0.9002559714795384, -1.3411340823069535],
        [-1.4197214322158809, -1.1584847555123148, -1.742345972501385],
    ],
    [
        [-0.9303309367928312, -0.02091639422934244, -0.5126211652112932],
        [-0.7509978760657838, -0.7787780014321182, -1.2459291533884262],
        [-0.4486856279714414, -0.9956229982113501, -1.1328448057034504],
        [-1.3963383462779397, -1.0113130417015535, -1.4988325471033346],
    ],
    [
        [-0.8541916726783388, 0.08432937582780543, -0.4377069032992657],
        [-0.7488959174277797, -0.8266708774216935, -1.0026430910955582],
        [-0.4467371294140582, -0.9973022542011608, -1.0904552378885826],
        [-1.3928336888947224, -0.992409531945117, -1.4512092783051471],
    ],
]


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
def test_newton_step_matches_tf_values(graph):
    jacobian, iterates = newton_steps(tf, np.float64, graph)
    np.testing.assert_allclose(jacobian, JACOBIAN, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(iterates, ITERATES, rtol=1e-12, atol=1e-14)
