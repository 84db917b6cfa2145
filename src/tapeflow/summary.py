"""tf.summary: scalars, histograms, text and images in TensorBoard's event files.

The summaries are the protocol buffers TF 2 writes (tensor summaries tagged with the
plugin that shows them), made by the `tensorboard` package's own NumPy summary functions
and written by its `EventFileWriter`; TensorBoard reads them like TF's. `tensorboard` is an
optional dependency (the `tensorboard` extra), and images also need Pillow; both are
imported on first use. Summaries are written eagerly: inside a `tf.function` they raise.

Example:
    >>> import tempfile
    >>> import tapeflow as tf
    >>> writer = tf.summary.create_file_writer(tempfile.mkdtemp())
    >>> with writer.as_default(step=3):
    ...     tf.summary.scalar("loss", 0.25)
    True
    >>> tf.summary.scalar("loss", 0.25, step=4)     # no default writer: nothing written
    False
"""
from __future__ import annotations

import contextlib
import io
import threading
import time
import types

import numpy as np

__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "scalar", "histogram",
           "text", "image", "write", "flush", "record_if", "should_record_summaries",
           "experimental"]

_state = threading.local()


def tensorboard_module(module: str, purpose: str = "tf.summary writes TensorBoard event "
                       "files with"):
    """A module of the tensorboard package, e.g. 'summary.writer.event_file_writer'; an
    ImportError naming the extra (and `purpose`, what needs it) when it is missing."""
    import importlib
    try:
        return importlib.import_module(f"tensorboard.{module}")
    except ImportError as error:
        raise ImportError(f"{purpose} the `tensorboard` package: pip install "
                          f"'tapeflow[tensorboard]'") from error


def _stack(name: str) -> list:
    if not hasattr(_state, name):
        setattr(_state, name, [])
    return getattr(_state, name)


class SummaryWriter:
    """Writes summaries to an event file in `logdir` (see `create_file_writer`)."""

    def __init__(self, logdir, max_queue: int = 10, flush_millis: int = 120_000,
                 filename_suffix: str = ".v2") -> None:
        module = tensorboard_module("summary.writer.event_file_writer")
        self.logdir = str(logdir)
        self._writer = module.EventFileWriter(self.logdir, max_queue_size=max_queue,
                                              flush_secs=flush_millis / 1000,
                                              filename_suffix=filename_suffix)
        self._closed = False

    def as_default(self, step=None):
        """A context in which summary functions write here (with `step` as the default
        step, when given)."""
        return _default_writer(self, step)

    def set_as_default(self, step=None) -> None:
        """Makes this the default writer (and `step` the default step) from now on."""
        _stack("writers").append(self)
        if step is not None:
            experimental.set_step(step)

    def init(self) -> None:
        """Nothing to do: the file is opened when the writer is made."""

    def write(self, summary, step: int) -> None:
        if self._closed:
            raise RuntimeError(f"SummaryWriter for {self.logdir} is closed.")
        event = tensorboard_module("compat.proto.event_pb2").Event(
            wall_time=time.time(), step=int(step), summary=summary)
        self._writer.add_event(event)

    def flush(self) -> None:
        """Writes pending events to disk."""
        if not self._closed:
            self._writer.flush()

    def close(self) -> None:
        """Flushes and closes the event file; the writer cannot write afterwards."""
        if not self._closed:
            self._writer.close()
            self._closed = True


class _NoopWriter(SummaryWriter):
    """A writer that writes nothing."""

    def __init__(self) -> None:
        self.logdir = None
        self._closed = False

    def write(self, summary, step: int) -> None:
        pass

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


@contextlib.contextmanager
def _default_writer(writer: SummaryWriter, step):
    writers = _stack("writers")
    writers.append(writer)
    previous_step = getattr(_state, "step", None)
    if step is not None:
        experimental.set_step(step)
    try:
        yield writer
    finally:
        writers.remove(writer)
        writer.flush()
        if step is not None:
            _state.step = previous_step


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable: bool = False) -> SummaryWriter:
    """A writer of an event file in `logdir` (created if needed).

    Args:
        max_queue: events held before a write (default 10).
        flush_millis: the longest time between flushes (default 120000).
        filename_suffix: appended to the event file's name (default '.v2', as TF's).

    Raises:
        ImportError: the `tensorboard` package is missing.
    """
    return SummaryWriter(logdir, max_queue or 10, flush_millis or 120_000,
                         ".v2" if filename_suffix is None else filename_suffix)


def create_noop_writer() -> SummaryWriter:
    """A writer that discards everything (to switch summaries off)."""
    return _NoopWriter()


@contextlib.contextmanager
def record_if(condition):
    """Within the context, summaries are written only when `condition` (a bool, or a
    callable returning one, checked at each summary) holds."""
    conditions = _stack("conditions")
    conditions.append(condition)
    try:
        yield
    finally:
        conditions.pop()


