"""Sonnet 2, unmodified, on tapeflow standing in for TensorFlow: import it, train an MLP
under tf.function, save and restore a checkpoint. (`make sonnet` runs Sonnet's own suite.)"""
import importlib.util
import subprocess
import sys
import textwrap

import pytest

# Found, not imported: importing Sonnet needs `tensorflow`, which only the stand-in gives.
pytestmark = pytest.mark.skipif(importlib.util.find_spec("sonnet") is None,
                                reason="Sonnet is in the test extra: pip install -e '.[test]'")

PROGRAM = """
    import numpy as np
    import sonnet as snt
    import tensorflow as tf

    tf.random.set_seed(0)
    mlp = snt.nets.MLP([8, 1])
    optimizer = snt.optimizers.SGD(0.1)
    x = tf.constant(np.linspace(-1, 1, 32, dtype=np.float32).reshape(16, 2))
    y = tf.reduce_sum(x, axis=1, keepdims=True)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((mlp(x) - y) ** 2)
        optimizer.apply(tape.gradient(loss, mlp.trainable_variables), mlp.trainable_variables)
        return loss

    losses = [float(step()) for _ in range(3)]
    assert losses[2] < losses[0], losses
    assert [v.name for v in mlp.trainable_variables] == [
        "mlp/linear_0/b:0", "mlp/linear_0/w:0", "mlp/linear_1/b:0", "mlp/linear_1/w:0"]

    checkpoint = tf.train.Checkpoint(module=mlp)
    path = checkpoint.save(PREFIX)
    saved = [v.numpy() for v in mlp.trainable_variables]
    for v in mlp.trainable_variables:
        v.assign(tf.zeros_like(v))
    checkpoint.restore(path)
    assert all(np.array_equal(a, v.numpy()) for a, v in zip(saved, mlp.trainable_variables))
    print("trained", len(losses), "steps, restored", len(saved), "variables")
"""


def test_sonnet_trains_an_mlp_under_tf_function_and_restores_a_checkpoint(tmp_path):
    program = tmp_path / "train.py"
    program.write_text(f"PREFIX = {str(tmp_path / 'ckpt')!r}\n" + textwrap.dedent(PROGRAM))
    done = subprocess.run([sys.executable, "-m", "tapeflow", "as-tensorflow", str(program)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout == "trained 3 steps, restored 4 variables\n"
