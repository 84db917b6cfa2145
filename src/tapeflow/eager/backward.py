"""The reverse interpreter: the one backward loop over recorded operations, for every mode.

`backward(records, targets, upstream, sources, domain)` walks `records` ((op, inputs,
outputs, attrs) tuples in the order they ran) in reverse and calls each op's gradient rule.
What gradients are made of is the `domain`'s business, not the loop's (eager/domains.py):
raw NumPy arrays when nothing records the backward pass (the fast path), recorded Tensors
(higher order), symbolic tensors of the graph being built (`tf.gradients`, `tf.function`),
and any of those with a leading batch axis (vectorized Jacobians: the pullback composed
with batching). The loop does the rest once: reachability from the sources, pending
gradients, zeros for the unused outputs of multi-output ops, `stop_gradients`, NO_GRADIENT
and missing rules, IndexedSlices, the gradient-count check, unbroadcasting, aggregation and
collecting the sources'.
"""
from __future__ import annotations

import enum

import numpy as np

from ..framework.indexed_slices import IndexedSlices, to_dense
from ..framework.registry import NO_GRADIENT, gradient_rule
from .tape import is_trainable

__all__ = ["AggregationMethod", "UnconnectedGradients", "as_unconnected", "backward",
           "count_error", "one_per_input", "reachable"]


class UnconnectedGradients(enum.Enum):
    """What a gradient is for a source the target does not depend on: None or zeros."""

    NONE = "none"
    ZERO = "zero"


def as_unconnected(value) -> UnconnectedGradients:
    """`value` ('none', 'zero' or an UnconnectedGradients) as an UnconnectedGradients.

    Raises:
        ValueError: any other value.
    """
    if type(value) is UnconnectedGradients:
        return value
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}. Use "
                         "UnconnectedGradients.NONE ('none') or UnconnectedGradients.ZERO "
                         "('zero').") from None


class AggregationMethod:
    """How the gradients reaching one tensor along several paths are summed.

    `ADD_N` (the `DEFAULT`) sums them all at once; `EXPERIMENTAL_TREE` pairwise, which holds
    fewer partial sums; `EXPERIMENTAL_ACCUMULATE_N` behaves like the tree. IndexedSlices
    are always aggregated by concatenation.

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     x = tf.constant(2.0)
        ...     g = tf.gradients(x * x + x * 3.0, x,
        ...                      aggregation_method=tf.AggregationMethod.EXPERIMENTAL_TREE)
        ...     print(tf.compat.v1.Session().run(g))
        [7.0]
    """

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


# -- the loop ------------------------------------------------------------------------------

def backward(records: list, targets: list, upstream: list, sources: list, domain,
             tape=None, stop_ids=frozenset(), consume: bool = False,
             unconnected: UnconnectedGradients = UnconnectedGradients.NONE,
             on_final=None) -> list:
    """d(sum of targets)/d(source) for each source, None where unconnected.

    Args:
        records: (op, inputs, outputs, attrs) tuples in the order the operations ran (a
            tape's entries, or a graph's
            operations).
        targets: the tensors differentiated.
        upstream: one upstream gradient per target, None for ones.
        sources: tensors or variables; matched by `_id`, so a variable collects the
            gradients of all its reads.
        domain: what gradients are made of (see the module docstring).
        tape: the Tape that recorded `records`: only what it watched, or a target, can
            receive a gradient; None for a graph's operations.
        stop_ids: ids of tensors held constant (`tf.gradients`' stop_gradients).
        consume: release the records (pop them from `records`) as they are used.
        unconnected: ZERO gives zeros shaped like the source where it is unconnected.
        on_final: None, or `on_final(index, gradient)`, called once per source (its index in
            `sources`) with its gradient as it is returned: as soon as the loop has
            processed the last record that touches the source (the rest of the pass may
            then overlap with whatever the call starts, e.g. communication), else after the
            loop, in source order.
    """
    target_ids = {t._id for t in targets}
    if tape is None:
        source_ids = {s._id for s in sources}
        relevant = reachable(records, source_ids)
    else:
        ids = tape.ids
        source_ids = {s._id for s in sources if s._id in ids or s._id in target_ids}
        # Each recorded op depends on a watched tensor: when all of them are sources,
        # everything recorded is relevant.
        relevant = ids if tape.watched <= source_ids else reachable(records, source_ids, ids)
    add, seed = domain.add, domain.seed
    pending: dict = {}
    for t, g in zip(targets, upstream):
        t_id = t._id
        if not is_trainable(t) or (t_id not in relevant and t_id not in source_ids):
            continue
        g = seed(t, g)
        old = pending.get(t_id)
        pending[t_id] = g if old is None else add(old, g)
    deferred = domain.deferred
    total, zeros, call, unbroadcast_to = domain.total, domain.zeros, domain.call, \
        domain.unbroadcast
    # The raw domain's rules see a view of each record holding its arrays; set up here, as
    # it is on the hot path of every eager gradient.
    view = domain.raw_view
    if view is not None:
        view._needed = relevant
    found: dict = {}
    ndarray = np.ndarray
    # A batched domain's gradients never have their input's shape: each is unbroadcast.
    exact = not domain.batched
    zero = unconnected is UnconnectedGradients.ZERO
    indices = range(len(records) - 1, -1, -1)
    if on_final is not None:
        final: dict = {}

        def finish(sources_done):
            """Reports each source of `sources_done` not reported yet, once."""
            todo = [i for i in sources_done if i not in final]
            for i, g in zip(todo, _collected([sources[i] for i in todo], source_ids, found,
                                             pending, domain, zero)):
                final[i] = g
                on_final(i, g)

        indices = _reporting(indices, _last_touches(records, sources, source_ids), finish)
    for index in indices:
        rec = records.pop() if consume else records[index]
        op, inputs, outputs, attrs = rec
        arity = len(inputs)
        single = len(outputs) == 1
        if single:
            out_id = outputs[0]._id
            g = pending.pop(out_id, None)
            if g is None:
                continue
            if deferred and type(g) is list:
                g = total(g)
            if out_id in source_ids:
                found[out_id] = g
            if out_id not in relevant or out_id in stop_ids:
                continue
        else:
            out_grads = []
            arrived = live = False  # a gradient to pass on; an output on a path to a source
            for o in outputs:
                o_id = o._id
                live = live or o_id in relevant
                g = pending.pop(o_id, None)
                if g is not None:
                    if deferred and type(g) is list:
                        g = total(g)
                    if o_id in source_ids:
                        found[o_id] = g
                    if o_id in stop_ids:
                        g = None
                    else:
                        arrived = True
                out_grads.append(g)
            if not (arrived and live):
                continue
        rule = op.grad
        if rule is NO_GRADIENT:
            continue
        if rule is None:
            gradient_rule(op)  # raises LookupError naming the op
        if single:
            if type(g) is IndexedSlices and not op.grad_takes_indexed_slices:
                g = to_dense(g)
            if view is not None and not op.grad_takes_tensors:
                view.op, view.attrs, view._tensors = op, attrs, inputs
                view.inputs = [inputs[0]._value, inputs[1]._value] if arity == 2 else \
                    [x._value for x in inputs]
                view.outputs = [outputs[0]._value]
                in_grads = rule(view, g)
            else:
                in_grads = call(rule, rec, (g,), relevant)
        else:
            out_grads = [zeros(o) if g is None else to_dense(g) if type(g) is IndexedSlices
                         and not op.grad_takes_indexed_slices else g
                         for o, g in zip(outputs, out_grads)]
            in_grads = call(rule, rec, out_grads, relevant)
        if type(in_grads) is not tuple or len(in_grads) != arity:
            in_grads = (in_grads,) if arity == 1 and type(in_grads) is ndarray else \
                one_per_input(op, in_grads, arity)
        for x, g in zip(inputs, in_grads):
            if g is None:
                continue
            x_id = x._id
            if x_id not in relevant:
                continue
            if not exact or type(g) is not ndarray or g.shape != x._value.shape:
                g = unbroadcast_to(g, x, arity == 1)
            old = pending.get(x_id)
            pending[x_id] = g if old is None else add(old, g)
    if on_final is None:
        return _collected(sources, source_ids, found, pending, domain, zero)
    finish(range(len(sources)))
    return [final[i] for i in range(len(sources))]


