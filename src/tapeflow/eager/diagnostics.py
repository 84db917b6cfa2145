"""Why a gradient is None: `GradientTape.explain`, and the warnings of `gradient()`.

It reads what the tape recorded. When diagnostics are on (`tapeflow.config`), it also
reads the op history (`op_history`): every executed operation with the line of user code
that ran it, when the tape recorded, and which values left the library. Causes that only
the history can show: an operation run before the tape started, inside `stop_recording` or
after the tape's block; a value that went through NumPy or a Python number; a target that
does not depend on the source at all; and every file:line.
"""
from __future__ import annotations

import os
import sys
import warnings

from ..framework import nest
from ..framework.registry import NO_GRADIENT
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from . import op_history
from .op_history import OpEvent

__all__ = ["Explanation", "NoneGradientWarning", "explain", "none_gradient_warner"]

_DIAGNOSTICS_HINT = ("turn on tapeflow.config.set_diagnostics(True) before running the "
                     "computation to see where")

_FIXES = {
    "not_watched": "call tape.watch(source) inside the tape, before the source is used.",
    "variable_not_trainable": "call tape.watch(variable), or create it with trainable=True.",
    "watch_accessed_variables": "call tape.watch(variable): this tape watches only what it "
                                "is given.",
    "variable_not_read": "read the variable inside the tape's `with` block.",
    "used_before_tape": "compute the target inside the tape's `with` block.",
    "stop_recording": "compute the target outside `tape.stop_recording()`.",
    "used_after_tape": "compute the target inside the tape's `with` block.",
    "not_recording": "compute the target while the tape records.",
    "watched_after_use": "call tape.watch(source) before the source is used.",
    "integer_path": "keep the path in floating point: gradients do not flow through integer "
                    "or bool values.",
    "stop_gradient": "remove the tf.stop_gradient if a gradient should flow there.",
    "non_differentiable": "use a differentiable op on this path, or tf.grad_pass_through "
                          "for a straight-through estimate.",
    "left_library": "use tapeflow ops (tf.math.*, operators) instead of NumPy or Python "
                    "numbers on values that need gradients.",
    "unrelated": "differentiate a target that is computed from the source.",
    "not_recorded": "turn on tapeflow.config.set_diagnostics(True) before the computation "
                    "for a precise reason.",
}


class NoneGradientWarning(UserWarning):
    """Issued by `gradient()` for each None result while `set_explain_none_gradients` is on."""


