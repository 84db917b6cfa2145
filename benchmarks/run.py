"""Runs the benchmark cases and prints, per case, each contender's median time and its ratio
to hand-written NumPy; then the peak memory of one mlp_large step and the import time.

Usage: python benchmarks/run.py [--quick] [--peers torch,jax,...] [name ...]
Names: the cases (chain, chain_tnp, mlp_small, mlp_large, convnet, jacobian, batch_jacobian, hvp,
hvp_gradient, conv2d, rnn, lstm, transformer), `memory`, `import` and `distributed` (all-reduce
throughput and the data-parallel speed-up on 2 MPI ranks, when mpi4py is installed); all by
default. Every
contender's gradients are checked against NumPy's before it is timed.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import peers  # noqa: E402  (standard library only: must come before NumPy)

peers.single_thread_env()

import cases  # noqa: E402
import distributed  # noqa: E402
import harness  # noqa: E402

EXTRAS = ("memory", "import", "distributed")


def add_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The benchmarks' options, checked as they are parsed (before any work)."""
    parser.add_argument("names", nargs="*", choices=[*cases.ALL, *EXTRAS, []],
                        help="what to run (default: everything)")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run: few samples")
    parser.add_argument("--peers", default=",".join(peers.PEERS),
                        help="comma-separated peers to try (default: %(default)s)")
    return parser


def main(argv: list) -> int:
    parser = add_options(argparse.ArgumentParser(prog="benchmarks/run.py",
                                                 description=__doc__.split("\n")[0]))
    args = parser.parse_args(argv)
    names = args.names or [*cases.ALL, *EXTRAS]
    repeat, min_time = (3, 0.0) if args.quick else (25, 0.05)

    modules, notes = peers.load([p for p in args.peers.split(",") if p])
    print(f"tapeflow benchmarks: median of {repeat} samples per contender; x numpy: median "
          "ratio to hand-written NumPy's sample of the same round; one BLAS thread")
    print(harness.machine_line())
    print(f"peers: {peers.versions(modules) or 'none'}")
    for note in notes:
        print(f"  note: {note}")

    for name in names:
        if name in cases.ALL:
            case = cases.ALL[name](modules)
            case.verify()
            harness.report(case, harness.measure(case.steps, repeat, min_time))
    if "memory" in names:
        report_memory()
    if "import" in names:
        report_import(runs=3 if args.quick else 15)
    if "distributed" in names:
        report_distributed(args.quick)
    print(f"\nat the end: {harness.load_average()}")
    return 0


def report_memory() -> None:
    case = cases.mlp_large({})
    peaks = {name: harness.peak_memory(step) for name, step in case.steps.items()}
    print("\nmemory: peak allocation during one mlp_large training step (tracemalloc)")
    print(f"  {'contender':<20}{'peak':>13}{'x numpy':>10}")
    for name, peak in peaks.items():
        print(f"  {name:<20}{peak / 2**20:>9.1f} MiB{peak / peaks['numpy']:>10.2f}")


def report_import(runs: int) -> None:
    times = harness.import_times(runs=runs)
    print(f"\nimport: median over {runs} fresh processes of `python -c ...`: the whole "
          "process, and the import alone")
    print(f"  {'python -c':<20}{'process':>12}{'x numpy':>8}{'import':>12}{'x numpy':>8}")
    labels = {"python": "pass", "numpy": "import numpy", "tapeflow": "import tapeflow"}
    for name, (whole, alone) in times.items():
        print(f"  {labels[name]:<20}{whole * 1e3:>9.1f} ms{whole / times['numpy'][0]:>8.2f}"
              f"{alone * 1e3:>9.1f} ms{alone / times['numpy'][1]:>8.2f}")


def report_distributed(quick: bool) -> None:
    try:
        import mpi4py  # noqa: F401
        from tapeflow.distribute import launch
        launch.mpiexec()
    except (ImportError, FileNotFoundError) as missing:
        print(f"\ndistributed: skipped ({missing})")
        return
    distributed.report(["allreduce", "mlp"], quick)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
