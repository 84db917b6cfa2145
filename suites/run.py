"""Runs a library's own test suite with tapeflow standing in for TensorFlow, and scores it.

    python suites/run.py sonnet             # the suite under tapeflow: share and causes
    python suites/run.py sonnet --record    # (a Python with TensorFlow) TF's passing tests
    python suites/run.py keras              # Keras 3's TF backend on tapeflow (a fixed subset)

The suite is the library's installed package (its wheel ships its `*_test.py`), run by pytest
unmodified. `--record` runs it on the real TensorFlow and writes the ids of the tests that
pass there to `suites/<suite>_tf_passed.txt`; without it the suite runs under
`tapeflow as-tensorflow` and the figure is the share of those TF-passing tests that pass
on tapeflow. A test that fails on TF is not counted. The causes are the failures' exception
lines with numbers, quoted names and addresses folded, most frequent first.
"""
from __future__ import annotations

import argparse
import collections
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import typing
import xml.etree.ElementTree as ElementTree
from pathlib import Path

HERE = Path(__file__).resolve().parent


class Suite(typing.NamedTuple):
    package: str            # the installed package whose wheel ships the tests
    requirement: str        # its pip requirement
    files: tuple = ()       # the test files run (relative to the package), () for all
    env: tuple = ()         # (name, value) environment settings the suite runs with


# Keras's whole suite (277 files) runs for hours on two cores; this fixed subset covers
# layers (core, convolutional, rnn, normalization, merging), models (sequential,
# functional, model), trainers, optimizers, losses, metrics, saving, callbacks and ops,
# and runs in under ten minutes on TensorFlow. (Files that import JAX or PyTorch, such as
# trainers/trainer_test.py and ops/math_test.py, cannot run without them and are left out.)
KERAS_FILES = tuple(f"src/{name}_test.py" for name in """
    layers/core/dense layers/core/embedding layers/core/input_layer layers/core/identity
    layers/convolutional/conv layers/convolutional/conv_transpose
    layers/rnn/simple_rnn layers/rnn/lstm layers/rnn/gru layers/rnn/rnn
    layers/normalization/batch_normalization layers/normalization/layer_normalization
    layers/merging/merging
    models/sequential models/functional models/model
    trainers/epoch_iterator trainers/compile_utils
    optimizers/optimizer optimizers/adam optimizers/sgd optimizers/rmsprop
    losses/loss losses/losses
    metrics/metric metrics/accuracy_metrics metrics/regression_metrics
    metrics/reduction_metrics
    saving/saving_lib saving/saving_api saving/serialization_lib
    callbacks/early_stopping callbacks/model_checkpoint callbacks/csv_logger
    callbacks/lambda_callback callbacks/learning_rate_scheduler
    ops/core ops/nn ops/linalg ops/function
""".split())

SUITES = {
    "sonnet": Suite("sonnet", "dm-sonnet==2.0.2"),
    "keras": Suite("keras", "keras==3.15.1", KERAS_FILES, (("KERAS_BACKEND", "tensorflow"),)),
}


def package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"suites/run.py: {package} is not installed in {sys.executable}")
    return Path(list(spec.submodule_search_locations)[0])


