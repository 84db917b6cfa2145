"""`tf.graph_util`: GraphDefs read into the default graph (`import_graph_def`)."""
from .io.graph_def_import import import_graph_def

__all__ = ["import_graph_def"]
