"""GradientTape and the reverse pass over what it recorded."""
from __future__ import annotations

import contextlib
import threading

from ..framework import nest
from ..framework.context import state
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from . import jacobian as _jacobian
from .backward import UnconnectedGradients, as_unconnected, backward
from .domains import GraphDomain, eager_domain
from .output_gradients import checked_output_gradients
from .tape import Tape, log_warning, snapshot, warn_none_gradients

__all__ = ["GradientTape", "UnconnectedGradients", "final_gradient_hooks"]


class _Hooks(threading.local):
    factory = None


_hooks = _Hooks()


@contextlib.contextmanager
def final_gradient_hooks(factory):
    """Inside, every `GradientTape.gradient` call of this thread asks `factory(sources)`
    (the flattened sources) for `on_final(index, gradient)` or None; `on_final` then hears
    of each source's gradient as soon as the reverse pass has finished it (see
    `backward`), while the pass goes on. `tf.distribute` starts the all-reduce of gradients
    this way."""
    previous, _hooks.factory = _hooks.factory, factory
    try:
        yield
    finally:
        _hooks.factory = previous


def _resource_or_self(x):
    """The Variable an object standing for one names by its `handle` (it says so with
    `_should_act_as_resource_variable`, as a library's wrapper of a tf.Variable does), else
    `x`: the tape watches and differentiates the variable itself."""
    return x.handle if getattr(x, "_should_act_as_resource_variable", False) else x


class GradientTape:
    """Records operations on watched tensors to compute their gradients.

    Trainable variables read inside the context are watched automatically (unless
    `watch_accessed_variables=False`); constants must be watched with `watch`.

    Args:
        persistent: allow several `gradient`/`jacobian` calls; otherwise the first call
            releases the record.
        watch_accessed_variables: watch trainable variables when they are read.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as g:
        ...     g.watch(x)
        ...     y = x * x
        >>> float(g.gradient(y, x))
        6.0
    """

    jacobian = _jacobian.jacobian
    batch_jacobian = _jacobian.batch_jacobian

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._tape: Tape | None = None
        self._recording = False
        self._spent_variables: tuple = ()      # what a used non-persistent tape watched

    def __enter__(self) -> "GradientTape":
        if self._recording:
            raise ValueError("Tape is still recording. This can happen if you try to re-enter "
                             "an already-active tape.")
        if self._tape is None:
            self._tape = Tape(self._watch_accessed_variables)
        self._push()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self._recording:
            self._pop()

    def _push(self) -> None:
        state.recorders.append(self._tape)
        self._recording = True

    def _pop(self) -> None:
        state.recorders.remove(self._tape)
        self._recording = False

    def explain(self, target, source):
        """Whether `source` reaches `target` on this tape and, if not, the most likely
        reason: an `Explanation` (see `tapeflow.eager.diagnostics.explain`).

        Example:
            >>> import tapeflow as tf
            >>> x = tf.constant(3.0)
            >>> with tf.GradientTape(persistent=True) as tape:
            ...     y = x * x
            >>> tape.explain(y, x).reason
            'not_watched'
        """
        from .diagnostics import explain
        return explain(self, target, source)

    def to_dot(self, target) -> str:
        """The recorded operations leading to `target` as Graphviz DOT text (see
        `tapeflow.eager.tape_dot.to_dot`)."""
        from .tape_dot import to_dot
        return to_dot(self, target)

    def watch(self, tensor) -> None:
        """Watches a Tensor, a Variable, or a nested structure of them.

        Raises:
            ValueError: an element is neither a Tensor nor a Variable.
        """
        if self._tape is None:
            self._tape = Tape(self._watch_accessed_variables)
        for t in map(_resource_or_self, nest.flatten(tensor)):
            if not isinstance(t, (Tensor, Variable)):
                raise ValueError(f"Passed in object {t!r} of type {type(t).__name__!r}, not "
                                 "tf.Tensor or tf.Variable.")
            if not t.dtype.is_trainable:
                log_warning("The dtype of the watched tensor must be floating (e.g. "
                             "tf.float32), got %r", t.dtype)
            self._tape.watch(t)

    @contextlib.contextmanager
    def stop_recording(self):
        """Temporarily stops recording: operations inside are not on the tape.

        Raises:
            RuntimeError: the tape is not recording.
        """
        if not self._recording:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self) -> None:
        """Discards everything recorded, watched variables included."""
        recording = self._recording
        if recording:
            self._pop()
        self._tape = Tape(self._watch_accessed_variables)
        if recording:
            self._push()

    def watched_variables(self) -> tuple:
        """The variables this tape watches, in the order they were created (after
        `gradient()` on a non-persistent tape, those it watched until then)."""
        if self._tape is None:
            return self._spent_variables
        return tuple(v for _, v in sorted(self._tape.variables.items()))

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """Gradients of `target` (summed over its elements and structure) w.r.t. `sources`.

        Args:
            target: a Tensor or Variable, or a nested structure of them.
            sources: a Tensor or Variable, or a nested structure of them.
            output_gradients: one upstream gradient per flattened target (None for ones).
            unconnected_gradients: 'none' or 'zero' for sources `target` does not reach.

        Returns:
            Gradients with the structure of `sources`.

        Raises:
            RuntimeError: a non-persistent tape is used a second time.
            ValueError: an unknown `unconnected_gradients`, or `output_gradients` of
                another length than the targets.
            InvalidArgumentError: an output gradient of another dtype or shape than its
                target.
        """
        if self._tape is None:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians).")
        if self._recording:
            if not self._persistent:
                self._pop()
            else:
                log_warning("Calling GradientTape.gradient on a persistent tape inside its "
                             "context is less efficient than calling it outside: the gradient "
                             "computation is recorded too. Do it only for higher derivatives.")
        unconnected = as_unconnected(unconnected_gradients)
        flat_targets = [snapshot(t) for t in nest.flatten(target)]
        flat_sources = [_resource_or_self(s) for s in nest.flatten(sources)]
        for s in flat_sources:
            if not isinstance(s, (Tensor, Variable)):
                raise ValueError(f"gradient() sources must be Tensors or Variables, got {s!r}")
        if output_gradients is None:
            upstream = [None] * len(flat_targets)
        else:
            upstream = nest.flatten(output_gradients)
            if len(upstream) != len(flat_targets):
                raise ValueError(f"output_gradients has {len(upstream)} entries but target "
                                 f"has {len(flat_targets)}; give one per target.")
            upstream = checked_output_gradients(flat_targets, upstream)
        tape = self._tape
        if not self._persistent:
            self._spent_variables = self.watched_variables()
            self._tape = None
        graph = state.graph
        if graph is not None:  # inside a graph (tf.function): rules add graph ops
            ids = {s._id for s in flat_sources}
            flat_targets = [graph._graph_input(t) if isinstance(t, Tensor) and
                            not hasattr(t, "_op") and t._id not in ids else t
                            for t in flat_targets]
            domain = GraphDomain()
        else:
            domain = eager_domain()
        warn_none = None
        if graph is None and warn_none_gradients():
            from .diagnostics import none_gradient_warner
            warn_none = none_gradient_warner(tape)
        factory = _hooks.factory
        grads = backward(tape.entries, flat_targets, upstream, flat_sources, domain, tape=tape,
                         consume=not self._persistent, unconnected=unconnected,
                         on_final=None if factory is None else factory(flat_sources))
        if warn_none is not None:
            warn_none(flat_targets, flat_sources, grads)
        return nest.pack_sequence_as(sources, grads)
