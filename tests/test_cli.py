"""The command line: help per command, --version, bad options refused before any work."""
import os

import pytest

import tapeflow as tf
from tapeflow import cli


def run_cli(capsys, *argv):
    try:
        status = cli.main(list(argv))
    except SystemExit as e:
        status = e.code
    out, err = capsys.readouterr()
    return status, out, err


def test_version(capsys):
    status, out, _ = run_cli(capsys, "--version")
    assert status == 0 and out == (f"tapeflow {tf.version.TAPEFLOW_VERSION} "
                                   f"(TensorFlow {tf.version.VERSION} API)\n")


@pytest.mark.parametrize("command, options", [
    ("demo", ["--epochs", "--seed", "--batch-size", "--plot", "--eager"]),
    ("bench", ["--quick", "--peers"]),
    ("check", ["--help"]),
])
def test_each_command_lists_its_options(capsys, command, options):
    status, out, _ = run_cli(capsys, command, "--help")
    assert status == 0 and out.startswith(f"usage: tapeflow {command}")
    for option in options:
        assert option in out


@pytest.mark.parametrize("argv, words", [
    (["demo", "--epochs", "0"], "argument --epochs: must be a positive integer, got '0'"),
    (["demo", "--epochs", "two"], "must be a positive integer, got 'two'"),
    (["demo", "--batch-size", "-3"], "argument --batch-size"),
    (["demo", "--plot", os.path.join("no", "such", "folder", "x.png")], "does not exist"),
    (["demo", "--bogus"], "unrecognized arguments: --bogus"),
    (["check", "--epochs", "3"], "unrecognized arguments"),
    (["bench", "nonsense"], "invalid choice: 'nonsense'"),
    (["frob"], "invalid choice: 'frob'"),
    ([], "required: COMMAND"),
])
def test_bad_options_are_one_line_before_any_work(capsys, argv, words):
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "--help" in err

