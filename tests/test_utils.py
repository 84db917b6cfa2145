"""tapeflow.utils.plot_tape renders a tape with Graphviz, or says clearly that it cannot."""
import shutil
import subprocess

import pytest

import tapeflow as tf
from tapeflow import utils


@pytest.fixture
def tape_and_target():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.tanh(x))
    return tape, y


def test_missing_dot_program_gives_a_clear_error_and_writes_nothing(tmp_path, monkeypatch,
                                                                    tape_and_target):
    monkeypatch.setattr(utils.shutil, "which", lambda name: None)
    path = tmp_path / "tape.svg"
    with pytest.raises(FileNotFoundError, match=r"Graphviz's `dot` program.*apt-get install "
                                                r"graphviz.*tape\.to_dot\(target\)"):
        utils.plot_tape(*tape_and_target, path)
    assert not path.exists()


@pytest.mark.parametrize("suffix", ["svg", "png"])
def test_renders_with_dot_when_available(tmp_path, monkeypatch, tape_and_target, suffix):
    calls = []

    def fake_run(args, input, capture_output, text, check):
        calls.append((args, input))
        open(args[-1], "w").write("rendered")
        return subprocess.CompletedProcess(args, 0, "", "")

    monkeypatch.setattr(utils.shutil, "which", lambda name: "/opt/graphviz/bin/dot")
    monkeypatch.setattr(utils.subprocess, "run", fake_run)
    path = tmp_path / f"tape.{suffix}"
    assert utils.plot_tape(*tape_and_target, path) == path
    (args, source), = calls
    assert args == ["/opt/graphviz/bin/dot", f"-T{suffix}", "-o", str(path)]
    assert source == tape_and_target[0].to_dot(tape_and_target[1])
    assert path.read_text() == "rendered"


def test_dot_failure_is_reported(tmp_path, monkeypatch, tape_and_target):
    monkeypatch.setattr(utils.shutil, "which", lambda name: "/opt/graphviz/bin/dot")
    monkeypatch.setattr(utils.subprocess, "run", lambda args, **kw: subprocess.CompletedProcess(
        args, 1, "", "Error: syntax error in line 3\n"))
    with pytest.raises(RuntimeError, match="exit status 1.*syntax error in line 3"):
        utils.plot_tape(*tape_and_target, tmp_path / "tape.png")


def test_other_formats_are_refused(tmp_path, tape_and_target):
    with pytest.raises(ValueError, match=r"\.svg or \.png"):
        utils.plot_tape(*tape_and_target, tmp_path / "tape.pdf")


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_real_dot_writes_svg_and_png(tmp_path, tape_and_target):
    svg = utils.plot_tape(*tape_and_target, str(tmp_path / "tape.svg"))
    text = open(svg).read()
    assert "<svg" in text and "Tanh" in text and "Sum" in text
    png = utils.plot_tape(*tape_and_target, tmp_path / "tape.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
