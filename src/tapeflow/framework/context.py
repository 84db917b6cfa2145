"""Per-thread execution state: the active recorders (tapes, accumulators) and the graph.

Tapes are thread-local, as in TF: a tape opened on one thread sees nothing another does.
"""
from __future__ import annotations

import threading


class _State(threading.local):
    def __init__(self) -> None:
        # Tapes and forward accumulators that currently record, innermost last.
        self.recorders: list = []
        # The graph ops are added to, or None when executing eagerly.
        self.graph = None
        # Functions `variable_creator_scope` installed, innermost last.
        self.variable_creators: list = []


state = _State()


def executing_eagerly() -> bool:
    """True unless a graph is being built on this thread.

    Example:
        >>> import tapeflow as tf
        >>> tf.executing_eagerly()
        True
    """
    return state.graph is None
