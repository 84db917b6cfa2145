"""What gradient diagnostics remember while they are on.

An `OpHistory` is a recorder like a tape, but it notes every executed operation (recorded by
a tape or not) with the place in user code that ran it, when each tape started and stopped
recording, and which tensors' values left the library (`.numpy()`, `float()`, NumPy
conversion). It keeps ids, dtypes and shapes, never values, and only the last
`HISTORY_SIZE` operations. It is installed only while diagnostics are on, so it costs
nothing otherwise; it watches the thread that turned diagnostics on.
"""
from __future__ import annotations

import collections
import functools
import os
import sys
import weakref

from ..framework.context import state
from ..framework.tensor import Tensor, _next_id
from ..framework.variables import Variable
from .tape import Tape

__all__ = ["OpEvent", "OpHistory", "HISTORY_SIZE", "enable", "disable", "enabled", "current",
           "user_site"]

HISTORY_SIZE = 100_000
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep

# The ways a value leaves the library that diagnostics note, per class and method.
_ESCAPE_ROUTES = {
    "numpy": "{cls}.numpy()",
    "__array__": "a NumPy conversion (np.asarray or a NumPy function)",
    "__float__": "float()",
    "__int__": "int()",
    "__complex__": "complex()",
}


class OpEvent:
    """One executed operation as diagnostics see it: ids, dtypes and shapes, no values."""

    __slots__ = ("seq", "op", "inputs", "input_dtypes", "input_shapes", "outputs",
                 "output_dtypes", "output_shapes", "site")

    def __init__(self, seq: int, op, inputs: tuple, input_dtypes: tuple, input_shapes: tuple,
                 outputs: tuple, output_dtypes: tuple, output_shapes: tuple, site) -> None:
        self.seq = seq
        self.op = op
        self.inputs = inputs
        self.input_dtypes = input_dtypes
        self.input_shapes = input_shapes
        self.outputs = outputs
        self.output_dtypes = output_dtypes
        self.output_shapes = output_shapes
        self.site = site

    @classmethod
    def from_tensors(cls, seq: int, op, inputs, outputs, site=None) -> "OpEvent":
        return cls(seq, op, tuple([x._id for x in inputs]), tuple([x.dtype for x in inputs]),
                   tuple([x._value.shape for x in inputs]), tuple([o._id for o in outputs]),
                   tuple([o.dtype for o in outputs]), tuple([o._value.shape for o in outputs]),
                   site)

    def __repr__(self) -> str:
        return f"<OpEvent {self.op.name} #{self.seq}>"


class Escape:
    """A tensor's value taken out of the library: how, where, and an id marking when."""

    __slots__ = ("tensor_id", "how", "site", "seq", "mark")

    def __init__(self, tensor_id: int, how: str, site, seq: int, mark: int) -> None:
        self.tensor_id = tensor_id
        self.how = how
        self.site = site
        self.seq = seq
        # Tensor ids only grow, so a tensor whose id is above `mark` was made afterwards.
        self.mark = mark


def user_site(frame):
    """(filename, line) of the first frame outside tapeflow, from `frame` outwards."""
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    return None if frame is None else (frame.f_code.co_filename, frame.f_lineno)


