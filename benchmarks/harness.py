"""Benchmark machinery: cases and their contenders, numerical agreement, interleaved median
timing, tables of ratios to hand-written NumPy, peak memory, import time, the machine line."""
from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from typing import Callable

import numpy as np

BASELINE = "numpy"
REQUIRED = (BASELINE, "tapeflow eager")  # these must run; any other contender may be skipped
TOLERANCE = 1e-3  # max |difference| / max |numpy's value|, per gradient, in float32


class Case:
    """A benchmark case: named contenders, each a zero-argument `step` callable.

    Every step starts from the same initial state and returns that step's gradients (a list,
    in the case's parameter order); `to_numpy` turns one contender's gradients into NumPy
    arrays laid out like the baseline's when they differ (PyTorch's NCHW convolutions).
    The baseline, 'numpy', is added first.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.steps: dict = {}
        self.to_numpy: dict = {}
        self.notes: list = []
        self.errors: dict = {}

    def add(self, name: str, build: Callable, to_numpy: Callable | None = None) -> None:
        """Adds contender `name` whose step is `build()`; an optional one that fails to
        build is skipped with a note."""
        try:
            self.steps[name] = build()
        except Exception as e:
            if name in REQUIRED:
                raise
            self.notes.append(f"{name}: skipped, it failed to build ({type(e).__name__}: {e})")
            return
        if to_numpy is not None:
            self.to_numpy[name] = to_numpy

    def skip(self, name: str, reason: str) -> None:
        self.notes.append(f"{name}: skipped, {reason}")

    def verify(self) -> dict:
        """Runs each contender's first step and checks its gradients against NumPy's.

        Returns {contender: max relative difference}. Raises AssertionError when a
        contender disagrees; an optional contender whose step raises is dropped with a note.
        """
        expected = _as_arrays(self.steps[BASELINE]())
        for name in list(self.steps):
            if name == BASELINE:
                continue
            try:
                out = self.steps[name]()
            except Exception as e:
                if name in REQUIRED:
                    raise
                del self.steps[name]
                self.notes.append(f"{name}: skipped, its step failed ({type(e).__name__}: {e})")
                continue
            got = self.to_numpy.get(name, _as_arrays)(out)
            self.errors[name] = _max_relative_difference(self.name, name, got, expected)
        return self.errors


def _as_arrays(grads) -> list:
    return [np.asarray(g) for g in grads]


def _max_relative_difference(case: str, name: str, got: list, expected: list) -> float:
    assert len(got) == len(expected), f"{case}/{name}: {len(got)} gradients, want {len(expected)}"
    worst = 0.0
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g.shape == e.shape, f"{case}/{name}: gradient {i} has shape {g.shape}, want {e.shape}"
        scale = max(float(np.max(np.abs(e))), 1e-30)
        worst = max(worst, float(np.max(np.abs(g.astype(np.float64) - e))) / scale)
    assert worst <= TOLERANCE, f"{case}/{name}: gradients differ from NumPy's by {worst:.2e}"
    return worst


def measure(steps: dict, repeat: int = 25, min_time: float = 0.05) -> dict:
    """Seconds per call of each step, `repeat` samples each: {name: [seconds, ...]}.

    Samples are taken in rounds, one per contender per round, so that a slow spell of the
    machine hits every contender alike; each sample loops long enough to be timed.
    """
    loops = {}
    for name, fn in steps.items():
        fn()
        n = 1
        while True:
            start = time.perf_counter()
            for _ in range(n):
                fn()
            if time.perf_counter() - start >= min_time / 5:
                break
            n *= 2
        loops[name] = n
    samples: dict = {name: [] for name in steps}
    for _ in range(repeat):
        for name, fn in steps.items():
            n = loops[name]
            start = time.perf_counter()
            for _ in range(n):
                fn()
            samples[name].append((time.perf_counter() - start) / n)
    return samples


def summarize(samples: dict) -> dict:
    """{name: (median seconds, median over rounds of the ratio to numpy's sample)}."""
    base = samples[BASELINE]
    return {name: (statistics.median(s), statistics.median([t / b for t, b in zip(s, base)]))
            for name, s in samples.items()}


def format_time(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} us"


def report(case: Case, samples: dict) -> None:
    """Prints one table: each contender's median time and its median ratio to 'numpy'."""
    print(f"\n{case.name}")
    print(f"  {'contender':<20}{'median':>12}{'x numpy':>10}")
    for name, (median, ratio) in summarize(samples).items():
        print(f"  {name:<20}{format_time(median):>12}{ratio:>10.2f}")
    for note in case.notes:
        print(f"  note: {note}")


def peak_memory(step: Callable) -> int:
    """Peak bytes allocated (Python objects and NumPy buffers) above the starting level
    during one call of `step`, after one warm-up call."""
    step()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        current, _ = tracemalloc.get_traced_memory()
        step()
        return tracemalloc.get_traced_memory()[1] - current
    finally:
        tracemalloc.stop()


def import_times(modules=("numpy", "tapeflow"), runs: int = 15) -> dict:
    """Median seconds of `python -c "import M"` in fresh processes, per module, plus
    `python -c pass` under 'python': {name: (whole process wall time, the import alone as
    timed inside the process)}. Runs are interleaved, after one uncounted warm-up round that
    leaves bytecode caches as an install would."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    src = os.path.dirname(os.path.dirname(os.path.abspath(_module_file("tapeflow"))))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    timed = "import time; t = time.perf_counter(); {}; print(time.perf_counter() - t)"
    commands = {"python": timed.format("pass"),
                **{m: timed.format(f"import {m}") for m in modules}}
    samples: dict = {name: [] for name in commands}
    for round_ in range(runs + 1):
        for name, code in commands.items():
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                 capture_output=True, text=True).stdout
            if round_:
                samples[name].append((time.perf_counter() - start, float(out)))
    return {name: tuple(statistics.median(column) for column in zip(*s))
            for name, s in samples.items()}


def _module_file(name: str) -> str:
    import importlib.util
    return importlib.util.find_spec(name).origin


def machine_line() -> str:
    """'machine: <CPU model>, N cores (M usable); Python x; numpy y; BLAS ...'."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (f"machine: {cpu}, {os.cpu_count()} cores ({usable} usable), {load_average()}; "
            f"Python {platform.python_version()}; numpy {np.__version__}; BLAS {_blas()}")


def load_average() -> str:
    """'load 0.42': the 1-minute load average, other work competing for the cores."""
    return f"load {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "load unknown"


def _blas() -> str:
    try:
        from threadpoolctl import threadpool_info
        blas = [p for p in threadpool_info() if p.get("user_api") == "blas"]
        blas = [p for p in blas if "numpy" in p.get("filepath", "")] or blas  # NumPy's own
        if blas:
            return "; ".join(f"{p['internal_api']} {p.get('version')} {p.get('architecture')} "
                             f"kernels, {p['num_threads']} thread(s)"
                             for p in blas)
    except ImportError:
        pass
    try:
        info = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{info.get('name')} {info.get('version')} (threads unknown)"
    except Exception:
        return "unknown"
