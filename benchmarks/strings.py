"""tf.strings over 100,000 short strings: tapeflow against TensorFlow in one process.

Usage: python benchmarks/strings.py [--size N] [--repeat R]
Run it with a Python that has TensorFlow to compare (tapeflow comes from this checkout's
src/); without TensorFlow only tapeflow's times print. Each op's results are checked equal
before it is timed. Prints the median of R runs per op and the ratio tapeflow / TF.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402

import tapeflow  # noqa: E402

OPS = {
    "split": lambda tf, x: tf.strings.split(x),
    "lower": lambda tf, x: tf.strings.lower(x),
    "length": lambda tf, x: tf.strings.length(x),
    "regex_full_match": lambda tf, x: tf.strings.regex_full_match(x, r"[a-z]+ \d+.*"),
    "regex_replace": lambda tf, x: tf.strings.regex_replace(x, r"\d", "#"),
    "to_hash_bucket_fast": lambda tf, x: tf.strings.to_hash_bucket_fast(x, 1000),
    "to_hash_bucket": lambda tf, x: tf.strings.to_hash_bucket(x, 1000),
    "to_hash_bucket_strong": lambda tf, x: tf.strings.to_hash_bucket_strong(x, 1000, [1, 2]),
    "join": lambda tf, x: tf.strings.join([x, x], separator="-"),
    "substr": lambda tf, x: tf.strings.substr(x, 1, 3),
}


def _corpus(size: int) -> list:
    rng = np.random.default_rng(0)
    words = ["alpha", "Beta", "gamma", "DELTA", "eps", "zeta", "eta", "theta"]
    return [f"{words[a]} {b} {words[c]}" for a, b, c in
            zip(rng.integers(0, 8, size), rng.integers(0, 1000, size), rng.integers(0, 8, size))]


def _plain(result):
    if hasattr(result, "to_list"):
        return result.to_list()
    return result.numpy().tolist()


def _median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        import tensorflow as real_tf
    except ImportError:
        real_tf = None
    texts = _corpus(args.size)
    ours = tapeflow.constant(texts)
    theirs = real_tf.constant(texts) if real_tf is not None else None
    print(f"{args.size} strings, median of {args.repeat} runs; TensorFlow "
          f"{real_tf.__version__ if real_tf else 'not installed'}")
    print(f"{'op':24} {'tapeflow ms':>12} {'TF ms':>9} {'ratio':>7}")
    for name, op in OPS.items():
        if name == "split" and real_tf is None:
            continue
        try:
            mine = op(tapeflow, ours)
        except NotImplementedError as e:  # (split's RaggedTensor)
            print(f"{name:24} skipped: {e}")
            continue
        t_ours = _median_time(lambda: op(tapeflow, ours), args.repeat)
        if theirs is None:
            print(f"{name:24} {t_ours * 1e3:12.1f}")
            continue
        if _plain(mine) != _plain(op(real_tf, theirs)):
            print(f"{name:24} results differ from TF's")
            return 1
        t_theirs = _median_time(lambda: op(real_tf, theirs), args.repeat)
        print(f"{name:24} {t_ours * 1e3:12.1f} {t_theirs * 1e3:9.1f} {t_ours / t_theirs:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
