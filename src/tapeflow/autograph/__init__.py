"""AutoGraph: `tf.function` converts Python `if`/`while`/`for` (and `break`, `continue`,
`return`, `and`/`or`/`not`) on tensors into graph control flow.

`transformer.py` rewrites a function's source; `operators.py` holds what the rewritten code
calls, which chooses between Python and `tf.cond`/`tf.while_loop` when it runs; `api.py`
holds `tf.function`, `to_graph`, `to_code` and the conversion of called functions.
"""
from . import experimental
from .api import to_code, to_graph

__all__ = ["to_code", "to_graph"]  # and the experimental namespace
