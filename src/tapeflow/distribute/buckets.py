"""Gradients all-reduced while the backward pass still runs.

Inside `strategy.run` (and `DistributedGradientTape.gradient`) each `GradientTape.gradient`
call reports every source's gradient as soon as the reverse pass has finished it
(`final_gradient_hooks`). `GradientBuckets` cuts the sources it reduces, last first (a
model's last layers finish first), into buckets of one dtype and at most `bytes_per_pack`
bytes (when 0, the communicator's `auto_pack_bytes`: 4 MiB, or one bucket per dtype where
the sums are made in shared memory; a larger gradient is a bucket of its own), and starts
the non-blocking all-reduce of a bucket, one packed buffer, once its gradients and those of
every bucket before it are final. The buckets and their order depend on the sources only,
never on the order in which a worker's pass finishes them, so every worker starts the same
collectives in the same order. Whoever applies the gradients asks `reduced(gradient)` for
the sum: it waits for that gradient's bucket only. Under `tf.function` the same happens
where the nodes stand in the graph, which runs its nodes in the order they were made. The
sums are those of the blocking path (`all_reduce`).
"""
from __future__ import annotations

import numpy as np

from ..framework.indexed_slices import IndexedSlices
from ..ops.script_ops import spec_of
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
        bytes_per_pack: the most bytes in a bucket (0: the communicator's automatic size).
        timeout: seconds a reduction may wait for the other workers.
    """

    def __init__(self, communicator, sources: list, wanted: set, op: str = "sum",
                 bytes_per_pack: int = 0, timeout=None) -> None:
        self._communicator, self._op, self._timeout = communicator, op, timeout
        # Lists of source indices; {source index: its bucket's number}.
        self._buckets = _cut(sources, sorted(wanted, reverse=True),
                             bytes_per_pack or communicator.auto_pack_bytes)
        self._bucket_of = {i: b for b, bucket in enumerate(self._buckets) for i in bucket}
        self._waiting = [len(bucket) for bucket in self._buckets]
        self._final: dict = {}
        self._next = 0                   # the bucket to start next
        self._started: list = []
        # {id(gradient): (gradient, its reduction, its position there)}
        self._reductions: dict = {}

    def __call__(self, index: int, gradient) -> None:
        bucket = self._bucket_of.get(index)
        if bucket is None:
            return
        self._final[index] = gradient
        self._waiting[bucket] -= 1
        while self._next < len(self._buckets) and not self._waiting[self._next]:
            self._start(self._buckets[self._next])
            self._next += 1

    def _start(self, bucket: list) -> None:
        # A None gradient (unconnected) is not reduced; IndexedSlices are all-gathered
        # later, as in the blocking path.
        gradients = [g for g in (self._final[i] for i in bucket)
                     if g is not None and not isinstance(g, IndexedSlices)]
        if not gradients:
            return
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


def _cut(sources: list, order: list, limit: int) -> list:
    """The indices `order` cut into runs of one dtype and at most `limit` bytes (a source
    larger than that, or of unknown size, alone)."""
    buckets, dtype, filled = [], None, 0
    for i in order:
        source_dtype, dims = spec_of(sources[i])
        size = limit if dims is None or None in dims else \
            source_dtype.itemsize * int(np.prod(dims, dtype=np.int64))
        if not buckets or source_dtype != dtype or filled + size > limit:
            buckets.append([])
            dtype, filled = source_dtype, 0
        buckets[-1].append(i)
        filled += size
    return buckets
