"""Runs every benchmark case and prints median times and ratios to hand-written NumPy.

Usage: python benchmarks/run.py [case ...]
"""
from __future__ import annotations

import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # BLAS single-threaded for every contender

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cases  # noqa: E402
from harness import report  # noqa: E402


def main(argv: list) -> None:
    selected = argv or list(cases.ALL)
    for name in selected:
        report(name, cases.ALL[name]())


if __name__ == "__main__":
    main(sys.argv[1:])
