"""Collectives over NumPy arrays: one process (`LocalCommunicator`) or MPI ranks.

`MPICommunicator` moves raw buffers with mpi4py's upper-case methods (`Iallreduce`,
`Iallgather`, `Ibcast` on NumPy arrays: no pickling). Arrays of one dtype are packed into
one contiguous buffer (or a few, `bytes_per_pack` each), reduced in place, and handed back as
views of that buffer (when every rank runs on this host, large packs are summed in memory
the ranks share instead: `shared_memory`); `start_all_reduce` returns at once, with a
`Reduction` to wait for later (gradients are reduced so while the backward pass goes on).
A collective is started non-blocking and waited for in a loop that also watches the other
workers: a worker that raised sends a notice before it exits (one that ends normally says
how many collectives it took part in), a worker that vanished on this host is noticed by
its process id, and past `timeout_seconds` the wait gives up; each raises an error naming
the rank instead of hanging.
"""
from __future__ import annotations

import atexit
import os
import socket
import sys
import time

import numpy as np

from ..framework import errors

__all__ = ["LocalCommunicator", "MPICommunicator", "Reduction", "default_timeout", "world"]

_NOTICE_TAG = 77
_ACK_TAG = 78
# Packs hold at most this many bytes when bytes_per_pack is 0 (automatic): small tensors
# share a buffer (one message for many), a larger one is reduced alone, without a copy.
# Sums in shared memory have no message to bound: there every array of a dtype is one pack
# (one synchronisation for all; see `auto_pack_bytes`).
_AUTO_PACK_BYTES = 4 << 20
_UNBOUNDED = np.iinfo(np.int64).max
# Packs at least this large are summed in shared memory when every rank is on one host
# (`shared_memory`); smaller ones, whose time is latency, by MPI.
_SHARED_MIN_BYTES = 64 << 10
# How often a waiting collective looks at its peers, and how long it tests without
# yielding the processor, in seconds.
_WATCH_INTERVAL = 0.05
_SPIN_SECONDS = 0.002


def default_timeout() -> float | None:
    """Seconds a collective may wait: $TAPEFLOW_COLLECTIVE_TIMEOUT, else 600 (0: none)."""
    seconds = float(os.environ.get("TAPEFLOW_COLLECTIVE_TIMEOUT", "600"))
    return seconds or None


def _mpi():
    try:
        from mpi4py import MPI
    except ImportError as missing:
        raise ImportError("tapeflow.distribute runs workers as MPI ranks through mpi4py, "
                          "which is not installed: pip install 'tapeflow[distributed]' "
                          "(mpi4py and the mpich wheel)") from missing
    return MPI


def _packs(specs: list, limit: int) -> list:
    """Lists of indices of arrays of `specs` ((dtype, size) each) to pack together: same
    dtype, at most `limit` bytes per pack; an array larger than that is a pack of its own."""
    by_dtype: dict = {}
    for i, (dtype, _) in enumerate(specs):
        by_dtype.setdefault(np.dtype(dtype), []).append(i)
    packs = []
    for dtype, indices in by_dtype.items():
        current, filled = [], 0
        for i in indices:
            nbytes = specs[i][1] * dtype.itemsize
            if current and filled + nbytes > limit:
                packs.append(current)
                current, filled = [], 0
            current.append(i)
            filled += nbytes
        packs.append(current)
    return packs


def _specs(arrays: list) -> list:
    return [(a.dtype, a.size) for a in arrays]


def references(arrays: list) -> list:
    """Each array's reference count, taken the same way for every caller."""
    return [sys.getrefcount(array) for array in arrays]


def divide_in_place(array: np.ndarray, count: int) -> None:
    """A sum made a mean: divided by `count`, floored for integers."""
    if array.dtype.kind in "fc":
        array /= array.dtype.type(count)
    else:
        array //= count


# The count of an array only a list holds, taken the way `references` takes it, so that it
# holds whatever references the interpreter itself adds or borrows.
UNREFERENCED = references([np.empty(0)])[0]


