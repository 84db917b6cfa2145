"""What the reverse interpreter's gradients are made of (its value domains).

- raw (`eager_domain()` when nothing records): NumPy arrays; rules run at NumPy speed on a
  view of each record holding its arrays;
- `TENSOR`: Tensors, so the recorders active now (outer tapes, accumulators) record the
  backward pass and it can be differentiated again;
- `GraphDomain`: symbolic tensors of the graph being built; rules add graph ops, and the
  gradients reaching one tensor are summed by TF's aggregation methods;
- `BatchedDomain`: any of those with a leading batch axis on every gradient.
A domain supplies seeds, zeros, how a rule is called, unbroadcasting and accumulation.

A rule that needs what a graph does not know while it is built (a dimension of a
`[None, 3]` tensor) raises SymbolicValueError; the graph domains then run that rule when the
graph runs, in one EagerPyFunc node (`run_later`, the one such fallback: forward mode's
rules use it too), itself differentiable.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes
from ..framework.allocator import references
from ..framework.context import state
from ..framework.errors import SymbolicValueError
from ..framework.indexed_slices import IndexedSlices, aggregate, to_dense
from ..framework.registry import TRANSPARENT, Stacking, get_op
from ..framework.tensor import Tensor, constant, convert_to_tensor
from ..ops.array_ops import (BroadcastTo, ConcatV2, Reshape, SplitV, SumToShape,
                             broadcast_axes, shape)
from ..ops.creation_ops import fill
from ..ops.math_ops import Sum
from ..ops.op_util import LEADING_AXES_BLAS_MIN, dtype_of, known_dims, shape_of
from ..ops.script_ops import EagerPyFunc, spec_of
from .backward import AggregationMethod, one_per_input
from .tape import OpRecord, is_trainable

__all__ = ["BatchedDomain", "GraphDomain", "TENSOR", "aggregate_all", "dense", "eager_domain",
           "filled_like", "run_later", "unbroadcast"]


def _fully_known(dims) -> bool:
    return dims is not None and None not in dims


def unbroadcast(grad, shape: tuple):
    """Sums `grad` over the axes along which an input of `shape` was broadcast.

    The one place broadcast gradients are reduced; works on raw arrays and on Tensors.
    """
    if type(grad) is np.ndarray:  # nothing records: straight to the kernel
        return SumToShape.kernel(grad, shape)
    gshape = shape_of(grad)
    if gshape == shape:
        return grad
    axes = broadcast_axes(gshape, shape)
    if axes:
        grad = Sum(grad, axis=axes, keepdims=False)
    return Reshape(grad, shape)


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


def _sum(old, new):
    if isinstance(old, IndexedSlices) or isinstance(new, IndexedSlices):
        return aggregate(old, new)
    return old + new


# References to `old` while `_add` runs when only the reverse loop holds it: the pending
# dict, the loop's variable, `_add`'s parameter and the count's own argument.
_LOOP_ONLY = 4


def _add(old, new):
    """`_sum`, with two arrays (the raw domain's usual case) added straight away: into
    `old` itself when nothing else can see it (no other reference, not a view; e.g. a
    recurrent kernel's gradient summed over the steps), else into a new array."""
    if type(old) is np.ndarray and type(new) is np.ndarray:
        if old.base is None and references(old) == _LOOP_ONLY and old.shape == new.shape \
                and old.dtype == new.dtype and old.flags.writeable:
            old += new
            return old
        return old + new
    return _sum(old, new)


# -- domains -------------------------------------------------------------------------------

class _TensorDomain:
    """Tensors: the backward pass runs through `execute`, so recorders active now (outer
    tapes, accumulators) record it and it can be differentiated again."""

    deferred = False
    raw = False
    graph = False
    batched = False
    raw_view = None

    # What this domain's gradients are: Tensors (raw arrays wrapped).
    as_value = staticmethod(_wrap)

    def seed(self, target, g):
        if g is None:
            value = target._value
            g = np.empty(value.shape, value.dtype)
            g.fill(1)
            return g if self.raw else Tensor(g)
        if not isinstance(g, (Tensor, IndexedSlices)):
            g = convert_to_tensor(g, dtype=target.dtype)
        return self.as_value(g)

    def zeros(self, output):
        value = output._value
        return self.as_value(np.zeros(value.shape, value.dtype))

    def spec(self, x):
        return spec_of(x)

    def view(self, rec: tuple) -> OpRecord:
        return OpRecord(*rec)

    def call(self, rule, rec: tuple, out_grads, relevant):
        """The rule's result for upstream `out_grads` (one per output of record `rec`)."""
        view = OpRecord(*rec)
        view._needed = relevant
        return rule(view, *out_grads)

    def unbroadcast(self, g, x, single_input: bool = False):
        """`g` summed to the shape of input `x` (of an op with one input when
        `single_input`, whose gradient has its shape however unknown)."""
        if type(g) is IndexedSlices:
            return g
        return unbroadcast(g, x._value.shape)

    add = staticmethod(_sum)
    total = None

    def result(self, g):
        return _wrap(g)


class _RawDomain(_TensorDomain):
    """NumPy arrays: nothing records the backward pass, so rules run at NumPy speed on a
    view of each record whose inputs and outputs are the arrays."""

    raw = True

    def __init__(self) -> None:
        self.raw_view = OpRecord(None, None, None, None)
        self.raw_view.memo = {}

    as_value = staticmethod(_unwrap)

    def view(self, rec: tuple) -> OpRecord:
        """The record as rules see it: its inputs' and outputs' arrays."""
        op, inputs, outputs, attrs = rec
        view = OpRecord(op, [x._value for x in inputs], [o._value for o in outputs], attrs)
        view._tensors = inputs
        return view

    def call(self, rule, rec: tuple, out_grads, relevant):
        op, inputs, outputs, attrs = rec
        if op.grad_takes_tensors:  # user code (a custom_gradient's grad_fn)
            view = OpRecord(op, inputs, outputs, attrs)
            view._needed = relevant
            in_grads = rule(view, *[_wrap(g) for g in out_grads])
            return ([_unwrap(g) for g in in_grads] if isinstance(in_grads, (tuple, list))
                    else _unwrap(in_grads))
        view = self.raw_view
        view.op, view.attrs, view._tensors, view._needed = op, attrs, inputs, relevant
        view.inputs = [x._value for x in inputs]
        view.outputs = [o._value for o in outputs]
        if len(out_grads) == 1:
            return rule(view, out_grads[0])
        return rule(view, *out_grads)

    def unbroadcast(self, g, x, single_input: bool = False):
        if type(g) is not np.ndarray:
            return super().unbroadcast(g, x, single_input)
        shape = x._value.shape
        if g.ndim == len(shape) + 1 and g.shape[1:] == shape and \
                g.size < LEADING_AXES_BLAS_MIN:  # a bias's gradient: add_reduce's own choice
            return np.add.reduce(g, 0, g.dtype)
        return SumToShape.kernel(g, shape)

    add = staticmethod(_add)


TENSOR = _TensorDomain()


def eager_domain():
    """Raw arrays when nothing records on this thread, else TENSOR (the pass is recorded).

    A raw domain holds the view its rules see, so each backward pass has its own."""
    return TENSOR if state.recorders else _RawDomain()


class GraphDomain(_TensorDomain):
    """Symbolic tensors of the graph being built: each rule adds graph ops. Gradients
    reaching a tensor along several paths are summed by `method` (an AggregationMethod)
    once all have arrived."""

    deferred = True
    graph = True

    def __init__(self, method: int = AggregationMethod.DEFAULT) -> None:
        self.method = method

    def seed(self, target, g):
        if g is None:
            return filled_like(target, 1)
        if isinstance(g, IndexedSlices):
            return g
        return state.graph._graph_input(convert_to_tensor(g, dtype=target.dtype))

    def zeros(self, output):
        return filled_like(output, 0)

    def call(self, rule, rec: tuple, out_grads, relevant):
        view = OpRecord(*rec)
        view._needed = relevant
        try:
            return rule(view, *out_grads)
        except SymbolicValueError:
            return _run_later(self, rule, rec, out_grads, relevant)

    def unbroadcast(self, g, x, single_input: bool = False):
        if isinstance(g, IndexedSlices):
            return g
        xd, gd = known_dims(x), known_dims(g)
        if _fully_known(xd) and gd is not None:
            if gd == xd:
                return g
            # The input's shape is known: the axes it was broadcast along are too (a
            # dimension of 1 may be summed whatever the gradient's turns out to be).
            axes = broadcast_axes(gd, xd)
            return Reshape(Sum(g, axis=axes, keepdims=False) if axes else g, tuple(xd))
        if single_input and xd == gd:
            return g
        # Unknown dimensions on both sides: which were broadcast is known when it runs.
        return SumToShape(g, shape(x))

    def add(self, old, new):
        return old + [new] if type(old) is list else [old, new]

    def result(self, g):
        return g

    def total(self, grads: list):
        return aggregate_all(grads, self.method)

    def eager(self):
        return eager_domain()

    def spec(self, x):
        return spec_of(x)


def aggregate_all(grads: list, method: int):
    """The sum of `grads` as `method` (an AggregationMethod) sums them."""
    if len(grads) == 1:
        return grads[0]
    if any(isinstance(g, IndexedSlices) for g in grads):
        # Slices concatenate; once a dense gradient joins, the sum is dense.
        total = grads[0]
        for g in grads[1:]:
            total = _sum(total, g)
        return total
    if method == AggregationMethod.ADD_N:
        return get_op("AddN")(*grads)
    while len(grads) > 1:
        paired = [a + b for a, b in zip(grads[::2], grads[1::2])]
        grads = paired + ([grads[-1]] if len(grads) % 2 else [])
    return grads[0]


def filled_like(t, value):
    """A tensor shaped like `t` filled with `value` (an op when the shape is not known)."""
    dtype, dims = spec_of(t)
    if _fully_known(dims):
        return constant(np.full(dims, value, dtype))
    return fill(shape(t), np.asarray(value, dtype))


class BatchedDomain:
    """Gradients with a leading batch axis: row b is the backward pass seeded with row b of
    the upstream gradient. Wraps the domain the rows' values live in (raw, tensor, graph).

    An op's rule is used as is when declared batch-transparent, its batched variant when one
    is registered (framework/batched_registry.py), on a stacked view when the op batches by
    stacking, and otherwise once per batch row (correct, but a Python loop for that op).
    """

    deferred = False
    total = None
    raw_view = None
    batched = True

    def __init__(self, inner, batch: int) -> None:
        self.inner, self.batch = inner, batch
        self.raw, self.graph = inner.raw, inner.graph

    def seed(self, target, g):
        return _unwrap(g) if self.raw else _wrap(g)

    def zeros(self, output):
        if self.graph and not _fully_known(known_dims(output)):
            return None  # made by `_call`, when the graph runs if need be
        return self._zeros((self.batch,) + shape_of(output), dtype_of(output))

    def _zeros(self, shape, dtype):
        zeros = np.zeros(shape, dtype)
        return zeros if self.raw else Tensor(zeros)

    def call(self, rule, rec: tuple, out_grads, relevant):
        if self.graph:
            try:
                return self._call(rule, rec, out_grads, relevant)
            except SymbolicValueError:  # the rule needs what the graph does not know yet
                return _run_later(self, rule, rec, out_grads, relevant)
        return self._call(rule, rec, out_grads, relevant)

    def _call(self, rule, rec: tuple, grads, relevant):
        op, inputs, outputs, attrs = rec
        batch, raw = self.batch, self.raw
        if any(g is None for g in grads):
            grads = [self._zeros((batch,) + shape_of(o), dtype_of(o)) if g is None else g
                     for o, g in zip(outputs, grads)]
        view = self.inner.view(rec)
        view._needed = relevant
        count = len(inputs)
        batched, batching = op.batched_grad, op.batching
        if batched is not None:
            return one_per_input(op, batched(view, *grads), count)
        if batching is TRANSPARENT:
            return one_per_input(op, rule(view, *grads), count)
        attrs = batching.attrs(attrs, batch) if isinstance(batching, Stacking) else None
        if attrs is not None:
            stacked = OpRecord(op, _stack_of(view.inputs, batch, raw),
                               _stack_of(view.outputs, batch, raw), attrs)
            stacked._tensors, stacked._needed = inputs, relevant
            return one_per_input(op, rule(stacked, *grads), count)
        return self._row_by_row(view, rule, grads)

    def _row_by_row(self, view: OpRecord, rule, grads) -> list:
        """The plain rule once per batch row, the results stacked along a new first axis."""
        op, batch = view.op, self.batch
        wrap = self.raw and op.grad_takes_tensors
        if wrap:
            needed = view._needed
            view = OpRecord(op, view._tensors, tuple([_wrap(o) for o in view.outputs]),
                            view.attrs)
            view._needed = needed
        rows = [_rows(g, batch) for g in grads]
        per_row = []
        for b in range(batch):
            row_grads = [_wrap(r[b]) if wrap else r[b] for r in rows]
            row = one_per_input(op, rule(view, *row_grads), len(view.inputs))
            per_row.append([_unwrap(g) for g in row] if wrap else row)
        stacked = []
        for i, x in enumerate(view.inputs):
            column = [dense(row[i]) for row in per_row]
            present = [g for g in column if g is not None]
            if not present:
                stacked.append(None)
                continue
            shape = shape_of(present[0])
            zeros = self._zeros((1,) + shape, dtype_of(x))
            stacked.append(ConcatV2(*[zeros if g is None else Reshape(g, (1,) + shape)
                                      for g in column], axis=0))
        return stacked

    def unbroadcast(self, g, x, single_input: bool = False):
        """A batched gradient [batch, *broadcast shape] summed down to [batch, *x.shape]."""
        g = dense(g)
        if self.graph and not _fully_known(known_dims(x)):
            return g  # the rule gave [batch, *x.shape] already
        shape = x._value.shape
        full = (self.batch,) + shape
        gshape = shape_of(g)
        if gshape == full:
            return g
        if len(gshape) <= len(shape):
            # A rule's constant result (zeros) carries no batch axis.
            return BroadcastTo(g, full)
        # The input's broadcast axes, past the batch axis.
        axes = tuple(a + 1 for a in broadcast_axes(gshape[1:], shape))
        if axes:
            g = Sum(g, axis=axes, keepdims=False)
        return Reshape(g, full)

    add = staticmethod(_add)

    def result(self, g):
        return _wrap(g)

    def eager(self):
        return BatchedDomain(eager_domain(), self.batch)

    def spec(self, x):
        dtype, dims = spec_of(x)
        return dtype, None if dims is None else (self.batch,) + tuple(dims)


def _stack_of(values, batch: int, raw: bool) -> tuple:
    """Each trainable value broadcast along a new first axis of length `batch` (a view of
    it when raw)."""
    broadcast = np.broadcast_to if raw else BroadcastTo
    return tuple([broadcast(v, (batch,) + shape_of(v)) if dtypes.kind(dtype_of(v)) in "fc" else v
                  for v in values])


def _rows(g, batch: int) -> list:
    """The batch rows of g, each without the batch axis."""
    shape = shape_of(g)[1:]
    if batch == 1:
        return [Reshape(g, shape)]
    return [Reshape(r, shape) for r in SplitV(g, indices=tuple(range(1, batch)), axis=0)]


def dense(g):
    """A gradient as a dense array or Tensor (IndexedSlices summed into place)."""
    return to_dense(g) if type(g) is IndexedSlices else g


# -- the one run-time fallback ---------------------------------------------------------------

def run_later(rec: tuple, extras: list, compute, specs: list) -> list:
    """The one fallback for a rule that needs what a graph does not know while it is built
    (a dimension of a `[None, 3]` tensor): it runs when the graph runs instead.

    One EagerPyFunc node takes record `rec`'s inputs and outputs and the `extras` that are
    not None (upstream gradients, tangents). When the graph runs it calls
    `compute(record, extras)` with the record rebuilt on their values (Tensors carrying the
    graph tensors' ids) and the extras in place (raw arrays, or Tensors when a run-time
    tape records the node, which makes it differentiable again); `compute` returns one
    value per entry of `specs` ((dtype, dims) pairs), the node's outputs.
    """
    op, inputs, outputs, attrs = rec
    n_in, n_out = len(inputs), len(outputs)

    def run(*values):
        tensors = [v if isinstance(v, Tensor) else Tensor(v, x._id)
                   for v, x in zip(values, (*inputs, *outputs))]
        given = iter(values[n_in + n_out:])
        filled = [None if e is None else next(given) for e in extras]
        return compute((op, tuple(tensors[:n_in]), tuple(tensors[n_in:n_in + n_out]), attrs),
                       filled)

    present = [e for e in extras if e is not None]
    return list(EagerPyFunc(*inputs, *outputs, *present, fn=run, Tout=specs))


def _run_later(domain, rule, rec: tuple, out_grads, relevant) -> list:
    """The rule of graph op `rec`, run when the graph runs (`run_later`) in `domain`'s eager
    twin; under a run-time tape the rule runs on Tensors, so it can be differentiated again."""
    op, inputs, outputs, attrs = rec
    wanted = [i for i, x in enumerate(inputs) if x._id in relevant and is_trainable(x)]

    def compute(view, grads):
        eager = domain.eager()
        tensors = view[1]
        needed = relevant if eager.raw else relevant | {
            t._id for t, x in zip(tensors, inputs) if x._id in relevant}
        grads = [g if g is None or isinstance(g, (Tensor, IndexedSlices)) or eager.raw
                 else Tensor(np.asarray(g)) for g in grads]
        in_grads = one_per_input(op, eager.call(rule, view, grads, needed), len(inputs))
        result = []
        for i in wanted:
            g, x = in_grads[i], tensors[i]
            if g is None:
                dtype, dims = eager.spec(x)
                result.append(np.zeros(dims, dtype))
            else:
                result.append(eager.unbroadcast(dense(g), x))
        return result

    outs = run_later(rec, out_grads, compute, [domain.spec(inputs[i]) for i in wanted])
    in_grads: list = [None] * len(inputs)
    for i, g in zip(wanted, outs):
        in_grads[i] = g
    return in_grads
