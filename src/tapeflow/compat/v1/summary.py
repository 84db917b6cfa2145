"""tf.compat.v1.summary: TF1's graph summaries and FileWriter.

`scalar(name, tensor)` returns a summary op and adds it to the SUMMARIES collection;
`merge_all()` gathers them; a Session run of either gives a summary value that
`FileWriter.add_summary(value, global_step)` writes to TensorBoard's event file (as TF1's
`simple_value` scalars). Here a summary value is a {tag: value} dict rather than serialized
bytes; `add_summary` also takes a serialized `Summary` protocol buffer.
"""
from __future__ import annotations

import numpy as np

import tapeflow as tf

from ...framework.context import executing_eagerly
from ...framework.graph import GraphKeys, get_default_graph
from ...summary import SummaryWriter, tensorboard_module

__all__ = ["scalar", "merge", "merge_all", "FileWriter"]


def scalar(name, tensor, collections=None, family=None):
    """A summary of the scalar `tensor` tagged `name` (`family/name` with a family).

    Raises:
        ValueError: `tensor` is not a scalar.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     loss = tf1.summary.scalar("loss", tf1.constant(0.5))
        ...     print(tf1.Session().run(tf1.summary.merge_all()))
        {'loss': 0.5}
    """
    tensor = tf.cast(tensor, tf.float32)
    if tensor.shape.rank not in (None, 0):
        raise ValueError(f"tf.summary.scalar {name!r}: the tensor must be a scalar, got shape "
                         f"{tensor.shape}.")
    tag = f"{family}/{name}" if family else str(name)
    summary = {tag: tensor}
    if not executing_eagerly():
        for key in collections or [GraphKeys.SUMMARIES]:
            get_default_graph().add_to_collection(key, summary)
    return summary


def merge(inputs, collections=None, name=None) -> dict:
    """One summary op holding every summary of `inputs`."""
    merged = {}
    for summary in inputs:
        merged.update(summary)
    for key in collections or []:
        get_default_graph().add_to_collection(key, merged)
    return merged


def merge_all(key=GraphKeys.SUMMARIES, scope=None, name=None):
    """The merge of the summaries in collection `key`, or None when there are none."""
    summaries = get_default_graph().get_collection(key)
    return merge(summaries) if summaries else None


class FileWriter:
    """Writes summaries to an event file in `logdir` for TensorBoard.

    Example:
        >>> import tempfile
        >>> import tapeflow.compat.v1 as tf1
        >>> writer = tf1.summary.FileWriter(tempfile.mkdtemp())
        >>> writer.add_summary({"loss": 0.5}, global_step=1)
        >>> writer.close()
    """

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
                 filename_suffix=None, session=None) -> None:
        self._writer = SummaryWriter(logdir, max_queue=max_queue,
                                     flush_millis=int(flush_secs * 1000),
                                     filename_suffix=filename_suffix or "")

    def get_logdir(self) -> str:
        return self._writer.logdir

    def add_summary(self, summary, global_step=None) -> None:
        """Writes `summary` (a value of a summary op, or serialized Summary bytes) at
        `global_step` (0 when None)."""
        summary_pb2 = tensorboard_module("compat.proto.summary_pb2")
        if isinstance(summary, (bytes, bytearray)):
            proto = summary_pb2.Summary.FromString(bytes(summary))
        else:
            proto = summary_pb2.Summary(value=[
                summary_pb2.Summary.Value(tag=tag, simple_value=float(np.asarray(value)))
                for tag, value in summary.items()])
        self._writer.write(proto, 0 if global_step is None else int(global_step))

    def add_graph(self, graph, global_step=None, graph_def=None) -> None:
        """Accepted; graphs are not written."""

    def flush(self) -> None:
        self._writer.flush()

    def close(self) -> None:
        self._writer.close()

    def reopen(self) -> None:
        """Accepted: a closed writer stays closed."""

    def __enter__(self) -> "FileWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close()
