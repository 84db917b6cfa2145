"""The `tapeflow` command line: `demo`, `check` (the gradient table), `bench`, and `run`
(a script on several MPI workers)."""
from __future__ import annotations

import argparse
import importlib.util
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run_example(name: str, argv: list) -> int:
    path = ROOT / "examples" / name
    if not path.exists():
        print(f"tapeflow: {path} not found (the examples ship with the source checkout)",
              file=sys.stderr)
        return 2
    saved = sys.argv
    sys.argv = [str(path), *argv]
    try:
        runpy.run_path(str(path), run_name="__main__")
    finally:
        sys.argv = saved
    return 0


def _demo(args: argparse.Namespace) -> int:
    """A gradient-tape prelude, then the digits CNN (options: --epochs, --seed, --plot,
    --save MODEL.keras, --tensorboard DIR; --workers N trains it data-parallel on N MPI
    workers)."""
    workers = _workers_option(args.rest)
    print("== examples/gradient_tape_basics.py")
    status = _run_example("gradient_tape_basics.py", [])
    if status:
        return status
    if importlib.util.find_spec("sklearn") is None:
        print("tapeflow demo: the digits demo needs scikit-learn (and tqdm for progress bars): "
              "pip install 'tapeflow[demo]', or run `make demo`.", file=sys.stderr)
        return 2
    if workers is not None:
        from .distribute import launch
        print(f"== examples/digits_demo.py on {workers} workers")
        return launch.run(workers, [str(ROOT / "examples" / "digits_demo.py"), "--distributed",
                                    *args.rest])
    print("== examples/digits_demo.py")
    return _run_example("digits_demo.py", args.rest)


def _workers_option(rest: list):
    """Removes `--workers N` (or `--workers=N`) from `rest`; returns N, or None."""
    for i, arg in enumerate(rest):
        if arg == "--workers" and i + 1 < len(rest):
            value = rest[i + 1]
            del rest[i:i + 2]
            return int(value)
        if arg.startswith("--workers="):
            del rest[i]
            return int(arg.partition("=")[2])
    return None


def _run(args: argparse.Namespace) -> int:
    """`tapeflow run -n N script.py [args]`: the script on N local MPI workers."""
    from .distribute import launch
    if not args.rest:
        print("tapeflow run: usage: tapeflow run -n N script.py [args]", file=sys.stderr)
        return 2
    return launch.run(args.n, args.rest)


def _check(args: argparse.Namespace) -> int:
    from .testing.op_table import run_all
    return 1 if run_all() else 0


def _bench(args: argparse.Namespace) -> int:
    path = ROOT / "benchmarks" / "run.py"
    saved = sys.argv
    sys.argv = [str(path), *args.rest]
    try:
        runpy.run_path(str(path), run_name="__main__")
    finally:
        sys.argv = saved
    return 0


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tapeflow", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, fn, help_text in [("demo", _demo, "run the demo"),
                                ("check", _check, "check every op's gradient numerically"),
                                ("bench", _bench, "run the benchmarks")]:
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("rest", nargs=argparse.REMAINDER)
        sub.set_defaults(fn=fn)
    sub = commands.add_parser("run", help="run a script on N MPI workers (mpiexec -n N)")
    sub.add_argument("-n", "--np", dest="n", type=int, default=1, help="number of workers")
    sub.add_argument("rest", nargs=argparse.REMAINDER, help="script.py [args]")
    sub.set_defaults(fn=_run)
    args, unknown = parser.parse_known_args(argv)
    if unknown and args.command not in ("bench", "demo", "run"):
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    args.rest = unknown + args.rest  # options for the script behind the command (--epochs)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
