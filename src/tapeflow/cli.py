"""The `tapeflow` command line: `demo`, `check` (the gradient table), `bench`, `run` (a
script on several MPI workers) and `as-tensorflow` (a program with tapeflow as TensorFlow).

Each command's options are parsed and checked before any work starts; `tapeflow COMMAND
--help` lists them. A bad option is one line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import importlib.util
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "digits_demo.py"
BENCH = ROOT / "benchmarks" / "run.py"


class _Parser(argparse.ArgumentParser):
    """argparse, with an error as one line that names the fix."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _script(path: Path) -> dict:
    """The globals of a script that ships with the source checkout (not run as __main__)."""
    if not path.exists():
        print(f"tapeflow: {path} not found (the examples and benchmarks ship with the source "
              "checkout)", file=sys.stderr)
        sys.exit(2)
    sys.path.insert(0, str(path.parent))
    try:
        return runpy.run_path(str(path), run_name=path.stem)
    finally:
        sys.path.remove(str(path.parent))


def _run_as_main(path: Path, argv: list) -> None:
    saved = sys.argv
    sys.argv = [str(path), *argv]
    try:
        runpy.run_path(str(path), run_name="__main__")
    finally:
        sys.argv = saved


def _demo_options(parser: argparse.ArgumentParser, demo: dict) -> None:
    demo["add_options"](parser)
    parser.add_argument("--workers", metavar="N", type=demo["positive_int"],
                        help="train data-parallel on N local MPI workers")


def _demo(args: argparse.Namespace, demo: dict) -> int:
    """A gradient-tape prelude, then the digits CNN (on `--workers` MPI workers if given)."""
    if importlib.util.find_spec("sklearn") is None:
        print("tapeflow demo: the digits demo needs scikit-learn (and tqdm for progress bars): "
              "pip install 'tapeflow[demo]', or run `make demo`.", file=sys.stderr)
        return 2
    print("== examples/gradient_tape_basics.py")
    _run_as_main(ROOT / "examples" / "gradient_tape_basics.py", [])
    rest = list(args.argv)
    _workers_option(rest)
    if args.workers is not None:
        from .distribute import launch
        print(f"== examples/digits_demo.py on {args.workers} workers")
        return launch.run(args.workers, [str(DEMO), "--distributed", *rest])
    print("== examples/digits_demo.py")
    demo["main"](rest)
    return 0


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


def _run_options(parser: argparse.ArgumentParser, _) -> None:
    parser.add_argument("-n", "--np", dest="n", type=int, default=1, help="number of workers")
    parser.add_argument("--as-tensorflow", action="store_true",
                        help="each worker runs the script with tapeflow as TensorFlow")
    parser.add_argument("rest", nargs=argparse.REMAINDER, metavar="script.py [args]",
                        help="the script and its arguments")


def _run(args: argparse.Namespace, _) -> int:
    """`tapeflow run -n N script.py [args]`: the script on N local MPI workers."""
    if args.n < 1:
        print(f"tapeflow run: -n must be a positive integer, got {args.n}", file=sys.stderr)
        return 2
    if not args.rest:
        print("tapeflow run: usage: tapeflow run -n N script.py [args]", file=sys.stderr)
        return 2
    from .distribute import launch
    rest = ["-m", "tapeflow", "as-tensorflow", *args.rest] if args.as_tensorflow else args.rest
    return launch.run(args.n, rest)


def _as_tensorflow_options(parser: argparse.ArgumentParser, _) -> None:
    parser.usage = "tapeflow as-tensorflow (script.py | -m module) [args]"
    parser.add_argument("program", nargs="*", metavar="script.py | -m module",
                        help="the program and its arguments, passed on as they are")


def _as_tensorflow(args: argparse.Namespace, _) -> int:
    """`tapeflow as-tensorflow script.py [args]` or `... -m module [args]`: the program, in
    this process, with `import tensorflow` resolving to tapeflow (`tapeflow.standin`)."""
    from . import standin
    rest = args.argv
    if rest[:1] == ["-m"] and len(rest) > 1:
        standin.run_module(rest[1], rest[2:])
    elif rest and not rest[0].startswith("-"):
        if not Path(rest[0]).is_file():
            print(f"tapeflow as-tensorflow: {rest[0]}: no such file", file=sys.stderr)
            return 2
        standin.run_path(rest[0], rest[1:])
    else:
        print("tapeflow as-tensorflow: usage: tapeflow as-tensorflow script.py [args] | "
              "-m module [args]", file=sys.stderr)
        return 2
    return 0


def _check(args: argparse.Namespace, _) -> int:
    from .testing.op_table import run_all
    return 1 if run_all() else 0


def _bench(args: argparse.Namespace, bench: dict) -> int:
    return bench["main"](args.argv)


def _script_options(parser: argparse.ArgumentParser, found: dict) -> None:
    if "add_options" in found:
        found["add_options"](parser)


# Commands whose arguments are a program's command line, passed on unparsed (but --help).
_PASSING_ON = frozenset(["as-tensorflow"])

COMMANDS = {  # name: (what it does, the script it runs, its options, the command)
    "demo": ("run the gradient-tape prelude, then train the digits CNN", DEMO, _demo_options,
             _demo),
    "check": ("check every op's gradient numerically (the op table)", None, _script_options,
              _check),
    "bench": ("run the benchmarks against NumPy and the installed peers", BENCH,
              _script_options, _bench),
    "run": ("run a script on N local MPI workers (mpiexec -n N)", None, _run_options, _run),
    "as-tensorflow": ("run a program or module unmodified, with tapeflow as TensorFlow", None,
                      _as_tensorflow_options, _as_tensorflow),
}


def _version() -> str:
    from .version import TAPEFLOW_VERSION, VERSION
    return f"tapeflow {TAPEFLOW_VERSION} (TensorFlow {VERSION} API)"


def main(argv: list | None = None) -> int:
    """Parses `argv` (default: the command line) and runs the command; its exit status.

    Example:
        >>> import contextlib, io
        >>> out = io.StringIO()
        >>> with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        ...     main(["--version"])
        >>> out.getvalue().startswith("tapeflow ")
        True
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _Parser(prog="tapeflow", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=_version())
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=_Parser)
    for name, (help_text, _, _, _) in COMMANDS.items():
        commands.add_parser(name, help=help_text, description=help_text, add_help=False)
    known = parser.parse_args(argv[:1] if argv and not argv[0].startswith("-") else argv)
    help_text, script, options, run = COMMANDS[known.command]
    sub = _Parser(prog=f"tapeflow {known.command}", description=help_text)
    found = _script(script) if script is not None else {}
    options(sub, found)
    passed_on = known.command in _PASSING_ON and argv[1:2] not in (["-h"], ["--help"])
    args = argparse.Namespace() if passed_on else sub.parse_args(argv[1:])
    args.argv = argv[1:]
    return run(args, found)


if __name__ == "__main__":
    sys.exit(main())