class _BufferPool:
    """Receive buffers, each reused once nothing refers to it any more (no view of it that
    was handed out survives): steady training steps reduce into memory already paged in."""

    _KEEP = 2

    def __init__(self) -> None:
        self._buffers: dict = {}

    def get(self, dtype, size: int) -> np.ndarray:
        buffers = self._buffers.setdefault((np.dtype(dtype), size), [])
        for buffer, count in zip(buffers, references(buffers)):
            if count <= UNREFERENCED:
                return buffer
        buffer = np.empty(size, dtype)
        if len(buffers) < self._KEEP:
            buffers.append(buffer)
        return buffer


def _unpacked(arrays: list, packed: list) -> list:
    """Views of the packed buffers, shaped as `arrays` and in their order (None for the
    arrays in no pack)."""
    results: list = [None] * len(arrays)
    for pack, buffer in packed:
        offset = 0
        for i in pack:
            results[i] = buffer[offset:offset + arrays[i].size].reshape(arrays[i].shape)
            offset += arrays[i].size
    return results


class LocalCommunicator:
    """The collectives of a single worker: every one returns its input."""

    rank = 0
    size = 1
    local_rank = 0
    local_size = 1
    shares_memory = False
    auto_pack_bytes = _AUTO_PACK_BYTES

    def all_reduce(self, arrays: list, op: str = "sum", bytes_per_pack: int = 0,
                   timeout=None) -> list:
        return [np.array(a) for a in arrays]

    def input_places(self, specs: list, bytes_per_pack: int = 0):
        return None

    def start_all_reduce(self, arrays: list, op: str = "sum", bytes_per_pack: int = 0,
                         places=None) -> "Reduction":
        return Reduction(self, [], arrays, op, [])

    def all_gather(self, array, axis: int = 0, timeout=None) -> np.ndarray:
        return np.array(array)

    def broadcast(self, arrays: list, root: int = 0, bytes_per_pack: int = 0,
                  timeout=None) -> list:
        _check_root(root, self.size)
        return [np.array(a) for a in arrays]

    def barrier(self, timeout=None) -> None:
        pass


def _check_root(root: int, size: int) -> None:
    if not 0 <= root < size:
        raise errors.InvalidArgumentError(None, None, f"broadcast: root rank {root} is not a "
                                          f"worker; the ranks are 0..{size - 1}.")