def should_record_summaries() -> bool:
    """Whether a summary written now would be recorded: a default writer is set and the
    innermost `record_if` condition holds."""
    if not _stack("writers"):
        return False
    conditions = _stack("conditions")
    if not conditions:
        return True
    condition = conditions[-1]
    return bool(condition() if callable(condition) else condition)


def _set_step(step) -> None:
    _state.step = step


def _get_step():
    return getattr(_state, "step", None)


experimental = types.SimpleNamespace(set_step=_set_step, get_step=_get_step)


def _values(data, name: str) -> np.ndarray:
    import tapeflow
    if not tapeflow.executing_eagerly():
        raise NotImplementedError(f"tf.summary ({name!r}): summaries are written eagerly; "
                                  "call them outside tf.function and graphs.")
    return np.asarray(data.numpy() if hasattr(data, "numpy") else data)


def _write(name: str, step, make_summary) -> bool:
    if not should_record_summaries():
        return False
    step = _get_step() if step is None else step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument "
                         "or through tf.summary.experimental.set_step()")
    step = int(_values(step, name))
    _stack("writers")[-1].write(make_summary(), step)
    return True


def scalar(name: str, data, step=None, description=None) -> bool:
    """Writes a scalar (as float32) to the default writer.

    Returns:
        True when written, False without a default writer (or under a false `record_if`).

    Raises:
        ValueError: no step given nor set, or data that is not a scalar.
    """
    value = _values(data, name)
    if value.size != 1:
        raise ValueError(f"tf.summary.scalar {name!r}: data must be a scalar, got shape "
                         f"{value.shape}.")
    make = tensorboard_module("plugins.scalar.summary_v2").scalar_pb
    return _write(name, step, lambda: make(name, np.float32(value.reshape(())), description))


def histogram(name: str, data, step=None, buckets=None, description=None) -> bool:
    """Writes a histogram of the values of `data` in `buckets` (30) equal-width buckets."""
    values = _values(data, name)
    make = tensorboard_module("plugins.histogram.summary_v2").histogram_pb
    return _write(name, step, lambda: make(name, values, buckets, description))


def text(name: str, data, step=None, description=None) -> bool:
    """Writes a string (or an array of strings) shown by TensorBoard's text dashboard."""
    values = _values(data, name)
    make = tensorboard_module("plugins.text.summary_v2").text_pb
    return _write(name, step, lambda: make(name, values, description))


def _png(image: np.ndarray) -> bytes:
    try:
        from PIL import Image
    except ImportError as error:
        raise ImportError("tf.summary.image encodes PNGs with Pillow: pip install "
                          "'tapeflow[tensorboard]'") from error
    buffer = io.BytesIO()
    Image.fromarray(image[..., 0] if image.shape[-1] == 1 else image).save(buffer, "PNG")
    return buffer.getvalue()


def image(name: str, data, step=None, max_outputs: int = 3, description=None) -> bool:
    """Writes up to `max_outputs` images of a [k, height, width, channels] batch (1, 3 or
    4 channels; floats in [0, 1] or uint8) as PNGs.

    Raises:
        ValueError: data that is not a rank-4 batch of 1, 3 or 4 channels.
    """
    values = _values(data, name)
    if values.ndim != 4 or values.shape[-1] not in (1, 3, 4):
        raise ValueError(f"tf.summary.image {name!r}: data must have shape [k, h, w, c] with "
                         f"c in (1, 3, 4), got {values.shape}.")
    if values.dtype != np.uint8:
        values = np.clip(np.round(values.astype(np.float64) * 255.0), 0, 255).astype(np.uint8)

    def make():
        tensor_util = tensorboard_module("util.tensor_util")
        metadata = tensorboard_module("plugins.image.metadata")
        summary = tensorboard_module("compat.proto.summary_pb2").Summary()
        height, width = values.shape[1:3]
        encoded = [str(width).encode(), str(height).encode(),
                   *(_png(picture) for picture in values[:max_outputs])]
        summary.value.add(tag=name, tensor=tensor_util.make_tensor_proto(
            np.array(encoded, dtype=object)), metadata=metadata.create_summary_metadata(
                display_name=None, description=description))
        return summary
    return _write(name, step, make)


def write(tag: str, tensor, step=None, metadata=None, name=None) -> bool:
    """Writes a tensor (any shape; numbers or strings) under `tag`, with `metadata` (a
    `SummaryMetadata` proto or its serialized bytes) naming the plugin that shows it."""
    values = _values(tensor, tag)

    def make():
        summary = tensorboard_module("compat.proto.summary_pb2").Summary()
        value = summary.value.add(tag=tag, tensor=tensorboard_module(
            "util.tensor_util").make_tensor_proto(values))
        if isinstance(metadata, bytes):
            value.metadata.ParseFromString(metadata)
        elif metadata is not None:
            value.metadata.CopyFrom(metadata)
        return summary
    return _write(tag, step, make)


def flush(writer=None, name=None) -> None:
    """Flushes `writer`, or the default writer."""
    writers = _stack("writers")
    target = writer if writer is not None else writers[-1] if writers else None
    if target is not None:
        target.flush()