def run_pytest(suite: Suite, root: Path, report: Path, stand_in: bool, pytest_args: list,
               timeout: float) -> int:
    """pytest on the suite's files under `root` (its rootdir, so test ids do not depend on
    where it is installed), writing a JUnit XML `report`; under the stand-in when
    `stand_in`."""
    front = [sys.executable, "-m", "tapeflow", "as-tensorflow", "-m", "pytest"] if stand_in \
        else [sys.executable, "-m", "pytest"]
    paths = [str(root / f) for f in suite.files] or [str(root)]
    command = [*front, "-q", "-p", "no:cacheprovider", f"--rootdir={root}",
               f"--junitxml={report}", "-o", "junit_family=xunit2", *pytest_args, *paths]
    with tempfile.TemporaryDirectory() as cwd:
        # absl's test files go to a folder of this run's own (runs at once would share one)
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TEST_TMPDIR=cwd, **dict(suite.env))
        # the suite runs in a scratch directory: a relative PYTHONPATH (`PYTHONPATH=src`,
        # a checkout's own tapeflow) means the caller's directory
        if env.get("PYTHONPATH"):
            env["PYTHONPATH"] = os.pathsep.join(
                os.path.abspath(p) if p else p for p in env["PYTHONPATH"].split(os.pathsep))
        try:
            return subprocess.call(command, cwd=cwd, env=env, timeout=timeout,
                                   stdout=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            print(f"suites/run.py: the suite ran past {timeout:.0f} s and was stopped",
                  file=sys.stderr)
            return 124


def outcomes(report: Path) -> dict:
    """test id -> (outcome, message): outcome one of passed, failed, error, skipped."""
    found = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        test_id = f"{case.get('classname')}::{case.get('name')}"
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = "failed" if child.tag == "failure" else child.tag
                message = child.get("message") or ""
                if message in ("", "collection failure"):  # the raised exception's line
                    raised = [line[1:].strip() for line in (child.text or "").splitlines()
                              if line.startswith("E ")]
                    message = raised[-1] if raised else message
                break
        found[test_id] = (outcome, message)
    return found


def cause(message: str) -> str:
    """A failure's message folded into a cause: its first line, with numbers, long quoted
    values and addresses replaced, so the same fault in many tests counts once."""
    line = message.strip().split("\n")[0][:200]
    line = re.sub(r"0x[0-9a-f]+", "0x…", line)
    line = re.sub(r"'[^']{40,}'|\"[^\"]{40,}\"", "'…'", line)  # long quoted values, not names
    return re.sub(r"(?<![A-Za-z_])\d+(\.\d+)?", "N", line)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suite", choices=sorted(SUITES))
    parser.add_argument("--record", action="store_true",
                        help="run on the real TensorFlow and record its passing tests")
    parser.add_argument("--causes", type=int, default=15, help="how many causes to list")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds for the suite")
    parser.add_argument("--report", type=Path, help="keep the JUnit XML report here")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    suite = SUITES[args.suite]
    package, requirement = suite.package, suite.requirement
    root = package_dir(package)
    record = HERE / f"{args.suite}_tf_passed.txt"
    with tempfile.TemporaryDirectory() as scratch:
        report = args.report or Path(scratch) / "report.xml"
        run_pytest(suite, root, report, not args.record, args.pytest_args, args.timeout)
        if not report.exists():
            print(f"suites/run.py: pytest wrote no report ({requirement} at {root})",
                  file=sys.stderr)
            return 2
        results = outcomes(report)
    if args.record:
        passed = sorted(t for t, (outcome, _) in results.items() if outcome == "passed")
        record.write_text("".join(f"{t}\n" for t in passed))
        print(f"{args.suite}: {len(passed)} of {len(results)} tests pass on TensorFlow; "
              f"recorded in {record.relative_to(HERE.parent)}")
        return 0
    reference = record.read_text().splitlines()
    passed = [t for t in reference if results.get(t, ("missing",))[0] == "passed"]
    share = 100.0 * len(passed) / len(reference)
    print(f"{args.suite} ({requirement}) with tapeflow as TensorFlow: {len(passed)} of the "
          f"{len(reference)} tests that pass on TensorFlow pass ({share:.1f}%)")
    counts = collections.Counter(results.get(t, ("missing", ""))[0] for t in reference)
    print("  of those: " + ", ".join(f"{n} {kind}" for kind, n in counts.most_common()))
    causes = collections.Counter(cause(results[t][1]) for t in reference
                                 if t in results and results[t][0] in ("failed", "error"))
    unknown = set(results) - set(reference)
    broken = collections.Counter(cause(results[t][1]) for t in unknown
                                 if results[t][0] == "error" and t.startswith("::"))
    if broken:
        print(f"test modules that fail to import: {sum(broken.values())}")
        for text, n in broken.most_common(args.causes):
            print(f"  {n:5d}  {text}")
    if causes:
        print(f"top failure causes (tests, cause):")
        for text, n in causes.most_common(args.causes):
            print(f"  {n:5d}  {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