class MPICommunicator:
    """Collectives among the ranks of MPI's world (see the module docstring).

    Raises (from each collective):
        UnavailableError: another rank failed (its rank and error are in the message).
        DeadlineExceededError: the collective took longer than its timeout.
    """

    def __init__(self) -> None:
        MPI = self._MPI = _mpi()
        world_comm = MPI.COMM_WORLD
        self._data = world_comm.Dup()
        self._control = world_comm.Dup()
        self.rank = world_comm.Get_rank()
        self.size = world_comm.Get_size()
        self.failure = None
        self._pool = _BufferPool()
        # Collectives waited for so far, and {rank: its count} of peers that have exited.
        self._count = 0
        self._departed: dict = {}
        self._peers = self._control.allgather((socket.gethostname(), os.getpid()))
        host = self._peers[self.rank][0]
        local = [r for r, (h, _) in enumerate(self._peers) if h == host]
        self.local_rank, self.local_size = local.index(self.rank), len(local)
        self._neighbours = [(r, self._peers[r][1]) for r in local if r != self.rank]
        if self.size > 1:
            self._install_failure_notice()
        # Every rank on this host: large packs are summed in shared memory, whose windows
        # are made when first needed (`shared_memory()`).
        self.shares_memory = self.size > 1 and self.local_size == self.size and \
            os.environ.get("TAPEFLOW_SHARED_MEMORY", "1") != "0"
        self._shared = None
        # The bytes of a pack when bytes_per_pack is 0 (see _AUTO_PACK_BYTES).
        self.auto_pack_bytes = _UNBOUNDED if self.shares_memory else _AUTO_PACK_BYTES

    def shared_memory(self):
        """The ranks' `shared_memory.SharedMemory`, made on the first call (a collective:
        every rank makes the same first call, e.g. the same first large all-reduce)."""
        if self._shared is None:
            from .shared_memory import SharedMemory
            self._shared = SharedMemory(self)
        return self._shared

    # -- failures -------------------------------------------------------------------------
    def _install_failure_notice(self) -> None:
        previous = sys.excepthook

        def notify_then_report(kind, value, traceback):
            if self.failure is None and not issubclass(kind, KeyboardInterrupt):
                self._tell_peers(("failed", f"{kind.__name__}: {value}"))
                self._await_acknowledgements(seconds=1.0)
                # The peers stop now: leave without finalizing MPI too (see _at_exit).
                self.failure = f"rank {self.rank} raised {kind.__name__}: {value}"
            previous(kind, value, traceback)

        sys.excepthook = notify_then_report
        atexit.register(self._at_exit)

    def _tell_peers(self, notice: tuple) -> None:
        """Sends `notice` to every other rank; waits at most a second for delivery."""
        requests = [self._control.isend(notice, dest=r, tag=_NOTICE_TAG)
                    for r in range(self.size) if r != self.rank]
        deadline = time.monotonic() + 1.0
        while not self._MPI.Request.Testall(requests) and time.monotonic() < deadline:
            time.sleep(0.001)

    def _await_acknowledgements(self, seconds: float) -> None:
        """Waits (at most `seconds`) until every waiting peer has read the failure notice,
        so it can name this rank before the launcher, seeing this one exit, stops it."""
        pending = set(range(self.size)) - {self.rank}
        status = self._MPI.Status()
        deadline = time.monotonic() + seconds
        while pending and time.monotonic() < deadline:
            if self._control.iprobe(source=self._MPI.ANY_SOURCE, tag=_ACK_TAG, status=status):
                self._control.recv(source=status.Get_source(), tag=_ACK_TAG)
                pending.discard(status.Get_source())
            else:
                time.sleep(0.001)

    def _at_exit(self) -> None:
        if self.failure is not None:
            # Finalizing MPI with a peer gone can block (its shared memory among others):
            # leave at once, reporting failure, removing the names of the shared-memory
            # files finalizing would have removed.
            _remove_shared_files()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(1)
        # A peer still waiting in a later collective learns that this rank will not come.
        self._tell_peers(("exited", self._count))

    def _broken(self, error_class, message: str):
        self.failure = message
        return error_class(None, None, message)

    def _check_peers(self, what: str) -> None:
        status = self._MPI.Status()
        while self._control.iprobe(source=self._MPI.ANY_SOURCE, tag=_NOTICE_TAG,
                                   status=status):
            rank = status.Get_source()
            kind, detail = self._control.recv(source=rank, tag=_NOTICE_TAG)
            if kind == "failed":
                self._control.send(None, dest=rank, tag=_ACK_TAG)
                raise self._broken(errors.UnavailableError,
                                   f"{what}: worker rank {rank} failed with {detail}")
            self._departed[rank] = detail
        for rank, joined in self._departed.items():
            if joined < self._count:
                raise self._broken(errors.UnavailableError,
                                   f"{what}: worker rank {rank} exited after its collective "
                                   f"#{joined}; this is #{self._count}")
        for rank, pid in self._neighbours:
            if not _alive(pid):
                raise self._broken(errors.UnavailableError,
                                   f"{what}: worker rank {rank} (process {pid}) is gone: it "
                                   "was killed or exited before joining the collective")

    def _wait(self, requests: list, what: str, timeout) -> None:
        """Waits for `requests`, watching the peers; raises instead of hanging."""
        if self.failure is not None:
            raise errors.UnavailableError(None, None, f"{what}: the workers are broken since "
                                          f"{self.failure}")
        self._count += 1
        testall = self._MPI.Request.Testall
        if testall(requests):
            return
        start = time.monotonic()
        next_look = start + _WATCH_INTERVAL
        while not testall(requests):
            now = time.monotonic()
            if now - start > _SPIN_SECONDS:
                # A long wait (a slower peer): let the others on this core run between tests.
                os.sched_yield()
            if now < next_look:
                continue
            self._check_peers(what)
            if timeout is not None and now - start > timeout:
                raise self._broken(errors.DeadlineExceededError,
                                   f"{what}: not every worker joined within {timeout:g} s "
                                   f"(rank {self.rank} of {self.size} waited)")
            next_look = now + _WATCH_INTERVAL

    # -- collectives ----------------------------------------------------------------------
    def all_reduce(self, arrays: list, op: str = "sum", bytes_per_pack: int = 0,
                   timeout=None) -> list:
        """Element-wise sum (or mean) of each array over the ranks: views of the
        communicator's buffers, which stay valid while held (read them, do not write)."""
        return self.start_all_reduce(arrays, op, bytes_per_pack).wait(timeout)

    def _in_shared_memory(self, dtype: np.dtype, size: int) -> bool:
        """Whether a pack of `size` values of `dtype` is summed in shared memory."""
        return self.shares_memory and dtype.kind in "iufc" and \
            size * dtype.itemsize >= _SHARED_MIN_BYTES

    def input_places(self, specs: list, bytes_per_pack: int = 0):
        """Where arrays of `specs` ((dtype, shape) each) that will be all-reduced with
        `places=` may be computed, to be summed without a copy: a function of the array's
        index giving an array or None (`shared_memory.InputPlaces`); None when no pack of
        them would be summed in shared memory, or a shape is not fully known."""
        if not self.shares_memory or any(d is None or None in d for _, d in specs):
            return None
        sizes = [(np.dtype(t), int(np.prod(d, dtype=np.int64))) for t, d in specs]
        layout = {}
        for number, pack in enumerate(_packs(sizes, bytes_per_pack or self.auto_pack_bytes)):
            dtype, total = sizes[pack[0]][0], sum(sizes[i][1] for i in pack)
            if self._in_shared_memory(dtype, total):
                offset = 0
                for i in pack:
                    layout[i] = (number, dtype, total, offset, tuple(specs[i][1]))
                    offset += sizes[i][1]
        if not layout:
            return None
        from .shared_memory import InputPlaces
        return InputPlaces(self.shared_memory, layout)

    def start_all_reduce(self, arrays: list, op: str = "sum", bytes_per_pack: int = 0,
                         places=None) -> "Reduction":
        """Starts `all_reduce` of the arrays (non-blocking); its `wait` gives the result.
        `places`: the `input_places` of these arrays' specs and `bytes_per_pack`, where
        some of them may have been computed."""
        arrays = [np.ascontiguousarray(a).reshape(np.shape(a)) for a in arrays]
        requests, packed, shared = [], [], []
        for number, pack in enumerate(_packs(_specs(arrays),
                                             bytes_per_pack or self.auto_pack_bytes)):
            dtype = arrays[pack[0]].dtype
            size = sum(arrays[i].size for i in pack)
            if self._in_shared_memory(dtype, size):
                shared.append((pack, self.shared_memory().start(
                    [arrays[i] for i in pack], op, places and places.taken(number))))
                continue
            buffer = self._pool.get(dtype, size)
            if len(pack) == 1:
                requests.append(self._data.Iallreduce(arrays[pack[0]].reshape(-1), buffer,
                                                      op=self._MPI.SUM))
            else:
                np.concatenate([arrays[i].ravel() for i in pack], out=buffer)
                requests.append(self._data.Iallreduce(self._MPI.IN_PLACE, buffer,
                                                      op=self._MPI.SUM))
            packed.append((pack, buffer))
        return Reduction(self, packed, arrays, op, requests, shared)

    def all_gather(self, array, axis: int = 0, timeout=None) -> np.ndarray:
        """The ranks' arrays concatenated along `axis` (their sizes there may differ)."""
        array = np.moveaxis(np.asarray(array), axis, 0) if np.ndim(array) else \
            np.asarray(array).reshape(1)
        counts = np.empty(self.size, np.int64)
        self._wait([self._data.Iallgather(np.array([len(array)], np.int64), counts)],
                   "all_gather of the sizes", timeout)
        inner = array.shape[1:]
        out = np.empty((int(counts.sum()), *inner), array.dtype)
        row = int(np.prod(inner, dtype=np.int64))
        sendbuf = np.ascontiguousarray(array)
        self._wait([self._data.Iallgatherv(sendbuf, [out, counts * row])],
                   f"all_gather of {array.dtype.name} {list(array.shape)}", timeout)
        return np.moveaxis(out, 0, axis)

    def broadcast(self, arrays: list, root: int = 0, bytes_per_pack: int = 0,
                  timeout=None) -> list:
        """The root rank's arrays (each rank passes arrays of the same shapes and dtypes)."""
        _check_root(root, self.size)
        arrays = [np.asarray(a) for a in arrays]
        packed = [(pack, np.concatenate([arrays[i].ravel() for i in pack]))
                  for pack in _packs(_specs(arrays), bytes_per_pack or _AUTO_PACK_BYTES)]
        requests = [self._data.Ibcast(buffer, root=root) for _, buffer in packed]
        self._wait(requests, f"broadcast of {len(arrays)} tensors from rank {root}", timeout)
        return _unpacked(arrays, packed)

    def barrier(self, timeout=None) -> None:
        self._wait([self._data.Ibarrier()], "barrier", timeout)