class Explanation:
    """Whether `source` reaches `target` on a tape and, if not, the most likely reason.

    `str()` gives a few lines for people; the attributes are for programs.

    Attributes:
        connected: True when gradient() gives a gradient for the source.
        reason: a short code: 'connected', 'not_watched', 'variable_not_trainable',
            'watch_accessed_variables', 'variable_not_read', 'used_before_tape',
            'stop_recording', 'used_after_tape', 'not_recording', 'watched_after_use',
            'integer_path', 'stop_gradient', 'non_differentiable', 'left_library',
            'unrelated' or 'not_recorded' (the tape alone cannot tell).
        op: the TF name of the operation the reason is about ('Cast', 'StopGradient'), or
            None.
        location: 'file:line' of the user code that ran that operation, when diagnostics
            were on; else None.
        message: the reason in words.
        fix: what usually fixes it, or None.
        diagnostics: whether the op history of diagnostics was there to consult.
    """

    __slots__ = ("connected", "reason", "op", "location", "message", "fix", "diagnostics",
                 "_subject")

    def __init__(self, reason: str, message: str, op: str | None = None,
                 location: str | None = None, subject: tuple = ("source", "target")) -> None:
        self.connected = reason == "connected"
        self.reason = reason
        self.op = op
        self.location = location
        self.message = message
        self.fix = _FIXES.get(reason)
        self.diagnostics = False
        self._subject = subject

    def __str__(self) -> str:
        verdict = "reaches" if self.connected else "does not reach"
        source, target = self._subject
        lines = [f"{source} {verdict} {target} on this tape.", f"Why: {self.message}"]
        if self.location is not None:
            lines.append(f"Where: {self.op} at {self.location}")
        elif self.op is not None and not self.diagnostics:
            lines.append(f"Where: {self.op}, at a place unknown ({_DIAGNOSTICS_HINT})")
        if self.fix is not None:
            lines.append(f"Fix: {self.fix}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Explanation reason={self.reason!r} op={self.op!r} location={self.location!r}>"


# -- the graph explain reasons about ------------------------------------------------------
class OpGraph:
    """The operations behind the tensors, by the id of each tensor they produced: the
    history's (every op) when diagnostics are on, the tape's records otherwise."""

    def __init__(self, entries: list, history) -> None:
        self.history = history
        self.recorded: set = set()
        self.from_tape: dict = {}
        for index, (op, inputs, outputs, _) in enumerate(entries):
            ids = [o._id for o in outputs]
            self.recorded.update(ids)
            if history is None or ids[0] not in history.producers:
                event = OpEvent.from_tensors(index - len(entries), op, inputs, outputs)
                for i in ids:
                    self.from_tape[i] = event

    def producer(self, tensor_id: int):
        event = self.from_tape.get(tensor_id)
        if event is None and self.history is not None:
            event = self.history.producers.get(tensor_id)
        return event

    def ancestry(self, target_ids) -> tuple:
        """Ids of every tensor the targets were computed from, and the ops, oldest first."""
        ids = set(target_ids)
        events: dict = {}
        stack = list(target_ids)
        while stack:
            event = self.producer(stack.pop())
            if event is None or event.seq in events:
                continue
            events[event.seq] = event
            for i in event.inputs:
                if i not in ids:
                    ids.add(i)
                    stack.append(i)
        return ids, [events[k] for k in sorted(events)]


def _downstream(events, source_id: int) -> list:
    """The events (in order) that consume the source or anything computed from it."""
    reached = {source_id}
    path = []
    for event in events:
        if not reached.isdisjoint(event.inputs):
            path.append(event)
            reached.update(event.outputs)
    return path


def _blockers(path: list, source_id: int, recorded: set) -> list:
    """(event, cause) for each operation where the gradient flow from the source stops."""
    flowing = {source_id}
    blocked = []
    for event in path:
        if flowing.isdisjoint(event.inputs):
            continue
        if not any(i in flowing and dt.is_trainable
                   for i, dt in zip(event.inputs, event.input_dtypes)):
            blocked.append((event, "integer_path"))
        elif event.outputs[0] not in recorded:
            blocked.append((event, "unrecorded"))
        elif event.op.grad is NO_GRADIENT:
            cause = "stop_gradient" if event.op.name == "StopGradient" else "non_differentiable"
            blocked.append((event, cause))
        else:
            outs = [o for o, dt in zip(event.outputs, event.output_dtypes) if dt.is_trainable]
            if outs:
                flowing.update(outs)
            else:
                blocked.append((event, "integer_path"))
    return blocked


def _flow_on_tape(entries: list, source_id: int) -> tuple:
    """The ids a gradient from the source reaches over the recorded ops, and the first
    recorded op that turned such a value into an integer or bool (or None)."""
    flowing = {source_id}
    dead_end = None
    for rec in entries:
        op, inputs, outputs, _ = rec
        if op.grad is NO_GRADIENT:
            continue
        if any(x._id in flowing and x.dtype.is_trainable for x in inputs):
            outs = [o._id for o in outputs if o.dtype.is_trainable]
            flowing.update(outs)
            if not outs and dead_end is None:
                dead_end = rec
    return flowing, dead_end


# -- wording --------------------------------------------------------------------------------
def location_of(site) -> str | None:
    if site is None:
        return None
    filename, line = site
    if os.path.isabs(filename):
        relative = os.path.relpath(filename)
        filename = filename if relative.startswith("..") else relative
    return f"{filename}:{line}"


def _describe(x, role: str) -> str:
    shape = list(x.shape)
    if isinstance(x, Variable):
        return f"{role} (Variable '{x.name}', {x.dtype.name} {shape})"
    return f"{role} (Tensor, {x.dtype.name} {shape})"


def _dtypes(event: OpEvent) -> str:
    ins = ", ".join(dt.name for dt in event.input_dtypes)
    outs = ", ".join(dt.name for dt in event.output_dtypes)
    return f"{ins} -> {outs}"


def _when(event: OpEvent, tape, history) -> str:
    """When `event` ran relative to `tape`'s recording."""
    spans = history.spans_of(tape) if history is not None else None
    if not spans:
        return "not_recording"
    seq = event.seq
    if any(start < seq and (stop is None or seq < stop) for start, stop in spans):
        return "recording"
    if seq < spans[0][0]:
        return "used_before_tape"
    if any(start > seq for start, _ in spans):
        return "stop_recording"
    return "used_after_tape"


_WHEN_WORDS = {
    "used_before_tape": "ran before the tape started recording",
    "stop_recording": "ran while the tape was paused (inside tape.stop_recording(), or "
                      "between two of its `with` blocks)",
    "used_after_tape": "ran after the tape stopped recording (after its `with` block)",
    "not_recording": "ran while this tape was not recording",
}


# -- the causes -----------------------------------------------------------------------------
def _not_watched(tape, source, path: list, history, subject: tuple) -> Explanation:
    first = path[0] if path else None
    op = first.op.name if first else None
    where = location_of(first.site) if first else None
    used = f" It was first used by {op}." if first else ""
    if isinstance(source, Variable):
        if not source.trainable:
            return Explanation("variable_not_trainable", f"the source is a Variable created "
                               "with trainable=False, which tapes do not watch "
                               f"automatically.{used}", op, where, subject)
        if not tape.watch_accessed_variables:
            return Explanation("watch_accessed_variables", "the tape was created with "
                               "watch_accessed_variables=False, so it does not watch variables "
                               f"it reads, and the source was never passed to tape.watch().{used}",
                               op, where, subject)
        when = _when(first, tape, history) if first else "not_recording"
        if when in _WHEN_WORDS and history is not None and first is not None:
            return Explanation(when, f"the source Variable was never read while the tape "
                               f"recorded: {op}, which used it, {_WHEN_WORDS[when]}.",
                               op, where, subject)
        return Explanation("variable_not_read", "the source Variable was never read while the "
                           "tape recorded (it was used before the tape started, inside "
                           "stop_recording, after the tape's block, or not at all).",
                           op, where, subject)
    return Explanation("not_watched", "the source is a Tensor the tape never watched; only "
                       "trainable Variables are watched automatically, constants must be "
                       f"passed to tape.watch().{used}", op, where, subject)


def _blocked(tape, blockers: list, history, subject: tuple) -> Explanation:
    event, cause = blockers[0]
    op, where = event.op.name, location_of(event.site)
    more = f" (and {len(blockers) - 1} more such place(s))" if len(blockers) > 1 else ""
    if cause == "integer_path":
        return Explanation(cause, f"the path from the source to the target goes through "
                           f"{op} ({_dtypes(event)}), which leaves floating point; the tape "
                           f"does not differentiate integer or bool values{more}.",
                           op, where, subject)
    if cause == "stop_gradient":
        return Explanation(cause, f"the path from the source to the target goes through "
                           f"tf.stop_gradient, which blocks gradients by design{more}.",
                           op, where, subject)
    if cause == "non_differentiable":
        return Explanation(cause, f"the path from the source to the target goes through {op}, "
                           f"which is not differentiable (declared with no_gradient){more}.",
                           op, where, subject)
    when = _when(event, tape, history)
    if when == "recording":
        return Explanation("watched_after_use", f"{op} used the source while the tape "
                           "recorded, but before the source was watched, so it was not "
                           f"recorded{more}.", op, where, subject)
    return Explanation(when, f"the path from the source to the target runs through {op}, "
                       f"which {_WHEN_WORDS[when]}, so the tape did not record it{more}.",
                       op, where, subject)


def _escapes_of(tape, history, source_id: int) -> list:
    """Values computed from the source that left the library since the tape first recorded."""
    computed = {source_id}
    for event in history.events:
        if not computed.isdisjoint(event.inputs):
            computed.update(event.outputs)
    spans = history.spans_of(tape)
    since = spans[0][0] if spans else 0
    escapes = [history.escapes[i] for i in computed
               if i in history.escapes and history.escapes[i].seq > since]
    return sorted(escapes, key=lambda e: e.mark)


def _left_library(graph: OpGraph, escapes: list, anc_events: list, targets: list,
                  subject: tuple):
    """A constant the target depends on, made right after a value computed from the source
    left the library: the round trip through NumPy or a Python number."""
    history = graph.history
    first_use: dict = {}
    for event in anc_events:
        for i, dt in zip(event.inputs, event.input_dtypes):
            if i not in first_use and graph.producer(i) is None and dt.is_trainable:
                first_use[i] = event
    for t in targets:
        if graph.producer(t._id) is None and t.dtype.is_trainable:
            first_use.setdefault(t._id, None)
    for leaf, user in sorted(first_use.items()):
        for escape in escapes:
            if not history.made_right_after(escape, leaf):
                continue
            how = f"{escape.how} at {location_of(escape.site)}"
            came_back = (f"came back as a constant that {user.op.name} used" if user is not None
                         else "came back as the target itself, a constant")
            return Explanation("left_library", f"the target depends on the source only through "
                               f"a value that left tapeflow: it was taken out with {how} and "
                               f"{came_back}. The tape cannot follow values through NumPy or "
                               "Python numbers.", user.op.name if user else "Const",
                               location_of(user.site) if user else None, subject)
    return None


def _unrelated(escapes: list, subject: tuple) -> Explanation:
    note = ""
    if escapes:
        escape = escapes[-1]
        note = (f" (A value computed from the source did leave tapeflow, with {escape.how} at "
                f"{location_of(escape.site)}: if the target was computed from it, the gradient "
                "was lost there.)")
    return Explanation("unrelated", "the target does not depend on the source: no chain of "
                       f"operations leads from one to the other.{note}", subject=subject)


def _guess_from_tape(entries: list, source_id: int, subject: tuple) -> Explanation:
    _, dead_end = _flow_on_tape(entries, source_id)
    if dead_end is not None:
        op = dead_end[0].name
        return Explanation("integer_path", f"most likely: the tape recorded {op} turning a value "
                           f"computed from the source into {dead_end[2][0].dtype.name}, and "
                           "it does not follow integer or bool values further; the target was "
                           "not recorded from the source.", op, None, subject)
    return Explanation("not_recorded", "the tape recorded no operation leading from the source "
                       "to the target. Without diagnostics it cannot tell whether the target "
                       "was computed before the tape started or inside stop_recording, went "
                       "through NumPy or a Python number, or does not depend on the source.",
                       None, None, subject)


def _explain(tape, entries: list, targets: list, source, history) -> Explanation:
    explanation = _find_reason(tape, entries, targets, source, history)
    explanation.diagnostics = history is not None
    return explanation


def _find_reason(tape, entries: list, targets: list, source, history) -> Explanation:
    target_words = _describe(targets[0], "target") if len(targets) == 1 else \
        f"the {len(targets)} targets"
    subject = (_describe(source, "source"), target_words)
    source_id = source._id
    target_ids = {t._id for t in targets}
    if source_id in target_ids or (source_id in tape.ids and not target_ids.isdisjoint(
            _flow_on_tape(entries, source_id)[0])):
        return Explanation("connected", "a chain of recorded, differentiable operations leads "
                           "from the source to the target.", subject=subject)
    if not source.dtype.is_trainable:
        return Explanation("integer_path", f"the source is {source.dtype.name}: gradients only "
                           "flow to floating-point (or complex) tensors.", subject=subject)
    graph = OpGraph(entries, history)
    anc_ids, anc_events = graph.ancestry(target_ids)
    depends = source_id in anc_ids
    if history is not None and not depends:
        escapes = _escapes_of(tape, history, source_id)
        return (_left_library(graph, escapes, anc_events, targets, subject)
                or _unrelated(escapes, subject))
    path = _downstream(anc_events, source_id) if depends else []
    if source_id not in tape.ids:
        return _not_watched(tape, source, path, history, subject)
    blockers = _blockers(path, source_id, graph.recorded)
    if blockers:
        return _blocked(tape, blockers, history, subject)
    return _guess_from_tape(entries, source_id, subject)


def flat_tensors(structure, what: str) -> list:
    flat = nest.flatten(structure)
    for x in flat:
        if not isinstance(x, (Tensor, Variable)):
            raise ValueError(f"explain() {what} must be Tensors or Variables, got {x!r}")
    if not flat:
        raise ValueError(f"explain() needs at least one {what}")
    return flat


def record_of(gradient_tape, method: str):
    tape = gradient_tape._tape
    if tape is None:
        raise RuntimeError(f"GradientTape.{method} needs what the tape recorded, and this tape "
                           "holds nothing: it was never used, or it is not persistent and "
                           f"gradient() released its record. Call {method}() before gradient(), "
                           "or create the tape with persistent=True.")
    return tape


# -- GradientTape.explain and the warning hook of GradientTape.gradient ---------------------
def explain(self, target, source) -> Explanation:
    """Says whether `source` reaches `target` on this tape and, if not, the likely reason.

    Call it on a persistent tape, or on a non-persistent one before `gradient`. With
    `tapeflow.config.set_diagnostics(True)` on while the computation runs, it also names
    where in your code the operation responsible ran, and recognises causes the tape alone
    cannot see (work done before the tape started, inside `stop_recording` or after its
    block; values that went through NumPy or a Python float; targets that do not depend on
    the source at all).

    Args:
        target: a Tensor or Variable, or a nested structure of them (summed, as in
            `gradient`).
        source: one Tensor or Variable.

    Returns:
        An `Explanation`: `str()` of it reads as a few lines; `.connected`, `.reason`,
        `.op` and `.location` are for programs.

    Raises:
        RuntimeError: the tape holds no record (a non-persistent tape after `gradient`).
        ValueError: `target` or `source` is not a Tensor or Variable.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant(2.0)
        >>> with tf.GradientTape(persistent=True) as tape:
        ...     tape.watch(x)
        ...     y = tf.stop_gradient(x * x) + 1.0
        >>> why = tape.explain(y, x)
        >>> why.connected, why.reason, why.op
        (False, 'stop_gradient', 'StopGradient')
    """
    tape = record_of(self, "explain")
    targets = flat_tensors(target, "targets")
    if not isinstance(source, (Tensor, Variable)):
        raise ValueError(f"explain() source must be one Tensor or Variable, got {source!r}")
    return _explain(tape, list(tape.entries), targets, source, op_history.current())


def none_gradient_warner(tape):
    """For GradientTape.gradient in warning mode: called before the pass consumes `tape`,
    returns `warn(targets, sources, grads)`, which warns once per None gradient."""
    entries = list(tape.entries)
    history = op_history.current()

    def warn(targets: list, sources: list, grads: list) -> None:
        for index, (source, grad) in enumerate(zip(sources, grads)):
            if grad is None:
                which = f"source #{index}" if len(sources) > 1 else "the source"
                why = _explain(tape, entries, targets, source, history)
                warnings.warn(NoneGradientWarning(f"gradient() returned None for {which}.\n{why}"),
                              stacklevel=_user_stacklevel())

    return warn


def _user_stacklevel() -> int:
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(op_history._PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return level
