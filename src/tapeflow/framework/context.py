"""Per-thread execution state: the active recorders (tapes, accumulators), the graph ops
are added to, and the default sessions.

Tapes are thread-local, as in TF: a tape opened on one thread sees nothing another does.
Code that runs ops in another context (a graph being built, a plan running, a tape
paused) swaps the state with `switched`, the one place that saves and restores it.
"""
from __future__ import annotations

import threading

__all__ = ["state", "executing_eagerly", "switched", "get_default_session",
           "default_session", "push_default_session", "remove_default_session"]


class _State(threading.local):
    def __init__(self) -> None:
        # Tapes and forward accumulators that currently record, innermost last.
        self.recorders: list = []
        # The graph ops are added to, or None when executing eagerly.
        self.graph = None
        # Sessions made the default (`Session.as_default()`), innermost last.
        self.sessions: list = []
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


_KEEP = object()


class switched:
    """Context manager: this thread's graph and recorders are `graph` and `recorders` inside
    the block, and what they were after it (also when it raises).

    An omitted argument keeps the current value; `graph=None` means executing eagerly,
    `recorders=[]` that no tape or accumulator sees the ops run inside.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.framework import context
        >>> with context.switched(graph=tf.Graph(), recorders=[]):
        ...     tf.executing_eagerly()
        False
        >>> tf.executing_eagerly()
        True
    """

    __slots__ = ("_graph", "_recorders", "_saved")

    def __init__(self, graph=_KEEP, recorders=_KEEP) -> None:
        self._graph = graph
        self._recorders = recorders

    def __enter__(self) -> None:
        st = state
        self._saved = st.graph, st.recorders
        if self._graph is not _KEEP:
            st.graph = self._graph
        if self._recorders is not _KEEP:
            st.recorders = self._recorders

    def __exit__(self, exc_type, exc, tb) -> None:
        state.graph, state.recorders = self._saved


def get_default_session():
    """The innermost default session of this thread, or None.

    Example:
        >>> import tapeflow as tf
        >>> tf.compat.v1.get_default_session() is None
        True
    """
    sessions = state.sessions
    return sessions[-1] if sessions else None


def default_session(what: str):
    """The innermost default session, for `Tensor.eval()` and `Operation.run()`.

    Args:
        what: the call that needs it ("eval()"), named in the error.

    Raises:
        ValueError: no session is the default.
    """
    session = get_default_session()
    if session is None:
        raise ValueError(f"Cannot {what}: no default session is registered. Use `with "
                         "sess.as_default():` or pass an explicit session (session=sess).")
    return session


def push_default_session(session) -> None:
    """Makes `session` this thread's default session until `remove_default_session`."""
    state.sessions.append(session)


def remove_default_session(session) -> None:
    """Undoes `push_default_session(session)`; nothing when it is not a default."""
    if session in state.sessions:
        state.sessions.remove(session)
