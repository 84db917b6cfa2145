"""TF's file formats: writing then reading a 100 MB checkpoint bundle (25 float32 tensors of
1M elements) and a 100 MB TFRecord file (100,000 records of 1 KiB), tapeflow against
TensorFlow. TensorFlow runs in its own Python (`$TF_PYTHON`, else a `python` that imports
it), in a subprocess doing the same work; each side reports the median of its runs, and the
two sides take turns (twice) so that a busy disk weighs on both, each keeping its best.

Usage: python benchmarks/tf_files.py [--quick]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

_SIDE = r'''
import json, os, statistics, sys, time
import numpy as np
tensors, records, repeat, directory = json.loads(sys.argv[1])

def timed(run):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)

rng = np.random.default_rng(0)
arrays = {f"layer_{i}/kernel": rng.standard_normal(1 << 20).astype(np.float32)
          for i in range(tensors)}
payloads = [bytes(rng.integers(0, 256, 1024, dtype=np.uint8)) for _ in range(min(records, 1000))]
payloads = [payloads[i % len(payloads)] for i in range(records)]
prefix = os.path.join(directory, "bundle")
path = os.path.join(directory, "records.tfrecord")
'''

_TAPEFLOW = _SIDE + r'''
import tapeflow as tf
from tapeflow.train.tensor_bundle import BundleReader, write_bundle

def bundle():
    write_bundle(prefix, arrays)
    reader = BundleReader(prefix)
    for key in reader.keys():
        reader.read(key)

def tfrecord():
    with tf.io.TFRecordWriter(path) as writer:
        for p in payloads:
            writer.write(p)
    for _ in tf.data.TFRecordDataset(path):
        pass

print(json.dumps({"bundle": timed(bundle), "tfrecord": timed(tfrecord)}))
'''

_TENSORFLOW = _SIDE + r'''
import tensorflow as tf
names = sorted(arrays)
constants = [tf.constant(arrays[n]) for n in names]

def bundle():
    tf.raw_ops.SaveV2(prefix=prefix, tensor_names=names, shape_and_slices=[""] * len(names),
                      tensors=constants)
    for t in tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=names,
                                  shape_and_slices=[""] * len(names),
                                  dtypes=[tf.float32] * len(names)):
        t.numpy()

def tfrecord():
    with tf.io.TFRecordWriter(path) as writer:
        for p in payloads:
            writer.write(p)
    for _ in tf.data.TFRecordDataset(path):
        pass

print(json.dumps({"bundle": timed(bundle), "tfrecord": timed(tfrecord)}))
'''


def _tensorflow_python():
    for candidate in (os.environ.get("TF_PYTHON"), "/work/tfvenv/bin/python", sys.executable):
        if candidate and os.path.exists(candidate) and subprocess.run(
                [candidate, "-c", "import tensorflow"], capture_output=True,
                env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")).returncode == 0:
            return candidate
    return None


def _run(python: str, script: str, args: list, path: str = "") -> dict:
    done = subprocess.run([python, "-c", script, json.dumps(args)], capture_output=True,
                          text=True, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3",
                                              CUDA_VISIBLE_DEVICES="", PYTHONPATH=path))
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="4 MB of each, one run")
    args = parser.parse_args(argv)
    tensors, records, repeat = (1, 4000, 1) if args.quick else (25, 100_000, 3)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    results = {}
    with tempfile.TemporaryDirectory(dir=root) as directory:
        params = [tensors, records, repeat, directory]
        python = _tensorflow_python()
        for _ in range(1 if args.quick else 2):
            runs = {"tapeflow": _run(sys.executable, _TAPEFLOW, params,
                                     os.path.join(root, "src"))}
            if python is not None:
                runs["tensorflow"] = _run(python, _TENSORFLOW, params)
            for side, times in runs.items():
                best = results.setdefault(side, times)
                results[side] = {case: min(best[case], times[case]) for case in times}
    size = f"{tensors * 4} MB bundle, {records * 1024 / 1e6:.0f} MB TFRecord"
    print(f"TF file formats, write + read ({size}; median of {repeat}):")
    for case in ("bundle", "tfrecord"):
        ours = results["tapeflow"][case]
        line = f"  {case:9s} tapeflow {ours:7.3f} s"
        if "tensorflow" in results:
            theirs = results["tensorflow"][case]
            line += f"   tensorflow {theirs:7.3f} s   ratio {ours / theirs:5.2f}x"
        print(line)
    if "tensorflow" not in results:
        print("  (TensorFlow not found: set TF_PYTHON to a Python that imports it)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
