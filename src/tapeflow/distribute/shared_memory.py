"""All-reduce through memory the ranks of one machine share (MPI-3 shared windows).

When every rank runs on one host, `MPICommunicator` sums dense packs here instead of with
MPI's `Iallreduce`, which copies each buffer through MPI's own cells several times. Each
pack of n values has two node-wide regions, made with `MPI.Win.Allocate_shared`:

- an input region, one row per rank: a rank writes into its row the parts of its pack that
  the other ranks sum (everything but its own parts), when the reduction starts; in a
  compiled graph the arrays are computed there in the first place (`InputPlaces`: the
  plan's kernels write into the row), and nothing is copied;
- an output region of n values: rank r sums its part of each array (values
  [r*m//size, (r+1)*m//size) of an array of m values, the part an optimizer step in parts
  updates on rank r: `sharded_update`) from its own arrays and the other rows into it.

Every rank then reads the whole sum where it lies: results are read-only views of the
output region, and nothing is copied but the parts others need. Two synchronisations per
reduction: before summing (every row written), after (every part summed). The first is a
tiny all-reduce that also picks the output region: an output region is reused only when no
rank still holds a view of an earlier result in it (each says which regions it holds, of
every size; any region held anywhere is skipped, and a new one is made when all are). The
optimizer's join (`gather`, whose parts a graph computes in place: `JoinPlaces`) takes a
region found free there without a synchronisation of its own. Input regions are
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
        # {(dtype, n): [index in _outputs]} of the output regions known to be free (see
        # agree_on_output).
        self._known_free: dict = {}

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

    def start(self, arrays: list, op: str, region=None) -> "SharedReduction":
        """Starts the sum (`op` "sum" or "mean") of `arrays`, one pack of one dtype;
        `region`: the input region some of them were computed in (`InputPlaces`)."""
        return SharedReduction(self, arrays, op, region)

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

    def agree_on_output(self, dtype: np.dtype, n: int, what: str, timeout,
                        synchronise: bool = True) -> np.ndarray:
        """An output region for `n` values no rank holds a result in. With `synchronise`,
        also the synchronisation before summing (every rank's input row is written once
        this returns), which takes stock of every output region. Without, a region that was
        free everywhere at the last stock-taking and has not been handed out since (so is
        free still: a view of it can only come from one handed out) is taken with no
        synchronisation, if there is one."""
        key = (dtype, n)
        regions = self._outputs.setdefault(key, [])
        known = self._known_free.get(key)
        if known and not synchronise:
            return regions[known.pop(0)]
        held = np.array([count > UNREFERENCED for group in self._outputs.values()
                         for count in references(group)] + [0], np.uint8)
        anywhere = np.empty_like(held)
        self.sync()
        self._communicator._wait([self._node.Iallreduce(held, anywhere, op=self._MPI.MAX)],
                                 what, timeout)
        self.sync()
        start = 0
        for group_key, group in self._outputs.items():
            self._known_free[group_key] = \
                [i for i in range(len(group)) if not anywhere[start + i]]
            start += len(group)
        known = self._known_free[key]
        if known:
            return regions[known.pop(0)]
        regions.append(self._region(dtype, (n,)))
        return regions[-1]

    def shard(self, size: int) -> tuple:
        """[lo, hi): the part of `size` values this rank computes."""
        return self.rank * size // self.size, (self.rank + 1) * size // self.size

    def gather(self, shards: list, sizes: list, dtype: np.dtype, what: str, timeout,
               region=None) -> list:
        """Every rank's `shards` (this rank's `shard(size)` of values of `sizes` values
        each) joined into whole values of `dtype`: read-only flat views of a region no rank
        held a view of (one synchronisation after the shards are written, two when no
        region is known free; nothing is copied after that). `region`: the region agreed on
        already (`JoinPlaces`), where some shards were computed."""
        if region is None:
            region = self.agree_on_output(dtype, sum(sizes), what, timeout,
                                          synchronise=False)
        offsets = np.cumsum([0] + list(sizes))
        for shard, size, offset in zip(shards, sizes, offsets):
            place = self.own_part(region, offset, size)
            if not _same_memory(shard, place):
                place[...] = shard
        self.barrier(what, timeout)
        return _read_only_views(region, offsets, [(size,) for size in sizes])

    def own_part(self, region: np.ndarray, offset: int, size: int) -> np.ndarray:
        """This rank's part (`shard(size)`) of the value of `size` values at `offset` of
        `region`."""
        lo, hi = self.shard(size)
        return region[offset + lo:offset + hi]

    def barrier(self, what: str, timeout) -> None:
        self.sync()
        self._communicator._wait([self._node.Ibarrier()], what, timeout)
        self.sync()


class SharedReduction:
    """The sum (or mean) of one pack of arrays (one dtype) over the ranks, started: the
    parts the others sum are in this rank's input row; `wait` sums this rank's part of
    each array (`SharedMemory.shard`, the part an optimizer step in parts updates here) and
    gives read-only views of the whole result, shaped as the arrays."""

    def __init__(self, shared: SharedMemory, arrays: list, op: str, region=None) -> None:
        self._shared, self._arrays, self._op = shared, arrays, op
        self._dtype = arrays[0].dtype
        self._flat = [a.reshape(-1) for a in arrays]
        self._offsets = np.cumsum([0] + [a.size for a in arrays])
        self._n = int(self._offsets[-1])
        self._input = region or shared.take_input(self._dtype, self._n)
        row = self._input[0][shared.rank]
        for flat, offset in zip(self._flat, self._offsets):
            if _same_memory(flat, row[offset:offset + flat.size]):  # computed in place
                continue
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


class InputPlaces:
    """Where the inputs of one graph node's all-reduce are computed (the node's `into`,
    framework/plan.py): an array of a pack summed in shared memory at its place in this
    rank's row of an input region, which is taken when the first of the pack is asked for
    and handed to the reduction of that pack started next (`taken`); None for the others.

    Args:
        shared_memory: a function giving the `SharedMemory` (made on first use).
        layout: {input index: (pack number, dtype, values in the pack, offset, shape)}.
    """

    def __init__(self, shared_memory, layout: dict) -> None:
        self._shared_memory, self._layout = shared_memory, layout
        self._regions: dict = {}   # {pack number: input region taken for the next start}

    def __call__(self, index: int):
        where = self._layout.get(index)
        if where is None:
            return None
        number, dtype, n, offset, shape = where
        shared = self._shared_memory()
        region = self._regions.get(number)
        if region is None:
            region = self._regions[number] = shared.take_input(dtype, n)
        size = int(np.prod(shape, dtype=np.int64))
        return region[0][shared.rank, offset:offset + size].reshape(shape)

    def taken(self, number: int):
        """The input region taken for pack `number` (None when none was)."""
        return self._regions.pop(number, None)


class JoinPlaces:
    """Where the parts a graph node joins (`SharedMemory.gather`) are computed (the node's
    `into`): this rank's part of value `index` in the output region chosen when the first
    is asked for (as `gather` chooses one: known free, or agreed on there), which `taken`
    hands to the join.

    Args:
        shared: the `SharedMemory`.
        sizes: the values' sizes; dtype: theirs; what, timeout: as `gather` has them.
    """

    def __init__(self, shared: SharedMemory, sizes: list, dtype: np.dtype, what: str,
                 timeout) -> None:
        self._shared, self._sizes, self._dtype = shared, sizes, dtype
        self._what, self._timeout = what, timeout
        self._offsets = np.cumsum([0] + list(sizes))
        self._region = None

    def __call__(self, index: int) -> np.ndarray:
        if self._region is None:
            self._region = self._shared.agree_on_output(
                self._dtype, int(self._offsets[-1]), self._what, self._timeout,
                synchronise=False)
        return self._shared.own_part(self._region, self._offsets[index], self._sizes[index])

    def taken(self):
        """The region agreed on for the join (None when none was)."""
        region, self._region = self._region, None
        return region


def _same_memory(a, b: np.ndarray) -> bool:
    """Whether array `a` starts where `b` does (it was computed in `b`'s place)."""
    return np.asarray(a).__array_interface__["data"][0] == b.__array_interface__["data"][0]


def _read_only_views(region: np.ndarray, offsets, shapes: list) -> list:
    """Read-only views of `region` from each offset, of each shape."""
    views = []
    for offset, shape in zip(offsets, shapes):
        view = region[offset:offset + int(np.prod(shape))].reshape(shape)
        view.flags.writeable = False
        views.append(view)
    return views
