"""Gradients all-reduced while the backward pass still runs.

Inside `strategy.run` (and `DistributedGradientTape.gradient`) each `GradientTape.gradient`
call reports every source's gradient as soon as the reverse pass has finished it
(`final_gradient_hooks`). `GradientBuckets` puts the dense gradients it wants, in that order
(the last layers first), into buckets of at most `bytes_per_pack` bytes (4 MiB when 0) and
starts the non-blocking all-reduce of a bucket, one packed buffer, as soon as the next
gradient would not fit; the last bucket starts when the pass ends. Whoever applies the
gradients asks `reduced(gradient)` for the sum: it waits for that gradient's bucket only.
Under `tf.function` the same happens where the nodes stand in the graph, which runs its
nodes in the order they were made. Sums are those of the blocking path (`all_reduce`).
"""
from __future__ import annotations

import numpy as np

from ..framework.indexed_slices import IndexedSlices
from ..ops.script_ops import spec_of
from .collectives import _AUTO_PACK_BYTES
from .cross_replica import StartedReduction

__all__ = ["GradientBuckets"]


class GradientBuckets:
    """The `on_final` hook of one gradient call: starts the all-reduce of the gradients of
    `sources[i]` for i in `wanted`, bucket by bucket (see the module docstring).

    Args:
        communicator: the workers' communicator.
        sources: the call's flattened sources.
        wanted: indices of the sources whose dense gradients are reduced.
        op: "sum" or "mean".
        bytes_per_pack: the most bytes in a bucket (0: 4 MiB); a larger gradient is a
            bucket of its own.
        timeout: seconds a reduction may wait for the other workers.
    """

    def __init__(self, communicator, sources: list, wanted: set, op: str = "sum",
                 bytes_per_pack: int = 0, timeout=None) -> None:
        self._communicator, self._sources, self._wanted = communicator, sources, wanted
        self._op, self._limit, self._timeout = op, bytes_per_pack or _AUTO_PACK_BYTES, timeout
        self._left = len(sources)
        # {dtype: (gradients, their bytes)} of the buckets being filled.
        self._filling: dict = {}
        self._started: list = []
        # {id(gradient): (gradient, its reduction, its position there)}
        self._reductions: dict = {}

    def __call__(self, index: int, gradient) -> None:
        self._left -= 1
        if index in self._wanted and gradient is not None and \
                not isinstance(gradient, IndexedSlices):
            dtype, dims = spec_of(self._sources[index])
            size = self._limit if dims is None or None in dims else \
                dtype.itemsize * int(np.prod(dims, dtype=np.int64))
            gradients, filled = self._filling.pop(dtype, ([], 0))
            if gradients and filled + size > self._limit:
                self._start(gradients)
                gradients, filled = [], 0
            self._filling[dtype] = (gradients + [gradient], filled + size)
        if self._left == 0:
            for gradients, _ in self._filling.values():
                self._start(gradients)
            self._filling.clear()

    def _start(self, gradients: list) -> None:
        reduction = StartedReduction(self._communicator, self._op, gradients,
                                     bytes_per_pack=np.iinfo(np.int64).max,
                                     timeout=self._timeout, earlier=list(self._started))
        self._started.append(reduction)
        for position, gradient in enumerate(gradients):
            self._reductions[id(gradient)] = (gradient, reduction, position)

    def reduced(self, gradient):
        """The reduced `gradient` (waiting for its bucket), or None when this call did not
        start its reduction; each is handed out once."""
        entry = self._reductions.get(id(gradient))
        if entry is None or entry[0] is not gradient:
            return None
        del self._reductions[id(gradient)]
        return entry[1].result()[entry[2]]

    def settle(self) -> None:
        """Completes the eager reductions no one took (a graph's are never run)."""
        for reduction in self._started:
            if reduction.eager:
                reduction.result()
        self._reductions.clear()
