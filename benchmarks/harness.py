"""Timing helpers: median of repeated runs, ratios against the hand-written NumPy baseline."""
from __future__ import annotations

import statistics
import time
from typing import Callable


def median_time(fn: Callable, repeat: int = 30, min_time: float = 0.02) -> float:
    """Median seconds per call of `fn`, each sample looping long enough to be timed."""
    fn()
    loops = 1
    while True:
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        if time.perf_counter() - start >= min_time:
            break
        loops *= 2
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        samples.append((time.perf_counter() - start) / loops)
    return statistics.median(samples)


def report(case: str, contenders: dict) -> None:
    """Prints one table: each contender's median time and its ratio to 'numpy'."""
    times = {name: median_time(fn) for name, fn in contenders.items()}
    base = times["numpy"]
    print(f"\n{case}")
    print(f"  {'contender':<22}{'median':>12}{'x numpy':>10}")
    for name, t in times.items():
        print(f"  {name:<22}{t * 1e6:>10.1f}us{t / base:>10.2f}")
