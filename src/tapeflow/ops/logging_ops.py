"""tf.print: a `PrintV2` op that writes when it runs, so inside tf.function it prints on
every call (not once while tracing), formatting tensors as TF does; `timestamp`, a
`Timestamp` op read when it runs; `get_logger`."""
from __future__ import annotations

import sys
import time

import numpy as np

from ..framework import nest
from ..framework.context import state
from ..framework.execute import execute
from ..framework.registry import OUTPUT, define_op, no_gradient
from ..framework.tensor import convert_to_tensor, is_tensor

__all__ = ["print_v2", "format_array", "get_logger", "timestamp"]


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"',
            ord("'"): "\\'", ord("\\"): "\\\\"}


def _format_string(value: bytes) -> str:
    """A string element as tf.print writes it: quoted, C escapes for quotes, backslashes and
    control bytes, other bytes as they are (UTF-8 text stays readable)."""
    text = value.decode("utf-8", "surrogateescape")
    return '"' + "".join(_ESCAPES.get(ord(c), "\\%03o" % ord(c) if ord(c) < 32 or ord(c) == 127
                                      else c) for c in text) + '"'


def _format_scalar(value) -> str:
    if type(value) is bytes:
        return _format_string(value)
    kind = value.dtype.kind
    if kind == "b":
        return "1" if value else "0"
    if kind == "f":
        # The shortest of float's 6 / double's 15 digits and 9 / 17 that reads back exact.
        exact = np.float64 if value.dtype.itemsize == 8 else np.float32
        short, full = (15, 17) if exact is np.float64 else (6, 9)
        text = "%.*g" % (short, float(value))
        return text if exact(text) == exact(value) else "%.*g" % (full, float(value))
    if kind in "iu":
        return str(int(value))
    return "?"


def format_array(array: np.ndarray, summarize: int = 3) -> str:
    """A tensor's value as tf.print writes it: nested brackets, values separated by spaces,
    each dimension longer than 2 * summarize cut to its first and last `summarize` entries
    around '...' (all of them for -1); floats with 6 significant digits (15 for float64)
    when that reads back exactly, else 9 (17).

    Example:
        >>> import numpy as np
        >>> format_array(np.arange(8))
        '[0 1 2 ... 5 6 7]'
        >>> print(format_array(np.array([[0.5, 1.0], [2.0, 1 / 3]], np.float32)))
        [[0.5 1]
         [2 0.333333343]]
    """
    array = np.asarray(array)
    if array.ndim == 0:
        return _format_scalar(array[()])
    return _format_block(array, summarize, 0)


def _format_block(array: np.ndarray, summarize: int, depth: int) -> str:
    size = array.shape[0]
    if 0 <= summarize and 2 * summarize < size:
        indices = [*range(summarize), None, *range(size - summarize, size)]
    else:
        indices = list(range(size))
    if array.ndim == 1:
        return "[" + " ".join("..." if i is None else _format_scalar(array[i])
                              for i in indices) + "]"
    separator = "\n" * (array.ndim - 1) + " " * (depth + 1)
    return "[" + separator.join("..." if i is None else
                                _format_block(array[i], summarize, depth + 1)
                                for i in indices) + "]"


class _Slot:
    """Stands for the tensor at `index` of the op's inputs in a printed structure."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


class _Formatted:
    """A formatted tensor inside a printed structure: its repr is the text."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _render(piece, texts: list) -> str:
    if isinstance(piece, str):
        return piece
    if isinstance(piece, _Slot):
        return texts[piece.index]
    if isinstance(piece, (list, tuple, dict)):
        return str(nest.map_structure(
            lambda x: _Formatted(texts[x.index]) if isinstance(x, _Slot) else x, piece))
    return repr(piece)


def _write(text: str, output_stream) -> None:
    if output_stream is None:
        output_stream = sys.stderr      # looked up now, so redirection is followed
    if isinstance(output_stream, str):
        with open(output_stream[len("file://"):], "a") as f:
            f.write(text)
    elif hasattr(output_stream, "write"):
        output_stream.write(text)
        output_stream.flush()
    else:
        output_stream(text.rstrip("\n"))