class Reduction:
    """An all-reduce under way (`start_all_reduce`): `progress` lets MPI move it on while
    the caller computes; `wait` gives the reduced arrays, once."""

    def __init__(self, communicator, packed: list, arrays: list, op: str,
                 requests: list, shared: list = ()) -> None:
        self._communicator = communicator
        # (indices of `arrays`, buffer) per pack; the arrays are kept until the sends end.
        self._packed, self._arrays, self._op, self._requests = packed, arrays, op, requests
        # (indices of `arrays`, SharedReduction) per pack summed in shared memory.
        self._shared = shared

    def progress(self) -> None:
        if self._requests:
            self._communicator._MPI.Request.Testall(self._requests)

    def wait(self, timeout=None) -> list:
        communicator = self._communicator
        if communicator.size == 1:
            return [np.array(a) for a in self._arrays]
        what = f"all_reduce of {len(self._arrays)} tensors"
        if self._requests or not self._shared:
            communicator._wait(self._requests, what, timeout)
        if self._op == "mean":
            for _, buffer in self._packed:
                divide_in_place(buffer, communicator.size)
        results = _unpacked(self._arrays, self._packed)
        for pack, reduction in self._shared:
            for i, result in zip(pack, reduction.wait(what, timeout)):
                results[i] = result
        return results


# The shared-memory files MPI implementations make for the ranks of a host (MPICH's;
# Open MPI's), which MPI_Finalize removes.
_MPI_SHARED_FILES = ("/dev/shm/mpich_shm_", "/dev/shm/vader_segment", "/dev/shm/sm_segment")


def _remove_shared_files() -> None:
    """Removes the names of MPI's shared-memory files this process maps (a job that leaves
    without finalizing MPI would leave them in /dev/shm, taking memory, for good). The
    memory itself stays mapped until every process of the job has exited."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split(None, 5)[5].rstrip("\n") for line in maps
                     if line.count(" ") >= 5 and "/dev/shm/" in line}
    except OSError:
        return
    for path in paths:
        if path.startswith(_MPI_SHARED_FILES) and not path.endswith(" (deleted)"):
            try:
                os.unlink(path)
            except OSError:
                pass


def _alive(pid: int) -> bool:
    """Whether process `pid` (on this host) still runs; a zombie does not."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] not in ("Z", "X")
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


_world = None


def world():
    """This process's communicator among the MPI ranks (made on first use)."""
    global _world
    if _world is None:
        _world = MPICommunicator()
    return _world
