"""The reverse pass for a batch of upstream gradients at once (vectorized Jacobians).

Every pending gradient carries a leading batch axis: row b is the backward pass seeded with
upstream[b]. An op's rule is used as is when declared batch-transparent, its batched variant
when one is registered (framework/batched_registry.py), and otherwise once per batch row
(correct, but a Python loop for that op).

Inside a graph (tf.function) the same pass adds graph ops; a rule that needs values runs
when the graph runs, in one EagerPyFunc node.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..framework.batched_registry import batched_rule, is_batch_transparent, stacking_attrs
from ..framework.context import state
from ..framework.errors import SymbolicValueError
from ..framework.indexed_slices import IndexedSlices, to_dense
from ..framework.registry import NO_GRADIENT, gradient_rule
from ..framework.tensor import Tensor
from ..ops.array_ops import BroadcastTo, ConcatV2, Reshape, SplitV
from ..ops.math_ops import Sum
from ..ops.op_util import dtype_of, shape_of
from .backprop import _accumulate, _count_error, _relevant_ids, _unwrap, _wrap
from .tape import OpRecord, Tape, is_trainable

__all__ = ["batched_gradients", "gradients_per_input"]


def gradients_per_input(op, grads, count: int):
    """A rule's result as one gradient per input (a lone gradient for a one-input op).

    Raises:
        ValueError: the rule returned another number of gradients.
    """
    if count == 1 and not isinstance(grads, (tuple, list)):
        return (grads,)
    if not isinstance(grads, (tuple, list)) or len(grads) != count:
        raise _count_error(op, grads, count)
    return grads


def batched_gradients(tape: Tape, target, sources: list, upstream, consume: bool) -> list:
    """For each source, the gradients of `target` seeded with each row of `upstream`.

    Args:
        tape: the record to run backwards.
        target: the Tensor differentiated.
        sources: Tensors or Variables.
        upstream: an array or Tensor of shape [batch, *target.shape].
        consume: release the records as they are used.

    Returns:
        One entry per source: None when unconnected, else shape [batch, *source.shape].
    """
    # Inside a graph (tf.function) the rules run on its symbolic tensors and add graph ops.
    graph = state.graph is not None
    raw = not state.recorders and not graph
    batch = shape_of(upstream)[0]
    entries = tape.entries
    source_ids = {s._id for s in sources if s._id in tape.ids or s._id == target._id}
    relevant = _relevant_ids(tape, entries, source_ids)
    if relevant is None:
        relevant = tape.ids
    pending = {target._id: _unwrap(upstream) if raw else _wrap(upstream)}
    found: dict = {}
    for index in range(len(entries) - 1, -1, -1):
        rec = entries.pop() if consume else entries[index]
        outputs = rec.outputs
        grads = [pending.pop(o._id, None) for o in outputs]
        for o, g in zip(outputs, grads):
            if g is not None and o._id in source_ids:
                _accumulate(found, o._id, g)
        if all(g is None for g in grads) or not any(o._id in relevant for o in outputs):
            continue
        rule = gradient_rule(rec.op)
        if rule is NO_GRADIENT:
            continue
        if graph:
            try:
                in_grads = _batched_rule(rec, rule, grads, relevant, batch, raw)
            except SymbolicValueError:  # the rule needs values: it runs when the graph runs
                in_grads = _runtime_batched_rule(rec, rule, grads, relevant, batch)
        else:
            in_grads = _batched_rule(rec, rule, grads, relevant, batch, raw)
        for x, g in zip(rec.inputs, in_grads):
            if g is not None and x._id in relevant:
                if graph and not _static_shape(x):  # the rule gave [batch, *x.shape] already
                    _accumulate(pending, x._id, _dense(g))
                else:
                    _accumulate(pending, x._id, _unbroadcast(_dense(g), x._value.shape, batch))
    for sid in source_ids:
        if sid in pending:
            _accumulate(found, sid, pending[sid])
    return [_wrap(found.get(s._id)) for s in sources]


def _batched_rule(rec: OpRecord, rule: Callable, grads: list, relevant: set, batch: int,
                  raw: bool) -> tuple:
    op = rec.op
    if len(grads) > 1:
        grads = [_zeros((batch,) + o._value.shape, o._value.dtype, raw) if g is None else g
                 for o, g in zip(rec.outputs, grads)]
    if raw:
        view = OpRecord(op, tuple([x._value for x in rec.inputs]),
                        tuple([o._value for o in rec.outputs]), rec.attrs)
        view._tensors = rec.inputs
    else:
        view = OpRecord(op, rec.inputs, rec.outputs, rec.attrs)
    view._needed = relevant
    batched = batched_rule(op.name)
    if batched is not None:
        return gradients_per_input(op, batched(view, *grads), len(rec.inputs))
    if is_batch_transparent(op.name):
        return gradients_per_input(op, rule(view, *grads), len(rec.inputs))
    attrs = stacking_attrs(op.name, rec.attrs, batch)
    if attrs is not None:
        stacked = OpRecord(op, _stack_of(view.inputs, batch, raw),
                           _stack_of(view.outputs, batch, raw), attrs)
        stacked._tensors, stacked._needed = rec.inputs, relevant
        return gradients_per_input(op, rule(stacked, *grads), len(rec.inputs))
    return _row_by_row(view, rule, grads, batch, raw)


def _static_shape(x) -> bool:
    dims = x._dims if hasattr(x, "_dims") else None
    return not hasattr(x, "_dims") or (dims is not None and None not in dims)


def _runtime_batched_rule(rec: OpRecord, rule: Callable, grads: list, relevant: set,
                          batch: int) -> list:
    """The batched rule of `rec` (a graph op) as one EagerPyFunc node that runs it on the
    arrays when the graph runs, for a rule that needs values or unknown dimensions."""
    from ..ops.script_ops import EagerPyFunc, spec_of
    inputs, outputs = rec.inputs, rec.outputs
    n_in, n_out = len(inputs), len(outputs)
    wanted = [i for i, x in enumerate(inputs) if x._id in relevant and is_trainable(x)]
    present = [g for g in grads if g is not None]

    def run(*values):
        # Tensors when a run-time tape records this (the node differentiated again): the
        # rule then runs on them, and `relevant` names them by their own ids.
        raw = not state.recorders
        tensors = [v if isinstance(v, Tensor) else Tensor(v, x._id)
                   for v, x in zip(values, (*inputs, *outputs))]
        needed = relevant if raw else relevant | {
            t._id for t, x in zip(tensors, inputs) if x._id in relevant}
        view = OpRecord(rec.op, tuple(tensors[:n_in]), tuple(tensors[n_in:n_in + n_out]),
                        rec.attrs)
        upstream = iter(values[n_in + n_out:])
        row_grads = [None if g is None else next(upstream) for g in grads]
        in_grads = _batched_rule(view, rule, row_grads, needed, batch, raw=raw)
        result = []
        for i in wanted:
            shape = shape_of(values[i])
            g = in_grads[i]
            result.append(np.zeros((batch,) + shape, dtype_of(values[i])) if g is None
                          else _unbroadcast(_dense(g), shape, batch))
        return result

    specs = []
    for i in wanted:
        dtype, dims = spec_of(inputs[i])
        specs.append((dtype, None if dims is None else (batch,) + tuple(dims)))
    outs = EagerPyFunc(*inputs, *outputs, *present, fn=run, Tout=specs)
    in_grads: list = [None] * n_in
    for i, g in zip(wanted, outs):
        in_grads[i] = g
    return in_grads


def _stack_of(values, batch: int, raw: bool) -> tuple:
    """Each trainable value broadcast along a new first axis of length `batch` (a view of
    it when raw)."""
    broadcast = np.broadcast_to if raw else BroadcastTo
    return tuple([broadcast(v, (batch,) + shape_of(v)) if dtype_of(v).kind in "fc" else v
                  for v in values])


def _row_by_row(view: OpRecord, rule: Callable, grads: list, batch: int, raw: bool) -> list:
    """The plain rule once per batch row, the results stacked along a new first axis."""
    op = view.op
    wrap = raw and op.grad_takes_tensors
    if wrap:
        needed = view._needed
        view = OpRecord(op, view._tensors, tuple([_wrap(o) for o in view.outputs]), view.attrs)
        view._needed = needed
    rows = [_rows(g, batch) for g in grads]
    per_row = []
    for b in range(batch):
        row_grads = [_wrap(r[b]) if wrap else r[b] for r in rows]
        row = gradients_per_input(op, rule(view, *row_grads), len(view.inputs))
        per_row.append([_unwrap(g) for g in row] if wrap else row)
    stacked = []
    for i, x in enumerate(view.inputs):
        column = [_dense(row[i]) for row in per_row]
        present = [g for g in column if g is not None]
        if not present:
            stacked.append(None)
            continue
        shape = shape_of(present[0])
        zeros = _zeros((1,) + shape, dtype_of(x), raw)
        stacked.append(ConcatV2(*[zeros if g is None else Reshape(g, (1,) + shape)
                                  for g in column], axis=0))
    return stacked


def _rows(g, batch: int) -> list:
    """The batch rows of g, each without the batch axis."""
    shape = shape_of(g)[1:]
    if batch == 1:
        return [Reshape(g, shape)]
    return [Reshape(r, shape) for r in SplitV(g, indices=tuple(range(1, batch)), axis=0)]


def _unbroadcast(g, shape: tuple, batch: int):
    """A batched gradient [batch, *broadcast shape] summed down to [batch, *shape]."""
    full = (batch,) + shape
    gshape = shape_of(g)
    if gshape == full:
        return g
    if len(gshape) <= len(shape):
        # A rule's constant result (zeros) carries no batch axis.
        return BroadcastTo(g, full)
    lead = len(gshape) - len(full)
    axes = tuple(range(1, lead + 1)) + tuple(
        i + 1 + lead for i, d in enumerate(shape) if d == 1 and gshape[i + 1 + lead] != 1)
    if axes:
        g = Sum(g, axis=axes, keepdims=False)
    return Reshape(g, full)


def _dense(g):
    """A gradient as a dense array or Tensor (IndexedSlices summed into place)."""
    return to_dense(g) if type(g) is IndexedSlices else g


def _zeros(shape: tuple, dtype, raw: bool):
    zeros = np.zeros(shape, dtype)
    return zeros if raw else Tensor(zeros)
