"""Keras 3's `fit` per step on the mlp_small and mlp_large models: real Keras on tapeflow
(the stand-in) against the same Keras on TensorFlow.

Usage: python benchmarks/keras_fit.py [--tf-python PATH] [--steps N] [--repeat R]

Each side runs in a subprocess of its own (TensorFlow and the stand-in cannot share a
process): tapeflow's with this Python, `-m tapeflow as-tensorflow` and this checkout's src/
first on the path; TensorFlow's with `--tf-python` (default $TAPEFLOW_TF_PYTHON), skipped
when none is given. The models are mlp_small (batch 32, 64-128-10) and mlp_large (batch 256,
784-1024-1024-10): Dense layers with relu, sparse categorical cross entropy, SGD(0.01).
One epoch warms up (tracing); then the median over R epochs of N steps each, per step, is
printed for each side with the ratio tapeflow / TF.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = {"mlp_small": (32, 64, (128,)), "mlp_large": (256, 784, (1024, 1024))}


def _worker(steps: int, repeat: int) -> None:
    """Times `fit` in this process (under the stand-in or on TensorFlow) and prints JSON."""
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    import numpy as np
    import keras

    results = {}
    for name, (batch, features, hidden) in MODELS.items():
        rng = np.random.default_rng(0)
        x = rng.standard_normal((batch * steps, features)).astype("float32")
        y = rng.integers(0, 10, batch * steps)
        keras.utils.set_random_seed(0)
        model = keras.Sequential([keras.Input((features,))] +
                                 [keras.layers.Dense(n, activation="relu") for n in hidden] +
                                 [keras.layers.Dense(10)])
        model.compile(keras.optimizers.SGD(0.01),
                      keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False)  # traces
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            model.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False)
            times.append((time.perf_counter() - start) / steps)
        results[name] = statistics.median(times)
    print(json.dumps(results))


def _run(command: list, env: dict) -> dict:
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode:
        raise SystemExit(f"keras_fit.py: {' '.join(command[:3])} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tf-python", default=os.environ.get("TAPEFLOW_TF_PYTHON"),
                        help="a Python with TensorFlow 2.x and Keras 3")
    parser.add_argument("--steps", type=int, default=50, help="steps per timed epoch")
    parser.add_argument("--repeat", type=int, default=5, help="timed epochs")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.steps, args.repeat)
        return 0
    env = dict(os.environ, KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")
    src = os.path.join(HERE, "..", "src")
    own = dict(env, PYTHONPATH=os.pathsep.join([src, env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    worker = [os.path.abspath(__file__), "--worker", "--steps", str(args.steps),
              "--repeat", str(args.repeat)]
    ours = _run([sys.executable, "-m", "tapeflow", "as-tensorflow", *worker], own)
    theirs = _run([args.tf_python, *worker], env) if args.tf_python else {}
    print(f"Keras fit per step, median of {args.repeat} epochs of {args.steps} steps")
    print(f"{'model':<10} {'tapeflow':>12} {'TensorFlow':>12} {'ratio':>7}")
    for name in MODELS:
        tf_time = theirs.get(name)
        print(f"{name:<10} {ours[name] * 1e3:>10.3f}ms " +
              (f"{tf_time * 1e3:>10.3f}ms {ours[name] / tf_time:>6.2f}x" if tf_time else
               f"{'-':>12}"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
