"""Keras 3 (the `keras` package, unmodified, KERAS_BACKEND=tensorflow) on tapeflow standing
in for TensorFlow: import it, fit a small model under tf.function, evaluate and predict.
(`make keras` runs Keras's own tests.)"""
import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

import tapeflow as tf

# Found, not imported: importing Keras needs `tensorflow`, which only the stand-in gives.
pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                       reason="Keras is in the keras extra: pip install -e '.[keras]'"),
    pytest.mark.skipif(not hasattr(tf.__internal__, "tracking"),
                       reason="Keras's TensorFlow backend subclasses tf.__internal__.tracking's "
                              "Trackable, which tapeflow does not have yet"),
]

PROGRAM = """
    import numpy as np
    import keras
    import tensorflow as tf

    keras.utils.set_random_seed(0)
    x = np.linspace(-1, 1, 128, dtype="float32").reshape(64, 2)
    y = x.sum(axis=1, keepdims=True)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    history = model.fit(x, y, epochs=4, batch_size=16, shuffle=False, verbose=0)
    losses = history.history["loss"]
    assert len(losses) == 4 and losses[-1] < losses[0], losses
    loss, mae = model.evaluate(x, y, verbose=0)
    assert loss < losses[0] and mae > 0, (loss, mae)
    predicted = model.predict(x[:3], verbose=0)
    assert predicted.shape == (3, 1), predicted.shape
    assert isinstance(model.layers[0].kernel.value, tf.Variable)
    assert keras.backend.backend() == "tensorflow"
    print("fit", len(losses), "epochs on", tf.__name__)
"""


def test_keras_fits_evaluates_and_predicts_under_the_stand_in(tmp_path):
    program = tmp_path / "train.py"
    program.write_text(textwrap.dedent(PROGRAM))
    env = dict(os.environ, KERAS_BACKEND="tensorflow")
    done = subprocess.run([sys.executable, "-m", "tapeflow", "as-tensorflow", str(program)],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "fit 4 epochs on tapeflow"