def _collected(sources: list, source_ids: set, found: dict, pending: dict, domain,
               zero: bool) -> list:
    """The gradients of `sources`: what reached each as a recorded output (`found`) plus
    what is pending for it; zeros (`zero`) or None where nothing did."""
    deferred, total, add, zeros, result = domain.deferred, domain.total, domain.add, \
        domain.zeros, domain.result
    gradients = []
    for s in sources:
        s_id = s._id
        g = rest = None
        if s_id in source_ids:
            g, rest = found.get(s_id), pending.get(s_id)
        if rest is not None:
            if deferred and type(rest) is list:
                rest = total(rest)
            g = rest if g is None else total([g, rest]) if deferred else add(g, rest)
        if g is None and zero:
            g = zeros(s)
        gradients.append(None if g is None else result(g))
    return gradients


def _reporting(indices, last_touches: dict, finish):
    """`indices` (of records, descending), calling `finish` with the sources whose last
    record the loop has just processed before it takes the next one."""
    for index in indices:
        if index + 1 in last_touches:
            finish(last_touches.pop(index + 1))
        yield index


def _last_touches(records: list, sources: list, source_ids: set) -> dict:
    """{record index: [source indices]}: the first record (in running order) with each
    source among its inputs or outputs; the reverse loop processes it last."""
    first: dict = {}
    for index, (_, inputs, outputs, _) in enumerate(records):
        for x in (*inputs, *outputs):
            if x._id in source_ids and x._id not in first:
                first[x._id] = index
    touches: dict = {}
    for i, s in enumerate(sources):
        if s._id in first:
            touches.setdefault(first[s._id], []).append(i)
    return touches


def reachable(records, source_ids: set, trainable_ids=None) -> set:
    """The ids of `source_ids` and of every trainable tensor computed from them over
    `records` (trainable: in `trainable_ids` when given, else of a floating dtype)."""
    reached = set(source_ids)
    for _, inputs, outputs, _ in records:
        for x in inputs:
            if x._id in reached:
                if trainable_ids is None:
                    reached.update([o._id for o in outputs if is_trainable(o)])
                else:
                    reached.update([o._id for o in outputs if o._id in trainable_ids])
                break
    return reached


def count_error(op, grads, count: int) -> ValueError:
    got = len(grads) if isinstance(grads, (tuple, list)) else 1
    return ValueError(f"The gradient rule of op '{op.name}' returned {got} gradients; the op "
                      f"has {count} inputs and needs exactly one gradient (or None) per input.")


def one_per_input(op, grads, count: int):
    """A rule's result as one gradient per input (a lone gradient for a one-input op).

    Raises:
        ValueError: the rule returned another number of gradients, naming the op.
    """
    if count == 1 and not isinstance(grads, (tuple, list)):
        return (grads,)
    if not isinstance(grads, (tuple, list)) or len(grads) != count:
        raise count_error(op, grads, count)
    return grads
