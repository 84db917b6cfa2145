"""GradientTape and the reverse pass over what it recorded."""
from __future__ import annotations

import contextlib
import enum
import logging

import numpy as np

from ..framework import nest
from ..framework.context import state
from ..framework.indexed_slices import IndexedSlices, aggregate, to_dense
from ..framework.registry import NO_GRADIENT, gradient_rule
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from . import diagnostics, tape_dot
from .output_gradients import checked_output_gradients
from .tape import OpRecord, Tape

__all__ = ["GradientTape", "UnconnectedGradients", "imperative_grad", "unbroadcast"]

_log = logging.getLogger("tapeflow")


class UnconnectedGradients(enum.Enum):
    """What `gradient` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


def as_unconnected(value) -> UnconnectedGradients:
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}. Use "
                         "UnconnectedGradients.NONE ('none') or UnconnectedGradients.ZERO "
                         "('zero').") from None


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

    explain = diagnostics.explain
    to_dot = tape_dot.to_dot

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._tape: Tape | None = None
        self._recording = False

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

    def watch(self, tensor) -> None:
        """Watches a Tensor, a Variable, or a nested structure of them.

        Raises:
            ValueError: an element is neither a Tensor nor a Variable.
        """
        if self._tape is None:
            self._tape = Tape(self._watch_accessed_variables)
        for t in nest.flatten(tensor):
            if not isinstance(t, (Tensor, Variable)):
                raise ValueError(f"Passed in object {t!r} of type {type(t).__name__!r}, not "
                                 "tf.Tensor or tf.Variable.")
            if not t.dtype.is_trainable:
                _log.warning("The dtype of the watched tensor must be floating (e.g. "
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
        """The variables this tape watches, in the order they were created."""
        if self._tape is None:
            return ()
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
                _log.warning("Calling GradientTape.gradient on a persistent tape inside its "
                             "context is less efficient than calling it outside: the gradient "
                             "computation is recorded too. Do it only for higher derivatives.")
        unconnected = as_unconnected(unconnected_gradients)
        flat_targets = [_snapshot(t) for t in nest.flatten(target)]
        flat_sources = nest.flatten(sources)
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
            self._tape = None
        if state.graph is not None:  # inside a graph (tf.function): rules add graph ops
            from ..gradients import tape_gradient
            grads = tape_gradient(tape, flat_targets, flat_sources, upstream, unconnected)
            return nest.pack_sequence_as(sources, grads)
        warn_none = diagnostics.none_gradient_warner(tape) if diagnostics.warn_none_gradients \
            else None
        grads = imperative_grad(tape, flat_targets, flat_sources, upstream,
                                consume=not self._persistent)
        if unconnected is UnconnectedGradients.ZERO:
            grads = [Tensor(np.zeros_like(s._value)) if g is None else g
                     for g, s in zip(grads, flat_sources)]
        elif warn_none is not None:
            warn_none(flat_targets, flat_sources, grads)
        return nest.pack_sequence_as(sources, grads)


def _snapshot(x):
    """A target as a Tensor; a Variable keeps its identity so gradient(v, v) is ones."""
    if isinstance(x, Variable):
        return Tensor(x._value, x._id)
    if isinstance(x, (Tensor, IndexedSlices)):
        return x
    return convert_to_tensor(x)


def unbroadcast(grad, shape: tuple):
    """Sums `grad` over the axes along which an input of `shape` was broadcast.

    The one place broadcast gradients are reduced; works on raw arrays and on Tensors.
    """
    gshape = grad.shape if type(grad) is np.ndarray else (
        grad._value.shape if isinstance(grad, Tensor) else np.shape(grad))
    if gshape == shape:
        return grad
    lead = len(gshape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, d in enumerate(shape) if d == 1 and gshape[i + lead] != 1)
    if type(grad) is np.ndarray:  # nothing records: straight to NumPy
        if axes:
            grad = np.add.reduce(grad, axis=axes, dtype=grad.dtype)
        return grad.reshape(shape)
    if axes:
        grad = _ops.Sum(grad, axis=axes, keepdims=False)
    return _ops.Reshape(grad, shape)


class _Ops:
    """Ops the engine itself applies, bound on first use (ops/ stands on this module)."""

    def __getattr__(self, name: str):
        if name not in ("Reshape", "Sum"):
            raise AttributeError(name)
        from ..ops.array_ops import Reshape
        from ..ops.math_ops import Sum
        self.Reshape, self.Sum = Reshape, Sum
        return getattr(self, name)


_ops = _Ops()


def _accumulate(pending: dict, key: int, grad) -> None:
    old = pending.get(key)
    if old is None:
        pending[key] = grad
    elif type(old) is np.ndarray and type(grad) is np.ndarray:
        pending[key] = old + grad
    elif isinstance(old, IndexedSlices) or isinstance(grad, IndexedSlices):
        pending[key] = aggregate(old, grad)
    else:
        pending[key] = old + grad


def _relevant_ids(tape: Tape, entries: list, source_ids: set):
    """Ids of the sources and of every recorded tensor computed from them.

    None means every recorded tensor: each recorded op depends on a watched tensor, so when
    every watched tensor is a source there is nothing to prune.
    """
    if tape.watched <= source_ids:
        return None
    relevant = set(source_ids)
    ids = tape.ids
    for rec in entries:
        for x in rec.inputs:
            if x._id in relevant:
                relevant.update([o._id for o in rec.outputs if o._id in ids])
                break
    return relevant


def _count_error(op, grads, count: int) -> ValueError:
    got = len(grads) if isinstance(grads, (tuple, list)) else 1
    return ValueError(f"The gradient rule of op '{op.name}' returned {got} gradients; the op "
                      f"has {count} inputs and needs exactly one gradient (or None) per input.")


def _unwrap(g):
    if isinstance(g, Tensor):
        return g._value
    if isinstance(g, IndexedSlices):
        return IndexedSlices(_unwrap(g.values), _unwrap(g.indices), _unwrap(g.dense_shape))
    return g


def _wrap(g):
    if type(g) is np.ndarray:
        return Tensor(g)
    if g is None or isinstance(g, Tensor):
        return g
    if isinstance(g, IndexedSlices):
        return IndexedSlices(_wrap(g.values), _wrap(g.indices), _wrap(g.dense_shape))
    return Tensor(np.asarray(g) if not isinstance(g, np.generic) else g)


def _multi_output_grads(outputs, pending: dict, source_ids: set, found: dict, raw: bool):
    """The upstream gradients of a multi-output record (zeros for the unused outputs), or
    None when no output has one."""
    grads = [pending.pop(o._id, None) for o in outputs]
    for o, g in zip(outputs, grads):
        if g is not None and o._id in source_ids:
            _accumulate(found, o._id, g)
    if all(g is None for g in grads):
        return None
    return [(np.zeros_like(o._value) if raw else Tensor(np.zeros_like(o._value)))
            if g is None else to_dense(g) if type(g) is IndexedSlices else g
            for o, g in zip(outputs, grads)]


def imperative_grad(tape: Tape, targets: list, sources: list, upstream: list,
                    consume: bool) -> list:
    """The reverse pass: d(sum of targets)/d(source) for each source, None if unconnected.

    When nothing records (no outer tape, no accumulator) the rules run on raw NumPy arrays;
    otherwise on Tensors, so the pass is itself recorded and can be differentiated again.
    With `consume`, records are released as they are used.
    """
    raw = not state.recorders
    pending: dict = {}
    for t, g in zip(targets, upstream):
        if not t.dtype.is_trainable:
            continue
        if g is None:
            g = np.empty(t._value.shape, t._value.dtype)
            g.fill(1)
        elif not isinstance(g, (Tensor, IndexedSlices)):
            g = convert_to_tensor(g, dtype=t.dtype)
        _accumulate(pending, t._id, _unwrap(g) if raw else _wrap(g))
    # Only what the tape watched (or a target itself) can receive a gradient.
    target_ids = {t._id for t in targets}
    ids = tape.ids
    source_ids = {s._id for s in sources if s._id in ids or s._id in target_ids}
    entries = tape.entries
    count = len(entries)
    relevant = _relevant_ids(tape, entries[:count], source_ids)
    if relevant is None:
        relevant = ids
    found: dict = {}
    view = OpRecord(None, None, None, None)
    for index in range(count - 1, -1, -1):
        rec = entries.pop() if consume else entries[index]
        outputs = rec.outputs
        if len(outputs) == 1:
            out_id = outputs[0]._id
            g = pending.pop(out_id, None)
            if g is None:
                continue
            if out_id in source_ids:
                _accumulate(found, out_id, g)
            if out_id not in relevant:
                continue
            out_grads = (g,)
        else:
            out_grads = _multi_output_grads(outputs, pending, source_ids, found, raw)
            if out_grads is None or not any(o._id in relevant for o in outputs):
                continue
        op = rec.op
        rule = op.grad
        if rule is NO_GRADIENT:
            continue
        if rule is None:
            gradient_rule(op)
        if type(out_grads[0]) is IndexedSlices and not op.grad_takes_indexed_slices:
            out_grads = (to_dense(out_grads[0]),)
        inputs = rec.inputs
        if not raw:
            rec._needed = relevant
            in_grads = rule(rec, *out_grads)
        elif op.grad_takes_tensors:
            in_grads = rule(rec, *[_wrap(g) for g in out_grads])
            in_grads = ([_unwrap(g) for g in in_grads] if isinstance(in_grads, (tuple, list))
                        else _unwrap(in_grads))
        else:
            view.op, view.attrs, view._tensors, view._needed = op, rec.attrs, inputs, relevant
            view.inputs = [x._value for x in inputs]
            view.outputs = [o._value for o in outputs]
            in_grads = rule(view, out_grads[0]) if len(out_grads) == 1 else rule(view, *out_grads)
        if len(inputs) == 1 and not isinstance(in_grads, (tuple, list)):
            in_grads = (in_grads,)
        elif not isinstance(in_grads, (tuple, list)) or len(in_grads) != len(inputs):
            raise _count_error(op, in_grads, len(inputs))
        for x, g in zip(inputs, in_grads):
            if g is None:
                continue
            x_id = x._id
            if x_id not in relevant:
                continue
            if type(g) is not np.ndarray or g.shape != x._value.shape:
                if type(g) is not IndexedSlices:
                    g = unbroadcast(g, x._value.shape)
            if x_id in pending:
                _accumulate(pending, x_id, g)
            else:
                pending[x_id] = g
    for sid in source_ids:
        if sid in pending:
            if sid in found:
                _accumulate(found, sid, pending[sid])
            else:
                found[sid] = pending[sid]
    return [_wrap(found.get(s._id)) for s in sources]


# The Jacobian methods live in their own module, which stands on this one.
from .jacobian import batch_jacobian, jacobian  # noqa: E402

GradientTape.jacobian = jacobian
GradientTape.batch_jacobian = batch_jacobian
