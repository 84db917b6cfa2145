"""Optimizer steps split among workers that share memory (the first stage of ZeRO, on one
host).

Where every worker of a strategy runs on one machine (`shared_memory`), each worker
computes only its part of the new value of every mirrored variable, and of its slots:
values [r*n//size, (r+1)*n//size) of the flattened variable for rank r, from the same part
of the summed gradient. The parts are written into a region the workers share, and each
variable (and slot) then holds a read-only view of its whole new value there: no worker
copies the others' parts, and each does 1/size of the update's work. Each value is computed
once, by one worker, from the same summed gradient, so every worker holds the same bits, the
ones the whole update gives. Only optimizers whose update is elementwise take this path
(`Optimizer._ELEMENTWISE`); a conditional update (a graph's gradient accumulation) takes the
whole one. Eagerly the parts are joined at once; in a graph the join is one node, and the
variables are assigned its views.
"""
from __future__ import annotations

import numpy as np

from ..framework.context import executing_eagerly
from ..ops import array_ops
from .cross_replica import _on_arrays
from .distribute_lib import _sharing_memory
from .shared_memory import JoinPlaces

__all__ = ["apply_in_parts", "sharing"]


def sharing(variables: list):
    """(strategy, indices): the strategy with several workers on one machine that mirrors
    the `variables` at those indices (of fully known shapes); (None, []) when there is
    none."""
    if not _sharing_memory:
        return None, []
    for strategy in list(_sharing_memory):
        indices = [i for i, v in enumerate(variables)
                   if strategy.mirrors(v) and v.shape.is_fully_defined()]
        if indices:
            return strategy, indices
    return None, []


def apply_in_parts(strategy, items: list, update) -> None:
    """Applies `update` to this worker's part of each item, then joins the parts.

    Args:
        strategy: the strategy `sharing` returned.
        items: (gradient, variable, {slot name: slot Variable}) of mirrored variables.
        update: `update(gradient, variable, value, slots) -> (new value, {slot name: new
            value})` on flat parts (arrays eagerly, Tensors while a graph is built).
    """
    shared = strategy._communicator.shared_memory()
    _, timeout = strategy._communication(None)
    eager = executing_eagerly()

    def part(x, size: int):
        lo, hi = shared.shard(size)
        if eager:
            return np.reshape(np.asarray(x), -1)[lo:hi]
        return array_ops.reshape(x, [-1])[lo:hi]

    read = np.asarray if eager else (lambda variable: variable.read_value())
    targets, parts = [], []
    for gradient, variable, slots in items:
        size = variable.shape.num_elements()
        new_value, new_slots = update(part(gradient, size), variable,
                                      part(read(variable), size),
                                      {name: part(read(s), size) for name, s in slots.items()})
        targets.append(variable)
        parts.append(new_value)
        for name, value in new_slots.items():
            targets.append(slots[name])
            parts.append(value)
    by_dtype: dict = {}
    for i, target in enumerate(targets):
        by_dtype.setdefault(np.dtype(target.dtype.as_numpy_dtype), []).append(i)
    for dtype, indices in by_dtype.items():
        sizes = [targets[i].shape.num_elements() for i in indices]
        what = f"optimizer step in parts ({len(sizes)} {dtype.name} values)"
        places = None if eager else JoinPlaces(shared, sizes, dtype, what, timeout)
        joined = _on_arrays(_joiner(shared, sizes, dtype, what, timeout, places),
                            [parts[i] for i in indices], [(dtype, (n,)) for n in sizes],
                            places)
        for i, flat in zip(indices, joined):
            target = targets[i]
            if eager:
                target.adopt_array(np.asarray(flat).reshape(target.shape))
            else:
                target.assign(array_ops.reshape(flat, target.shape))


def _joiner(shared, sizes: list, dtype: np.dtype, what: str, timeout, places):
    """The function joining every worker's parts of values of `sizes` values (`dtype`),
    some of them computed where `places` (a `JoinPlaces`, or None) put them."""
    return lambda arrays: shared.gather(arrays, sizes, dtype, what, timeout,
                                        places and places.taken())
