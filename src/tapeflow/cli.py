"""The `tapeflow` command line: `demo`, `check` (the gradient table) and `bench`.

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


def _demo(args: argparse.Namespace, demo: dict) -> int:
    """A gradient-tape prelude, then the digits CNN."""
    if importlib.util.find_spec("sklearn") is None:
        print("tapeflow demo: the digits demo needs scikit-learn (and tqdm for progress bars): "
              "pip install 'tapeflow[demo]', or run `make demo`.", file=sys.stderr)
        return 2
    print("== examples/gradient_tape_basics.py")
    _run_as_main(ROOT / "examples" / "gradient_tape_basics.py", [])
    print("== examples/digits_demo.py")
    demo["main"](args.argv)
    return 0


def _check(args: argparse.Namespace, _) -> int:
    from .testing.op_table import run_all
    return 1 if run_all() else 0


def _bench(args: argparse.Namespace, bench: dict) -> int:
    return bench["main"](args.argv)


COMMANDS = {  # name: (what it does, the script whose options it takes, the command)
    "demo": ("run the gradient-tape prelude, then train the digits CNN", DEMO, _demo),
    "check": ("check every op's gradient numerically (the op table)", None, _check),
    "bench": ("run the benchmarks against NumPy and the installed peers", BENCH, _bench),
}


def _version() -> str:
    from . import __version__
    return f"tapeflow {__version__}"


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
    for name, (help_text, _, _) in COMMANDS.items():
        commands.add_parser(name, help=help_text, description=help_text, add_help=False)
    known = parser.parse_args(argv[:1] if argv and not argv[0].startswith("-") else argv)
    help_text, script, run = COMMANDS[known.command]
    sub = _Parser(prog=f"tapeflow {known.command}", description=help_text)
    found = _script(script) if script is not None else {}
    if "add_options" in found:
        found["add_options"](sub)
    args = sub.parse_args(argv[1:])
    args.argv = argv[1:]
    return run(args, found)


if __name__ == "__main__":
    sys.exit(main())
