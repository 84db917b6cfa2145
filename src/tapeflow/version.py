"""tf.version: the TensorFlow API level tapeflow implements, and tapeflow's own version.

Libraries gate features on `tf.__version__` / `tf.version.VERSION`, so these report the
TensorFlow release whose API tapeflow follows. tapeflow's own release is
`TAPEFLOW_VERSION` (also `tapeflow.__tapeflow_version__`, and `tapeflow --version`).

Example:
    >>> import tapeflow as tf
    >>> tf.__version__ == tf.version.VERSION
    True
    >>> tf.version.VERSION.split(".")[:2] >= ["2", "21"]
    True
"""
VERSION = "2.21.0"
GIT_VERSION = "v2.21.0-0-tapeflow"
COMPILER_VERSION = "tapeflow (Python and NumPy; no compiled kernels)"
GRAPH_DEF_VERSION = 2474
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0

TAPEFLOW_VERSION = "0.1.0"

__all__ = ["VERSION", "GIT_VERSION", "COMPILER_VERSION", "GRAPH_DEF_VERSION",
           "GRAPH_DEF_VERSION_MIN_CONSUMER", "GRAPH_DEF_VERSION_MIN_PRODUCER"]
