"""The replicas of one process (MirroredStrategy over several logical CPUs): one thread per
replica, with the communicator interface of the MPI ranks (`collectives.py`), so the
strategy, its all-reduces and the optimizers' gradient sums work unchanged.

Each collective is a meeting of the replica threads: every thread leaves its arrays in its
slot, waits for the others, computes the result from all slots in replica order (the same
result on every replica), and waits again before the slots are reused. A replica that
raises breaks the meeting, so the others stop instead of waiting for ever.
"""
from __future__ import annotations

import threading

import numpy as np

from ..framework import errors
from .collectives import divide_in_place

__all__ = ["ReplicaThreads"]


class ReplicaThreads:
    """Collectives among `size` replica threads of this process; `rank` is the calling
    thread's replica (0 outside `run_replicas`)."""

    shares_memory = False
    local_rank = 0

    def __init__(self, size: int) -> None:
        self.size = self.local_size = size
        self.auto_pack_bytes = 0
        self._slots: list = [None] * size
        self._barrier = threading.Barrier(size)
        self._local = threading.local()

    @property
    def rank(self) -> int:
        return getattr(self._local, "rank", 0)

    def in_replica(self) -> bool:
        """Whether the calling thread is one of the replicas."""
        return hasattr(self._local, "rank")

    def replica_of_thread(self):
        """The calling thread's replica, or None outside the replicas."""
        return getattr(self._local, "rank", None)

    # -- running the replicas -------------------------------------------------------------
    def run_replicas(self, fn) -> list:
        """`fn(replica_id)` on one thread per replica; their results in replica order.

        Raises:
            The first exception a replica raised (the others are stopped).
        """
        results: list = [None] * self.size
        failures: list = [None] * self.size

        def replica(i: int) -> None:
            self._local.rank = i
            try:
                results[i] = fn(i)
            except threading.BrokenBarrierError as broken:
                failures[i] = broken
            except BaseException as failure:  # noqa: BLE001 - re-raised by the caller
                failures[i] = failure
                self._barrier.abort()

        threads = [threading.Thread(target=replica, args=(i,), name=f"replica_{i}")
                   for i in range(self.size)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self._barrier.reset()
        first = next((f for f in failures if f is not None and
                      not isinstance(f, threading.BrokenBarrierError)), None)
        if first is not None:
            raise first
        if any(f is not None for f in failures):
            raise failures[0]
        return results

    def _meet(self, value, combine):
        """Every replica's `value` combined by `combine(values)`, on every replica."""
        if not self.in_replica():
            raise errors.FailedPreconditionError(
                None, None, "a collective over replicas runs inside strategy.run, on every "
                "replica; in the cross-replica context use strategy.reduce.")
        self._slots[self.rank] = value
        self._barrier.wait()
        try:
            return combine(list(self._slots))
        finally:
            self._barrier.wait()

    # -- the communicator interface -------------------------------------------------------
    def all_reduce(self, arrays: list, op: str = "sum", bytes_per_pack: int = 0,
                   timeout=None) -> list:
        def combine(per_replica):
            results = []
            for parts in zip(*per_replica):
                total = np.array(parts[0])
                for part in parts[1:]:
                    total = total + part
                total = np.asarray(total, dtype=np.asarray(parts[0]).dtype)
                if op == "mean":
                    total = np.array(total)
                    divide_in_place(total, self.size)
                results.append(total)
            return results

        return self._meet([np.asarray(a) for a in arrays], combine)

    def input_places(self, specs: list, bytes_per_pack: int = 0):
        return None

    def all_gather(self, array, axis: int = 0, timeout=None) -> np.ndarray:
        return self._meet(np.asarray(array), lambda parts: np.concatenate(parts, axis))

    def broadcast(self, arrays: list, root: int = 0, bytes_per_pack: int = 0,
                  timeout=None) -> list:
        return self._meet([np.asarray(a) for a in arrays],
                          lambda parts: [np.array(a) for a in parts[root]])

    def broadcast_object(self, value, root: int = 0):
        """The Python object replica `root` passed, on every replica (no copy)."""
        return self._meet(value, lambda parts: parts[root])

    def barrier(self, timeout=None) -> None:
        self._meet(None, lambda parts: None)
