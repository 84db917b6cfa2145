"""Helpers around the tape: drawing it (and any DOT graph) with Graphviz."""
from __future__ import annotations

import os
import shutil
import subprocess

__all__ = ["plot_tape", "render_dot"]

_FORMATS = ("svg", "png")


def plot_tape(tape, target, path):
    """Draws the operations `tape` recorded on the way to `target` into an SVG or PNG file.

    Renders `tape.to_dot(target)` with Graphviz's `dot` program, which must be on PATH.

    Args:
        tape: a GradientTape that still holds its record (persistent, or before gradient).
        target: a Tensor or Variable, or a nested structure of them.
        path: the file to write; its suffix, `.svg` or `.png`, chooses the format.

    Returns:
        `path`.

    Raises:
        ValueError: the suffix is neither `.svg` nor `.png`.
        FileNotFoundError: Graphviz's `dot` program is not installed (nothing is written).
        RuntimeError: `dot` failed; the message carries its error output.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape(persistent=True) as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tf.utils.plot_tape(tape, y, "tape.gif")
        Traceback (most recent call last):
            ...
        ValueError: plot_tape writes .svg or .png files, not 'tape.gif'
    """
    fmt = os.path.splitext(os.fspath(path))[1].lstrip(".").lower()
    if fmt not in _FORMATS:
        raise ValueError(f"plot_tape writes .svg or .png files, not {os.fspath(path)!r}")
    render_dot(tape.to_dot(target), path, fmt, "plot_tape",
               "save tape.to_dot(target) to a .dot file and render it elsewhere")
    return path


def render_dot(source: str, path, fmt: str, caller: str, alternative: str) -> None:
    """Renders DOT `source` into the file `path` in Graphviz format `fmt` ('svg', 'png',
    'pdf'...) with the `dot` program.

    Raises:
        FileNotFoundError: `dot` is not on PATH; the message says how to install it, or
            `alternative` (nothing is written).
        RuntimeError: `dot` failed; the message carries its error output.
    """
    program = shutil.which("dot")
    if program is None:
        raise FileNotFoundError(
            f"{caller} needs Graphviz's `dot` program, which is not on PATH. Install Graphviz "
            f"(apt-get install graphviz, brew install graphviz or conda install graphviz), or "
            f"{alternative}.")
    result = subprocess.run([program, f"-T{fmt}", "-o", os.fspath(path)], input=source,
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"Graphviz's dot failed (exit status {result.returncode}) drawing "
                           f"{os.fspath(path)!r}: {result.stderr.strip()}")
