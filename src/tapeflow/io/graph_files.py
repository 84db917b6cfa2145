"""tf.io.write_graph: a graph's GraphDef in a file, text or binary."""
from __future__ import annotations

import os

__all__ = ["write_graph"]


def write_graph(graph_or_graph_def, logdir: str, name: str, as_text: bool = True) -> str:
    """Writes a graph's GraphDef to `logdir/name`: protobuf text format (as TF writes it)
    or, with `as_text=False`, the binary serialization (deterministic).

    Args:
        graph_or_graph_def: a `tf.Graph` (or tf.function graph) or a GraphDef proto.
        logdir: the directory (made if missing).
        name: the file's name.
        as_text: text format (default) or binary.

    Returns:
        The path written.

    Raises:
        ImportError: the `tensorboard` package (the protos) is not installed.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     _ = tf.constant(1.0, name="one")
        >>> path = tf.io.write_graph(g, tempfile.mkdtemp(), "graph.pbtxt")
        >>> open(path).read().splitlines()[:3]
        ['node {', '  name: "one"', '  op: "Const"']
    """
    graph_def = graph_or_graph_def.as_graph_def() if hasattr(
        graph_or_graph_def, "as_graph_def") else graph_or_graph_def
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    if as_text:
        from google.protobuf import text_format
        data = text_format.MessageToString(graph_def).encode()
    else:
        data = graph_def.SerializeToString(deterministic=True)
    temporary = path + ".tmp"
    with open(temporary, "wb") as f:
        f.write(data)
    os.replace(temporary, path)
    return path
