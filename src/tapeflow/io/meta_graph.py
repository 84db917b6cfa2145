"""MetaGraphDefs: a graph's GraphDef with TF's meta information (`export_meta_graph`,
`import_meta_graph`). The saver_def stays empty until tapeflow's Saver writes TF's
checkpoint format; collections are not written."""
from __future__ import annotations

import os

from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.graph_def import proto_module
from .graph_def_import import import_graph_def

__all__ = ["export_meta_graph", "import_meta_graph"]


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None,
                      collection_list=None, as_text=False, graph=None, export_scope=None,
                      clear_devices=False, clear_extraneous_savers=False,
                      strip_default_attrs=False, save_debug_info=False, **kwargs):
    """The MetaGraphDef of `graph` (default: the default graph), written to `filename`
    when given (binary, or text with `as_text`).

    Returns:
        The `MetaGraphDef`: its graph_def and meta_info_def (TF's version strings); no
        saver_def or collections.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     _ = tf.constant(1.0, name="one")
        ...     meta = tf.compat.v1.train.export_meta_graph()
        >>> [n.name for n in meta.graph_def.node], meta.meta_info_def.tensorflow_version
        (['one'], '2.21.0')
    """
    from ..version import VERSION
    meta = proto_module("meta_graph").MetaGraphDef()
    if meta_info_def is not None:
        meta.meta_info_def.CopyFrom(meta_info_def)
    meta.meta_info_def.tensorflow_version = VERSION
    meta.meta_info_def.tensorflow_git_version = "tapeflow"
    source = graph_def if graph_def is not None else (graph or get_default_graph()).as_graph_def(
        add_shapes=True)
    meta.graph_def.CopyFrom(source)
    if clear_devices:
        for node in meta.graph_def.node:
            node.device = ""
    if saver_def is not None:
        meta.saver_def.CopyFrom(saver_def)
    if filename:
        os.makedirs(os.path.dirname(os.path.abspath(filename)), exist_ok=True)
        if as_text:
            from google.protobuf import text_format
            data = text_format.MessageToString(meta).encode()
        else:
            data = meta.SerializeToString(deterministic=True)
        with open(filename, "wb") as f:
            f.write(data)
    return meta


def _read_meta_graph(path: str):
    meta = proto_module("meta_graph").MetaGraphDef()
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise OSError(f"File {path} does not exist.") from None
    try:
        meta.ParseFromString(data)
    except Exception:
        from google.protobuf import text_format
        try:
            text_format.Merge(data.decode("utf-8"), meta)
        except Exception as error:
            raise errors.DataLossError(None, None, f"{path} is not a MetaGraphDef: "
                                       f"{error}") from None
    return meta


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    """Adds the graph of a MetaGraphDef (or a file holding one) to the default graph.

    Returns:
        None: tapeflow's Saver does not yet read TF's saver_def.

    Raises:
        OSError: the file does not exist.
        DataLossError: the file is not a MetaGraphDef.
        NotFoundError: an op type tapeflow lacks.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     _ = tf.constant(1.0, name="one")
        ...     meta = tf.compat.v1.train.export_meta_graph()
        >>> with tf.Graph().as_default() as h:
        ...     tf.compat.v1.train.import_meta_graph(meta)
        >>> [op.name for op in h.get_operations()]
        ['one']
    """
    meta = meta_graph_or_file if hasattr(meta_graph_or_file, "graph_def") else \
        _read_meta_graph(os.fspath(meta_graph_or_file))
    graph_def = meta.graph_def
    if clear_devices:
        graph_def = type(graph_def)()
        graph_def.CopyFrom(meta.graph_def)
        for node in graph_def.node:
            node.device = ""
    import_graph_def(graph_def, name=import_scope or "")
    return None
