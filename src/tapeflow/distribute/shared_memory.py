"""All-reduce through memory the ranks of one machine share (MPI-3 shared windows).

When every rank runs on one host, `MPICommunicator` sums dense packs here instead of with
MPI's `Iallreduce`, which copies each buffer through MPI's own cells several times. Each
pack of n values has two node-wide regions, made with `MPI.Win.Allocate_shared`:

- an input region, one row per rank: a rank writes into its row the parts of its pack that
  the other ranks sum (everything but its own parts), when the reduction starts;
- an output region of n values: rank r sums its part of each array (values
  [r*m//size, (r+1)*m//size) of an array of m values, the part an optimizer step in parts
  updates on rank r: `sharded_update`) from its own arrays and the other rows into it.

Every rank then reads the whole sum where it lies: results are read-only views of the
output region, and nothing is copied but the parts others need. Two synchronisations per
reduction: before summing (every row written), after (every part summed). The first is a
tiny all-reduce that also picks the output region: an output region is reused only when no
rank still holds a view of an earlier result in it (each says which regions it holds; any
region held anywhere is skipped, and a new one is made when all are). Input regions are
taken in the order reductions start, which is the same on every rank, and given back when
one ends. Waits go through the communicator's `_wait` (peers watched, timeout), so a failed
rank is named here too. Each element of a sum is computed once, by one rank, so every rank
gets the same bits.
"""
from __future__ import annotations

import numpy as np

from .collectives import UNREFERENCED, divide_in_place, references

__all__ = ["SharedMemory", "SharedReduction"]


class SharedMemory:
    """The node-wide windows of one communicator's ranks (all on one host)."""

    def __init__(self, communicator) -> None:
        MPI = self._MPI = communicator._MPI
        self._communicator = communicator
        self._node = communicator._data.Split_type(MPI.COMM_TYPE_SHARED)
        self.rank, self.size = self._node.Get_rank(), self._node.Get_size()
        self._windows: list = []
        # {(dtype, n): [[region, in use]]} for inputs; {(dtype, n): [region]} for outputs.
        self._inputs: dict = {}
        self._outputs: dict = {}

    def _region(self, dtype: np.dtype, shape: tuple) -> np.ndarray:
        """A new node-wide array (collective over the node's ranks)."""
        MPI = self._MPI
        count = int(np.prod(shape))
        window = MPI.Win.Allocate_shared(count * dtype.itemsize if self.rank == 0 else 0,
                                         dtype.itemsize, comm=self._node)
        window.Lock_all(MPI.MODE_NOCHECK)
        self._windows.append(window)
        memory, _ = window.Shared_query(0)
        return np.ndarray(shape, dtype, memory)

    def start(self, arrays: list, op: str) -> "SharedReduction":
        """Starts the sum (`op` "sum" or "mean") of `arrays`, one pack of one dtype."""
        return SharedReduction(self, arrays, op)

    def sync(self) -> None:
        """Makes this rank's writes visible to the others and theirs to it (with a
        process synchronisation between two calls)."""
        for window in self._windows:
            window.Sync()

    def take_input(self, dtype: np.dtype, n: int) -> list:
        """A free input region for a pack of `n` values: [array (size, n), in use]."""
        regions = self._inputs.setdefault((dtype, n), [])
        for region in regions:
            if not region[1]:
                region[1] = True
                return region
        regions.append([self._region(dtype, (self.size, n)), True])
        return regions[-1]

    def agree_on_output(self, dtype: np.dtype, n: int, what: str, timeout) -> np.ndarray:
        """An output region no rank holds a result in; also the synchronisation before
        summing (every rank's input row is written once this returns)."""
        regions = self._outputs.setdefault((dtype, n), [])
        held = np.array([count > UNREFERENCED for count in references(regions)] + [0],
                        np.uint8)
        anywhere = np.empty_like(held)
        self.sync()
        self._communicator._wait([self._node.Iallreduce(held, anywhere, op=self._MPI.MAX)],
                                 what, timeout)
        self.sync()
        free = np.flatnonzero(anywhere[:-1] == 0)
        if free.size:
            return regions[free[0]]
        regions.append(self._region(dtype, (n,)))
        return regions[-1]

    def shard(self, size: int) -> tuple:
        """[lo, hi): the part of `size` values this rank computes."""
        return self.rank * size // self.size, (self.rank + 1) * size // self.size

    def gather(self, shards: list, sizes: list, dtype: np.dtype, what: str, timeout) -> list:
        """Every rank's `shards` (this rank's `shard(size)` of values of `sizes` values
        each) joined into whole values of `dtype`: read-only flat views of a region no rank
        held a view of (two synchronisations; nothing is copied after the shards are
        written)."""
        region = self.agree_on_output(dtype, sum(sizes), what, timeout)
        offsets = np.cumsum([0] + list(sizes))
        for shard, size, offset in zip(shards, sizes, offsets):
            lo, hi = self.shard(size)
            region[offset + lo:offset + hi] = shard
        self.barrier(what, timeout)
        return _read_only_views(region, offsets, [(size,) for size in sizes])

    def barrier(self, what: str, timeout) -> None:
        self.sync()
        self._communicator._wait([self._node.Ibarrier()], what, timeout)
        self.sync()


class SharedReduction:
    """The sum (or mean) of one pack of arrays (one dtype) over the ranks, started: the
    parts the others sum are in this rank's input row; `wait` sums this rank's part of
    each array (`SharedMemory.shard`, the part an optimizer step in parts updates here) and
    gives read-only views of the whole result, shaped as the arrays."""

    def __init__(self, shared: SharedMemory, arrays: list, op: str) -> None:
        self._shared, self._arrays, self._op = shared, arrays, op
        self._dtype = arrays[0].dtype
        self._flat = [a.reshape(-1) for a in arrays]
        self._offsets = np.cumsum([0] + [a.size for a in arrays])
        self._n = int(self._offsets[-1])
        self._input = shared.take_input(self._dtype, self._n)
        row = self._input[0][shared.rank]
        for flat, offset in zip(self._flat, self._offsets):
            lo, hi = shared.shard(flat.size)
            row[offset:offset + lo] = flat[:lo]
            row[offset + hi:offset + flat.size] = flat[hi:]

    def wait(self, what: str, timeout) -> list:
        shared, rank = self._shared, self._shared.rank
        out = shared.agree_on_output(self._dtype, self._n, what, timeout)
        rows = self._input[0]
        others = [k for k in range(shared.size) if k != rank]
        for flat, offset in zip(self._flat, self._offsets):
            lo, hi = shared.shard(flat.size)
            part = slice(offset + lo, offset + hi)
            np.add(flat[lo:hi], rows[others[0], part], out=out[part])
            for k in others[1:]:
                out[part] += rows[k, part]
            if self._op == "mean":
                divide_in_place(out[part], shared.size)
        shared.barrier(what, timeout)
        self._input[1] = False
        return _read_only_views(out, self._offsets, [a.shape for a in self._arrays])


def _read_only_views(region: np.ndarray, offsets, shapes: list) -> list:
    """Read-only views of `region` from each offset, of each shape."""
    views = []
    for offset, shape in zip(offsets, shapes):
        view = region[offset:offset + int(np.prod(shape))].reshape(shape)
        view.flags.writeable = False
        views.append(view)
    return views