def _print_kernel(*arrays, pieces, sep, end, summarize, output_stream):
    texts = [format_array(a, summarize) for a in arrays]
    _write(sep.join(_render(p, texts) for p in pieces) + end, output_stream)
    return ()


PrintV2 = define_op("PrintV2", _print_kernel, num_outputs=0, family=OUTPUT)
PrintV2.shape_fn = lambda inputs, attrs: []      # no outputs; never run while tracing
no_gradient("PrintV2")


def print_v2(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """Prints `inputs` when it runs: eagerly at once, inside tf.function on every call.

    Tensors (and Variables) print their values as TF does (`[1 2.5 3]`, floats to float
    precision, long dimensions summarized); strings print as they are; lists, tuples and
    dicts print like Python's with their tensors formatted; other objects as their repr.

    Args:
        output_stream: sys.stderr (the default), sys.stdout, any object with `write`, a
            logging function (`logging.info`...), or 'file://<path>' to append to a file.
        summarize: the first and last entries printed of each dimension (-1: all).
        sep: written between inputs.
        end: written after the last input.

    Returns:
        None when eager; in a graph, the print Operation.

    Raises:
        ValueError: an unsupported output_stream string.
        TypeError: a `sep` or `end` that is not a string.

    Example:
        >>> import sys
        >>> import tapeflow as tf
        >>> tf.print("x:", tf.constant([1.0, 2.5]), {"n": tf.constant(3)},
        ...          output_stream=sys.stdout)
        x: [1 2.5] {'n': 3}
        >>> @tf.function
        ... def step(x):
        ...     tf.print("step", x, output_stream=sys.stdout)
        ...     return x + 1
        >>> _ = step(tf.constant(1)); _ = step(tf.constant(2))
        step 1
        step 2
    """
    if isinstance(output_stream, str) and not output_stream.startswith("file://"):
        raise ValueError(f"tf.print: unsupported output_stream {output_stream!r}; use "
                         "sys.stdout, sys.stderr, a logging function or 'file://<path>'.")
    end = "\n" if end is None else end  # as TF: None is the default
    for what, text in (("sep", sep), ("end", end)):
        if not isinstance(text, str):
            raise TypeError(f"tf.print: {what} must be a string, got {text!r}")
    tensors: list = []

    def slot(x):
        if is_tensor(x):
            tensors.append(convert_to_tensor(x))
            return _Slot(len(tensors) - 1)
        return x

    pieces = [slot(x) if not isinstance(x, (list, tuple, dict)) else nest.map_structure(slot, x)
              for x in inputs]
    attrs = {"pieces": pieces, "sep": sep, "end": end,
             "summarize": 3 if summarize is None else int(summarize),
             "output_stream": output_stream}
    execute(PrintV2, tuple(tensors), attrs)
    graph = state.graph
    return graph.get_operations()[-1] if graph is not None else None


def _timestamp():
    return np.array(time.time(), np.float64)


# Stateful (OUTPUT): a graph reads the clock each time it runs, never once while tracing.
Timestamp = define_op("Timestamp", _timestamp, family=OUTPUT)
Timestamp.shape_fn = lambda inputs, attrs: [(np.dtype(np.float64), ())]
no_gradient("Timestamp")


def timestamp(name=None):
    """The time when the op runs, in seconds since the epoch, as a float64 scalar (inside
    tf.function, at each call).

    Example:
        >>> import tapeflow as tf
        >>> t = tf.timestamp()
        >>> t.dtype, float(t) > 1e9
        (tf.float64, True)
    """
    return execute(Timestamp, (), {})


def get_logger():
    """The logger tapeflow writes its warnings to (named "tapeflow"); the logging module is
    imported on first use, so `import tapeflow` stays quick.

    Example:
        >>> import tapeflow as tf
        >>> tf.get_logger().name
        'tapeflow'
    """
    import logging
    return logging.getLogger("tapeflow")