class OpHistory:
    """The recorder diagnostics push: remembers every operation, tape span and escape."""

    def __init__(self, size: int = HISTORY_SIZE) -> None:
        self.size = size
        self.events: collections.deque = collections.deque()
        self.producers: dict = {}
        self.variable_ids: set = set()
        self.escapes: dict = {}
        self.escape_marks: collections.deque = collections.deque()
        self.escape_mark_set: set = set()
        self.tape_spans: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._seq = 0

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    # -- the recorder interface (called by execute.record_operation) ------------------
    def _variable_accessed(self, variable) -> None:
        self.variable_ids.add(variable._id)

    def _record_operation(self, op, inputs: tuple, outputs: tuple, attrs: dict) -> None:
        event = OpEvent.from_tensors(self._next_seq(), op, inputs, outputs,
                                     user_site(sys._getframe(1)))
        self.events.append(event)
        producers = self.producers
        for o in event.outputs:
            producers[o] = event
        if len(self.events) > self.size:
            oldest = self.events.popleft()
            for o in oldest.outputs:
                if producers.get(o) is oldest:
                    del producers[o]

    # -- tapes and escapes --------------------------------------------------------------
    def tape_started(self, recorder) -> None:
        if isinstance(recorder, Tape):
            self.tape_spans.setdefault(recorder, []).append([self._next_seq(), None])

    def tape_stopped(self, recorder) -> None:
        spans = self.tape_spans.get(recorder) if isinstance(recorder, Tape) else None
        if spans and spans[-1][1] is None:
            spans[-1][1] = self._next_seq()

    def note_escape(self, tensor_id: int, how: str, site) -> None:
        mark = _next_id()
        escapes = self.escapes
        escapes.pop(tensor_id, None)
        escapes[tensor_id] = Escape(tensor_id, how, site, self._next_seq(), mark)
        self.escape_marks.append(mark)
        self.escape_mark_set.add(mark)
        if len(self.escape_marks) > self.size:
            self.escape_mark_set.discard(self.escape_marks.popleft())
        if len(escapes) > self.size:
            del escapes[next(iter(escapes))]

    def made_right_after(self, escape: Escape, tensor_id: int) -> bool:
        """Whether `tensor_id` is the first tensor made after `escape` (values taken out of
        the library in between do not count)."""
        marks = self.escape_mark_set
        return escape.mark < tensor_id and all(
            i in marks for i in range(escape.mark + 1, tensor_id))

    def spans_of(self, tape: Tape):
        """[start, stop] sequence numbers of each time `tape` recorded (stop None: still)."""
        return self.tape_spans.get(tape)


class _ObservedRecorders(list):
    """The thread's recorder list while diagnostics are on: tells the history when tapes
    start and stop recording (GradientTape pushes and removes its tape here)."""

    __slots__ = ("history",)

    def append(self, recorder) -> None:
        list.append(self, recorder)
        if self.history is not None:
            self.history.tape_started(recorder)

    def remove(self, recorder) -> None:
        list.remove(self, recorder)
        if self.history is not None:
            self.history.tape_stopped(recorder)


_current: OpHistory | None = None
_installed_list: _ObservedRecorders | None = None
_originals: list = []


def enabled() -> bool:
    """Whether a history is kept (on the thread that turned diagnostics on)."""
    return _current is not None


def current() -> OpHistory | None:
    """The history this thread keeps, or None: diagnostics are off, or were turned on by
    another thread (tapes and histories are per thread)."""
    history = _current
    return history if history is not None and history in state.recorders else None


def _noting_escape(method, how: str):
    @functools.wraps(method)
    def escaping(self, *args, **kwargs):
        history = _current
        if history is not None:
            frame = sys._getframe(1)
            if not frame.f_code.co_filename.startswith(_PACKAGE_DIR):
                history.note_escape(self._id, how, (frame.f_code.co_filename, frame.f_lineno))
        return method(self, *args, **kwargs)

    return escaping


def enable(size: int = HISTORY_SIZE) -> None:
    """Starts keeping a history on this thread (no-op when one is kept already)."""
    global _current, _installed_list
    if _current is not None:
        return
    history = OpHistory(size)
    observed = _ObservedRecorders([history, *state.recorders])
    observed.history = history
    for recorder in state.recorders:
        history.tape_started(recorder)
    state.recorders = observed
    for cls in (Tensor, Variable):
        for name, route in _ESCAPE_ROUTES.items():
            method = cls.__dict__.get(name)
            if method is not None:
                _originals.append((cls, name, method))
                setattr(cls, name, _noting_escape(method, route.format(cls=cls.__name__)))
    _current, _installed_list = history, observed


def disable() -> None:
    """Stops keeping the history and removes every trace of it from the engine."""
    global _current, _installed_list
    if _current is None:
        return
    observed = _installed_list
    observed.history = None
    if _current in observed:
        list.remove(observed, _current)
    if state.recorders is observed:
        state.recorders = list(observed)
    while _originals:
        cls, name, method = _originals.pop()
        setattr(cls, name, method)
    _current = _installed_list = None
