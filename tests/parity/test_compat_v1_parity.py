"""tf.compat.v1 against TF's: 20-step trajectories of each TF1 optimizer on a small graph
(with a decaying learning rate and global step), the variables they create (names in
order), schedules and moving averages; the same TF1 code runs on both libraries."""
import numpy as np
import pytest

import tapeflow.compat.v1 as tapeflow_v1

pytestmark = pytest.mark.parity

rng = np.random.default_rng(7)
X = rng.standard_normal((8, 3)).astype(np.float32)
Y = rng.standard_normal((8, 2)).astype(np.float32)
W0 = rng.standard_normal((3, 2)).astype(np.float32)
B0 = rng.standard_normal((2,)).astype(np.float32)
STEPS = 20

CASES = [  # (class name, keyword arguments)
    ("GradientDescentOptimizer", {"learning_rate": 0.1}),
    ("MomentumOptimizer", {"learning_rate": 0.05, "momentum": 0.9}),
    ("MomentumOptimizer", {"learning_rate": 0.05, "momentum": 0.9, "use_nesterov": True}),
    ("AdamOptimizer", {"learning_rate": 0.05}),
    ("RMSPropOptimizer", {"learning_rate": 0.01}),
    ("RMSPropOptimizer", {"learning_rate": 0.01, "momentum": 0.5, "centered": True}),
    ("AdagradOptimizer", {"learning_rate": 0.1}),
    ("AdadeltaOptimizer", {"learning_rate": 1.0}),
    ("FtrlOptimizer", {"learning_rate": 0.1}),
    ("FtrlOptimizer", {"learning_rate": 0.1, "learning_rate_power": -0.7,
                       "l1_regularization_strength": 0.01, "l2_regularization_strength": 0.02,
                       "l2_shrinkage_regularization_strength": 0.01}),
]


def trajectory(v1, name, kwargs):
    """Runs 20 steps of `name` under `v1` (a compat.v1 module); returns the variables after
    each step and the names of the graph's variables."""
    with v1.Graph().as_default():
        x = v1.placeholder(v1.float32, [None, 3])
        y = v1.placeholder(v1.float32, [None, 2])
        with v1.variable_scope("dense"):
            w = v1.get_variable("kernel", initializer=W0)
            b = v1.get_variable("bias", initializer=B0)
        loss = v1.reduce_mean(v1.square(v1.matmul(x, w) + b - y))
        optimizer = getattr(v1.train, name)(**kwargs)
        step = optimizer.minimize(loss)
        names = [v.name for v in v1.global_variables()]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = []
            for _ in range(STEPS):
                sess.run(step, {x: X, y: Y})
                values.append(sess.run([w, b]))
        return values, names, sorted(optimizer.get_slot_names())


@pytest.mark.parametrize("name, kwargs", CASES, ids=[f"{n}-{i}" for i, (n, _) in
                                                       enumerate(CASES)])
def test_optimizer_trajectories_match(tensorflow, name, kwargs):
    ours, our_names, our_slots = trajectory(tapeflow_v1, name, kwargs)
    theirs, their_names, their_slots = trajectory(tensorflow.compat.v1, name, kwargs)
    assert our_names == their_names and our_slots == their_slots
    for step, (a, b) in enumerate(zip(ours, theirs)):
        for mine, reference in zip(a, b):
            np.testing.assert_allclose(mine, reference, rtol=2e-5, atol=2e-6,
                                       err_msg=f"{name} step {step + 1}")
